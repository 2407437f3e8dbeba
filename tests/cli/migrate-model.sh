#!/bin/sh
# slubtiny migrate with verification against the bundled slab Kconfig model
# (no kernel tree): findings with causes, --in-place refusing an ineffective
# result unless --force, --fix-deps, collateral changes, helper errors.
set -u
. "$(dirname "$0")/../lib.sh"
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
[ -x "${ST_PYTHON:-/usr/bin/python3}" ] || { echo "skip: no python"; exit 77; }
"${ST_PYTHON:-/usr/bin/python3}" -c 'import kconfiglib' 2>/dev/null || { echo "skip: no kconfiglib"; exit 77; }
st_tmpdir w
cd "$w" || exit 1
run() { # expected-status description command...
	want=$1; shift; what=$1; shift
	"$@" >out 2>err; got=$?
	[ "$got" = "$want" ] || { echo "FAIL: $what: exit $got, want $want"; cat err; fail=1; }
}
expect_err() { grep -q -- "$1" err || { echo "FAIL: $2: stderr lacks '$1'"; cat err; fail=1; }; }
orig='CONFIG_SLOB=y\nCONFIG_NET=y\n'
printf "$orig" >t_defconfig

run 1 "SLUB_TINY without EXPERT" "$SLUBTINY" migrate t_defconfig
expect_err '^slubtiny: verified against bundled' "says what it verified against"
expect_err '^t_defconfig:1:1: warning: CONFIG_SLUB_TINY=y has no effect: depends on EXPERT, which is n \[slub-tiny-deps\]' "cause"
run 1 "--in-place refuses" "$SLUBTINY" migrate --in-place t_defconfig
expect_err '^slubtiny: migrate: t_defconfig: not written' "refusal message"
printf "$orig" | cmp -s - t_defconfig || { echo "FAIL: refused file was changed"; fail=1; }

run 0 "--fix-deps --in-place" "$SLUBTINY" migrate --fix-deps --in-place t_defconfig
printf 'CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\nCONFIG_NET=y\n' | cmp -s - t_defconfig ||
	{ echo "FAIL: --fix-deps result"; cat t_defconfig; fail=1; }
run 0 "--check after --fix-deps" "$SLUBTINY" migrate --check t_defconfig

printf "$orig" >u_defconfig
run 1 "--force writes anyway" "$SLUBTINY" migrate --in-place --force u_defconfig
grep -q '^CONFIG_SLUB_TINY=y$' u_defconfig || { echo "FAIL: --force did not write"; fail=1; }

printf "$orig" >v_defconfig
run 0 "json + fix-deps" "$SLUBTINY" migrate --json --fix-deps v_defconfig
jq -e '.files[0] | .changed and (.findings | length == 0) and (.collateral | length > 0)
	and any(.changes[]; .rule == "fix-deps")' out >/dev/null ||
	{ echo "FAIL: json fix-deps document"; cat out; fail=1; }
jq -e '.files[0].collateral | all(has("symbol") and has("old") and has("new"))' out >/dev/null ||
	{ echo "FAIL: collateral fields"; fail=1; }

# Helper problems are one-line errors, exit 2, files untouched.
printf "$orig" >x_defconfig
run 2 "no interpreter" env SLUBTINY_PYTHON=/nonexistent "$SLUBTINY" migrate --in-place --force x_defconfig
[ "$(wc -l <err)" = 1 ] || { echo "FAIL: more than one error line"; cat err; fail=1; }
printf "$orig" | cmp -s - x_defconfig || { echo "FAIL: file changed on helper error"; fail=1; }
mkdir notatree && printf 'VERSION = 6\nPATCHLEVEL = 12\n' >notatree/Makefile
run 2 "tree without Kconfig" "$SLUBTINY" migrate --srctree notatree x_defconfig
expect_err 'no Kconfig' "no Kconfig message"
exit $fail
