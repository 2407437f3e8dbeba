#!/bin/sh
# slubtiny kernel for a cross arch, timed: arm multi_v4t_defconfig of Linux
# 6.1 (CONFIG_SLOB=y) migrated to Linux 6.12 and built with
# arm-linux-gnueabi-, every variant 6.12 offers, slab objects only, in a
# fresh build directory (cold), then again (warm, cached). Every number is
# checked against GNU size and bloat-o-meter 6.12 as in the test suite.
# meson test -C BUILD --benchmark --suite kernel
set -u
. "$ST_SRCDIR/tests/cli/kernel/lib.sh"
work=$ST_BUILDDIR/bench-kernel
cross=arm-linux-gnueabi-

need_trees make gcc flex bison bc ar size nm jq python3 xz perl ${cross}gcc
bom=$src612/scripts/bloat-o-meter
rm -rf "$work"
mkdir -p "$work"
args="--defconfig $src61/arch/arm/configs/multi_v4t_defconfig --arch arm --cross-compile $cross --builddir $work/builds"

run cold "$src612" $args
cold=$ms
check_numbers cold "slub slub_tiny" "$(tree_name "$src612")"
run warm "$src612" $args
warm=$ms
cmp -s "$work/cold.out" "$work/warm.out" || err "warm run prints other JSON"
jq -r '.results[] | "\(.variant): text \(.text) data \(.data) bss \(.bss) (\(.resolved))"' "$work/cold.out"
echo "arm multi_v4t_defconfig (6.1 -> 6.12), $(jq '.results | length' "$work/cold.out") variants, objects only, -j2:"
echo "  cold: $cold ms, warm (cached): $warm ms, ratio $(awk -v c="$cold" -v w="$warm" 'BEGIN { printf "%.0f", c / (w ? w : 1) }')x"
exit $fail
