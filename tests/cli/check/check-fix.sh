#!/bin/sh
# slubtiny check --fix without a tree (migrate's bundled Kconfig model):
# SLOB and SLAB lines are migrated and EXPERT added, atomically (mode kept),
# a second run changes nothing, and a rewrite whose allocator would not take
# effect, or a file with syntax errors, is left alone.
set -u
. "$(dirname "$0")/../../lib.sh"
st_tmpdir t
mkdir -p "$t/arch/sh/configs"
cd "$t" || exit 1
d=arch/sh/configs
printf '# CONFIG_SWAP is not set\nCONFIG_SLOB=y\nCONFIG_PRINTK=y\n' >$d/slob_defconfig
printf 'CONFIG_SLAB=y\nCONFIG_PRINTK=y\n' >$d/slab_defconfig
printf 'CONFIG_COMPILE_TEST=y\nCONFIG_SLOB=y\n' >$d/refused_defconfig
printf 'CONFIG_SLOB=y\nCONFIG_A=\001\n' >$d/broken_defconfig
chmod 640 $d/slob_defconfig
cp -r arch orig

"$SLUBTINY" check --no-config --fix $d/slob_defconfig $d/slab_defconfig >out 2>err
st=$?
[ $st = 0 ] || { echo "FAIL: --fix exit $st, want 0"; cat out err; fail=1; }
# 6.12: SLUB has no prompt, so no CONFIG_SLUB=y line (savedefconfig form)
! grep -q 'CONFIG_SLUB=' $d/slob_defconfig && grep -qx 'CONFIG_SLUB_TINY=y' $d/slob_defconfig &&
	grep -qx 'CONFIG_EXPERT=y' $d/slob_defconfig && ! grep -q SLOB $d/slob_defconfig ||
	{ echo "FAIL: slob not migrated:"; cat $d/slob_defconfig; fail=1; }
! grep -q 'CONFIG_SLUB=' $d/slab_defconfig && ! grep -q 'SLAB=' $d/slab_defconfig ||
	{ echo "FAIL: slab not migrated:"; cat $d/slab_defconfig; fail=1; }
grep -qx '# CONFIG_SWAP is not set' $d/slob_defconfig ||
	{ echo "FAIL: an untouched line was lost"; fail=1; }
[ "$(stat -c %a $d/slob_defconfig)" = 640 ] || { echo "FAIL: mode not kept"; fail=1; }
ls -a $d | grep -v -e '^\.\.\?$' -e '_defconfig$' && { echo "FAIL: temp file left"; fail=1; }

cp $d/slob_defconfig again
"$SLUBTINY" check --no-config --fix $d/slob_defconfig >/dev/null 2>&1
cmp -s again $d/slob_defconfig || { echo "FAIL: second --fix changed the file"; fail=1; }

"$SLUBTINY" check --no-config --fix $d/refused_defconfig >out 2>err
st=$?
[ $st = 1 ] || { echo "FAIL: refused: exit $st, want 1"; fail=1; }
cmp -s orig/sh/configs/refused_defconfig $d/refused_defconfig ||
	{ echo "FAIL: a rewrite that does not take effect was written"; fail=1; }
grep -q '^slubtiny: check: --fix: 1 file(s) not rewritten' err ||
	{ echo "FAIL: no word about the refused file"; cat err; fail=1; }

"$SLUBTINY" check --no-config --fix $d/broken_defconfig >out 2>err
st=$?
[ $st = 1 ] || { echo "FAIL: broken: exit $st, want 1"; fail=1; }
cmp -s orig/sh/configs/broken_defconfig $d/broken_defconfig ||
	{ echo "FAIL: a file with syntax errors was rewritten"; fail=1; }
grep -q 'broken_defconfig:2:1: error: control character 0x01.*\[syntax\]' err || { echo "FAIL: syntax not reported"; cat out err; fail=1; }
[ -s out ] && { echo "FAIL: text findings on stdout"; cat out; fail=1; }
exit $fail
