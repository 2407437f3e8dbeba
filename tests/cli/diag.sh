#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# check and migrate print their diagnostics the same way: gcc's
# FILE:LINE:COL: LEVEL: MESSAGE [RULE], on stderr (check's stdout empty in
# the text format, migrate's holds only the diff), never wrapped on a
# terminal, coloured as gcc colours (the escapes compared with gcc's own)
# only when stderr is a terminal and NO_COLOR is unset.
#
#   diag.sh   (SLUBTINY: the binary under test)
set -u
. "$(dirname "$0")/../lib.sh"
for p in script gcc; do
	command -v $p >/dev/null || { echo "skip: $p missing"; exit 77; }
done
S=$SLUBTINY
case $S in /*) ;; *) S=$PWD/$S ;; esac
st_tmpdir t
cd "$t" || exit 2
f=arch/arm/configs/bad_defconfig
mkdir -p arch/arm/configs
# SLOB (both flag it), a duplicate and a conflict (both find them); the
# lines are long: over 80 columns each
printf '# CONFIG_SLUB is not set\nCONFIG_SLOB=y\nCONFIG_NET=y\nCONFIG_NET=y\nCONFIG_PRINTK=y\nCONFIG_PRINTK=n\n' >$f

# gcc's form: a column with every line, the rule tag last, nothing else
# (the tool's own status lines aside: migrate's "slubtiny: verified against
# ...", both commands' closing "slubtiny: CMD: checked N kernel configs")
gcc_form() { # what file
	awk -v f="$f" -v what="$1" '
		/^slubtiny: / { next }
		{
			loc = substr($0, 1, length(f))
			rest = substr($0, length(f) + 1)
			if (loc != f || rest !~ /^(:[0-9]+:[0-9]+)?: (warning|note|error): /) {
				print what ": not in gcc form: " $0; bad = 1
			}
			if (rest ~ /^(:[0-9]+:[0-9]+)?: warning: / && rest !~ / \[[a-z-]+(, pre-existing)?\]$/) {
				print what ": warning without its rule tag last: " $0; bad = 1
			}
			if (rest ~ /: (note|warning|error): \[/) {
				print what ": rule tag first: " $0; bad = 1
			}
			n++
		}
		END { if (!n) { print what ": no diagnostics"; bad = 1 } exit bad }' "$2" || fail=1
}

"$S" check --no-config $f >check.out 2>check.err
st=$?
[ $st = 1 ] || bad "check: exit $st, want 1"
[ -s check.out ] && bad "check: text findings on stdout: $(head -3 check.out)"
gcc_form check check.err

"$S" migrate --all $f >migrate.out 2>migrate.err
st=$?
[ $st = 1 ] || bad "migrate: exit $st, want 1"
head -1 migrate.out | grep -q '^diff --git ' || bad "migrate: stdout is not the diff"
grep -q ': \(warning\|note\): ' migrate.out && bad "migrate: diagnostics on stdout"
gcc_form migrate migrate.err
grep -q "^$f:2:1: note: CONFIG_SLOB=y -> CONFIG_SLUB_TINY=y \[slob-to-slub-tiny\]$" migrate.err ||
	bad "migrate: the rule's note: $(grep ':2:1: note' migrate.err)"

# the same findings at the same places: SLOB on line 2, the duplicate on 4,
# the conflict on 6 (the messages are each command's own)
sed -n "s|^\($f:[0-9]*:[0-9]*: warning: \).*|\1|p" check.err | sort -u >check.loc
sed -n "s|^\($f:[0-9]*:[0-9]*: warning: \).*|\1|p" migrate.err | sort -u >migrate.loc
printf '%s:%s:1: warning: \n' $f 2 $f 4 $f 6 >want.loc
cmp -s want.loc check.loc || { bad "check: warnings at"; cat check.loc; }
cmp -s want.loc migrate.loc || { bad "migrate: warnings at"; cat migrate.loc; }

# the case tests something: lines longer than 80 columns
awk 'length > 80 { n++ } END { exit n == 0 }' check.err || bad "check: no line over 80 columns"
awk 'length > 80 { n++ } END { exit n == 0 }' migrate.err || bad "migrate: no line over 80 columns"
grep -q "$(printf '\033')" check.err migrate.err && bad "colour on a pipe"

# tty CMD: what an 80-column terminal shows (stdout is sent to /dev/null by CMD)
tty() {
	SHELL=/bin/sh script -qec "stty cols 80 rows 40; $1" /dev/null | tr -d '\r'
}
uncolor() { sed 's/\x1b\[[0-9;]*[mK]//g'; }
for c in check migrate; do
	opt=--no-config
	[ $c = migrate ] && opt=--all
	(unset NO_COLOR; tty "\"$S\" $c $opt $f >/dev/null") >$c.tty
	# never wrapped: the same lines as on the pipe, only coloured
	uncolor <$c.tty | cmp -s - $c.err ||
		{ bad "$c: other lines on an 80-column terminal:"; uncolor <$c.tty | diff $c.err - | head -5; }
	grep -q "$(printf '\033')" $c.tty || bad "$c: no colour on a terminal"
	NO_COLOR=1 tty "\"$S\" $c $opt $f >/dev/null" >$c.nocolor
	cmp -s $c.nocolor $c.err || bad "$c: NO_COLOR=1 on a terminal: not the plain lines"
	# stdout a terminal, stderr a file: no colour in the file
	(unset NO_COLOR; tty "\"$S\" $c $opt $f >/dev/null 2>$t/$c.file")
	cmp -s $c.file $c.err || bad "$c: stderr to a file from a terminal: not the plain lines"
done

# gcc's own escapes: bold location, magenta "warning: ", red "error: ",
# cyan "note: ", the rule tag in the level's colour
printf 'int f(void) { int x; return 0; }\n' >w.c
gcc -Wall -fdiagnostics-color=always -c w.c -o w.o 2>gcc.err
e=$(printf '\033')
# the "warning: " line of gcc with its location and message made ours
want=$(sed -n "s|^\(${e}\[01m${e}\[Kw\.c:1:19:${e}\[m${e}\[K ${e}\[01;35m${e}\[Kwarning: ${e}\[m${e}\[K\).*|\1|p" gcc.err | head -1)
[ -n "$want" ] || bad "gcc's warning line not understood: $(cat -v gcc.err | head -2)"
want=$(printf '%s' "$want" | sed "s|w\.c:1:19:|$f:2:1:|")
grep -qF "${want}CONFIG_SLOB=y" check.tty || bad "check: not gcc's colours: $(grep ':2:1:' check.tty | head -1 | cat -v)"
grep -qF "${want}CONFIG_SLUB_TINY=y" migrate.tty || bad "migrate: not gcc's colours: $(grep ':2:1:' migrate.tty | head -2 | cat -v)"
tag=$(sed -n "s|.* \[\(${e}\[01;35m${e}\[K-Wunused-variable${e}\[m${e}\[K\)\]$|\1|p" gcc.err | head -1 |
	sed 's/-Wunused-variable/removed-allocator/')
[ -n "$tag" ] && grep -qF " [$tag]" check.tty || bad "check: the rule tag is not coloured as gcc's"
exit $fail
