#!/bin/sh
# Errors of the shared option parser and of main (issue 28, "gets in the
# way"): each a single line "slubtiny: CMD: message" on stderr, nothing on
# stdout, exit 2, saying what was wrong and what would be right.
#	sh cli-errors.sh [ITEM...]	(default: all; SLUBTINY names the binary)
set -u
S=${SLUBTINY:?SLUBTINY not set}
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# err STATUS WHAT REGEX COMMAND...: exit STATUS, stdout empty, stderr one
# line matching REGEX.
err() {
	want=$1 what=$2 re=$3; shift 3
	"$@" >"$t/out" 2>"$t/err"; got=$?
	[ "$got" = "$want" ] || bad "$what: exit $got, want $want"
	[ -s "$t/out" ] && bad "$what: stdout: $(head -3 "$t/out")"
	[ "$(wc -l <"$t/err")" = 1 ] || bad "$what: not one line on stderr: $(head -5 "$t/err")"
	grep -q -- "$re" "$t/err" || bad "$what: stderr: $(head -3 "$t/err"), want $re"
}

# 4: one prefix, "slubtiny: CMD: ", for the parser's, the commands' and the
# library's errors alike.
item_prefix() {
	err 2 "unknown option" "^slubtiny: size: unknown option '--frob'; see 'slubtiny size --help'\$" \
		"$S" size --frob
	err 2 "missing argument" "^slubtiny: migrate: option '--srctree' needs an argument (DIR); see 'slubtiny migrate --help'\$" \
		"$S" migrate --srctree
	err 2 "library error" "^slubtiny: size: $t/nope: No such file or directory\$" \
		"$S" size "$t/nope"
	err 2 "library error" "^slubtiny: check: $t/nope: " \
		"$S" check "$t/nope"
	err 2 "command error" "^slubtiny: completion: expected 'bash' or 'zsh'" \
		"$S" completion fish
}

items=${*:-prefix}
for i in $items; do
	item_$i
done
exit $fail
