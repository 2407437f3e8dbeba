# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the kconfig benchmarks: wall and CPU clocks. $run is the
# benchmark's scratch directory (cpu() writes `times` there).
now() { date +%s.%N; }
# CPU seconds (user + sys) of all waited-for children so far, into $CPU:
# the load of a shared machine inflates wall times, not these.
# (`times` must run in the benchmark's shell, not in a $(...) subshell.)
cpu() { times >"$run/times"; CPU=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) {
	split($i, p, "m"); sub(/s$/, "", p[2]); t += p[1] * 60 + p[2] }
	printf "%.2f", t }' "$run/times"); }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
