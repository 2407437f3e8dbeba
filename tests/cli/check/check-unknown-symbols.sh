#!/bin/sh
# Symbols a --srctree lacks (those a build system's own patches add, as
# OpenWrt's MTD_SPLIT_* and KERNEL_*): two or more in a file are one
# summary finding, the first names, the count, and every line in -v and in
# the JSON chain; a single one keeps its own line; a suppressed line is not
# counted. Against the Kconfig of Debian's linux-source-6.12.
set -u
. "$(dirname "$0")/../../lib.sh"
. "$ST_SRCDIR/tests/diff/kconfig/common.sh"
tree=$(st_shared_tree 6.12)
rc=$?
[ $rc = 77 ] && { echo "skip: linux-source-6.12 or make/flex/bison/xz missing"; exit 77; }
[ $rc = 0 ] || { echo "FAIL: cannot extract linux-source-6.12"; exit 1; }
[ -x /usr/bin/python3 ] || [ -n "${SLUBTINY_PYTHON:-}" ] || exit 77
export SLUBTINY_CACHE_DIR=${SLUBTINY_CACHE_DIR:-$ST_BUILDDIR/kconfig-diff/cache}
S=$SLUBTINY
st_tmpdir w
# (the run's "checked N kernel configs, ARCH=..." lines are other tests')
S=$(st_without_found_lines "$w") || exit 1

mkdir -p "$w/arch/arm/configs" && cd "$w" || exit 1
# (symbols of the author's making, in the style of a patched tree's)
cat >arch/arm/configs/patched_defconfig <<'EOF'
CONFIG_PRINTK=y
CONFIG_MTD_SPLIT_ST_ONE=y
CONFIG_KERNEL_ST_TWO=y
# CONFIG_MTD_SPLIT_ST_THREE is not set
CONFIG_MTD_SPLIT_ST_FOUR=y
CONFIG_KERNEL_ST_FIVE=y
# slubtiny: ignore[unknown-symbol]
CONFIG_KERNEL_ST_QUIET=y
CONFIG_KERNEL_ST_SIX=y
EOF
printf 'CONFIG_PRINTK=y\nCONFIG_MTD_SPLIT_ST_ONE=y\n' >arch/arm/configs/single_defconfig
f=arch/arm/configs/patched_defconfig

"$S" check --srctree "$tree" arch >"$w/out" 2>"$w/err"
rc=$?
[ $rc = 1 ] || bad "check: exit $rc, want 1"
[ -s "$w/out" ] && bad "check: stdout: $(head -2 "$w/out")"
cat >"$w/want" <<EOF
$f:2:1: warning: 6 symbols unknown to this tree: MTD_SPLIT_ST_ONE, KERNEL_ST_TWO, MTD_SPLIT_ST_THREE, MTD_SPLIT_ST_FOUR, KERNEL_ST_FIVE, ... (a patched tree? see doc/check.md) [unknown-symbol]
$f:2:1: note: fix: pass the kernel tree with the build system's patches applied as --srctree, or delete the lines (-v lists them)
arch/arm/configs/single_defconfig:2:1: warning: CONFIG_MTD_SPLIT_ST_ONE=y: unknown symbol (not in this tree for this arch); the line has no effect [unknown-symbol]
arch/arm/configs/single_defconfig:2:1: note: fix: delete the line or use the symbol's current name
EOF
# (the files come in any order)
sort "$w/want" >"$w/want.s"
sort "$w/err" >"$w/err.s"
cmp -s "$w/want.s" "$w/err.s" || { bad "check: stderr differs:"; diff "$w/want.s" "$w/err.s"; }

"$S" check -v --srctree "$tree" "$f" >"$w/out" 2>"$w/err"
rc=$?
[ $rc = 1 ] || bad "check -v: exit $rc, want 1"
for l in "2: CONFIG_MTD_SPLIT_ST_ONE=y" "4: # CONFIG_MTD_SPLIT_ST_THREE is not set" \
	"9: CONFIG_KERNEL_ST_SIX=y"; do
	grep -qxF "$f:2:1: note: because: not in this tree, line $l" "$w/err" ||
		bad "check -v: no 'because: not in this tree, line $l'"
done
[ "$(grep -c ': note: because: ' "$w/err")" = 6 ] || bad "check -v: want 6 lines listed: $(cat "$w/err")"
grep -q QUIET "$w/err" && bad "check -v: the suppressed line is listed"

"$S" check --json --srctree "$tree" "$f" >"$w/out" 2>"$w/err"
rc=$?
[ $rc = 1 ] || bad "check --json: exit $rc, want 1"
[ -s "$w/err" ] && bad "check --json: stderr: $(cat "$w/err")"
"${ST_PYTHON:-python3}" - "$w/out" <<'EOF' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
u = [x for x in d["findings"] if x["rule"] == "unknown-symbol"]
ok = len(u) == 1 and u[0]["symbol"] is None and u[0]["line"] == 2 and \
    len(u[0]["chain"]) == 6 and u[0]["message"].startswith("6 symbols unknown") and \
    d["summary"]["by_rule"].get("unknown-symbol") == 1
if not ok:
    print("FAIL: check --json: %r" % u)
sys.exit(0 if ok else 1)
EOF
[ $fail = 0 ] && echo "ok: unknown symbols are one summary per file (text, -v, JSON)"
exit $fail
