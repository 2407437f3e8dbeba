#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Footprint order after the fixed mixed workload of slab-bench:
# pages SLOB <= SLUB_TINY < SLUB, at every point (boot, full, half).
#   pages.sh SLOB_BENCH SLUB_TINY_BENCH SLUB_BENCH
set -eu
get() { # exe key
	"$1" pages | tr ' ' '\n' | sed -n "s/^$2=//p"
}
fail=0
for k in boot_pages full_pages half_pages; do
	slob=$(get "$1" $k)
	tiny=$(get "$2" $k)
	slub=$(get "$3" $k)
	echo "$k: slob=$slob slub_tiny=$tiny slub=$slub"
	[ "$slob" -le "$tiny" ] || { echo "FAIL: $k slob > slub_tiny"; fail=1; }
	[ "$tiny" -lt "$slub" ] || { echo "FAIL: $k slub_tiny >= slub"; fail=1; }
done
exit $fail
