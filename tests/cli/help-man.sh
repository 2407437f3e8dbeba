#!/bin/sh
# The man page must name every command and every option that --help lists.
set -u
man=$ST_SRCDIR/doc/slubtiny.1
fail=0
cmds=$("$SLUBTINY" --help | sed -n 's/^  \([a-z-]*\) .*/\1/p')
[ -n "$cmds" ] || { echo "no commands in --help"; exit 1; }
for c in $cmds; do
	esc=$(printf '%s' "$c" | sed 's/-/\\\\-/g')
	grep -q "^\.B $esc\$" "$man" || { echo "man page lacks command $c"; fail=1; }
	[ "$c" = help ] && continue
	opts=$("$SLUBTINY" "$c" --help | head -1 | sed "s/^Usage: slubtiny $c //" | grep -o -- '--\?[A-Za-z][A-Za-z-]*' | sort -u)
	sect=$(sed -n "/^\.SS $esc\$/{n;p}" "$man" | sed 's/\\-/-/g')
	for o in $opts; do
		case " $sect " in
		*" $o "*) ;;
		*) echo "man page lacks $c $o"; fail=1 ;;
		esac
	done
done
exit $fail
