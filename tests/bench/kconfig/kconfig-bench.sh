#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# lib/kconfig verification speed against the kernel's conf, in one run, on
# Debian's linux-source-6.12 (extracted into the build dir):
#   1. the 18 upstream SLOB -> SLUB_TINY files (those 6.12 still has):
#      `make O=... ARCH=A NAME_defconfig` (tinyconfig for tiny.config) one
#      file at a time, against kc-tool with one helper per arch, serially
#      and two helpers in parallel, with a cold and a warm probe cache;
#   2. every arch/*/configs/**/*_defconfig: two helpers in parallel (one
#      per arch, each tree parsed once per arch), cold cache.
# Prints the times and the ratios.   kconfig-bench.sh KC_TOOL
set -u
here=$(cd "$(dirname "$0")/../../diff/kconfig" && pwd)
. "$here/common.sh"
kc_tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=${ST_BUILDDIR:-/tmp}/kconfig-diff
tree=$(st_tree 6.12 "$work")
rc=$?
[ $rc = 77 ] && { echo "kconfig-bench: linux-source-6.12 or tools missing: skipped"; exit 77; }
[ $rc = 0 ] || exit 1
run=$work/bench.$$
rm -rf "$run" && mkdir -p "$run" || exit 1
trap 'rm -rf "$run"' EXIT

. "$(dirname "$0")/timing.sh"

: >"$run/list"
for f in arm:clps711x arm:collie arm:multi_v4t arm:omap1 arm:pxa arm:tct_hammer \
	arm:xcep openrisc:or1ksim openrisc:simple_smp riscv:nommu_k210 \
	riscv:nommu_k210_sdcard riscv:nommu_virt sh:rsk7201 sh:rsk7203 \
	sh:se7206 sh:shmin sh:shx3; do
	a=${f%%:*} n=${f#*:}
	[ -f "$tree/arch/$a/configs/${n}_defconfig" ] &&
		echo "$a arch/$a/configs/${n}_defconfig ${n}_defconfig" >>"$run/list"
done
echo "x86 kernel/configs/tiny.config tinyconfig" >>"$run/list"
nfiles=$(wc -l <"$run/list")

# conf, one file at a time (conf itself is built before timing starts)
obj=$run/obj
st_ref "$tree" sh rsk7201_defconfig "$obj" "$run/warm.config" || exit 1
t0=$(now); cpu; c0=$CPU
while read -r a rel tg; do
	st_ref "$tree" "$a" "$tg" "$obj" "$run/ref.config" || exit 1
done <"$run/list"
t_make=$(secs "$t0" "$(now)")
cpu; c_make=$(secs "$c0" "$CPU")

# kc-tool: one helper per arch; JOBS groups in parallel
kc() { # jobs
	for a in $(cut -d' ' -f1 "$run/list" | sort -u); do
		files=$(awk -v a="$a" '$1 == a && $3 != "tinyconfig" { print $2 }' "$run/list" | tr '\n' ' ')
		tiny=$(awk -v a="$a" '$1 == a && $3 == "tinyconfig" { print $2 }' "$run/list" | tr '\n' ' ')
		[ -n "$files" ] && echo "$a - $files"
		[ -n "$tiny" ] && echo "$a --tiny $tiny"
	done >"$run/groups"
	t0=$(now)
	i=0
	while [ $i -lt "$1" ]; do
		(awk -v j="$1" -v i=$i 'NR % j == i' "$run/groups" | while read -r a opt files; do
			[ "$opt" = - ] && opt=
			(cd "$tree" && "$kc_tool" --srctree "$tree" --arch "$a" $opt $files \
				>/dev/null 2>&1)
			[ $? -le 1 ] || echo "kconfig-bench: kc-tool failed for $a" >&2
		done) &
		i=$((i + 1))
	done
	wait
	secs "$t0" "$(now)"
}
export SLUBTINY_CACHE_DIR=$run/cache
cpu; c0=$CPU
t_cold1=$(kc 1)
cpu; c_cold1=$(secs "$c0" "$CPU")
t_warm1=$(kc 1)
rm -rf "$SLUBTINY_CACHE_DIR"
t_cold2=$(kc 2)
t_warm2=$(kc 2)

# every defconfig of 6.12, two helpers in parallel, cold cache
rm -rf "$SLUBTINY_CACHE_DIR"
st_defconfigs "$tree" >"$run/all"
nall=$(wc -l <"$run/all")
narch=$(cut -d' ' -f1 "$run/all" | sort -u | wc -l)
cut -d' ' -f1 "$run/all" | sort | uniq -c | sort -rn | awk '
	{ b = (w[0] <= w[1]) ? 0 : 1; w[b] += $1; print b, $2 }' >"$run/buckets"
t0=$(now); cpu; c0=$CPU
for b in 0 1; do
	(for a in $(awk -v b=$b '$1 == b { print $2 }' "$run/buckets"); do
		(cd "$tree" && "$kc_tool" --srctree "$tree" --arch "$a" \
			$(awk -v a="$a" '$1 == a { print $2 }' "$run/all") >/dev/null 2>&1)
		[ $? -le 1 ] || echo "kconfig-bench: kc-tool failed for $a" >&2
	done) &
done
wait
t_all=$(secs "$t0" "$(now)")
cpu; c_all=$(secs "$c0" "$CPU")

awk -v n="$nfiles" -v m="$t_make" -v c1="$t_cold1" -v w1="$t_warm1" \
	-v c2="$t_cold2" -v w2="$t_warm2" -v na="$nall" -v ar="$narch" \
	-v ta="$t_all" -v cm="$c_make" -v cc1="$c_cold1" -v ca="$c_all" -v load="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
	printf "kconfig-bench: load average at the end %s, %d CPUs\n", load, '"$(nproc)"'
	printf "upstream files on 6.12 (%d): make NAME_defconfig one at a time %.2fs (%.2f CPU s)\n", n, m, cm
	printf "  kc-tool, 1 helper at a time: cold cache %.2fs (%.1fx; %.2f CPU s, %.1fx), warm %.2fs (%.1fx)\n", c1, m / c1, cc1, cm / cc1, w1, m / w1
	printf "  kc-tool, 2 helpers in parallel: cold cache %.2fs (%.1fx), warm %.2fs (%.1fx)\n", c2, m / c2, w2, m / w2
	printf "all %d defconfigs of 6.12 (%d arches), 2 helpers in parallel, cold cache: %.2fs (target < 60s: %s); %.2f CPU s, i.e. %.1fs on 2 idle cores\n", na, ar, ta, ta < 60 ? "met" : "NOT met", ca, ca / 2
}'
