#!/bin/sh
# An arch the --srctree lacks (a vendored arch/blackfin/configs/ file, an
# --arch the tree has no arch/ARCH/Kconfig for) is an error for that file
# alone: one line naming the file and the problem, the other files checked
# (or migrated) and reported, exit 2. check as text, JSON and GitHub;
# check --fix; migrate over the directory; --arch for every file.
set -u
. "$(dirname "$0")/../../lib.sh"
. "$ST_SRCDIR/tests/diff/kconfig/common.sh"
tree=$(st_shared_tree 6.12)
rc=$?
[ $rc = 77 ] && { echo "skip: linux-source-6.12 or make/flex/bison/xz missing"; exit 77; }
[ $rc = 0 ] || { echo "FAIL: cannot extract linux-source-6.12"; exit 1; }
[ -x /usr/bin/python3 ] || [ -n "${SLUBTINY_PYTHON:-}" ] || exit 77
tree=$(cd "$tree" && pwd -P)	# as the messages name it
export SLUBTINY_CACHE_DIR=${SLUBTINY_CACHE_DIR:-$ST_BUILDDIR/kconfig-diff/cache}
S=$SLUBTINY
st_tmpdir w
# (the run's "checked N kernel configs, ARCH=..." lines are other tests')
S=$(st_without_found_lines "$w") || exit 1

mk() {
	rm -rf "$w/t" && mkdir -p "$w/t/arch/blackfin/configs" "$w/t/arch/arm/configs" \
		"$w/t/arch/sh/configs" || exit 1
	printf 'CONFIG_SLOB=y\nCONFIG_EXPERT=y\n' >"$w/t/arch/blackfin/configs/bf537_defconfig"
	printf 'CONFIG_SLOB=y\nCONFIG_NO_SUCH_SYMBOL_ST=y\n' >"$w/t/arch/arm/configs/a_defconfig"
	printf 'CONFIG_SLOB=y\n' >"$w/t/arch/sh/configs/s_defconfig"
}
bf=arch/blackfin/configs/bf537_defconfig
want="slubtiny: check: $bf: unknown arch 'blackfin' (no arch/blackfin/Kconfig in $tree)"

mk
cd "$w/t" || exit 1
"$S" check --srctree "$tree" arch >"$w/out" 2>"$w/err"
rc=$?
[ $rc = 2 ] || bad "check: exit $rc, want 2"
[ -s "$w/out" ] && bad "check: stdout: $(head -2 "$w/out")"
[ "$(grep -c '^slubtiny: ' "$w/err")" = 1 ] || bad "check: want one error line: $(cat "$w/err")"
grep -qxF "$want" "$w/err" || bad "check: no line '$want': $(cat "$w/err")"
grep -q "^arch/blackfin/.*: warning:" "$w/err" && bad "check: findings of the unchecked file"
for f in arch/arm/configs/a_defconfig arch/sh/configs/s_defconfig; do
	grep -q "^$f:1:1: warning: CONFIG_SLOB=y" "$w/err" || bad "check: $f not reported"
done
grep -q '^arch/arm/configs/a_defconfig:2:1: warning: .*\[unknown-symbol\]' "$w/err" ||
	bad "check: arm's own tree findings missing"

"$S" check --json --srctree "$tree" arch >"$w/out" 2>"$w/err"
rc=$?
[ $rc = 2 ] || bad "check --json: exit $rc, want 2"
grep -qxF "$want" "$w/err" || bad "check --json: stderr: $(cat "$w/err")"
"${ST_PYTHON:-python3}" - "$w/out" "$bf" <<'EOF' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
errs = d.get("errors")
files = sorted({f["file"] for f in d["findings"]})
ok = errs and len(errs) == 1 and errs[0]["file"] == sys.argv[2] and \
    "unknown arch 'blackfin'" in errs[0]["message"] and \
    files == ["arch/arm/configs/a_defconfig", "arch/sh/configs/s_defconfig"]
if not ok:
    print("FAIL: check --json: errors %r, files with findings %r" % (errs, files))
sys.exit(0 if ok else 1)
EOF

"$S" check --format github --srctree "$tree" arch >"$w/out" 2>"$w/err"
rc=$?
[ $rc = 2 ] || bad "check --format github: exit $rc, want 2"
grep -q "^::error file=$bf::unknown arch 'blackfin'" "$w/out" ||
	bad "check --format github: no ::error for $bf: $(cat "$w/out")"

# --arch for every file, one the tree lacks (ia64, gone in 6.7): each file
# an error, nothing else but the paths --arch overrules
"$S" check --srctree "$tree" --arch ia64 arch/sh/configs/s_defconfig \
	arch/arm/configs/a_defconfig >"$w/out" 2>"$w/err"
rc=$?
[ $rc = 2 ] || bad "check --arch ia64: exit $rc, want 2"
{
	for a in sh arm; do
		echo "slubtiny: check: warning: arch/$a/configs/ in the path contradicts ARCH=ia64 from --arch; using ia64"
	done
	printf "slubtiny: check: %s: unknown arch 'ia64' (no arch/ia64/Kconfig in %s)\n" \
		arch/arm/configs/a_defconfig "$tree" arch/sh/configs/s_defconfig "$tree"
} >"$w/want"
cmp -s "$w/want" "$w/err" || bad "check --arch ia64: stderr: $(cat "$w/err")"

# --fix: the other files are rewritten, this one is left alone
"$S" check -q --fix --srctree "$tree" arch >"$w/out" 2>"$w/err"
rc=$?
[ $rc = 2 ] || bad "check --fix: exit $rc, want 2"
grep -qxF "$want" "$w/err" || bad "check --fix: stderr: $(cat "$w/err")"
grep -qx 'CONFIG_SLUB_TINY=y' arch/sh/configs/s_defconfig || bad "check --fix: sh file not fixed"
grep -qx 'CONFIG_SLOB=y' "$bf" || bad "check --fix: $bf rewritten"

# migrate over the directory
cd "$w" && mk && cd "$w/t" || exit 1
"$S" migrate -q --srctree "$tree" arch >"$w/out" 2>"$w/err"
rc=$?
[ $rc = 2 ] || bad "migrate: exit $rc, want 2"
grep -qxF "slubtiny: migrate: $bf: unknown arch 'blackfin' (no arch/blackfin/Kconfig in $tree)" "$w/err" ||
	bad "migrate: stderr: $(cat "$w/err")"
[ "$(grep -c '^slubtiny: ' "$w/err")" = 1 ] || bad "migrate: want one error line: $(cat "$w/err")"
for f in arch/arm/configs/a_defconfig arch/sh/configs/s_defconfig; do
	grep -q "^+++ b/$f" "$w/out" || bad "migrate: no diff for $f"
done
grep -q "^+++ b/$bf" "$w/out" && bad "migrate: a diff for $bf"
[ $fail = 0 ] && echo "ok: an unknown arch fails its own file only (check, --json, github, --fix, migrate)"
exit $fail
