#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Slab allocator benchmark: per variant, in the same run, alloc+free
# throughput with 1 and 2 threads (glibc malloc as the reference) and the
# pages held after a fixed mixed workload; then the ratios, measured and
# never judged: SLUB against SLUB_TINY on one thread, and how each scales to two;
# and Linux 7.0's SLUB (slub_sheaves) against both, one and two threads.
# SLUB runs twice: with its default fast path (rseq where the library
# supports it) and with ST_SLAB_RSEQ=0 (the double-word cmpxchg).
#   slab.sh GLIBC_BENCH VARIANT_BENCH...     (OPS=pairs per thread,
#                                             ROUNDS=runs, median kept)
# Wall-time ratios depend on what else the machine runs; the CPU-time
# ratios (CPU time per pair summed over the threads) much less, so both
# are printed.
set -eu
. "$(dirname "$0")/../lib.sh"
ops=${OPS:-2000000}
rounds=${ROUNDS:-7}
glibc=$1
shift

field() { # line key
	printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# The rows: "name exe env" (env: an assignment or -).
rows="glibc $glibc -"
for exe; do
	v=$(field "$("$exe" throughput 1 1000)" variant)
	rows="$rows
$v $exe -"
	if [ "$v" = slub ] &&
	   [ "$(field "$("$exe" throughput 1 1000)" fastpath)" = rseq ]; then
		rows="$rows
slub-cmpxchg $exe ST_SLAB_RSEQ=0"
	fi
done

# $rounds runs of each row, the rows interleaved so that a change of the
# machine's load hits every row alike; the medians are kept.
st_tmpdir tmp
r=0
while [ $r -lt "$rounds" ]; do
	echo "$rows" | while read -r name exe env; do
		for t in 1 2; do
			if [ "$env" = - ]; then
				l=$("$exe" throughput $t "$ops")
			else
				l=$(env "$env" "$exe" throughput $t "$ops")
			fi
			echo "$(field "$l" mops) $(field "$l" cpu_ns_per_op) $(field "$l" fastpath)" \
				>>"$tmp/$name.$t"
		done
	done
	r=$((r + 1))
done
median() { # file field
	cut -d' ' -f"$2" "$1" | sort -g |
		awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
best() { # name threads column: median Mops (2) or ns/op (3), or fastpath (4)
	case $3 in
	2) median "$tmp/$1.$2" 1 ;;
	3) median "$tmp/$1.$2" 2 ;;
	4) head -1 "$tmp/$1.$2" | cut -d' ' -f3 ;;
	esac
}
ratio() { echo "$1 $2" | awk '{ printf "%.2f", $1 / $2 }'; }
# 2T/1T from CPU time: what two threads on two idle CPUs would reach,
# 2 x (CPU time per pair, 1 thread) / (CPU time per pair, 2 threads)
cpu_scaling() { echo "$1 $2" | awk '{ printf "%.2f", 2 * $1 / $2 }'; }

fmt='%-13s %-8s %8s %8s %6s %7s %7s %8s %8s %7s %5s %5s %5s %7s\n'
printf "$fmt" variant fastpath 1T-Mops 2T-Mops 2T/1T 1T/libc 2T/libc 1T-ns/op \
	2T-ns/op cpu2/1 boot full half slab-kB
g1=$(best glibc 1 2)
g2=$(best glibc 2 2)
echo "$rows" | while read -r name exe env; do
	m1=$(best "$name" 1 2) m2=$(best "$name" 2 2)
	p=- b=- f=- h=- k=-
	if [ "$name" != glibc ] && [ "$env" = - ]; then
		p=$("$exe" pages)
		b=$(field "$p" boot_pages) f=$(field "$p" full_pages)
		h=$(field "$p" half_pages) k=$(field "$p" half_slab_kb)
	fi
	printf "$fmt" "$name" "$(best "$name" 1 4)" "$m1" "$m2" "$(ratio "$m2" "$m1")" \
		"$(ratio "$m1" "$g1")" "$(ratio "$m2" "$g2")" \
		"$(best "$name" 1 3)" "$(best "$name" 2 3)" \
		"$(cpu_scaling "$(best "$name" 1 3)" "$(best "$name" 2 3)")" \
		"$b" "$f" "$h" "$k"
done
if [ -f "$tmp/slub.1" ] && [ -f "$tmp/slub_tiny.1" ]; then
	s1=$(best slub 1 2) s2=$(best slub 2 2)
	t1=$(best slub_tiny 1 2) t2=$(best slub_tiny 2 2)
	echo "slub/slub_tiny, 1 thread: $(ratio "$s1" "$t1")x ops/s," \
		"$(ratio "$(best slub_tiny 1 3)" "$(best slub 1 3)")x ops per CPU-second"
	echo "slub/slub_tiny, 2 threads: $(ratio "$s2" "$t2")x ops/s," \
		"$(ratio "$(best slub_tiny 2 3)" "$(best slub 2 3)")x ops per CPU-second"
	echo "2T/1T scaling, wall: slub $(ratio "$s2" "$s1"), slub_tiny $(ratio "$t2" "$t1");" \
		"CPU time: slub $(cpu_scaling "$(best slub 1 3)" "$(best slub 2 3)")," \
		"slub_tiny $(cpu_scaling "$(best slub_tiny 1 3)" "$(best slub_tiny 2 3)")"
fi
# Linux 7.0's SLUB (per-CPU sheaves) against both, measured in the same run
if [ -f "$tmp/slub_sheaves.1" ] && [ -f "$tmp/slub_tiny.1" ] && [ -f "$tmp/slub.1" ]; then
	for t in 1 2; do
		h=$(best slub_sheaves $t 2) n="1 thread"
		[ $t = 1 ] || n="$t threads"
		echo "slub_sheaves, $n: $(ratio "$h" "$(best slub_tiny $t 2)")x slub_tiny's ops/s" \
			"($(ratio "$(best slub_tiny $t 3)" "$(best slub_sheaves $t 3)")x per CPU-second)," \
			"$(ratio "$h" "$(best slub $t 2)")x slub's" \
			"($(ratio "$(best slub $t 3)" "$(best slub_sheaves $t 3)")x per CPU-second)"
	done
	echo "2T/1T scaling, wall: slub_sheaves $(ratio "$(best slub_sheaves 2 2)" "$(best slub_sheaves 1 2)");" \
		"CPU time: slub_sheaves $(cpu_scaling "$(best slub_sheaves 1 3)" "$(best slub_sheaves 2 3)")"
fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)," \
	"CPUs: $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo ?)"
echo "Mops: million kmalloc+kfree pairs per second of wall time (all threads),"
echo "median of $rounds; 2T/1T: how the variant scales from one thread to two;"
echo "ns/op: CPU time per pair summed over threads (robust on a loaded machine,"
echo "and it includes spinning on contended locks), median of $rounds; cpu2/1:"
echo "2 x 1T-ns/op / 2T-ns/op, the scaling two idle CPUs would give; fastpath:"
echo "SLUB's per-CPU fast path (st_slab_fastpath()); pages: 4 KiB pages held after"
echo "st_slab_init (boot), after the fixed workload (full), after freeing half of"
echo "it (half); slab-kB: what /proc/meminfo's Slab: would say at half"
