#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# On a terminal (script(1)), the text of report and footprint fits 80
# columns (wrapped, colour escapes not counted); on a pipe the lines stay
# whole; size-diff and size print the same bytes on a terminal as on a pipe
# (the formats of bloat-o-meter and GNU size), and so do the diagnostics of
# check and migrate (gcc's form, never wrapped: diag.sh tests them).
set -u
. "$(dirname "$0")/../lib.sh"
for p in script cc; do
	command -v $p >/dev/null || { echo "skip: $p missing"; exit 77; }
done
st_tmpdir t
cd "$t" || exit 2
long=this_function_has_a_name_long_enough_to_push_a_bloat_o_meter_row_past_eighty_columns
printf 'int %s(int x) { return x + 1; }\n' "$long" >a.c
printf 'int %s(int x) { return x * 3 + 1; }\nint b[64];\n' "$long" >b.c
cc -O0 -c a.c -o a.o && cc -O0 -c b.c -o b.o || { echo "FAIL: cc"; exit 1; }
"$SLUBTINY" footprint gen boot >boot.trace || { echo "FAIL: footprint gen"; exit 1; }

# tty COMMAND: its output on a terminal as it stays on the screen (a
# progress line redrawn with \r and cleared is not text), without colour
# escapes.
tty() {
	script -qec "$1; echo \"[exit \$?]\"" /dev/null | sed 's/\r$//; s/.*\r//' |
		sed 's/\x1b\[[0-9;]*[A-Za-z]//g'
}
fits() { # description, command line
	tty "$2" >tty.out
	[ -s tty.out ] || bad "$1: no output on a terminal"
	tail -1 tty.out | grep -q '^\[exit [01]\]$' || bad "$1: $(tail -1 tty.out) on a terminal"
	grep -q 'Sanitizer' tty.out && bad "$1: a sanitizer report on a terminal"
	awk 'length > 80 { print "  " length ": " $0; n++ } END { exit n > 0 }' tty.out ||
		bad "$1: lines over 80 columns on a terminal"
	sh -c "$2" >pipe.out 2>&1
	awk 'length > 80 { n++ } END { exit n == 0 }' pipe.out ||
		bad "$1: no long line on a pipe (the case tests nothing)"
}
S=$SLUBTINY
fits "report --objects" "\"$S\" report --objects old=a.o new=b.o"
fits "footprint -v" "\"$S\" footprint -v --time-ms 1 --variant slub --variant slub_tiny --trace boot.trace"

# A terminal 100 columns wide (no $COLUMNS): its width is used, not 80.
# (SHELL=/bin/sh: bash would export the new width as $COLUMNS itself.)
R="report --objects old=a.o new=b.o"
(unset COLUMNS; SHELL=/bin/sh script -qec "stty cols 100 rows 40; \"$S\" $R" /dev/null) |
	tr -d '\r' | sed 's/\x1b\[[0-9;]*[A-Za-z]//g' >wide.out
[ -s wide.out ] || bad "report: no output on a 100-column terminal"
awk 'length > 100 { n++ } END { exit n > 0 }' wide.out || bad "report: lines over 100 columns on a 100-column terminal"
awk 'length > 80 { n++ } END { exit n == 0 }' wide.out || bad "report: wrapped at 80 on a 100-column terminal"
# $COLUMNS wins over the terminal's width, as for ls(1).
(COLUMNS=60 SHELL=/bin/sh script -qec "stty cols 100 rows 40; \"$S\" $R" /dev/null) |
	tr -d '\r' | sed 's/\x1b\[[0-9;]*[A-Za-z]//g' >narrow.out
awk 'length > 60 { n++ } END { exit n > 0 }' narrow.out || bad "report: COLUMNS=60 not honoured on a terminal"

# Fixed formats: the same bytes on a terminal as on a pipe.
for c in "size-diff a.o b.o" "size-diff -c a.o b.o" "size a.o b.o" "size -A a.o"; do
	"$S" $c >pipe.out 2>&1
	script -qec "\"$S\" $c" /dev/null | tr -d '\r' >tty.out
	cmp -s pipe.out tty.out || { bad "$c differs on a terminal:"; diff pipe.out tty.out | head -5; }
done
awk 'length > 80 { n++ } END { exit n == 0 }' pipe.out || true
"$S" size-diff a.o b.o | awk 'length > 80 { n++ } END { exit n == 0 }' ||
	bad "size-diff: the case has no row over 80 columns"
exit $fail
