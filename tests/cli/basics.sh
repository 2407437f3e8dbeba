#!/bin/sh
# Dispatch, help and exit codes of the command table.
set -u
fail=0
check() { # expected-status description command...
	want=$1; shift; what=$1; shift
	"$@" >/tmp/st-cli.$$ 2>&1; got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL: $what: exit $got, want $want"; cat /tmp/st-cli.$$; fail=1
	fi
}
check 0 "--version" "$SLUBTINY" --version
check 0 "--help" "$SLUBTINY" --help
check 2 "no command" "$SLUBTINY"
check 2 "unknown command" "$SLUBTINY" frobnicate
check 0 "help size-diff" "$SLUBTINY" help size-diff
check 2 "help unknown" "$SLUBTINY" help frobnicate
for c in migrate check size-diff size build report footprint; do
	check 0 "$c --help" "$SLUBTINY" $c --help
done
"$SLUBTINY" --version | grep -q '^slubtiny [0-9]' || { echo "FAIL: version format"; fail=1; }
"$SLUBTINY" frobnicate 2>&1 >/dev/null | grep -q "^slubtiny: unknown command 'frobnicate'" || { echo "FAIL: error format"; fail=1; }
# A closed stdout is an error, not silence.
if [ -w /dev/full ]; then
	"$SLUBTINY" --help >/dev/full 2>/dev/null; [ $? = 2 ] || { echo "FAIL: /dev/full not reported"; fail=1; }
fi
"$SLUBTINY" chek 2>&1 >/dev/null | grep -q "did you mean 'check'" || { echo "FAIL: no suggestion for 'chek'"; fail=1; }

# One style for a bad option, every command: one line on stderr naming the
# command and the option, a suggestion when one is close, the --help hint;
# nothing on stdout, exit 2, no usage dump.
bad_opt() { # command, option, suggestion or ""
	"$SLUBTINY" $1 "$2" x y >/tmp/st-cli.$$ 2>/tmp/st-cli-err.$$; got=$?
	[ $got = 2 ] || { echo "FAIL: $1 $2: exit $got"; fail=1; }
	[ -s /tmp/st-cli.$$ ] && { echo "FAIL: $1 $2: stdout"; fail=1; }
	[ "$(wc -l </tmp/st-cli-err.$$)" = 1 ] || { echo "FAIL: $1 $2: not one line:"; cat /tmp/st-cli-err.$$; fail=1; }
	want="^slubtiny: $1: unknown option '$2'"
	[ -n "$3" ] && want="$want (did you mean '$3'?)"
	grep -q -- "$want; see 'slubtiny $1 --help'\$" /tmp/st-cli-err.$$ ||
		{ echo "FAIL: $1 $2: message:"; cat /tmp/st-cli-err.$$; fail=1; }
}
for c in migrate check size-diff size build report footprint "footprint gen"; do
	bad_opt "$c" --frobnicate ""
done
bad_opt migrate --in-plcae --in-place
bad_opt migrate --srctee --srctree
bad_opt check --jsn --json
bad_opt check --selcet --select
bad_opt report --basline=x --baseline
bad_opt size-diff --exit-cdoe --exit-code
bad_opt footprint --treads --threads
bad_opt build --hepl --help
"$SLUBTINY" size -Az y 2>&1 >/dev/null | grep -q "^slubtiny: size: unknown option '-z'; see" ||
	{ echo "FAIL: short option in a cluster"; fail=1; }
"$SLUBTINY" migrate --srctree 2>&1 >/dev/null | grep -q "^slubtiny: migrate: option '--srctree' needs an argument (DIR); see" ||
	{ echo "FAIL: missing argument message"; fail=1; }

# --help: every option described, examples, 80 columns, nothing on stderr.
for c in migrate check size-diff size build report footprint; do
	"$SLUBTINY" $c --help >/tmp/st-cli.$$ 2>/tmp/st-cli-err.$$ || { echo "FAIL: $c --help"; fail=1; }
	[ -s /tmp/st-cli-err.$$ ] && { echo "FAIL: $c --help: stderr"; fail=1; }
	grep -q '^  -h, --help  *show this help$' /tmp/st-cli.$$ || { echo "FAIL: $c --help: no -h row"; fail=1; }
	grep -q '^Examples:$' /tmp/st-cli.$$ || { echo "FAIL: $c --help: no examples"; fail=1; }
	awk 'length > 80 { exit 1 }' /tmp/st-cli.$$ || { echo "FAIL: $c --help wider than 80"; fail=1; }
	"$SLUBTINY" help $c | cmp -s - /tmp/st-cli.$$ || { echo "FAIL: help $c differs from $c --help"; fail=1; }
done
rm -f /tmp/st-cli.$$ /tmp/st-cli-err.$$
exit $fail
