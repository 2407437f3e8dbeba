#!/bin/sh
# The SARIF output validates against the official OASIS SARIF 2.1.0 schema
# (errata01, committed next to this script) with python3-jsonschema, and the
# validator does reject a broken log (so the test can fail).
set -u
. "$(dirname "$0")/../../lib.sh"
py=/usr/bin/python3
[ -x "$py" ] || py=$ST_PYTHON
"$py" -c 'import jsonschema' 2>/dev/null || { echo "skip: python3-jsonschema not installed"; exit 77; }
schema=$ST_SRCDIR/tests/cli/check/sarif-schema-2.1.0.json
st_tmpdir t

cd "$t"
mkdir "dir with space"
printf 'CONFIG_SLOB=y\nCONFIG_SLUB_TINY=y\nCONFIG_SLUB_DEBUG=y\nCONFIG_A=y\nCONFIG_A=n\nCONFIG_A=n\nbogus line\n# slubtiny: ignore[nope]\n' \
	>"dir with space/a%b_defconfig"
printf 'CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\n' >notice_defconfig
printf 'CONFIG_SLUB=y\n' >clean_defconfig

validate() { # file description
	if ! "$py" -m jsonschema -i "$1" "$schema" >"$t/v.out" 2>&1; then
		echo "FAIL: $2 does not validate:"; head -20 "$t/v.out"; fail=1
	fi
}

"$SLUBTINY" check --format sarif "dir with space/a%b_defconfig" notice_defconfig >all.sarif
[ $? = 1 ] || { echo "FAIL: sarif run exit status"; fail=1; }
validate all.sarif "findings of every tree-less rule"
for r in removed-allocator slub-tiny-deps slub-tiny-disables duplicate-assignment \
	 conflicting-assignment syntax bad-suppression hardening-notice; do
	grep -q "\"ruleId\":[ ]*\"$r\"" all.sarif || { echo "FAIL: no $r result"; fail=1; }
done
grep -q '"uri":[ ]*"dir%20with%20space/a%25b_defconfig"' all.sarif ||
	{ echo "FAIL: artifact uri not percent-encoded"; fail=1; }

"$SLUBTINY" check --format sarif clean_defconfig >clean.sarif
[ $? = 0 ] || { echo "FAIL: clean sarif exit status"; fail=1; }
validate clean.sarif "an empty result"

"$SLUBTINY" check --format sarif nosuch_defconfig >error.sarif 2>/dev/null
[ $? = 2 ] || { echo "FAIL: error sarif exit status"; fail=1; }
validate error.sarif "the log of a failed run"
grep -q '"executionSuccessful":[ ]*false' error.sarif || { echo "FAIL: failed run not marked"; fail=1; }

# The validator must catch a broken log, or this test proves nothing.
sed 's/"level":[ ]*"note"/"level": "info"/' all.sarif >broken.sarif
if cmp -s all.sarif broken.sarif || "$py" -m jsonschema -i broken.sarif "$schema" >/dev/null 2>&1; then
	echo "FAIL: the schema check accepts an invalid level"; fail=1
fi
exit $fail
