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
rm -f /tmp/st-cli.$$
exit $fail
