#!/bin/sh
# The man page and --help come from different hands: the man page must name
# every command, describe every option --help lists (a .TP entry under the
# command's .SS), and list every variable the sources read from the
# environment; --help must describe every option in one line and give
# examples; check --help must list every rule id check --list-rules knows.
set -u
man=$ST_SRCDIR/doc/slubtiny.1
fail=0
err() { echo "FAIL: $*"; fail=1; }

out=$("$SLUBTINY" --help 2>/tmp/st-hm.$$); st=$?
[ $st = 0 ] || err "--help exits $st"
[ -s /tmp/st-hm.$$ ] && err "--help wrote to stderr: $(cat /tmp/st-hm.$$)"
cmds=$(printf '%s\n' "$out" | sed -n 's/^  \([a-z-]*\) .*/\1/p')
[ -n "$cmds" ] || { echo "no commands in --help"; exit 1; }

# The troff text of section .SS $1 (up to the next .SS or .SH), dashes plain.
section() {
	awk -v s="$1" '/^\.S[SH] / { on = ($0 == ".SS " s) ; next } on' "$man" | sed 's/\\-/-/g'
}

for sh in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS EXAMPLES FILES ENVIRONMENT "EXIT STATUS"; do
	grep -q "^\.SH \"\?$sh\"\?\$" "$man" || err "man page lacks section $sh"
done

for c in $cmds; do
	esc=$(printf '%s' "$c" | sed 's/-/\\\\-/g')
	grep -q "^\.B $esc\$" "$man" || err "man page lacks command $c"
	case $c in help|completion) continue ;; esac
	help=$("$SLUBTINY" "$c" --help 2>/tmp/st-hm.$$); st=$?
	[ $st = 0 ] || err "$c --help exits $st"
	[ -s /tmp/st-hm.$$ ] && err "$c --help wrote to stderr"
	# Option lines: "  -x, --name ARG   help" or "      --name ARG" (help may wrap).
	opts=$(printf '%s\n' "$help" | sed -n -e 's/^  \(-[A-Za-z]\), \(--[a-z][a-z-]*\).*/\1 \2/p' \
		-e 's/^  \(-[A-Za-z]\)  .*/\1/p' -e 's/^  \(-[A-Za-z]\)$/\1/p' \
		-e 's/^      \(--[a-z][a-z-]*\).*/\1/p' | tr ' ' '\n' | grep -v '^$' | sort -u)
	[ -n "$opts" ] || err "$c --help lists no options"
	printf '%s\n' "$help" | grep -q '^Examples:$' || err "$c --help has no examples"
	printf '%s\n' "$help" | awk 'length > 80 { exit 1 }' || err "$c --help has lines over 80 columns"
	sect=$(section "$esc")
	[ -n "$sect" ] || err "man page lacks .SS $c"
	for o in $opts; do
		[ "$o" = -h ] || [ "$o" = --help ] && continue
		# The option starts a .TP tag line: .B -x, .BI "-x " N, .B -x ", " --name ...
		printf '%s\n' "$sect" | grep -A1 '^\.TP$' | grep -q -- "^\.B[IR]* .*$o\($\|[ \",]\)" ||
			err "man page: $c lacks an entry for $o"
	done
done

# check --help names every rule id.
for r in $("$SLUBTINY" check --list-rules | sed -n 's/^\([a-z][a-z-]*\)$/\1/p'); do
	"$SLUBTINY" check --help | grep -q "^  $r " || err "check --help lacks rule $r"
	sed 's/\\-/-/g' "$man" | grep -q "$r" || err "man page lacks rule $r"
done
[ "$("$SLUBTINY" check --list-rules | grep -c '^[a-z]')" -ge 10 ] || err "check --list-rules lists too few rules"

# Every variable read with getenv() is documented under ENVIRONMENT.
envs=$(grep -rhoE 'getenv\("[A-Z_]+"\)' "$ST_SRCDIR/cli" "$ST_SRCDIR/lib" |
	sed 's/getenv("\(.*\)")/\1/' | sort -u)
[ -n "$envs" ] || err "found no getenv() in the sources"
envsect=$(awk '/^\.SH / { on = ($0 == ".SH ENVIRONMENT") ; next } on' "$man")
for v in $envs; do
	printf '%s\n' "$envsect" | grep -q "^\.B $v\$" || err "man page ENVIRONMENT lacks $v"
done

# The page formats without a single troff warning, as man(1) shows it on an
# 80-column terminal and as groff does (a warning is a line that overflows
# or a request gone wrong, on every user's screen).
gen=$ST_BUILDDIR/doc/slubtiny.1
[ -f "$gen" ] || err "no generated man page $gen"
for page in "$man" "$gen"; do
	if command -v man >/dev/null 2>&1; then
		MANWIDTH=80 man --warnings -l "$page" 2>/tmp/st-hm.$$ >/dev/null ||
			err "man -l $page fails"
		[ -s /tmp/st-hm.$$ ] && err "man --warnings -l $page: $(cat /tmp/st-hm.$$)"
	else
		echo "SKIP: no man(1): not checked for warnings as man shows the page"
	fi
	if command -v groff >/dev/null 2>&1; then
		groff -man -ww -Tutf8 -z "$page" 2>/tmp/st-hm.$$ || err "groff $page fails"
		[ -s /tmp/st-hm.$$ ] && err "groff -ww $page: $(cat /tmp/st-hm.$$)"
	else
		echo "SKIP: no groff: not checked for troff warnings"
	fi
done

# FILES names the data and completion directories of this build's prefix and
# datadir (meson's own record of them), and of the default install in the
# source page.
dirs=$("$ST_PYTHON" -c 'import json, os, sys
o = {x["name"]: x["value"] for x in json.load(open(sys.argv[1]))}
print(os.path.join(o["prefix"], o["datadir"]))' "$ST_BUILDDIR/meson-info/intro-buildoptions.json") ||
	err "cannot read prefix and datadir from meson-info"
files() { awk '/^\.SH / { on = ($0 == ".SH FILES") ; next } on' "$1" | sed 's/\\-/-/g'; }
for f in slubtiny/ bash-completion/completions/slubtiny zsh/site-functions/_slubtiny; do
	files "$gen" | grep -qx "\.I $dirs/$f" || err "generated man page FILES lacks $dirs/$f"
	files "$man" | grep -qx "\.I /usr/local/share/$f" || err "man page FILES lacks /usr/local/share/$f"
done
rm -f /tmp/st-hm.$$
exit $fail
