#!/bin/sh
# The throughput expectation of issue 7: SLUB at least 1.5x SLUB_TINY's
# ops/s on the 2-thread net trace. A timing measurement, so a meson
# benchmark (`meson test --benchmark --suite footprint`), not part of the
# default suite; it needs an otherwise idle machine with 2 CPUs to mean
# anything (README.md ## footprint says what it measured and why).
set -u
out=$("$SLUBTINY" footprint --variant slub --variant slub_tiny --time-ms 2000 --json)
r=$(echo "$out" | grep -o '{"trace":"net","what":"ops_per_s","num":"slub","den":"slub_tiny"[^}]*}')
c=$(echo "$out" | grep -o '{"trace":"net","what":"ops_per_cpu_s","num":"slub","den":"slub_tiny"[^}]*}')
echo "$r"
echo "$c"
echo "$r" | grep -q '"holds":true'
