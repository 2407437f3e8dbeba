#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Proof of fix_deps against the kernel's conf on linux-source-6.12, on the
# 18 upstream SLOB -> SLUB_TINY files as they are in 6.12 (migrated):
#   1. verify flags exactly the files whose CONFIG_SLUB_TINY=y conf drops;
#   2. with the lines fix_deps adds (at their savedefconfig position), conf
#      keeps SLUB_TINY=y in every one of them, and what is still reported
#      is exactly what conf still does not keep.
#
#   fixdeps-diff.sh KC_TOOL [VERSION]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib.sh"
. "$here/common.sh"
kc_tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
version=${2:-6.12}
work=${ST_BUILDDIR:-/tmp}/kconfig-diff
export SLUBTINY_CACHE_DIR=${SLUBTINY_CACHE_DIR:-$work/cache}
tree=$(st_tree "$version" "$work")
rc=$?
[ $rc = 77 ] && { echo "fixdeps-diff: linux-source-$version or tools missing: skipped"; exit 77; }
[ $rc = 0 ] || exit 1
run=$work/fixdeps.$$
rm -rf "$run" && mkdir -p "$run" || exit 1
st_atexit 'rm -rf "$run"; [ -f "$tree/kernel/configs/tiny.config.st-orig" ] &&
	mv "$tree/kernel/configs/tiny.config.st-orig" "$tree/kernel/configs/tiny.config"'

set -- arm:clps711x arm:collie arm:multi_v4t arm:omap1 arm:pxa arm:tct_hammer \
	arm:xcep openrisc:or1ksim openrisc:simple_smp riscv:nommu_k210 \
	riscv:nommu_k210_sdcard riscv:nommu_virt sh:rsk7201 sh:rsk7203 \
	sh:se7206 sh:shmin sh:shx3 x86:tiny
flagged=0 fixed=0 bad=0 total=0
for f; do
	a=${f%%:*} n=${f#*:}
	if [ "$n" = tiny ]; then rel=kernel/configs/tiny.config opt=--tiny
	else rel=arch/$a/configs/${n}_defconfig opt=; fi
	[ -f "$tree/$rel" ] || continue
	total=$((total + 1))
	grep -q '^CONFIG_SLUB_TINY=y' "$tree/$rel" || continue
	mkdir -p "$run/$n"
	(cd "$tree" && "$kc_tool" --srctree "$tree" --arch "$a" $opt "$rel") >"$run/$n/verify" 2>/dev/null
	(cd "$tree" && "$kc_tool" --srctree "$tree" --arch "$a" $opt --fix-deps \
		--fixed-dir "$run/$n" --config-dir "$run/$n" "$rel") >"$run/$n/fix" 2>/dev/null
	grep -q "^F	$rel	[0-9]*	SLUB_TINY	" "$run/$n/verify" || continue
	flagged=$((flagged + 1))
	fixes=$(awk -F'\t' '$1 == "X" { printf "%s%s", s, $5; s = ", " }' "$run/$n/fix")
	# conf on the fixed file, in the scratch tree.
	base=$(basename "$rel")
	if [ "$n" = tiny ]; then
		cp "$tree/$rel" "$tree/$rel.st-orig" && cp "$run/$n/$base" "$tree/$rel"
		st_ref "$tree" x86 tinyconfig "$work/obj-$version-fix" "$run/$n/ref"
		mv "$tree/$rel.st-orig" "$tree/$rel"
	else
		cp "$run/$n/$base" "$tree/arch/$a/configs/st_fixed_${n}_defconfig"
		st_ref "$tree" "$a" "st_fixed_${n}_defconfig" "$work/obj-$version-fix" "$run/$n/ref"
		rm -f "$tree/arch/$a/configs/st_fixed_${n}_defconfig"
	fi
	grep "^F	$rel	" "$run/$n/fix" >"$run/$n/f"
	# kc-tool's resolution with the fixes against conf's on the fixed file
	ours=$run/$n/$(echo "$rel" | tr / %).config
	res=$(awk -v def="$run/$n/$base" -v ref="$run/$n/ref" -v ours="$ours" \
		-v fnd="$run/$n/f" -v name="$rel" -f "$here/compare.awk" </dev/null | grep -v '^STAT')
	if grep -q '^CONFIG_SLUB_TINY=y$' "$run/$n/ref" && [ -z "$res" ]; then
		fixed=$((fixed + 1))
		echo "fixed $rel: added $fixes; conf keeps CONFIG_SLUB_TINY=y"
	else
		bad=$((bad + 1))
		echo "NOT FIXED $rel: added [$fixes]; conf: $(grep SLUB_TINY "$run/$n/ref") $res"
	fi
done
echo "fixdeps-diff $version: $total upstream files, $flagged flagged (SLUB_TINY=y has no effect), $fixed made effective by fix_deps (checked with conf), $bad not"
[ "$bad" = 0 ] && [ "$total" -gt 0 ]
