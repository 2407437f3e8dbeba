#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Every report says what it measured, first: `report` (text, Markdown,
# HTML, JSON) that slubtiny's bundled user-space allocator, with which
# compiler per arch; `report --objects` the files given; `footprint` that
# its replays ran on the bundled allocator, not in a kernel. (The kernel's
# report: tests/cli/kernel/kernel-toolchain.sh.) Each run exits 0 with
# nothing on stderr; the bloat-o-meter lines are report-numbers' business.
set -u
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq missing (Debian package jq)"
command -v cc >/dev/null || skip "cc missing (the host compiler report builds with)"
b=$ST_BUILDDIR/tests-report/measured
out=$b/out
rm -rf "$out"
mkdir -p "$out"
host=$(host_arch)
bundled="slubtiny's bundled user-space slab allocator (lib/slab, built per variant from defconfigs/), not a kernel's slab objects (slubtiny kernel --srctree DIR measures those)"

# run NAME ARGS...: slubtiny ARGS into $out/NAME.out, exit 0 and no stderr.
run() {
	name=$1
	shift
	"$SLUBTINY" "$@" >"$out/$name.out" 2>"$out/$name.err"
	st=$?
	[ $st = 0 ] || bad "$name: exit $st: $(head -3 "$out/$name.err")"
	[ -s "$out/$name.err" ] && bad "$name: stderr: $(head -3 "$out/$name.err")"
	[ -s "$out/$name.out" ] || bad "$name: nothing on stdout"
}
line() { sed -n "$2p" "$out/$1.out"; }

# The bundled allocator, every format of one build.
args="report --builddir $b --arch $host --variant slub --variant slub_tiny"
run text $args
run md $args --markdown
run json $args --json
run html $args --html "$out/r.html"
# The host's compiler, as build takes it: $CC, else gcc.
cc=${CC:-gcc}
[ "$(line text 1)" = "Measured: $bundled" ] || bad "text: line 1: $(line text 1)"
[ "$(line text 2)" = "Compilers: $host $cc" ] || bad "text: line 2: $(line text 2)"
[ "$(line md 3)" = "- **Measured:** $bundled" ] || bad "markdown: line 3: $(line md 3)"
[ "$(line md 4)" = "- **Compilers:** $host $cc" ] || bad "markdown: line 4: $(line md 4)"
j=$out/json.out
[ "$(jq -r .measured.subject "$j")" = bundled-allocator ] ||
	bad "json: subject $(jq -c .measured "$j")"
[ "$(jq -r .measured.summary "$j")" = "$bundled" ] || bad "json: summary $(jq -c .measured "$j")"
[ "$(jq -r --arg a "$host" '.measured.compilers[$a]' "$j")" = "$cc" ] ||
	bad "json: compilers $(jq -c .measured.compilers "$j")"
[ "$(jq -r .measured.defconfig "$j")" = null ] || bad "json: defconfig $(jq -c .measured "$j")"
[ "$(jq -r .measured.objects "$j")" != null ] || bad "json: no objects"
# HTML: the sentence right under the title, the apostrophe escaped or not.
grep -q '^<p id="measured"><b>Measured:</b> slubtiny.*s bundled user-space slab allocator (lib/slab' \
	"$out/r.html" || bad "html: no measured line: $(grep -m3 '<p' "$out/r.html")"
m=$(grep -n 'id="measured"' "$out/r.html" | cut -d: -f1)
tab=$(grep -n '<table' "$out/r.html" | head -1 | cut -d: -f1)
[ "${m:-9999}" -lt "${tab:-0}" ] || bad "html: measured line not before the first table"
grep -q "^<p id=\"compilers\"><b>Compilers:</b> $host $cc</p>\$" "$out/r.html" ||
	bad "html: no compilers line"

# --objects: the files as given, no compiler named.
echo 'int a[10];' | cc -c -x c -o "$out/a.o" - && echo 'int a[20];' | cc -c -x c -o "$out/b.o" - ||
	{ bad "cc cannot make the objects"; exit 1; }
run objects report --objects "a=$out/a.o" "b=$out/b.o"
run objects-json report --objects "a=$out/a.o" "b=$out/b.o" --json
[ "$(line objects 1)" = "Measured: the ELF files given (--objects), as they are" ] ||
	bad "objects: line 1: $(line objects 1)"
[ -z "$(line objects 2)" ] || bad "objects: line 2 names compilers: $(line objects 2)"
[ "$(jq -r '.measured | "\(.subject) \(.compilers | length)"' "$out/objects-json.out")" = "objects 0" ] ||
	bad "objects json: $(jq -c .measured "$out/objects-json.out")"

# footprint: the replays ran on the bundled allocator.
run trace footprint gen boot
run fp footprint --trace "$out/trace.out" --variant slub_tiny
run fp-json footprint --trace "$out/trace.out" --variant slub_tiny --json
fp="slubtiny's bundled user-space allocator (lib/slab), not a kernel"
[ "$(line fp 1)" = "Measured: $fp" ] || bad "footprint: line 1: $(line fp 1)"
[ "$(jq -r '.measured | "\(.subject): \(.summary)"' "$out/fp-json.out")" = "bundled-allocator: $fp" ] ||
	bad "footprint json: $(jq -c .measured "$out/fp-json.out")"
exit $fail
