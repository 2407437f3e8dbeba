#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark of slubtiny size-diff against the real scripts/bloat-o-meter
# (Linux 6.12) and one `nm --size-sort` of the new file, in the same run:
#   1. Debian's libLLVM-14.so.1 vs libLLVM-15.so.1 (installed here when
#      missing and running as root: packages libllvm14 libllvm15);
#   2. a generated pair of objects with 250,000 sized symbols each.
# Prints wall time (best of $RUNS), CPU time and peak RSS of each, the
# ratios, and whether the targets hold: >= 20x faster than bloat-o-meter,
# faster than the single nm, <= half of bloat-o-meter's peak RSS.
# Exit 1 only when slubtiny's output differs from bloat-o-meter's.
set -u
: "${SLUBTINY:?}" "${ST_BUILDDIR:?}"
here=$(cd "$(dirname "$0")" && pwd)
work=$ST_BUILDDIR/tests/bench/size-diff
RUNS=${RUNS:-3}
NSYMS=${NSYMS:-250000}
mkdir -p "$work"
export LC_ALL=C

need_pkg() { # package...
	missing=
	for p; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" = 0 ]; then
		echo "bench: installing$missing" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
			{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
				--no-install-recommends $missing >/dev/null; }
	fi
}
need_pkg time libllvm14 libllvm15 binutils python3 xz-utils linux-source-6.12
[ -x /usr/bin/time ] || { echo "SKIP: /usr/bin/time missing (package time)"; exit 77; }

bom=$ST_BUILDDIR/tests/diff/sizes/ref/bloat-o-meter
if [ ! -s "$bom" ]; then
	mkdir -p "${bom%/*}/tmp.bench"
	tar -C "${bom%/*}/tmp.bench" -xJf /usr/src/linux-source-6.12.tar.xz --wildcards '*/scripts/bloat-o-meter' &&
		mv "$(find "${bom%/*}/tmp.bench" -name bloat-o-meter | head -1)" "$bom"
	rm -rf "${bom%/*}/tmp.bench"
fi
[ -s "$bom" ] || { echo "SKIP: bloat-o-meter not available (linux-source-6.12)"; exit 77; }

# The generated pair: assembled once, kept in the build dir.
if [ ! -s "$work/gen-new.o" ]; then
	for v in 1 2; do
		awk -v n="$NSYMS" -v v=$v -f "$here/gen-syms.awk" >"$work/gen.s" &&
			as "$work/gen.s" -o "$work/gen-$v.o" || exit 1
	done
	mv "$work/gen-1.o" "$work/gen-old.o"
	mv "$work/gen-2.o" "$work/gen-new.o"
	rm -f "$work/gen.s"
fi

# measure NAME command...: best wall time of $RUNS, its CPU time, max RSS
measure() {
	name=$1; shift
	best= cpu= rss=0
	i=0
	while [ $i -lt "$RUNS" ]; do
		/usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >"$work/out.$name" 2>/dev/null
		read -r w u s m <"$work/time"
		c=$(echo "$u + $s" | bc)
		if [ -z "$best" ] || [ "$(echo "$w < $best" | bc)" = 1 ]; then best=$w cpu=$c; fi
		[ "$m" -gt "$rss" ] && rss=$m
		i=$((i + 1))
	done
	eval "t_$name=$best c_$name=$cpu m_$name=$rss"
}

ratio() { echo "scale=1; $1 / ($2 + 0.005)" | bc; }

status=0
bench() { # label old new
	label=$1 old=$2 new=$3
	measure st "$SLUBTINY" size-diff "$old" "$new"
	measure bom python3 "$bom" "$old" "$new"
	measure nm nm --size-sort "$new"
	nsym=$(wc -l <"$work/out.nm")
	same=identical
	cmp -s "$work/out.st" "$work/out.bom" || { same=DIFFERENT; status=1; }
	printf '\n%s (%s symbols in nm --size-sort of the new file; output %s)\n' "$label" "$nsym" "$same"
	printf '  %-26s %9s %9s %10s\n' "" "wall s" "cpu s" "peak RSS"
	printf '  %-26s %9s %9s %7s MB\n' "slubtiny size-diff" "$t_st" "$c_st" $((m_st / 1024)) \
		"bloat-o-meter" "$t_bom" "$c_bom" $((m_bom / 1024)) \
		"nm --size-sort NEW" "$t_nm" "$c_nm" $((m_nm / 1024))
	sp=$(ratio "$t_bom" "$t_st") spc=$(ratio "$c_bom" "$c_st")
	nmr=$(ratio "$t_nm" "$t_st") nmc=$(ratio "$c_nm" "$c_st")
	mem=$(echo "scale=2; $m_st / $m_bom" | bc)
	ok() { [ "$(echo "$1" | bc)" = 1 ] && echo met || echo "NOT met"; }
	printf '  speed vs bloat-o-meter: %sx wall, %sx cpu (target >= 20x: %s)\n' "$sp" "$spc" "$(ok "$sp >= 20")"
	printf '  speed vs one nm:        %sx wall, %sx cpu (target > 1x: %s)\n' "$nmr" "$nmc" "$(ok "$nmr > 1")"
	printf '  peak RSS / bloat-o-meter: %s (target <= 0.5: %s)\n' "$mem" "$(ok "$mem <= 0.5")"
}

llvm14=$(ls /usr/lib/x86_64-linux-gnu/libLLVM-14.so.1 /usr/lib/*/libLLVM-14.so.1 2>/dev/null | head -1)
llvm15=$(ls /usr/lib/x86_64-linux-gnu/libLLVM-15.so.1 /usr/lib/*/libLLVM-15.so.1 2>/dev/null | head -1)
if [ -n "$llvm14" ] && [ -n "$llvm15" ]; then
	bench "libLLVM-14.so.1 vs libLLVM-15.so.1" "$llvm14" "$llvm15"
	echo "  (Debian strips .symtab from libLLVM: nm lists no symbols, both tools compare empty sets)"
else
	echo "libLLVM-14/15 not installed (run as root to install libllvm14 libllvm15): skipped"
fi
bench "generated pair, $NSYMS symbols" "$work/gen-old.o" "$work/gen-new.o"
exit $status
