#!/bin/sh
# check --baseline REV in a scratch git repository: stdout holds only the
# result (one JSON value with --format json or sarif, nothing but workflow
# commands with github, no stray revision hash in text); findings the file
# had at REV are not reported, a new file's are, a bad REV is an error.
# Works without a git identity on the machine: the test sets its own.
set -u
. "$(dirname "$0")/../../lib.sh"
command -v git >/dev/null 2>&1 || { echo "skip: git not installed"; exit 77; }
py=${ST_PYTHON:-python3}
command -v "$py" >/dev/null 2>&1 || { echo "skip: no python for the JSON check"; exit 77; }
st_tmpdir t
st_git_author

expect() { # status description command...
	want=$1; shift; what=$1; shift
	"$@" >"$t/out" 2>"$t/err"; got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL: $what: exit $got, want $want"; cat "$t/out" "$t/err"; fail=1
	fi
}
one_json() { # description file
	"$py" -c 'import json, sys; json.load(open(sys.argv[1]))' "$2" 2>"$t/pyerr" ||
		{ echo "FAIL: $1: stdout is not one JSON value:"; cat "$2" "$t/pyerr"; fail=1; }
}
no_hash() { # description file
	! grep -q "$head" "$2" || { echo "FAIL: $1: the revision's hash is in stdout:"; cat "$2"; fail=1; }
}

mkdir -p "$t/repo/arch/sh/configs"
cd "$t/repo" || exit 1
git init -q || exit 1
d=arch/sh/configs
# committed with a finding (the duplicate); the edit adds another (SLOB)
printf 'CONFIG_A=y\nCONFIG_A=y\n' >$d/old_defconfig
git add . && git commit -q -m start || { echo "FAIL: cannot commit"; exit 1; }
head=$(git rev-parse HEAD)
printf 'CONFIG_A=y\nCONFIG_A=y\nCONFIG_SLOB=y\n' >$d/old_defconfig
printf 'CONFIG_SLAB=y\n' >$d/new_defconfig

expect 1 "json" "$SLUBTINY" check --no-config --baseline HEAD --format json $d/old_defconfig $d/new_defconfig
one_json "json" "$t/out"
no_hash "json" "$t/out"
[ -s "$t/err" ] && { echo "FAIL: json: something on stderr:"; cat "$t/err"; fail=1; }
"$py" - "$t/out" <<'EOF' || fail=1
import json, sys
doc = json.load(open(sys.argv[1]))
got = sorted((f["file"], f["line"], f["rule"]) for f in doc["findings"])
want = [("arch/sh/configs/new_defconfig", 1, "removed-allocator"),
        ("arch/sh/configs/old_defconfig", 3, "removed-allocator")]
if got != want:
    print("FAIL: json: findings %s, want %s" % (got, want))
    sys.exit(1)
EOF

expect 1 "sarif" "$SLUBTINY" check --no-config --baseline HEAD --format sarif $d/old_defconfig
one_json "sarif" "$t/out"
no_hash "sarif" "$t/out"

expect 1 "github" "$SLUBTINY" check --no-config --baseline HEAD --format github $d/old_defconfig
no_hash "github" "$t/out"
grep -v '^::' "$t/out" && { echo "FAIL: github: lines that are no workflow command"; fail=1; }

# (the text findings: on stdout or stderr, wherever the printer puts them)
expect 1 "text" "$SLUBTINY" check --no-config --baseline HEAD $d/old_defconfig
no_hash "text" "$t/out"
no_hash "text, stderr" "$t/err"
cat "$t/out" "$t/err" >"$t/all"
grep -q 'old_defconfig:3:1: warning: CONFIG_SLOB=y' "$t/all" ||
	{ echo "FAIL: text: the new finding is missing:"; cat "$t/all"; fail=1; }
grep -q 'old_defconfig:2:' "$t/all" && { echo "FAIL: text: the old finding is shown"; fail=1; }
grep -q '^slubtiny: check: 1 finding not shown: the files had it at HEAD' "$t/err" ||
	{ echo "FAIL: text: no word about the finding not shown:"; cat "$t/err"; fail=1; }

# a clean run (the edit reverted) prints nothing at all on stdout
git checkout -q -- $d/old_defconfig
expect 0 "clean" "$SLUBTINY" check --no-config --baseline HEAD $d/old_defconfig
[ -s "$t/out" ] && { echo "FAIL: clean: stdout not empty:"; cat "$t/out"; fail=1; }

expect 2 "bad revision" "$SLUBTINY" check --no-config --baseline nosuchrev $d/old_defconfig
grep -q 'not a git revision here' "$t/err" || { echo "FAIL: bad revision: no error:"; cat "$t/err"; fail=1; }
[ -s "$t/out" ] && { echo "FAIL: bad revision: stdout not empty:"; cat "$t/out"; fail=1; }
exit $fail
