#!/bin/sh
# A trace the format accepts (sizes up to 64 MiB) but a variant cannot
# replay (its kmalloc takes at most 4 MiB, its page arena is 64 MiB): one
# error naming the trace's line (text) or record (binary) and the op, exit
# 2, from `slubtiny footprint` and from the replay executable alike; glibc
# malloc replays the same trace.
#
#	replay-limits.sh REPLAY_DIR
set -u
dir=$1
. "$(dirname "$0")/tap.sh"

printf 'slubtrace 1\n# one request over 4 MiB\nkmalloc 1 64\nkmalloc 2 8388608\nfree 1\n' \
	>"$tmp/big.trace"
# SLTB, version 1, kmalloc 64, kmalloc 8388608 (at offset 7), end
printf 'SLTB\001\005\100\005\200\200\200\004\000' >"$tmp/big.sltb"
# 20 objects of 4 MiB live: more than the arena
awk 'BEGIN { print "slubtrace 1"; for (i = 0; i < 20; i++) print "kmalloc " i " 4194304" }' \
	>"$tmp/live.trace"

limits="out of memory (a kmalloc takes at most 4 MiB, and the variant has 64 MiB of pages)"

fp() { # name trace expected-stderr-regex
	"$SLUBTINY" footprint --variant slub --trace "$2" --time-ms 1 >"$tmp/out" 2>"$tmp/err"
	st=$?
	t "$1: exit 2" $([ $st = 2 ]; echo $?)
	t "$1: one line on stderr" $([ "$(wc -l <"$tmp/err")" = 1 ]; echo $?)
	t "$1: names the place and the op" $(grep -Eq "$3" "$tmp/err"; echo $?)
	t "$1: nothing on stdout" $([ ! -s "$tmp/out" ]; echo $?)
	[ $fail = 0 ] || { cat "$tmp/err"; cat "$tmp/out"; } >&2
}

fp "text, 8 MiB kmalloc" "$tmp/big.trace" \
	"^slubtiny: .*/big\.trace:4: kmalloc of 8388608 bytes failed on slub: $(echo "$limits" | sed 's/[()]/\\&/g')\$"
fp "binary, 8 MiB kmalloc" "$tmp/big.sltb" \
	"^slubtiny: .*/big\.sltb:\+7: kmalloc of 8388608 bytes failed on slub: out of memory"
fp "80 MiB live" "$tmp/live.trace" \
	"^slubtiny: .*/live\.trace:1[0-9]: kmalloc of 4194304 bytes failed on slub: out of memory"

"$dir/st-replay-slub" --time-ms 1 "$tmp/big.trace" >"$tmp/out" 2>"$tmp/err"
st=$?
t "st-replay-slub: exit 2, one line naming line and op" \
	$([ $st = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	  grep -q "^st-replay-slub: $tmp/big.trace:4: kmalloc of 8388608 bytes failed on slub: out of memory" "$tmp/err"; echo $?)
[ $fail = 0 ] || cat "$tmp/err" >&2

"$SLUBTINY" footprint --variant glibc --trace "$tmp/big.trace" --time-ms 1 >"$tmp/out" 2>"$tmp/err"
st=$?
t "glibc replays it: exit 0, nothing on stderr" $([ $st = 0 ] && [ ! -s "$tmp/err" ]; echo $?)
echo "1..$n"
exit $fail
