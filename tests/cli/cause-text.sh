#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A cause names values, never a symbol's own name as its value: on arm,
# SERIAL_SH_SCI depends on "SUPERH || ARCH_RENESAS || COMPILE_TEST" and
# SUPERH is not defined there; the cause must say it is n, not SUPERH=SUPERH.
# Against the Kconfig of Debian's linux-source-6.12 (check-tree's extraction).
set -u
. "$(dirname "$0")/../lib.sh"
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
. "$(dirname "$0")/kernel-tree.sh"
st_tmpdir t
mkdir -p "$t/arch/arm/configs"
printf 'CONFIG_SERIAL_SH_SCI=y\n' >"$t/arch/arm/configs/sci_defconfig"
cd "$t" || exit 2
# The finding is the input's own (pre-existing): --all (or -v) lists it, exit 0.
for v in --all -v; do
	"$SLUBTINY" migrate $v --srctree "$tree" arch/arm/configs/sci_defconfig >out 2>err; st=$?
	[ $st = 0 ] || { echo "FAIL: migrate $v: exit $st"; cat err; fail=1; }
	grep -q 'CONFIG_SERIAL_SH_SCI=y has no effect' err || { echo "FAIL: migrate $v: no finding"; cat err; fail=1; }
	grep -q 'SUPERH=n' err || { echo "FAIL: migrate $v: SUPERH's value not given"; cat err; fail=1; }
	# NAME=NAME for any name
	if grep -Eq '(^|[^A-Za-z0-9_])([A-Z0-9_]+)=\2([^A-Za-z0-9_]|$)' err; then
		echo "FAIL: migrate $v: a cause reads X=X:"; cat err; fail=1
	fi
done
"$SLUBTINY" check --srctree "$tree" --format json arch/arm/configs/sci_defconfig >out 2>err; st=$?
[ $st = 1 ] || { echo "FAIL: check: exit $st"; cat err; fail=1; }
if grep -Eq '(^|[^A-Za-z0-9_])([A-Z0-9_]+)=\2([^A-Za-z0-9_]|$)' out; then
	echo "FAIL: check: a cause reads X=X:"; cat out; fail=1
fi

# check: the root cause in the message, the fix once; the chain with -v and
# in JSON.
se=$tree/arch/sh/configs/se7206_defconfig
"$SLUBTINY" check --srctree "$tree" "$se" >out 2>err; st=$?
[ $st = 1 ] || { echo "FAIL: check se7206: exit $st"; cat err; fail=1; }
[ -s out ] && { echo "FAIL: check: text findings on stdout"; fail=1; }
grep "se7206_defconfig:20:1: " err >uid16
grep -q 'warning: # CONFIG_UID16 is not set has no effect: depends on EXPERT, which is n (EXPERT is not set in this file) \[ineffective-option\]$' uid16 ||
	{ echo "FAIL: check: the UID16 message:"; cat uid16; fail=1; }
[ "$(grep -o 'CONFIG_EXPERT=y' uid16 | wc -l)" = 1 ] || { echo "FAIL: check: the fix is not given once:"; cat uid16; fail=1; }
grep -q 'note: because:' err && { echo "FAIL: check: chain printed without -v"; fail=1; }
"$SLUBTINY" check -v --srctree "$tree" "$se" >out 2>err
grep -q '^.*se7206_defconfig:20:1: note: because: EXPERT, which is n: ' err ||
	{ echo "FAIL: check -v: no chain"; grep ':20:1:' err; fail=1; }
"$SLUBTINY" check --json --srctree "$tree" "$se" >out 2>err
jq -e '[.findings[] | select(.symbol == "UID16")][0] | (.chain | length) > 0 and (.message | test("; add") | not)' out >/dev/null ||
	{ echo "FAIL: check --json: no chain or the fix in the message"; fail=1; }
exit $fail
