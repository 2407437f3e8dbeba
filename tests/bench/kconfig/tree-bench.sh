#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The verification of a whole kernel tree, slubtiny beside the kernel's own
# conf, in one run:
#
#   tree-bench.sh VERSION      (7.3: Debian's linux-source-7.3, fetched by
#                               tests/fetch-linux-source.sh into build-cache/)
#
# On every arch/*/configs/**/*_defconfig of the tree (st_defconfigs):
#   1. `slubtiny migrate --check --json --srctree TREE FILES...`, one run,
#      with a cold and then a warm compiler-probe cache;
#   2. conf: `make O=... ARCH=A NAME_defconfig` on each file, two at a
#      time (two cores), its results not cached (conf is what is timed).
# Prints the wall and CPU seconds of each (CPU: user + sys of the waited-for
# children, which the load of a shared machine inflates less) and the
# ratios conf/slubtiny, and whether slubtiny's cold run met the 60 s goal
# (2 cores). Fails only when a side fails to run.
set -u
here=$(cd "$(dirname "$0")/../../diff/kconfig" && pwd)
. "$here/common.sh"
v=${1:-7.3}
slubtiny=${SLUBTINY:?}
tree=$(st_shared_tree "$v")
rc=$?
[ $rc = 77 ] && { echo "tree-bench: linux-source-$v or the tools missing: skipped"; exit 77; }
[ $rc = 0 ] || exit 1
run=${ST_BUILDDIR:-/tmp}/kconfig-diff/tree-bench.$$
rm -rf "$run" && mkdir -p "$run" || exit 1
trap 'rm -rf "$run"' EXIT

. "$(dirname "$0")/timing.sh"

st_defconfigs "$tree" >"$run/list"
# ST_BENCH_FILES=N: the first N files only (a trial of the script)
if [ -n "${ST_BENCH_FILES:-}" ]; then
	head -n "$ST_BENCH_FILES" "$run/list" >"$run/list1" && mv "$run/list1" "$run/list"
fi
n=$(wc -l <"$run/list")
narch=$(cut -d' ' -f1 "$run/list" | sort -u | wc -l)

# 1. slubtiny, cold then warm
export SLUBTINY_CACHE_DIR=$run/cache
mig() {
	# shellcheck disable=SC2046
	(cd "$tree" && "$slubtiny" migrate --check --json --srctree "$tree" \
		$(cut -d' ' -f2 "$run/list")) >"$run/mig.json" 2>"$run/mig.err"
	[ $? -le 1 ] || { echo "tree-bench: slubtiny migrate --check failed:"; tail -3 "$run/mig.err"; exit 1; }
}
t0=$(now); cpu; c0=$CPU
mig
t_cold=$(secs "$t0" "$(now)"); cpu; c_cold=$(secs "$c0" "$CPU")
t0=$(now); c0=$CPU
mig
t_warm=$(secs "$t0" "$(now)"); cpu; c_warm=$(secs "$c0" "$CPU")
nfind=$(grep -o '"kind":"[a-z]*"' "$run/mig.json" | wc -l)

# 2. conf, two files at a time (conf is built once per worker first)
for j in 0 1; do
	st_ref "$tree" x86 tinyconfig "$run/obj$j" "$run/warm$j" || exit 1
done
t0=$(now); cpu; c0=$CPU
for j in 0 1; do
	(awk -v j=$j 'NR % 2 == j' "$run/list" | while read -r a rel tg; do
		st_ref "$tree" "$a" "$tg" "$run/obj$j" "$run/out$j" 2>/dev/null ||
			echo "$rel" >>"$run/failed"
	done) &
done
wait
t_conf=$(secs "$t0" "$(now)"); cpu; c_conf=$(secs "$c0" "$CPU")
[ -s "$run/failed" ] && { echo "tree-bench: conf failed on $(wc -l <"$run/failed") files"; exit 1; }

awk -v v="$v" -v n="$n" -v ar="$narch" -v tc="$t_cold" -v cc="$c_cold" -v tw="$t_warm" \
	-v cw="$c_warm" -v tf="$t_conf" -v cf="$c_conf" -v nf="$nfind" \
	-v load="$(cut -d' ' -f1 /proc/loadavg)" -v ncpu="$(nproc)" 'BEGIN {
	printf "tree-bench: linux %s, %d defconfigs (%d arches); load average at the end %s, %d CPUs\n", v, n, ar, load, ncpu
	printf "  slubtiny migrate --check --srctree, one run, cold cache: %.1fs (%.1f CPU s; goal < 60s: %s), %d findings\n", tc, cc, tc < 60 ? "met" : "NOT met", nf
	printf "  slubtiny, warm cache: %.1fs (%.1f CPU s)\n", tw, cw
	printf "  conf (make NAME_defconfig), two at a time: %.1fs (%.1f CPU s)\n", tf, cf
	printf "  conf / slubtiny: wall %.1fx cold, %.1fx warm; CPU %.1fx cold, %.1fx warm\n", tf / tc, tf / tw, cf / cc, cf / cw
}'
