#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# size-diff and size on the largest kbuild thin archive a kernel developer
# compares: vmlinux.a of Linux 6.12 tinyconfig x86_64, SLUB vs SLUB_TINY
# (hundreds of members named relative to the archive's directory, as nm
# resolves them). Every bloat-o-meter mode (old->new and new->old) and
# size, size -A, size -t on each archive must be byte-identical to the real
# bloat-o-meter and size, with exit status 0 and nothing on stderr.
#
# No kernel is built for this test alone: the two vmlinux.a are those of
# the images `slubtiny footprint --boot` builds for the boot-tinyconfig
# test with the record's fragments (cached under
# $ST_SRCDIR/build-cache/kernel-boot/). When that test ran in this build
# directory (meson runs it first), its JSON names them; otherwise the same
# command is run here, a cache hit once the images exist.
set -u
: "${SLUBTINY:?}" "${ST_BUILDDIR:?}" "${ST_SRCDIR:?}"
. "$ST_SRCDIR/tests/cli/kernel/lib.sh"
. "$ST_SRCDIR/tests/bom.sh"
python=${ST_PYTHON:-python3}
work=$ST_BUILDDIR/tests/diff/sizes/vmlinux
skip() { echo "SKIP: $*"; exit 77; }

# Prerequisites, checked before the tool runs.
[ -r /usr/src/linux-source-6.12.tar.xz ] || skip "linux-source-6.12 not installed"
for p in make gcc flex bison bc jq xz perl nm size qemu-system-x86_64; do
	command -v "$p" >/dev/null || skip "$p not installed"
done
get_bom || skip "cannot extract bloat-o-meter (Debian package linux-source-6.12)"
rm -rf "$work"
mkdir -p "$work"
export LC_ALL=C

# the directory of VARIANT's image in a footprint --boot JSON, if it has vmlinux.a
image_dir() { # json variant
	i=$(jq -r --arg v "$2" '.results[]? | select(.variant == $v) | .image' "$1" 2>/dev/null)
	d=${i%/arch/x86/boot/bzImage}
	[ -n "$i" ] && [ "$d" != "$i" ] && [ -s "$d/vmlinux.a" ] && echo "$d"
}

json=$ST_BUILDDIR/tests-kernel/boot/6.12.out
from="boot-tinyconfig's run"
if [ ! -s "$json" ] || [ -z "$(image_dir "$json" slub)" ] || [ -z "$(image_dir "$json" slub_tiny)" ]; then
	src=$(extract 6.12) || { echo "FAIL: cannot extract linux-source-6.12"; exit 1; }
	json=$work/boot.json
	from="footprint --boot run here"
	t0=$(now)
	nice "$SLUBTINY" footprint --boot --srctree "$src" --defconfig tinyconfig --arch x86_64 \
		$record_612 --builddir "$cache/kernel-boot" -j2 --json --variant slub --variant slub_tiny \
		>"$json" 2>"$work/boot.err"
	st=$?
	echo "vmlinux: footprint --boot: exit $st in $((($(now) - t0) / 1000000)) ms" >&2
	[ $st = 0 ] || { echo "FAIL: footprint --boot: exit $st"; tail -20 "$work/boot.err"; exit 1; }
fi
old=$(image_dir "$json" slub) && new=$(image_dir "$json" slub_tiny) ||
	{ echo "FAIL: no vmlinux.a beside the images of $json"; exit 1; }
echo "vmlinux: $old and $new (from $from)" >&2

# Run from the common parent with relative paths, as a developer would.
cd "$(dirname "$old")" || exit 1
[ "$(dirname "$new")" = "$(dirname "$old")" ] || { echo "FAIL: $old and $new not side by side"; exit 1; }
old=$(basename "$old")/vmlinux.a new=$(basename "$new")/vmlinux.a
for f in "$old" "$new"; do
	head -c 8 "$f" | grep -q '!<thin>' || { echo "FAIL: $f is not a thin archive"; exit 1; }
done
members=$(ar t "$new" | wc -l)
long15=$(grep -a -c '^/[0-9]* */[0-9]' "$new" || true)

# bloat-o-meter must list rows: an empty diff would compare nothing
"$python" -S "$bom" "$old" "$new" >"$work/rows" 2>/dev/null
[ "$(wc -l <"$work/rows")" -gt 10 ] || { echo "FAIL: bloat-o-meter $old $new: no rows"; exit 1; }
. "$ST_SRCDIR/tests/diff/sizes/archive-cmp.sh"
archive_cmp "$old" "$new" "$work" vmlinux.a
echo "vmlinux.a: $members members ($long15 with 15-character paths); $pass comparisons identical, $fail different"
"$python" -S "$bom" "$old" "$new" | tail -1
[ $fail = 0 ]
