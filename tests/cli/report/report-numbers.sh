#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# slubtiny report over the bundled variants, host, arm and mips (when their
# cross compilers are installed): every number must be what binutils `size` says of
# the same object, every delta the difference of two of them, and every
# size-diff line what the real bloat-o-meter prints for the same pair.
# Also: on x86_64 text SLOB < SLUB_TINY < SLUB, a warm run builds nothing,
# and the JSON has the documented schema.
set -u
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq missing (Debian package jq)"
command -v cc >/dev/null || skip "cc missing (the host compiler report builds with)"
command -v size >/dev/null || skip "size missing (binutils)"
command -v nm >/dev/null || skip "nm missing (binutils)"
[ -r /usr/src/linux-source-6.12.tar.xz ] || skip "linux-source-6.12 missing (bloat-o-meter)"
command -v "${ST_PYTHON:-python3}" >/dev/null || skip "python3 missing (bloat-o-meter)"
b=$ST_BUILDDIR/tests-report/numbers
out=$b/out
mkdir -p "$out"
host=$(host_arch)
set -- --arch "$host"
# Also a 32-bit little-endian and a big-endian cross arch when installed.
command -v arm-linux-gnueabi-gcc >/dev/null && set -- "$@" --arch arm
command -v mips-linux-gnu-gcc >/dev/null && set -- "$@" --arch mips

# Preconditions are checked above: from here on a failure of the tool fails.
"$SLUBTINY" report --builddir "$b" "$@" --json >"$out/r.json" 2>"$out/err" ||
	{ cat "$out/err"; bad "report failed"; exit 1; }
# Not a terminal: no progress line, nothing at all on stderr (the log's
# lines every few seconds are off in the test environment).
[ -s "$out/err" ] && bad "stderr not empty: $(head -3 "$out/err")"
jq -e '.baseline == "slub" and (.results | length) >= 4 and (.skipped | type) == "array"' \
	"$out/r.json" >/dev/null || bad "JSON schema"
jq -e '[.results[] | has("variant", "arch", "text", "data", "bss", "total", "delta_total")]
	| all' "$out/r.json" >/dev/null || bad "a result lacks a schema field"

# size(1) of every object equals the report's text/data/bss/total.
n=0
jq -r '.results[] | "\(.arch) \(.variant) \(.text) \(.data) \(.bss) \(.total) \(.delta_total) \(.object)"' \
	"$out/r.json" >"$out/rows"
while read -r arch variant text data bss total delta obj; do
	ref=$(size "$obj" | awk 'NR == 2 { print $1, $2, $3, $4 }')
	[ "$ref" = "$text $data $bss $total" ] ||
		bad "$arch $variant: size says '$ref', report '$text $data $bss $total'"
	btotal=$(awk -v a="$arch" '$1 == a && $2 == "slub" { print $6 }' "$out/rows")
	[ "$delta" = $((total - btotal)) ] || bad "$arch $variant: delta $delta != $total - $btotal"
	n=$((n + 1))
done <"$out/rows"
[ "$n" -ge 4 ] || bad "only $n results"
# Every arch asked for, whose compiler is installed, has its results.
for arch in $(echo "$@" | sed 's/--arch//g'); do
	grep -q "^$arch slub " "$out/rows" || bad "$arch: no results ($(jq -c .skipped "$out/r.json"))"
done
jq -e '.skipped == []' "$out/r.json" >/dev/null || bad "skipped: $(jq -c .skipped "$out/r.json")"

# On x86_64 the allocator must show the kernel's ordering.
if [ "$host" = x86_64 ]; then
	t() { jq -r --arg v "$1" '.results[] | select(.arch == "x86_64" and .variant == $v) | .text' "$out/r.json"; }
	slob=$(t slob) tiny=$(t slub_tiny) slub=$(t slub)
	echo "x86_64 text: slob $slob slub_tiny $tiny slub $slub"
	[ "$slob" -lt "$tiny" ] && [ "$tiny" -lt "$slub" ] ||
		bad "x86_64 text order is not SLOB < SLUB_TINY < SLUB ($slob $tiny $slub)"
fi

# The size-diff lines against the real bloat-o-meter.
"$SLUBTINY" report --builddir "$b" "$@" >"$out/r.txt" 2>"$out/err" || bad "text report failed"
[ -s "$out/err" ] && bad "text report: stderr not empty: $(head -3 "$out/err")"
get_bom || { bad "cannot extract bloat-o-meter from linux-source-6.12"; exit 1; }
{
	bomrun() { PATH=$out/bin:$PATH ${ST_PYTHON:-python3} "$bom" "$1" "$2"; }
	mkdir -p "$out/bin"
	for arch in $host arm mips; do
		grep -q "^$arch " "$out/rows" || continue
		pre=
		[ "$arch" = arm ] && pre=arm-linux-gnueabi-
		[ "$arch" = mips ] && pre=mips-linux-gnu-
		ln -sf "$(command -v "${pre}nm" || command -v nm)" "$out/bin/nm"
		for v in slob slub_tiny slub_debug slub_sheaves; do
			old=$b/$arch/slub.o new=$b/$arch/$v.o
			bomrun "$old" "$new" >"$out/bom-$arch-$v" 2>/dev/null ||
				{ bad "bloat-o-meter failed on $arch $v"; continue; }
			"$SLUBTINY" size-diff "$old" "$new" >"$out/sd-$arch-$v" || bad "size-diff $arch $v"
			cmp -s "$out/bom-$arch-$v" "$out/sd-$arch-$v" || bad "size-diff != bloat-o-meter, $arch $v"
			sum=$(head -1 "$out/bom-$arch-$v")
			grep -qxF "  $(printf '%-9s' "$arch") $sum" "$out/r.txt" ||
				bad "$arch $v: summary '$sum' not in the report"
			js=$(jq -r --arg a "$arch" --arg v "$v" '.results[] | select(.arch == $a and .variant == $v)
				| .size_diff | "add/remove: \(.add)/\(.remove) grow/shrink: \(.grow)/\(.shrink) up/down: \(.up)/\(.down) (\(.up + .down))"' "$out/r.json")
			[ "$js" = "$sum" ] || bad "$arch $v: JSON summary '$js' != '$sum'"
		done
	done
	# The symbol rows and the Total line printed for the host are bloat-o-meter's lines.
	for v in slob slub_tiny slub_debug slub_sheaves; do
		sed -n "/^$v vs slub/,/^Total:/p" "$out/r.txt" | sed -n '/^Function/,/^Total:/p' |
			sed '1d' >"$out/rows-$v"
		[ -s "$out/rows-$v" ] || { bad "no symbol rows for $v"; continue; }
		while IFS= read -r line; do
			grep -qxF "$line" "$out/bom-$host-$v" || bad "$v: '$line' is not a bloat-o-meter line"
		done <"$out/rows-$v"
	done
}

# Each percentage says what it is of, and each variant what its defconfig
# turns on: the slub baseline has SLAB_FREELIST_RANDOM and _HARDENED, which
# slub_debug lacks (why slub_debug can come out smaller than slub).
grep -qxF "delta = total - slub's total on the same arch; % = delta in % of slub's total" \
	"$out/r.txt" || bad "text: the delta and its % are not labelled"
grep -qxF "text section (bytes), and its change in % of slub's text on the same arch:" "$out/r.txt" ||
	bad "text: the text matrix's % is not labelled"
[ "$(grep -c "^[a-z_]* vs slub (bloat-o-meter: symbol sizes; chg % is of slub's symbol total):\$" \
	"$out/r.txt")" = 4 ] || bad "text: bloat-o-meter's chg % is not labelled"
jq -e '[.options[] | select(.option == "SLAB_FREELIST_RANDOM" or .option == "SLAB_FREELIST_HARDENED")
	| .values.slub == "y" and .values.slub_debug == "n"] | length == 2 and all' "$out/r.json" \
	>/dev/null || bad "JSON: options lack the baseline's FREELIST_RANDOM/HARDENED"
jq -e '(.options | map(.option) | index("SLUB_TINY")) != null and
	(.options | map(.option) | index("SLUB_SHEAVES")) != null and
	all(.options[]; (.values | keys | length) == 5)' "$out/r.json" >/dev/null ||
	bad "JSON: options lack SLUB_TINY or a variant's value"
grep -q '^Options that differ between the variants (resolved .config; n = not set):$' "$out/r.txt" &&
	grep -Eq '^SLAB_FREELIST_HARDENED +y +' "$out/r.txt" ||
	bad "text: no table of the options that differ"
sed -n '/^slub_debug vs slub/,/^Total:/p' "$out/r.txt" |
	grep -q '^  options: .*SLAB_FREELIST_RANDOM y->n, SLAB_FREELIST_HARDENED y->n.*SLUB_DEBUG_ON n->y' ||
	bad "text: slub_debug vs slub does not say which options differ"

# Warm: nothing is rebuilt.
"$SLUBTINY" build --builddir "$b" "$@" --json >"$out/b.json" || bad "warm build failed"
jq -e '.jobs_run == 0' "$out/b.json" >/dev/null || bad "warm build ran $(jq .jobs_run "$out/b.json") jobs"

# On a terminal (script(1) makes one) a progress line is drawn, then
# erased (at once: a warm build takes less than the default second).
if command -v script >/dev/null; then
	SLUBTINY_PROGRESS_DELAY=0 script -qec "'$SLUBTINY' build --builddir '$b' --arch $host" \
		/dev/null >"$out/tty" 2>&1
	grep -q "$(printf '\r')build: [0-9]*/[0-9]* " "$out/tty" || bad "no progress line on a terminal"
fi

# Markdown: a table row per result.
"$SLUBTINY" report --builddir "$b" "$@" --markdown >"$out/r.md" || bad "markdown failed"
[ "$(grep -c '^| [a-z0-9_]* | [a-z_]* | [0-9]' "$out/r.md")" = "$n" ] || bad "markdown rows"
grep -q '^| `SLAB_FREELIST_RANDOM` | y | ' "$out/r.md" || bad "markdown: no options table"
exit $fail
