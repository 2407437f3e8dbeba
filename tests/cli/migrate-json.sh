#!/bin/sh
# slubtiny migrate --json: one document for many files, with the schema the
# README documents. Needs jq.
set -u
. "$(dirname "$0")/../lib.sh"
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
st_tmpdir w
cd "$w" || exit 1
mkdir -p arch/sh/configs
printf 'CONFIG_A=y\nCONFIG_SLOB=y\nCONFIG_A=n\n' >arch/sh/configs/a_defconfig
printf 'CONFIG_SLUB=y\n' >arch/sh/configs/b_defconfig
printf 'x\000\n' >arch/sh/configs/c_defconfig
# named: a walk would leave out c_defconfig (no kernel config by content)
"$SLUBTINY" migrate --json --no-verify --target 6.12 arch/sh/configs/a_defconfig \
	arch/sh/configs/b_defconfig arch/sh/configs/c_defconfig >out.json 2>err
st=$?
[ $st = 2 ] || { echo "FAIL: exit $st, want 2 (c_defconfig is binary)"; fail=1; }
jq -e . out.json >/dev/null || { echo "FAIL: not one JSON document"; cat out.json; exit 1; }
q() { jq -e "$1" out.json >/dev/null || { echo "FAIL: $2 ($1)"; fail=1; }; }
q '.files | length == 3' "three files"
q '.target == "6.12"' "target"
q '.files[0].path == "arch/sh/configs/a_defconfig" and .files[0].changed == true' "a changed"
q '.files[0].diff | test("\\+CONFIG_SLUB_TINY=y")' "a diff"
q '.lines == "input"' "line numbers of the file as it is"
q '.files[0].findings[0] | .line == 3 and .symbol == "A" and .kind == "conflict" and .origin == "pre-existing"' "conflict finding (line in the input)"
q '.files[0].findings[0] | has("requested") and has("actual") and has("cause") and has("message") and has("detail")' "finding fields"
q '.files[0].collateral == []' "collateral empty without verification"
q '.files[0].changes[0] | .rule == "slob-to-slub-tiny" and .line == 2' "change record"
q '.files[1].changed == false and .files[1].diff == "" and .files[1].findings == []' "b clean"
q '.files[2].error | test("not a defconfig")' "c error in the document"
grep -q '^slubtiny: migrate: arch/sh/configs/c_defconfig: not a defconfig (binary data on line 1)' err || { echo "FAIL: error not on stderr"; fail=1; }
exit $fail
