#!/bin/sh
# check --help lists each rule's level from the rule table; the findings
# check emits must have that level (an "(error: WHEN)" after it names the
# findings that are errors instead), and so must SARIF's default level of
# the rule. Files here make every rule that needs no tree or budget fire.
set -u
. "$(dirname "$0")/../../lib.sh"
py=${ST_PYTHON:-python3}
command -v "$py" >/dev/null 2>&1 || { echo "skip: no python"; exit 77; }
st_tmpdir t
cd "$t" || exit 1

printf 'CONFIG_A=y\nfoo bar\nCONFIG_B=\n' >syntax_defconfig
printf 'CONFIG_A=y\nCONFIG_B=\001\n' >binary_defconfig
"$py" -c 'print("CONFIG_A=\"" + "x" * 70000 + "\"")' >long_defconfig
printf 'CONFIG_SLOB=y\nCONFIG_A=y\nCONFIG_A=y\nCONFIG_B=y\nCONFIG_B=n\n' >slob_defconfig
printf '# slubtiny: ignore[nope]\nCONFIG_SLUB_TINY=y\nCONFIG_SLUB_DEBUG=y\n' >tiny_defconfig

"$SLUBTINY" check --help >help 2>help.err; st=$?
[ $st = 0 ] && [ ! -s help.err ] || { echo "FAIL: check --help: exit $st"; cat help.err; fail=1; }
files="syntax_defconfig binary_defconfig long_defconfig slob_defconfig tiny_defconfig"
"$SLUBTINY" check --no-config --format json $files >out.json 2>err; st=$?
[ $st = 1 ] || { echo "FAIL: json: exit $st, want 1"; cat err; fail=1; }
[ -s err ] && { echo "FAIL: json: stderr:"; cat err; fail=1; }
"$SLUBTINY" check --no-config --format sarif $files >out.sarif 2>err; st=$?
[ $st = 1 ] || { echo "FAIL: sarif: exit $st, want 1"; cat err; fail=1; }

"$py" - help out.json out.sarif <<'EOF' || fail=1
import json, re, sys
help_text, doc, sarif = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
rules = {}
for m in re.finditer(r"^  ([a-z][a-z-]*) +(note|warning|error)( \(error: ([^)]*)\))?", help_text, re.M):
    rules[m.group(1)] = (m.group(2), m.group(4))
bad = []
if not rules:
    bad.append("no rule listing in check --help")
# the lines the parser cannot use at all: the only errors syntax has
unusable = {("binary_defconfig", 2), ("long_defconfig", 1)}
seen = set()
for f in doc["findings"]:
    rule, level = f["rule"], f["level"]
    seen.add(rule)
    if rule not in rules:
        bad.append("rule %s of a finding is not in --help" % rule)
        continue
    want, error_when = rules[rule]
    if (f["file"], f["line"]) in unusable:
        if rule != "syntax" or level != "error" or not error_when:
            bad.append("%s:%d: %s %s, --help says %s (error: %s)"
                       % (f["file"], f["line"], rule, level, want, error_when))
    elif level != want:
        bad.append("%s:%d: %s is a %s, --help says %s"
                   % (f["file"], f["line"], rule, level, want))
for r in ("syntax", "removed-allocator", "slub-tiny-deps", "slub-tiny-disables",
          "duplicate-assignment", "conflicting-assignment", "hardening-notice",
          "bad-suppression"):
    if r not in seen:
        bad.append("no finding of %s to compare" % r)
for r in sarif["runs"][0]["tool"]["driver"]["rules"]:
    lvl = r["defaultConfiguration"]["level"]
    if r["id"] in rules and lvl != rules[r["id"]][0]:
        bad.append("SARIF default level of %s is %s, --help says %s" % (r["id"], lvl, rules[r["id"]][0]))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
EOF
exit $fail
