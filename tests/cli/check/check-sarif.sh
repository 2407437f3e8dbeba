#!/bin/sh
# The SARIF output validates against the official OASIS SARIF 2.1.0 schema
# (errata01, committed next to this script) with python3-jsonschema, and the
# validator does reject a broken log (so the test can fail). Locations are
# relative to %SRCROOT%, and partialFingerprints survive lines moving.
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

# Locations resolve against %SRCROOT% (the directory check ran in, as a
# file:// URI); each result has a fingerprint that depends on the rule, the
# file and the line's text, not on the line number: lines moved down keep
# them, an edited line or another file changes them.
fp() { # sarif-file: "ruleId uri fingerprint" a line, sorted
	"$py" - "$1" "$t" <<'PY' || { echo "FAIL: fingerprints of $1"; fail=1; }
import json, sys, urllib.parse, pathlib
log = json.load(open(sys.argv[1]))
run = log['runs'][0]
root = run.get('originalUriBaseIds', {}).get('%SRCROOT%', {}).get('uri')
want = pathlib.Path(sys.argv[2]).resolve().as_uri() + '/'
if root != want:
    sys.exit('%%SRCROOT%% is %r, want %r' % (root, want))
for r in run['results']:
    loc = r['locations'][0]['physicalLocation']['artifactLocation']
    if loc['uri'].startswith('file:///'):
        if 'uriBaseId' in loc:
            sys.exit('an absolute URI with a uriBaseId: %r' % loc)
    elif loc.get('uriBaseId') != '%SRCROOT%':
        sys.exit('no uriBaseId: %r' % loc)
    path = urllib.parse.unquote(urllib.parse.urljoin(root, loc['uri'])[len('file://'):])
    if not pathlib.Path(path).is_file():
        sys.exit('%s does not resolve to a file' % loc['uri'])
    fps = r.get('partialFingerprints') or sys.exit('no partialFingerprints: %r' % r['ruleId'])
    print(r['ruleId'], loc['uri'].rsplit('/', 1)[-1], ' '.join('%s=%s' % kv for kv in sorted(fps.items())))
PY
}
fp all.sarif | sort >fp1
[ "$(sort -u fp1 | wc -l)" = "$(wc -l <fp1)" ] && [ -s fp1 ] ||
	{ echo "FAIL: fingerprints not unique:"; cat fp1; fail=1; }
cp -p "dir with space/a%b_defconfig" moved
{ printf '# a comment\n\nCONFIG_PRINTK=y\n'; cat moved; } >"dir with space/a%b_defconfig"
"$SLUBTINY" check --format sarif "dir with space/a%b_defconfig" notice_defconfig >moved.sarif
[ $? = 1 ] || { echo "FAIL: sarif run exit status (lines moved)"; fail=1; }
validate moved.sarif "findings on moved lines"
fp moved.sarif | sort >fp2
cmp -s fp1 fp2 || { echo "FAIL: fingerprints change when lines move:"; diff fp1 fp2; fail=1; }
grep -q '"startLine":[ ]*4' moved.sarif || { echo "FAIL: the lines did not move"; fail=1; }
# the same findings in another file, and an edited line: new fingerprints
cp moved other_defconfig
sed 's/^CONFIG_SLOB=y/CONFIG_SLOB=m/' moved >"dir with space/a%b_defconfig"
"$SLUBTINY" check --format sarif "dir with space/a%b_defconfig" other_defconfig >other.sarif
[ $? = 1 ] || { echo "FAIL: sarif run exit status (other file)"; fail=1; }
fp other.sarif | sort >fp3
fpof() { # list rule file
	grep "^$2 [^ ]*$3 " "$1" | sed -n 1p | cut -d' ' -f3-
}
a=$(fpof fp2 removed-allocator a%25b_defconfig) b=$(fpof fp3 removed-allocator a%25b_defconfig)
[ -n "$b" ] && [ "$a" != "$b" ] || { echo "FAIL: edited line: fingerprint '$b' (was '$a')"; fail=1; }
a=$(fpof fp2 duplicate-assignment a%25b_defconfig) b=$(fpof fp3 duplicate-assignment other_defconfig)
[ -n "$b" ] && [ "$a" != "$b" ] || { echo "FAIL: other file: fingerprint '$b' (was '$a')"; fail=1; }
# an absolute path: a file:// URI as given, the fingerprints those of the
# same file named relative to the directory (a checkout elsewhere has them)
"$SLUBTINY" check --format sarif "$(pwd -P)/notice_defconfig" >abs.sarif
validate abs.sarif "an absolute path"
fp abs.sarif >fp-abs
"$SLUBTINY" check --format sarif notice_defconfig >rel.sarif
fp rel.sarif >fp-rel
grep -q '"uri":[ ]*"file://[^"]*/notice_defconfig"' abs.sarif || { echo "FAIL: absolute path not a file:// URI"; fail=1; }
[ -s fp-abs ] && cmp -s fp-abs fp-rel ||
	{ echo "FAIL: absolute and relative paths give other fingerprints"; diff fp-abs fp-rel; fail=1; }

# The validator must catch a broken log, or this test proves nothing.
sed 's/"level":[ ]*"note"/"level": "info"/' all.sarif >broken.sarif
if cmp -s all.sarif broken.sarif || "$py" -m jsonschema -i broken.sarif "$schema" >/dev/null 2>&1; then
	echo "FAIL: the schema check accepts an invalid level"; fail=1
fi
exit $fail
