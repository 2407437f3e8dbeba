#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# size-diff and size on what a kernel developer compares: kbuild's thin
# archive mm/built-in.a of Linux 6.12 tinyconfig, SLUB_TINY off and on,
# built by kbuild.sh (cached in build-cache/sizes-kbuild). Every
# bloat-o-meter mode (old->new and new->old) and size, size -A, size -t on
# each archive must be byte-identical to the real bloat-o-meter and size,
# with exit status 0 and nothing on stderr.
#   kbuild-diff.sh ARCH CROSS_COMPILE
set -u
arch=$1 cross=$2
: "${SLUBTINY:?}" "${ST_BUILDDIR:?}" "${ST_SRCDIR:?}"
. "$ST_SRCDIR/tests/bom.sh"
python=${ST_PYTHON:-python3}
skip() { echo "SKIP: $*"; exit 77; }

get_bom || skip "cannot extract bloat-o-meter (Debian package linux-source-6.12)"
for t in nm size; do
	command -v "${cross}$t" >/dev/null 2>&1 || skip "${cross}$t missing"
done
dir=$(sh "$ST_SRCDIR/tests/diff/sizes/kbuild.sh" "$arch" "$cross")
case $? in
0) ;;
77) skip "kbuild prerequisites missing" ;;
*) echo "FAIL: building mm/ of 6.12 tinyconfig for $arch"; exit 1 ;;
esac

# bloat-o-meter runs plain "nm": point it at the binutils for this arch
bin=$ST_BUILDDIR/tests/diff/sizes/kbin-$arch
out=$ST_BUILDDIR/tests/diff/sizes/kout-$arch
mkdir -p "$bin" "$out"
for t in nm size; do ln -sf "$(command -v "${cross}$t")" "$bin/$t"; done
PATH=$bin:$PATH
export PATH LC_ALL=C
cd "$dir" || exit 1
old=n/mm/built-in.a new=y/mm/built-in.a
head -c 8 "$old" | grep -q '!<thin>' || { echo "FAIL: $old is not a thin archive"; exit 1; }
# the reason this test exists: member paths of exactly 15 characters
long15=$(grep -a -c '^/[0-9]* */[0-9]' "$old" || true)

. "$ST_SRCDIR/tests/diff/sizes/archive-cmp.sh"
archive_cmp "$old" "$new" "$out" "$arch"
echo "$arch: $long15 members with 15-character paths; $pass comparisons identical, $fail different"
tail -1 "$out/ref"
"$python" -S "$bom" "$old" "$new" | tail -1
[ $fail = 0 ]
