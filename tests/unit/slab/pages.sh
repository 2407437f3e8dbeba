#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Footprint order after the fixed mixed workload of slab-bench:
# pages SLOB <= SLUB_TINY < SLUB <= SLUB with sheaves (Linux 7.0's: it
# caches whole sheaves of objects per CPU and in the barn), at every point
# (boot, full, half).
#   pages.sh SLOB_BENCH SLUB_TINY_BENCH SLUB_BENCH SLUB_SHEAVES_BENCH
set -eu
get() { # exe key
	"$1" pages | tr ' ' '\n' | sed -n "s/^$2=//p"
}
fail=0
for k in boot_pages full_pages half_pages; do
	slob=$(get "$1" $k)
	tiny=$(get "$2" $k)
	slub=$(get "$3" $k)
	sheaves=$(get "$4" $k)
	echo "$k: slob=$slob slub_tiny=$tiny slub=$slub slub_sheaves=$sheaves"
	[ "$slob" -le "$tiny" ] || { echo "FAIL: $k slob > slub_tiny"; fail=1; }
	[ "$tiny" -lt "$slub" ] || { echo "FAIL: $k slub_tiny >= slub"; fail=1; }
	[ "$slub" -le "$sheaves" ] || { echo "FAIL: $k slub > slub_sheaves"; fail=1; }
done
exit $fail
