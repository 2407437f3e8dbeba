#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Slab allocator benchmark: per variant, in the same run, alloc+free
# throughput with 1 and 2 threads (glibc malloc as the reference) and the
# pages held after a fixed mixed workload.
#   slab.sh GLIBC_BENCH VARIANT_BENCH...     (OPS=pairs per thread)
set -eu
ops=${OPS:-2000000}
glibc=$1
shift

field() { # line key
	printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

best() { # exe threads: "mops cpu_ns" of the best of 3 runs (shared machine)
	b=0 c=0
	for _ in 1 2 3; do
		l=$("$1" throughput "$2" "$ops")
		m=$(field "$l" mops) n=$(field "$l" cpu_ns_per_op)
		set -- "$1" "$2" $(echo "$m $n $b $c" |
			awk '{ if ($1 > $3) print $1, $2; else print $3, $4 }')
		b=$3 c=$4
	done
	echo "$b $c"
}

col() { echo "$1" | cut -d' ' -f"$2"; }

g1=$(best "$glibc" 1)
g2=$(best "$glibc" 2)
ratio() { echo "$1 $2" | awk '{ printf "%.2f", $1 / $2 }'; }

fmt='%-11s %8s %8s %6s %7s %7s %8s %8s %5s %5s %5s %7s\n'
printf "$fmt" variant 1T-Mops 2T-Mops 2T/1T 1T/libc 2T/libc 1T-ns/op \
	2T-ns/op boot full half slab-kB
printf "$fmt" glibc "$(col "$g1" 1)" "$(col "$g2" 1)" \
	"$(ratio "$(col "$g2" 1)" "$(col "$g1" 1)")" 1.00 1.00 \
	"$(col "$g1" 2)" "$(col "$g2" 2)" - - - -
for exe; do
	v=$(field "$("$exe" throughput 1 1000)" variant)
	t1=$(best "$exe" 1)
	t2=$(best "$exe" 2)
	p=$("$exe" pages)
	printf "$fmt" "$v" "$(col "$t1" 1)" "$(col "$t2" 1)" \
		"$(ratio "$(col "$t2" 1)" "$(col "$t1" 1)")" \
		"$(ratio "$(col "$t1" 1)" "$(col "$g1" 1)")" \
		"$(ratio "$(col "$t2" 1)" "$(col "$g2" 1)")" \
		"$(col "$t1" 2)" "$(col "$t2" 2)" \
		"$(field "$p" boot_pages)" "$(field "$p" full_pages)" \
		"$(field "$p" half_pages)" "$(field "$p" half_slab_kb)"
done
echo "Mops: million kmalloc+kfree pairs per second of wall time (all threads);"
echo "2T/1T: how the variant scales from one thread to two;"
echo "ns/op: CPU time per pair summed over threads (robust on a loaded machine,"
echo "and it includes spinning on contended locks); pages: 4 KiB pages held after"
echo "st_slab_init (boot), after the fixed workload (full), after freeing half of"
echo "it (half); slab-kB: what /proc/meminfo's Slab: would say at half"
