#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# slubtiny report --attribute between slub and slub_tiny on the host: every
# option the two resolve differently gets a row; SLUB_TINY cannot move
# without EXPERT, so it is measured together with it and charged the
# difference; the costs are `size` differences of the built objects; the
# Markdown and HTML renderers show the table.
set -u
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq missing (Debian package jq)"
command -v cc >/dev/null || skip "cc missing (the host compiler report builds with)"
command -v size >/dev/null || skip "size missing (binutils)"
b=$ST_BUILDDIR/tests-report/attribute
out=$b/out
mkdir -p "$out"
host=$(host_arch)
set -- --arch "$host" --variant slub --variant slub_tiny --attribute

"$SLUBTINY" report --builddir "$b" "$@" --json >"$out/a.json" 2>"$out/err" ||
	{ cat "$out/err"; bad "report failed"; exit 1; }
# Not a terminal: no progress line, nothing at all on stderr.
[ -s "$out/err" ] && bad "stderr not empty: $(head -3 "$out/err")"
row() { jq -c --arg o "$1" '.attribution[] | select(.option == $o)' "$out/a.json"; }
for o in SLUB_TINY SLUB_DEBUG SLUB_CPU_PARTIAL EXPERT; do
	[ -n "$(row $o)" ] || bad "no attribution row for $o"
done
jq -e '[.attribution[] | has("option", "arch", "from", "to", "applied", "text", "data", "bss", "total")] | all' \
	"$out/a.json" >/dev/null || bad "attribution schema"
tiny=$(row SLUB_TINY)
echo "SLUB_TINY: $tiny"
[ "$(echo "$tiny" | jq -r '.applied')" = true ] || bad "SLUB_TINY did not take effect"
[ "$(echo "$tiny" | jq -r '.with')" = EXPERT=y ] || bad "SLUB_TINY was not paired with EXPERT=y"
[ "$(echo "$tiny" | jq -r '.text')" -lt 0 ] || bad "SLUB_TINY does not save text"
echo "$tiny" | jq -r '.also_changes' | grep -q 'SLUB_CPU_PARTIAL=n' ||
	bad "SLUB_TINY's side effects do not list SLUB_CPU_PARTIAL=n"

# Costs are differences of size(1) figures of the objects built for them.
sz() { size "$1" | awk 'NR == 2 { print $1, $2, $3 }'; }
set -- $(sz "$b/$host/slub+SLUB_TINY=y+EXPERT=y.o") $(sz "$b/$host/slub+EXPERT=y.o")
want="$(($1 - $4)) $(($2 - $5)) $(($3 - $6))"
got=$(echo "$tiny" | jq -r '"\(.text) \(.data) \(.bss)"')
[ "$got" = "$want" ] || bad "SLUB_TINY cost $got, size says $want"
cpu=$(row SLUB_CPU_PARTIAL)
set -- $(sz "$b/$host/slub+SLUB_CPU_PARTIAL=n.o") $(sz "$b/$host/slub.o")
want="$(($1 - $4)) $(($2 - $5)) $(($3 - $6))"
got=$(echo "$cpu" | jq -r '"\(.text) \(.data) \(.bss)"')
[ "$got" = "$want" ] || bad "SLUB_CPU_PARTIAL cost $got, size says $want"

# Ranked: largest |total| first among the applied rows.
jq -r '[.attribution[] | select(.applied) | (if .total < 0 then -.total else .total end)]
	| . == (sort | reverse)' "$out/a.json" | grep -qx true || bad "not ranked by cost"

set -- --arch "$host" --variant slub --variant slub_tiny --attribute
"$SLUBTINY" report --builddir "$b" "$@" --markdown >"$out/a.md" || bad "markdown"
grep -q '^| [a-z0-9_]* | `SLUB_TINY` | n→y with EXPERT=y | -' "$out/a.md" || bad "markdown row"
"$SLUBTINY" report --builddir "$b" "$@" --html "$out/a.html" >"$out/a.txt" || bad "html"
grep -q '<table id="attribution">' "$out/a.html" || bad "no attribution table in the HTML"
grep -q 'SLUB_TINY .*n->y .*(with EXPERT=y)' "$out/a.txt" || bad "text row"
exit $fail
