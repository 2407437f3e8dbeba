# SPDX-License-Identifier: GPL-2.0-only
# Shared by the report tests: failure counting, the bloat-o-meter reference.
: "${SLUBTINY:?}" "${ST_BUILDDIR:?}"
fail=0
LC_ALL=C
export LC_ALL

skip() { echo "SKIP: $*"; exit 77; }
bad() { echo "FAIL: $*"; fail=1; }

# The real scripts/bloat-o-meter, shared with tests/diff/sizes (same path,
# same mkdir lock): extracted once from Debian's linux-source-6.12 tarball.
bom=$ST_BUILDDIR/tests/diff/sizes/ref/bloat-o-meter
get_bom() {
	tarball=/usr/src/linux-source-6.12.tar.xz
	refdir=$(dirname "$bom")
	[ -s "$bom" ] && return 0
	[ -r "$tarball" ] || return 1
	mkdir -p "$refdir"
	if mkdir "$refdir/lock" 2>/dev/null; then
		tmp=$refdir/tmp.$$
		mkdir -p "$tmp"
		tar -C "$tmp" -xJf "$tarball" --wildcards '*/scripts/bloat-o-meter' &&
			mv "$(find "$tmp" -name bloat-o-meter | head -1)" "$bom"
		rm -rf "$tmp" "$refdir/lock"
	else
		i=0
		while [ -d "$refdir/lock" ] && [ $i -lt 600 ]; do sleep 0.2; i=$((i + 1)); done
	fi
	[ -s "$bom" ]
}

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
