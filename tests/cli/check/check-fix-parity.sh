#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# One fix, two doors (issue 45): `check --fix` and `migrate --fix-deps
# --in-place` on copies of the same files write them byte for byte alike
# (the same rewrite, the same CONFIG_EXPERT=y, the same pins) and print the
# same side effects, counted, in scripts/diffconfig's form, also with -q;
# without a tree both add the line that the list is the bundled model's.
# The files: the README's SLOB board, the five linux-source-6.12 sh boards
# whose CONFIG_SLUB_TINY=y lacks EXPERT with CONFIG_SLOB=y in its place (as
# they were before 6.2's migration), and a Buildroot fragment merged over
# the kernel's versatile_defconfig (fixtures/layout).
#
#   check-fix-parity.sh { tree | model }	(with --srctree 6.12, or without)
set -u
. "$(dirname "$0")/../../lib.sh"
mode=$1
. "$(dirname "$0")/../kernel-tree.sh"
unset ARCH CROSS_COMPILE
S=$SLUBTINY
st_tmpdir t
opts=
[ "$mode" = tree ] && opts="--srctree $tree"

mkdir -p "$t/a/arch/arm/configs" "$t/a/arch/sh/configs"
cp "$ST_SRCDIR/fixtures/readme/arch/arm/configs/board_defconfig" "$t/a/arch/arm/configs/"
files=arch/arm/configs/board_defconfig
for b in rsk7201 rsk7203 se7206 shmin shx3; do
	sed 's/^CONFIG_SLUB_TINY=y$/CONFIG_SLOB=y/' "$tree/arch/sh/configs/${b}_defconfig" \
		>"$t/a/arch/sh/configs/${b}_defconfig" || exit 2
	files="$files arch/sh/configs/${b}_defconfig"
done
cp -r "$ST_SRCDIR/fixtures/layout/buildroot" "$t/a/br"
cp -r "$t/a" "$t/b"
cp -r "$t/a" "$t/orig"

# the side effects of a run's stderr: each file's header, list and note
side() {
	grep -E '^[^ ]+: note: [0-9]+ options? changes? as a side effect|^[-+ ][A-Z0-9_]+ |^[^ ]+: note: these are the side effects within the bundled slab Kconfig model only; ' "$1"
}

cd "$t/a" || exit 2
"$S" check --no-config --fix -q $opts $files >"$t/c.out" 2>"$t/c.err"; cst=$?
(cd br && "$S" check --no-config --fix -q $opts board/acme/kdef/tiny.fragment) \
	>>"$t/c.out" 2>>"$t/c.err" || [ $? = 1 ] || { bad "check --fix br: exit $?"; cat "$t/c.err"; }
cd "$t/b" || exit 2
"$S" migrate --fix-deps --in-place -q $opts $files >"$t/m.out" 2>"$t/m.err"; mst=$?
(cd br && "$S" migrate --fix-deps --in-place -q $opts board/acme/kdef/tiny.fragment) \
	>>"$t/m.out" 2>>"$t/m.err" || { bad "migrate --fix-deps br: exit $?"; cat "$t/m.err"; }
cd "$t" || exit 2
case $cst in 0|1) ;; *) bad "check --fix: exit $cst"; cat "$t/c.err" ;; esac
[ $mst = 0 ] || { bad "migrate --fix-deps --in-place: exit $mst"; cat "$t/m.err"; }
[ -s "$t/c.out" ] && bad "check --fix: stdout: $(head -3 "$t/c.out")"
[ -s "$t/m.out" ] && bad "migrate --in-place: stdout: $(head -3 "$t/m.out")"

# the same files written
diff -r a b >"$t/d" || { bad "check --fix and migrate --fix-deps wrote different files:"; head -30 "$t/d"; }
nw=$(diff -rq orig a | wc -l)
[ "$nw" = 7 ] || bad "$nw files written, want 7: $(diff -rq orig a)"
grep -qx 'CONFIG_EXPERT=y' a/arch/sh/configs/se7206_defconfig || bad "se7206: no CONFIG_EXPERT=y"

# the same side effects, in the same order
side c.err >c.side
side m.err >m.side
cmp -s c.side m.side || { bad "the side effects differ (< check, > migrate):"; diff c.side m.side | head -20; }
nh=$(grep -c 'as a side effect' c.side)
[ "$nh" -ge 6 ] || bad "check --fix: side effects for $nh files, want 6 or more: $(cat c.err)"
nm=$(grep -c 'bundled slab Kconfig model only' c.side)
if [ "$mode" = model ]; then
	[ "$nm" = "$nh" ] || bad "without a tree: the model note $nm times for $nh lists"
else
	[ "$nm" = 0 ] || bad "with --srctree: the model note"
fi
# the count in each header is the number of lines listed under it
awk '/as a side effect/ { if (h != "" && n != c) bad = 1; h = $0; c = 0
		n = $0; sub(/.*note: /, "", n); sub(/ .*/, "", n); next }
	/^[-+ ][A-Z0-9_]+ / { c++ }
	END { if (h != "" && n != c) bad = 1; exit bad }' c.side || bad "a header's count is not its list's length"
echo "ok: $nw files alike, $nh side-effect lists alike ($mode)"
exit $fail
