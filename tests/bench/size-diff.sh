#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark of slubtiny size-diff against the real scripts/bloat-o-meter
# (Linux 6.12) and one `nm --size-sort` of the new file, in the same run:
#   1. two large static archives made from Debian packages: every
#      libLLVM*.a of llvm-14-dev merged into one archive, the same for
#      llvm-15-dev (about 255 and 277 MB, thousands of members; installed
#      here when missing and running as root, else this pair is skipped);
#   2. a generated pair of objects with $NSYMS sized symbols each.
# The three commands run in turn, $RUNS rounds (so that a change of the
# machine's load falls on all three alike); slubtiny, being fast, runs
# $ST_REPS times in a row per round and counts as their mean, so that its
# CPU time is well above the 10 ms resolution of /usr/bin/time. Each
# command's time is the median over the rounds, of wall time (a nanosecond
# clock) and of CPU time (user + system, from /usr/bin/time) separately;
# peak RSS is the largest seen. A ratio whose divisor is below the clock's
# useful resolution (1 ms of wall time, 10 ms of CPU time summed over a
# round) is printed as "below resolution", never as a number; a pair where
# nm lists no sized symbol is reported as "nothing to compare" with no
# ratios at all. The load average is printed before and after.
# Targets on the large pair: >= 20x faster than bloat-o-meter, faster than
# the single nm, peak RSS <= 0.5x bloat-o-meter's.
# Exit 1 only when slubtiny's output differs from bloat-o-meter's.
set -u
: "${SLUBTINY:?}" "${ST_BUILDDIR:?}" "${ST_SRCDIR:?}"
here=$(cd "$(dirname "$0")" && pwd)
work=$ST_BUILDDIR/tests/bench/size-diff
RUNS=${RUNS:-5}
ST_REPS=${ST_REPS:-5}
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
need_pkg time llvm-14-dev llvm-15-dev binutils python3 xz-utils linux-source-6.12
[ -x /usr/bin/time ] || { echo "SKIP: /usr/bin/time missing (package time)"; exit 77; }
. "$ST_SRCDIR/tests/bom.sh"
get_bom || { echo "SKIP: bloat-o-meter not available (linux-source-6.12)"; exit 77; }

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

# llvm-V.a: every libLLVM*.a of llvm-V-dev in one archive (ar -M keeps the
# members as they are), rebuilt when the package's files change.
merge_llvm() { # version
	v=$1 out=$work/llvm-$1.a
	set -- /usr/lib/llvm-"$v"/lib/libLLVM*.a
	[ -f "$1" ] || return 1
	key=$(ls -l "$@" | cksum)
	[ -s "$out" ] && [ "$(cat "$out.key" 2>/dev/null)" = "$key" ] && return 0
	{ echo "create $out.tmp"; for a; do echo "addlib $a"; done; echo save; echo end; } |
		ar -M >/dev/null || { rm -f "$out.tmp"; return 1; }
	mv "$out.tmp" "$out" && echo "$key" >"$out.key"
}

now_ns() { date +%s%N; }

# once NAME REPS command...: one round of NAME, REPS runs in a row; appends
# "wall-ns cpu-s" (means over the runs) to $work/t.NAME, keeps the max RSS
once() {
	name=$1 reps=$2
	shift 2
	i=0 cpu=0
	t0=$(now_ns)
	while [ $i -lt "$reps" ]; do
		/usr/bin/time -f '%U %S %M' -o "$work/time" "$@" >"$work/out.$name" 2>"$work/err.$name"
		read -r u s m <"$work/time"
		cpu=$(awk -v c="$cpu" -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", c + u + s }')
		eval "[ \"\$m\" -gt \"\${m_$name:-0}\" ] && m_$name=\$m"
		i=$((i + 1))
	done
	t1=$(now_ns)
	echo "$(((t1 - t0) / reps)) $(awk -v c="$cpu" -v n="$reps" 'BEGIN { printf "%.4f", c / n }') $cpu" \
		>>"$work/t.$name"
}

# median of column C of a file of numbers
median() { # file column
	sort -g -k"$2,$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END {
		if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# per-run seconds of a time in ns
ns_s() { awk -v t="$1" 'BEGIN { printf "%.4f", t / 1e9 }'; }

# ratio A B B-TOTAL RESOLUTION: A/B, or "below resolution" when B's total
# over a round is under ten ticks of its clock
ratio() {
	awk -v a="$1" -v b="$2" -v tot="$3" -v res="$4" 'BEGIN {
		if (b <= 0 || tot < 10 * res) print "below resolution"
		else printf "%.1fx", a / b }'
}

load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null; }

status=0
bench() { # label old new
	label=$1 old=$2 new=$3
	rm -f "$work"/t.st "$work"/t.bom "$work"/t.nm
	m_st=0 m_bom=0 m_nm=0
	load0=$(load)
	r=0
	while [ $r -lt "$RUNS" ]; do
		once st "$ST_REPS" "$SLUBTINY" size-diff "$old" "$new"
		once bom 1 "${ST_PYTHON:-python3}" "$bom" "$old" "$new"
		once nm 1 nm --size-sort "$new"
		r=$((r + 1))
	done
	nsym=$(grep -c '^[0-9a-f]* [a-zA-Z] ' "$work/out.nm")
	same=identical
	cmp -s "$work/out.st" "$work/out.bom" || { same=DIFFERENT; status=1; }
	[ -s "$work/err.st" ] && { same="$same, but slubtiny wrote to stderr"; status=1; }
	printf '\n%s: %s sized symbols in nm --size-sort of the new file; output %s\n' \
		"$label" "$nsym" "$same"
	printf '  load average %s before, %s after\n' "$load0" "$(load)"
	if [ "$nsym" = 0 ]; then
		echo "  nothing to compare (no sized symbols): no ratios"
		return
	fi
	printf '  %-24s %6s %10s %10s %10s\n' "" runs "wall s/run" "cpu s/run" "peak RSS"
	for t in st:"slubtiny size-diff":$ST_REPS bom:bloat-o-meter:1 nm:"nm --size-sort NEW":1; do
		n=${t%%:*} reps=${t##*:} lbl=${t#*:}
		lbl=${lbl%:*}
		eval "w_$n=\$(median \"\$work/t.$n\" 1) c_$n=\$(median \"\$work/t.$n\" 2)"
		eval "ct_$n=\$(sort -g \"\$work/t.$n\" | head -1 | cut -d' ' -f3)"
		eval "w=\$w_$n c=\$c_$n m=\$m_$n"
		printf '  %-24s %6s %10s %10s %7s MB\n' "$lbl" "$((RUNS * reps))" "$(ns_s "$w")" \
			"$c" $((m / 1024))
	done
	printf '  (median of %s rounds; slubtiny: mean of %s runs per round)\n' "$RUNS" "$ST_REPS"
	stw=$(ns_s "$w_st")
	sp=$(ratio "$(ns_s "$w_bom")" "$stw" "$(ns_s $((${w_st%.*} * ST_REPS)))" 0.001)
	spc=$(ratio "$c_bom" "$c_st" "$ct_st" 0.01)
	nmr=$(ratio "$(ns_s "$w_nm")" "$stw" "$(ns_s $((${w_st%.*} * ST_REPS)))" 0.001)
	nmc=$(ratio "$c_nm" "$c_st" "$ct_st" 0.01)
	mem=$(awk -v a="$m_st" -v b="$m_bom" 'BEGIN { printf "%.2f", a / b }')
	met() { # ratio-string minimum
		case $1 in *x) awk -v r="${1%x}" -v m="$2" 'BEGIN { print (r >= m ? "met" : "NOT met") }' ;;
		*) echo "not measurable" ;; esac
	}
	printf '  speed vs bloat-o-meter: %s wall, %s cpu (target >= 20x: wall %s, cpu %s)\n' "$sp" "$spc" \
		"$(met "$sp" 20)" "$(met "$spc" 20)"
	printf '  speed vs one nm:        %s wall, %s cpu (target > 1x: %s)\n' "$nmr" "$nmc" "$(met "$nmr" 1.0001)"
	printf '  peak RSS / bloat-o-meter: %s (target <= 0.5: %s)\n' "$mem" \
		"$(awk -v r="$mem" 'BEGIN { print (r <= 0.5 ? "met" : "NOT met") }')"
}

if merge_llvm 14 && merge_llvm 15; then
	bench "llvm-14.a vs llvm-15.a ($(($(wc -c <"$work/llvm-14.a") / 1048576)) and $(($(wc -c <"$work/llvm-15.a") / 1048576)) MB, $(ar t "$work/llvm-15.a" | wc -l) members in the new one)" \
		"$work/llvm-14.a" "$work/llvm-15.a"
else
	echo "llvm-14-dev/llvm-15-dev static libraries not installed: large pair skipped"
	echo "  (install them with: apt-get install --no-install-recommends llvm-14-dev llvm-15-dev;"
	echo "  running the benchmark as root installs them)"
fi
bench "generated pair, $NSYMS symbols" "$work/gen-old.o" "$work/gen-new.o"
exit $status
