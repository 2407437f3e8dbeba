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

best() { # exe threads: best of 3 runs (the machine is shared)
	b=0
	for _ in 1 2 3; do
		m=$(field "$("$1" throughput "$2" "$ops")" mops)
		b=$(echo "$m $b" | awk '{ print ($1 > $2) ? $1 : $2 }')
	done
	echo "$b"
}

g1=$(best "$glibc" 1)
g2=$(best "$glibc" 2)
printf '%-11s %9s %9s %7s %7s %6s %6s %6s %8s\n' variant 1T-Mops 2T-Mops \
	1T/libc 2T/libc boot full half slab-kB
printf '%-11s %9s %9s %7s %7s %6s %6s %6s %8s\n' glibc "$g1" "$g2" 1.00 1.00 - - - -
for exe; do
	v=$(field "$("$exe" throughput 1 1000)" variant)
	t1=$(best "$exe" 1)
	t2=$(best "$exe" 2)
	p=$("$exe" pages)
	printf '%-11s %9s %9s %7s %7s %6s %6s %6s %8s\n' "$v" "$t1" "$t2" \
		"$(echo "$t1 $g1" | awk '{ printf "%.2f", $1 / $2 }')" \
		"$(echo "$t2 $g2" | awk '{ printf "%.2f", $1 / $2 }')" \
		"$(field "$p" boot_pages)" "$(field "$p" full_pages)" \
		"$(field "$p" half_pages)" "$(field "$p" half_slab_kb)"
done
echo "pages: 4 KiB pages held after st_slab_init (boot), after the workload (full),"
echo "after freeing half of it (half); slab-kB: Slab: as /proc/meminfo would say at half"
