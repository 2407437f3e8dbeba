#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The bundled models (kconfig/models/VERSION) against the kernel's conf on
# the real tree: for the 18 upstream SLOB files, the slab allocator symbols
# resolve the same with the model as conf resolves them with the tree, and
# the model reports the same of those symbols as not taking effect.
# (Symbols whose value is the arch's business - SMP, SYSFS, ... - and the
# options depending on them are not compared.)
#
#   model-diff.sh KC_TOOL VERSION
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
kc_tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
version=$2
work=${ST_BUILDDIR:-/tmp}/kconfig-diff
export SLUBTINY_CACHE_DIR=${SLUBTINY_CACHE_DIR:-$work/cache}
tree=$(st_tree "$version" "$work")
rc=$?
[ $rc = 77 ] && { echo "model-diff: linux-source-$version or tools missing: skipped"; exit 77; }
[ $rc = 0 ] || exit 1
run=$work/model.$$
rm -rf "$run" && mkdir -p "$run" || exit 1
trap 'rm -rf "$run"' EXIT
syms="SLAB SLUB SLOB SLOB_DEPRECATED SLUB_TINY EXPERT SLAB_MERGE_DEFAULT
SLAB_FREELIST_RANDOM SLAB_FREELIST_HARDENED SLAB_BUCKETS RANDOM_KMALLOC_CACHES"

n=0 bad=0
for f in arm:clps711x arm:collie arm:multi_v4t arm:omap1 arm:pxa arm:tct_hammer \
	arm:xcep openrisc:or1ksim openrisc:simple_smp riscv:nommu_k210 \
	riscv:nommu_k210_sdcard riscv:nommu_virt sh:rsk7201 sh:rsk7203 \
	sh:se7206 sh:shmin sh:shx3 x86:tiny; do
	a=${f%%:*} b=${f#*:}
	if [ "$b" = tiny ]; then rel=kernel/configs/tiny.config tg=tinyconfig opt=--tiny
	else rel=arch/$a/configs/${b}_defconfig tg=${b}_defconfig opt=; fi
	[ -f "$tree/$rel" ] || continue
	key=$(echo "$rel" | tr / %)
	cache=$work/ref-$version/$a/$key
	if [ ! -s "$cache" ]; then
		mkdir -p "$work/ref-$version/$a"
		st_ref "$tree" "$a" "$tg" "$work/obj-$version-model" "$cache.tmp" &&
			mv "$cache.tmp" "$cache" || { bad=$((bad + 1)); continue; }
	fi
	# The model knows no tinyconfig base: tiny.config is verified as a
	# plain fragment, which is how it reads without a tree.
	[ "$b" = tiny ] && opt=
	(cd "$tree" && "$kc_tool" --target "$version" $opt --config-dir "$run" "$rel") \
		>"$run/f" 2>/dev/null
	n=$((n + 1))
	[ "$b" = tiny ] && continue	# allnoconfig vs defaults: values differ by design
	for s in $syms; do
		want=$(sed -n "s/^CONFIG_$s=\(.*\)/\1/p; s/^# CONFIG_$s is not set/n/p" "$cache")
		got=$(sed -n "s/^CONFIG_$s=\(.*\)/\1/p; s/^# CONFIG_$s is not set/n/p" "$run/$key.config")
		# Not written and "is not set" are both n.
		[ "${want:-n}" = "${got:-n}" ] ||
			{ echo "MODEL-MISMATCH $rel: $s conf=${want:-absent} model=${got:-absent}"; bad=$((bad + 1)); }
		req=$(sed -n "s/^CONFIG_$s=\(.*\)/\1/p" "$tree/$rel" | tail -1)
		if [ -n "$req" ] && [ "$req" != n ]; then
			kept=no; [ "$req" = "$want" ] && kept=yes
			rep=no; grep -q "^F	$rel	[0-9]*	$s	" "$run/f" && rep=yes
			[ $kept != $rep ] || { echo "MODEL-FINDING-MISMATCH $rel: $s conf kept=$kept, model reported=$rep"; bad=$((bad + 1)); }
		fi
	done
done
echo "model-diff $version: $n upstream files verified with the bundled model, $bad mismatches in the slab symbols"
[ "$bad" = 0 ] && [ "$n" -gt 0 ]
