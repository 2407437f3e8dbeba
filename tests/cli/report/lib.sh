# SPDX-License-Identifier: GPL-2.0-only
# Shared by the report tests: failure counting, the bloat-o-meter reference.
: "${SLUBTINY:?}" "${ST_BUILDDIR:?}"
. "$ST_SRCDIR/tests/lib.sh"
LC_ALL=C
export LC_ALL

skip() { echo "SKIP: $*"; exit 77; }

# The real scripts/bloat-o-meter, shared with tests/diff/sizes.
. "$ST_SRCDIR/tests/bom.sh"

# Our arch name of the host, as lib/build names it.
host_arch() {
	case $(uname -m) in
	x86_64) echo x86_64 ;;
	i?86) echo i686 ;;
	aarch64) echo aarch64 ;;
	armv7l) echo arm ;;
	*) uname -m ;;
	esac
}
