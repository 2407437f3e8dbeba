#!/bin/sh
# slubtiny check --budget: limits on an object and on built allocator
# variants, judged against the numbers binutils `size` prints for the same
# files (the reference), absolute and as growth in bytes and percent.
set -u
. "$(dirname "$0")/../../lib.sh"
command -v size >/dev/null && command -v cc >/dev/null || { echo "skip: size or cc missing"; exit 77; }
st_tmpdir t
cd "$t" || exit 1
mkdir ci obj
printf 'int big[64] = { 1 };\nchar buf[4096];\nint f(int x) { return x * 3 + big[x & 63]; }\n' >obj/new.c
printf 'int big[16] = { 1 };\nchar buf[1024];\nint f(int x) { return x + big[x & 15]; }\n' >obj/old.c
cc -O1 -c obj/new.c -o obj/new.o && cc -O1 -c obj/old.c -o obj/old.o || { echo "FAIL: cc"; exit 1; }
# Berkeley text, data, bss of size(1)
set -- $(size obj/new.o | awk 'NR == 2 { print $1, $2, $3 }')
text=$1 data=$2 bss=$3
set -- $(size obj/old.o | awk 'NR == 2 { print $1, $2, $3 }')
otext=$1 odata=$2 obss=$3

budget() { printf '{"budgets": [%s]}\n' "$1" >ci/budget.json; }
expect() { # status description
	"$SLUBTINY" check --no-config --budget ci/budget.json >out 2>err; st=$?
	[ $st = "$1" ] || { echo "FAIL: $2: exit $st, want $1"; cat out err; fail=1; }
	stderr_ok "$1" "$2" text
}
# text findings go to stderr in gcc's form (stdout empty), a --format
# document to stdout with nothing on stderr; an error is one line on stderr
stderr_ok() { # status description [text]
	if [ "$1" = 2 ]; then
		[ "$(wc -l <err)" = 1 ] && grep -q '^slubtiny: ' err ||
			{ echo "FAIL: $2: stderr is not one error line:"; cat err; fail=1; }
	elif [ $# = 3 ]; then
		[ -s out ] && { echo "FAIL: $2: text findings on stdout:"; cat out; fail=1; }
		grep -Ev '^[^ :]+(:[0-9]+:[0-9]+)?: (warning|note|error): ' err &&
			{ echo "FAIL: $2: stderr has more than diagnostics"; fail=1; }
	elif [ -s err ]; then
		echo "FAIL: $2: stderr not empty:"; cat err; fail=1
	fi
}

budget "{\"object\": \"../obj/new.o\", \"max\": {\"text\": $text, \"data\": $data, \"bss\": $bss, \"total\": $((text + data + bss))}}"
expect 0 "exactly at the limits"
budget "{\"object\": \"../obj/new.o\", \"max\": {\"bss\": $((bss - 1))}}"
expect 1 "bss over"
grep -qx "ci/budget.json: warning: ci/../obj/new.o: bss is $bss bytes, over its budget of $((bss - 1)) bytes by 1 \[size-budget\]" err ||
	{ echo "FAIL: bss message"; cat err; fail=1; }
grep -q '^ci/budget.json: note: fix: ' err || { echo "FAIL: no fix hint"; fail=1; }

total=$((text + data + bss)) ototal=$((otext + odata + obss))
grew=$((total - ototal))
budget "{\"object\": \"../obj/new.o\", \"baseline\": \"../obj/old.o\", \"growth\": {\"total\": $grew}}"
expect 0 "growth at the limit"
budget "{\"object\": \"../obj/new.o\", \"baseline\": \"../obj/old.o\", \"growth\": {\"total\": $((grew - 1)), \"bss\": \"10%\"}}"
expect 1 "growth over"
grep -q "total grew from $ototal to $total bytes (+$grew, " err || { echo "FAIL: growth message"; cat err; fail=1; }
grep -q "bss grew from $obss to $bss bytes .*over the allowed growth of 10.00%" err ||
	{ echo "FAIL: percent message"; cat err; fail=1; }
"$SLUBTINY" check --no-config --budget ci/budget.json --format sarif >out.sarif 2>err
st=$?
[ $st = 1 ] || { echo "FAIL: sarif: exit $st, want 1"; fail=1; }
stderr_ok 1 sarif
grep -q '"ruleId":"size-budget"' out.sarif || { echo "FAIL: no sarif result"; fail=1; }

# the same limits inline in .slubtiny.json; paths relative to it
mkdir -p .git
printf '{"budgets": [{"object": "obj/new.o", "max": {"bss": %d}}]}\n' $((bss - 1)) >.slubtiny.json
"$SLUBTINY" check >out 2>err; st=$?
[ $st = 1 ] || { echo "FAIL: inline budgets: exit $st, want 1"; cat out err; fail=1; }
stderr_ok 1 "inline budgets" text
grep -qx "\.slubtiny\.json: warning: obj/new.o: bss is $bss bytes, over its budget of $((bss - 1)) bytes by 1 \[size-budget\]" err ||
	{ echo "FAIL: inline budget message"; cat err; fail=1; }
rm -rf .slubtiny.json .git

budget '{"object": "../obj/none.o", "max": {"text": 1}}'
expect 2 "missing object"
budget '{"object": "../obj/new.c", "max": {"text": 1}}'
expect 2 "not an ELF file"
budget '{"objekt": "x"}'
expect 2 "bad budget file"
grep -q '^slubtiny: check: ci/budget.json: budget 1: unknown key "objekt"' err || { echo "FAIL: budget error"; cat err; fail=1; }

# A variant of the bundled allocator, built by lib/build for the host.
arch=$(uname -m)
budget "{\"variant\": \"slub_tiny\", \"arch\": \"$arch\", \"max\": {\"text\": 1},
	 \"baseline\": \"slub\", \"growth\": {\"total\": 0}}"
"$SLUBTINY" check --no-config --budget ci/budget.json --builddir "$t/build" >out 2>err
st=$?
# cc is there (checked first): a missing toolchain is the tool's failure.
[ $st = 1 ] || { echo "FAIL: variant: exit $st, want 1"; cat out err; fail=1; }
stderr_ok 1 variant text
obj=$(find "$t/build" -name slub_tiny.o | head -1)
[ -n "$obj" ] || { echo "FAIL: no slub_tiny.o built"; fail=1; }
if [ -n "$obj" ]; then
	vtext=$(size "$obj" | awk 'NR == 2 { print $1 }')
	grep -q "variant slub_tiny ($arch): text is $vtext bytes, over its budget of 1 bytes" err ||
		{ echo "FAIL: variant text vs size(1) $vtext"; cat err; fail=1; }
fi
# SLUB_TINY is smaller than SLUB: no growth finding
grep -q 'grew' err && { echo "FAIL: slub_tiny grew over slub?"; cat err; fail=1; }
exit $fail
