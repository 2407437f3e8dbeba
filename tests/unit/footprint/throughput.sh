#!/bin/sh
# The throughput expectations: SLUB at least 1.5x SLUB_TINY's ops/s on the
# 2-thread net trace (issue 7), at least 1.2x on the same trace on one
# thread, and a higher 2-thread/1-thread scaling (issue 12), as ratios of
# one footprint run. A timing measurement, so a meson
# benchmark (`meson test --benchmark --suite footprint`), not part of the
# default suite; it needs an otherwise idle machine with 2 CPUs to mean
# anything (README.md ## footprint says what it measured and why).
set -u
out=$("$SLUBTINY" footprint --variant slub --variant slub_tiny --time-ms 2000 --json)
r=$(echo "$out" | grep -o '{"trace":"net","what":"ops_per_s","num":"slub","den":"slub_tiny"[^}]*}')
c=$(echo "$out" | grep -o '{"trace":"net","what":"ops_per_cpu_s","num":"slub","den":"slub_tiny"[^}]*}')
# issue 12: on one thread SLUB >= 1.2x SLUB_TINY, and SLUB scales better
r1=$(echo "$out" | grep -o '{"trace":"net-1t","what":"ops_per_s","num":"slub","den":"slub_tiny"[^}]*}')
s=$(echo "$out" | grep -o '{"trace":"net","what":"scaling","num":"slub","den":"slub_tiny"[^}]*}')
echo "$r"
echo "$c"
echo "$r1"
echo "$s"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$r" | grep -q '"holds":true' && echo "$r1" | grep -q '"holds":true' &&
	echo "$s" | grep -q '"holds":true'
