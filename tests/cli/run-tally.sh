#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/run can fail: its counting (tests/tally.py) over synthetic meson logs,
# then the whole script on a copy of itself with a fake meson and ninja on
# PATH. A complete run passes; a failed test, a partial log, a run killed
# half way (status 137), a skip outside tests/allowed-skips (on a machine set
# up by .ci/deps test) and a non-zero `meson test` status with every test OK
# each end non-zero with the "N passed, N failed, N skipped" line saying so.
set -u
. "$(dirname "$0")/../lib.sh"
: "${ST_SRCDIR:?}"
command -v python3 >/dev/null || { echo "skip: python3 missing"; exit 77; }
st_tmpdir w

# Three registered tests, two of them with the same name in two suites.
cat >"$w/tests.json" <<'EOF'
[{"name": "basics", "suite": ["slubtiny:cli"]},
 {"name": "kmalloc", "suite": ["slubtiny:slab-slub"]},
 {"name": "kmalloc", "suite": ["slubtiny:slab-slob", "slubtiny:slab"]}]
EOF
res() { # name result
	printf '{"name": "%s", "result": "%s", "returncode": 0}\n' "$1" "$2"
}
all() { # result of basics, result of both kmalloc
	res 'slubtiny:cli / basics' "$1"
	res 'slubtiny:slab-slub / kmalloc' "$2"
	res 'slubtiny:slab-slob+slab / kmalloc' "$2"
}
: >"$w/allowed"

tally() { # want status strict -- log on stdin
	cat >"$w/log.json"
	got=$(python3 "$ST_SRCDIR/tests/tally.py" "$w/tests.json" "$w/log.json" "$2" \
		"$w/allowed" "$3" 2>"$w/err")
	st=$?
	[ $st = 0 ] || bad "tally exit $st: $(cat "$w/err")"
	[ "$got" = "$1" ] || { bad "want '$1', got '$got' for:"; cat "$w/log.json"; cat "$w/err"; }
}
all OK OK | tally "3 0 0 3" 0 1
all OK FAIL | tally "1 2 0 3" 1 1
all OK TIMEOUT | tally "1 2 0 3" 1 1
all OK EXPECTEDFAIL | tally "3 0 0 3" 0 1
# partial: the last test never ran
all OK OK | head -2 | tally "2 1 0 3" 0 1
# killed while writing a line: the broken line and the missing test
{ all OK OK | head -1; printf '{"name": "slubtiny:slab-slub / km'; } | tally "1 2 0 3" 137 1
grep -q 'no result (run killed' "$w/err" || bad "a missing test is not named"
# nothing at all
: | tally "0 3 0 3" 137 1
# meson failed although every logged test passed
all OK OK | tally "3 1 0 3" 1 1
# a result for a test that is not registered
{ all OK OK; res 'slubtiny:cli / stray' OK; } | tally "3 1 0 3" 0 1
# skips: failures on a machine with every package, unless allowed
all SKIP OK | tally "2 1 0 3" 0 1
grep -q 'basics: skipped, and not in' "$w/err" || bad "a forbidden skip is not named"
all SKIP OK | tally "2 0 1 3" 0 0
echo 'basics needs nothing that a CI machine has' >"$w/allowed"
all SKIP OK | tally "2 0 1 3" 0 1
all OK SKIP | tally "1 2 0 3" 0 1
: >"$w/allowed"

# The whole tests/run on a fake meson: a copy of the scripts it runs.
mkdir -p "$w/repo/tests" "$w/repo/.ci" "$w/bin"
cp "$ST_SRCDIR/tests/run" "$ST_SRCDIR/tests/tally.py" "$w/repo/tests/" &&
	cp "$ST_SRCDIR/.ci/build" "$ST_SRCDIR/.ci/deps" "$w/repo/.ci/" || exit 1
: >"$w/repo/tests/allowed-skips"
cat >"$w/bin/ninja" <<'EOF'
#!/bin/sh
exit 0
EOF
# FAKE_LOG: the testlog.json `meson test` leaves; FAKE_STATUS its status,
# "kill" to die by SIGKILL after writing half of the log.
cat >"$w/bin/meson" <<'EOF'
#!/bin/sh
case $1 in
setup) exit 0 ;;
introspect) cat "$FAKE_TESTS" ;;
test)
	mkdir -p "$3/meson-logs"
	echo "$*" >"$3/test-args"
	if [ "$FAKE_STATUS" = kill ]; then
		head -1 "$FAKE_LOG" >"$3/meson-logs/testlog.json"
		kill -KILL $$
	fi
	cp "$FAKE_LOG" "$3/meson-logs/testlog.json"
	exit "$FAKE_STATUS" ;;
*) exit 2 ;;
esac
EOF
chmod +x "$w/bin/ninja" "$w/bin/meson"

run() { # want-status want-line fake-status -- log on stdin
	cat >"$w/fake-log.json"
	PATH=$w/bin:$PATH FAKE_TESTS=$w/tests.json FAKE_LOG=$w/fake-log.json FAKE_STATUS=$3 \
		ST_STRICT_SKIPS=1 ST_RUN_PREFIX=$w/ sh "$w/repo/tests/run" >"$w/out" 2>&1
	st=$?
	last=$(tail -1 "$w/out")
	if [ "$1" = 0 ]; then [ $st = 0 ] || bad "run exit $st, want 0"
	else [ $st != 0 ] || bad "run exit 0, want non-zero"; fi
	[ "$last" = "$2" ] || bad "run: last line '$last', want '$2'"
	[ "$(grep -Ec '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$w/out")" = 1 ] ||
		bad "run: not exactly one 'N passed, N failed, N skipped' line"
	[ $fail = 0 ] || cat "$w/out"
}
# Two build dirs (plain, sanitizers), each given the same fake log.
all OK OK | run 0 "6 passed, 0 failed, 0 skipped" 0
# The sanitizer run is slower: its timeouts are stretched, the plain ones not.
mult() { # build dir
	sed -n 's/.*--timeout-multiplier \([0-9][0-9]*\).*/\1/p' "$w/$1/test-args" 2>/dev/null
}
m=$(mult build-san)
[ "${m:-0}" -ge 3 ] || bad "build-san: timeout multiplier '${m}', want 3 or more"
m=$(mult build)
[ "${m:-1}" = 1 ] || bad "build: timeout multiplier '$m', want none or 1"
all OK FAIL | run 1 "2 passed, 4 failed, 0 skipped" 1
all OK OK | head -2 | run 1 "4 passed, 2 failed, 0 skipped" 0
all OK OK | run 1 "2 passed, 4 failed, 0 skipped" kill
all SKIP OK | run 1 "4 passed, 2 failed, 0 skipped" 0
all OK OK | run 1 "6 passed, 2 failed, 0 skipped" 1
echo 'basics fake reason' >"$w/repo/tests/allowed-skips"
all SKIP OK | run 0 "4 passed, 0 failed, 2 skipped" 0
[ $fail = 0 ] && echo "tests/run fails on failed, partial, killed and skipped runs"
exit $fail
