#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# slubtiny report --html, rendered for real by headless Chromium: the PNG
# must have the window's size and be far from blank (compared with a blank
# page rendered in the same run), and the DOM Chromium built must hold the
# report's table, charts and numbers. Skipped (77) without chromium.
set -u
. "$(dirname "$0")/lib.sh"
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || skip "chromium missing (Debian package chromium)"
command -v jq >/dev/null || skip "jq missing (Debian package jq)"
command -v cc >/dev/null || skip "cc missing (the host compiler report builds with)"
b=$ST_BUILDDIR/tests-report/html
out=$b/out
rm -rf "$out"
mkdir -p "$out"
host=$(host_arch)

"$SLUBTINY" report --builddir "$b" --arch "$host" --variant slub --variant slub_tiny \
	--variant slob --html "$out/r.html" --json >"$out/r.json" 2>"$out/err" ||
	{ cat "$out/err"; bad "report failed"; exit 1; }
# Not a terminal: no progress line, nothing at all on stderr.
[ -s "$out/err" ] && bad "stderr not empty: $(head -3 "$out/err")"
[ -s "$out/r.html" ] || bad "no HTML written"
grep -qi -e '<script' -e 'src="http' -e "href=\"http" -e '@import' "$out/r.html" &&
	bad "page is not self-contained"
printf '<!DOCTYPE html><html><body></body></html>\n' >"$out/blank.html"

# Every run gets a new empty profile; nothing may reach the network.
render() { # html png
	prof=$(mktemp -d "$out/profile.XXXXXX")
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$prof" --hide-scrollbars \
		--window-size=1024,1400 --screenshot="$2" "file://$1" >"$out/chromium.log" 2>&1
	rm -rf "$prof"
}
dump() { # html > dom
	prof=$(mktemp -d "$out/profile.XXXXXX")
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$prof" --dump-dom "file://$1" 2>>"$out/chromium.log"
	rm -rf "$prof"
}

render "$out/r.html" "$out/r.png"
render "$out/blank.html" "$out/blank.png"
[ -s "$out/r.png" ] || { cat "$out/chromium.log"; bad "no screenshot"; exit 1; }

# PNG signature, then IHDR width and height (big-endian, bytes 16-23).
sig=$(od -An -tx1 -N8 "$out/r.png" | tr -d ' \n')
[ "$sig" = 89504e470d0a1a0a ] || bad "not a PNG ($sig)"
wh=$(od -An -tu1 -j16 -N8 "$out/r.png" | awk '{ print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }')
[ "$wh" = "1024 1400" ] || bad "PNG is $wh, want 1024 1400"
# Non-blank: text, tables and bars compress far worse than an empty page.
rs=$(wc -c <"$out/r.png") bs=$(wc -c <"$out/blank.png")
echo "png: report $rs bytes, blank page $bs bytes"
[ "$rs" -gt $((bs * 5)) ] || bad "screenshot looks blank ($rs vs blank $bs bytes)"

dump "$out/r.html" >"$out/dom.html"
grep -q '<table id="sizes">' "$out/dom.html" || bad "no size table in the DOM"
grep -q '<svg id="chart-sizes"' "$out/dom.html" || bad "no chart in the DOM"
grep -q '<svg id="chart-text-pct"' "$out/dom.html" || bad "no percent chart in the DOM"
[ "$(grep -c '<rect ' "$out/dom.html")" -ge 9 ] || bad "too few bars in the chart"
grep -q 'slub_tiny vs slub on' "$out/dom.html" || bad "no symbol table in the DOM"
for v in slub slub_tiny slob; do
	t=$(jq -r --arg v "$v" '.results[] | select(.variant == $v) | .text' "$out/r.json")
	grep -q "<td class=\"n\">$t</td>" "$out/dom.html" || bad "$v text $t not in the DOM"
done
exit $fail
