#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/run can fail: its counting (tests/tally.py) over synthetic meson logs,
# then the whole script on a copy of itself with a fake meson and ninja on
# PATH. A complete run passes; a failed test, a partial log, a run killed
# half way (status 137), a skip outside tests/allowed-skips (on a machine set
# up by .ci/deps test) and a non-zero `meson test` status with every test OK
# each end non-zero with the "N passed, N failed, N skipped" line saying so.
# Before that line, the last, tests/run prints each phase's wall time and the
# ten slowest tests of meson's logs. --quick builds once (plain), leaves out
# the suites slow and diff (meson's --no-suite and the count alike) and makes
# no sanitizer or fuzz build.
#
# Each case writes its log to $w/in first: a check at the end of a pipeline
# would run in a subshell, and its bad() would be lost.
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
res() { # name result [duration]
	printf '{"name": "%s", "result": "%s", "returncode": 0, "duration": %s}\n' \
		"$1" "$2" "${3:-0}"
}
all() { # result of basics, result of both kmalloc
	res 'slubtiny:cli / basics' "$1"
	res 'slubtiny:slab-slub / kmalloc' "$2"
	res 'slubtiny:slab-slob+slab / kmalloc' "$2"
}
: >"$w/allowed"

tally() { # want status strict -- the log in $w/in
	cp "$w/in" "$w/log.json"
	got=$(python3 "$ST_SRCDIR/tests/tally.py" "$w/tests.json" "$w/log.json" "$2" \
		"$w/allowed" "$3" 2>"$w/err")
	st=$?
	[ $st = 0 ] || bad "tally exit $st: $(cat "$w/err")"
	[ "$got" = "$1" ] || { bad "want '$1', got '$got' for:"; cat "$w/log.json"; cat "$w/err"; }
}
all OK OK >"$w/in"; tally "3 0 0 3" 0 1
all OK FAIL >"$w/in"; tally "1 2 0 3" 1 1
all OK TIMEOUT >"$w/in"; tally "1 2 0 3" 1 1
all OK EXPECTEDFAIL >"$w/in"; tally "3 0 0 3" 0 1
# partial: the last test never ran
all OK OK | head -2 >"$w/in"; tally "2 1 0 3" 0 1
# killed while writing a line: the broken line and the missing test
{ all OK OK | head -1; printf '{"name": "slubtiny:slab-slub / km'; } >"$w/in"
tally "1 2 0 3" 137 1
grep -q 'no result (run killed' "$w/err" || bad "a missing test is not named"
# nothing at all
: >"$w/in"; tally "0 3 0 3" 137 1
# meson failed although every logged test passed
all OK OK >"$w/in"; tally "3 1 0 3" 1 1
# a result for a test that is not registered
{ all OK OK; res 'slubtiny:cli / stray' OK; } >"$w/in"; tally "3 1 0 3" 0 1
# skips: failures on a machine with every package, unless allowed
all SKIP OK >"$w/in"; tally "2 1 0 3" 0 1
grep -q 'basics: skipped, and not in' "$w/err" || bad "a forbidden skip is not named"
all SKIP OK >"$w/in"; tally "2 0 1 3" 0 0
echo 'basics needs nothing that a CI machine has' >"$w/allowed"
all SKIP OK >"$w/in"; tally "2 0 1 3" 0 1
all OK SKIP >"$w/in"; tally "1 2 0 3" 0 1
: >"$w/allowed"

# The whole tests/run on a fake meson: a copy of the scripts it runs.
mkdir -p "$w/repo/tests" "$w/repo/.ci" "$w/bin"
cp "$ST_SRCDIR/tests/run" "$ST_SRCDIR/tests/tally.py" "$w/repo/tests/" &&
	cp "$ST_SRCDIR/.ci/build" "$ST_SRCDIR/.ci/deps" "$w/repo/.ci/" || exit 1
: >"$w/repo/tests/allowed-skips"
printf '#!/bin/sh\nexit 0\n' >"$w/bin/ninja"
# Besides the three tests above, a slow one and a diff one, registered in
# the plain and sanitizer builds; the fuzz build has one fuzz-run test.
sed '$d' "$w/tests.json" >"$w/tests-all.json"
cat >>"$w/tests-all.json" <<'JSON'
 {"name": "kmalloc", "suite": ["slubtiny:slab-slob", "slubtiny:slab"]},
 {"name": "kbuild", "suite": ["slubtiny:sizes", "slubtiny:diff", "slubtiny:slow"]},
 {"name": "vs-nm", "suite": ["slubtiny:sizes", "slubtiny:diff"]}]
JSON
echo '[{"name": "fuzz-elf", "suite": ["slubtiny:fuzz-run"]}]' >"$w/tests-fuzz.json"
# FAKE_LOG: the testlog.json `meson test` leaves, less the tests its
# --suite/--no-suite leave out, as meson does (the suites of a result are
# in its name, "slubtiny:a+b / name"); FAKE_FUZZ_LOG the fuzz build's;
# FAKE_STATUS its status, "kill" to die by SIGKILL after writing half of
# the log.
cat >"$w/bin/meson" <<'MESON'
#!/bin/sh
case $1 in
setup) exit 0 ;;
introspect)
	case $2 in
	*build-fuzz) cat "$FAKE_TESTS_FUZZ" ;;
	*) cat "$FAKE_TESTS" ;;
	esac ;;
test)
	dir=$3
	mkdir -p "$dir/meson-logs"
	echo "$*" >"$dir/test-args"
	log=$FAKE_LOG
	case $dir in *build-fuzz) log=$FAKE_FUZZ_LOG ;; esac
	shift 3
	cp "$log" "$dir/sel"
	while [ $# -gt 0 ]; do
		case $1 in
		--suite) grep -E "\"slubtiny:([^\"/]*\+)?$2[+ ]" "$dir/sel" >"$dir/sel2" ;;
		--no-suite) grep -Ev "\"slubtiny:([^\"/]*\+)?$2[+ ]" "$dir/sel" >"$dir/sel2" ;;
		*) shift; continue ;;
		esac
		mv "$dir/sel2" "$dir/sel"
		shift 2
	done
	if [ "$FAKE_STATUS" = kill ]; then
		head -1 "$dir/sel" >"$dir/meson-logs/testlog.json"
		kill -KILL $$
	fi
	cp "$dir/sel" "$dir/meson-logs/testlog.json"
	exit "$FAKE_STATUS" ;;
*) exit 2 ;;
esac
MESON
chmod +x "$w/bin/ninja" "$w/bin/meson"
res 'slubtiny:fuzz-run / fuzz-elf' OK 2.5 >"$w/fuzz-log.json"

# run WANT-STATUS WANT-LINE FAKE-STATUS [--quick]: tests/run over the log in
# $w/in; its output in $w/out
run() {
	rm -rf "$w/build" "$w/build-san" "$w/build-fuzz"
	PATH=$w/bin:$PATH FAKE_TESTS=$w/tests-all.json FAKE_TESTS_FUZZ=$w/tests-fuzz.json \
		FAKE_LOG=$w/in FAKE_FUZZ_LOG=$w/fuzz-log.json FAKE_STATUS=$3 \
		ST_STRICT_SKIPS=1 ST_RUN_PREFIX=$w/ sh "$w/repo/tests/run" ${4:-} >"$w/out" 2>&1
	st=$?
	last=$(tail -1 "$w/out")
	if [ "$1" = 0 ]; then [ $st = 0 ] || bad "run ${4:-}: exit $st, want 0"
	else [ $st != 0 ] || bad "run ${4:-}: exit 0, want non-zero"; fi
	[ "$last" = "$2" ] || bad "run ${4:-}: last line '$last', want '$2'"
	[ "$(grep -Ec '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$w/out")" = 1 ] ||
		bad "run ${4:-}: not exactly one 'N passed, N failed, N skipped' line"
	[ $fail = 0 ] || cat "$w/out"
}
# every test with a duration: kmalloc of slab-slub the slowest
full() { # result of basics, result of the others
	res 'slubtiny:cli / basics' "$1" 1.25
	res 'slubtiny:slab-slub / kmalloc' "$2" 40
	res 'slubtiny:slab-slob+slab / kmalloc' "$2" 3
	res 'slubtiny:sizes+diff+slow / kbuild' "$2" 30
	res 'slubtiny:sizes+diff / vs-nm' "$2" 20
}
# want_times PHASE...: a "tests: time:" line for each DIR:PHASE, and the total
want_times() {
	for ph; do
		grep -Eq "^tests: time: +${ph%:*} +${ph#*:} +[0-9]+ s$" "$w/out" ||
			bad "no time for phase $ph"
	done
	grep -Eq '^tests: time: +total +[0-9]+ s$' "$w/out" || bad "no total time"
}
# the ranked lines, as "SECONDS DIR TEST", into $w/slow
slowest() {
	sed -n '/^tests: the ten slowest tests:$/,$p' "$w/out" | sed '1d;$d' |
		sed 's/^tests: *\([0-9.]*\) s  \([^ ]*\) *\(.*\)$/\1 \2 \3/' >"$w/slow"
}

# Two build dirs (plain, sanitizers), each given the same fake log, and the fuzz one.
full OK OK >"$w/in"; run 0 "11 passed, 0 failed, 0 skipped" 0
# The sanitizer run is slower: its timeouts are stretched, the plain ones not.
mult() { # build dir
	sed -n 's/.*--timeout-multiplier \([0-9][0-9]*\).*/\1/p' "$w/$1/test-args" 2>/dev/null
}
m=$(mult build-san)
[ "${m:-0}" -ge 3 ] || bad "build-san: timeout multiplier '${m}', want 3 or more"
m=$(mult build)
[ "${m:-1}" = 1 ] || bad "build: timeout multiplier '$m', want none or 1"
grep -q -- '--no-suite' "$w/build/test-args" && bad "the whole run leaves out a suite"
# Before the last line: a time for each phase, then the ten slowest tests of
# all build dirs, longest first.
want_times build:build build:test build-san:build build-san:test build-fuzz:fuzz
slowest
[ "$(wc -l <"$w/slow")" = 10 ] || bad "not ten slowest tests: $(cat "$w/slow")"
case $(sed -n 1p "$w/slow") in
"40.0 build slubtiny:slab-slub / kmalloc" | "40.0 build-san slubtiny:slab-slub / kmalloc") ;;
*) bad "slowest: '$(sed -n 1p "$w/slow")', want slab-slub / kmalloc at 40.0 s" ;;
esac
sort -s -k1,1 -rn "$w/slow" | cmp -s - "$w/slow" || bad "slowest not in order: $(cat "$w/slow")"
grep -qx '30.0 build-san slubtiny:sizes+diff+slow / kbuild' "$w/slow" ||
	bad "the sanitizer run's tests are not ranked: $(cat "$w/slow")"
# eleven results, two of them the quickest (basics, 1.25 s): one is left out
[ "$(grep -c ' / basics$' "$w/slow")" = 1 ] || bad "not the ten slowest: $(cat "$w/slow")"
tail -2 "$w/out" | head -1 | grep -q '^tests: ' || bad "no summary before the last line"

full OK FAIL >"$w/in"; run 1 "3 passed, 9 failed, 0 skipped" 1
full OK OK | head -4 >"$w/in"; run 1 "9 passed, 2 failed, 0 skipped" 0
full OK OK >"$w/in"; run 1 "3 passed, 9 failed, 0 skipped" kill
want_times build:test build-san:test
full SKIP OK >"$w/in"; run 1 "9 passed, 2 failed, 0 skipped" 0
full OK OK >"$w/in"; run 1 "11 passed, 3 failed, 0 skipped" 1
echo 'basics fake reason' >"$w/repo/tests/allowed-skips"
full SKIP OK >"$w/in"; run 0 "9 passed, 0 failed, 2 skipped" 0
: >"$w/repo/tests/allowed-skips"

# --quick: the plain build only, without the slow and diff suites, in the
# run and in the count
full OK OK >"$w/in"; run 0 "3 passed, 0 failed, 0 skipped" 0 --quick
[ -e "$w/build-san" ] && bad "--quick: a sanitizer build"
[ -e "$w/build-fuzz" ] && bad "--quick: a fuzz build"
grep -q -- '--no-suite slow' "$w/build/test-args" && grep -q -- '--no-suite diff' "$w/build/test-args" &&
	grep -q -- '--no-suite tree' "$w/build/test-args" ||
	bad "--quick: meson $(cat "$w/build/test-args")"
want_times build:build build:test
grep -q 'build-san\|build-fuzz' "$w/out" && bad "--quick: another build dir named"
slowest
[ "$(wc -l <"$w/slow")" = 3 ] || bad "--quick: not three tests ranked: $(cat "$w/slow")"
grep -q 'kbuild\|vs-nm' "$w/slow" && bad "--quick: a slow or diff test ran"
full OK FAIL >"$w/in"; run 1 "1 passed, 2 failed, 0 skipped" 1 --quick
full OK OK | head -2 >"$w/in"; run 1 "2 passed, 1 failed, 0 skipped" 0 --quick
# a test of a left-out suite that ran anyway is not registered: a failure
sed 's/^\t\t--no-suite)/\t\t--no-suite-ignored)/' "$w/bin/meson" >"$w/meson2" &&
	cat "$w/meson2" >"$w/bin/meson"
full OK OK >"$w/in"; run 1 "3 passed, 2 failed, 0 skipped" 0 --quick
PATH=$w/bin:$PATH sh "$w/repo/tests/run" --quik >"$w/out" 2>&1
[ $? = 2 ] && grep -q usage "$w/out" || bad "tests/run --quik: $(cat "$w/out")"

[ $fail = 0 ] && echo "tests/run fails on failed, partial, killed and skipped runs; --quick runs one build without the slow and diff suites"
exit $fail
