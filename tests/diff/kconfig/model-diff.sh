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
#
# VERSION 6.1 or 6.12: the files of that tree, conf on that tree.
# VERSION 6.2 (no Debian tree): the upstream 6.2 files themselves - the 6.1
# files migrated with --target 6.2, each checked against the upstream
# commit's git blob id (tests/cli/slob-rename-6.2.index), so they are
# upstream's bytes - resolved by conf on the 6.12 tree. Every one of them
# sets CONFIG_SLUB=y, and with SLUB chosen the compared symbols depend on
# the same things in 6.2 and 6.12 (SLUB_TINY on EXPERT, the freelist
# options, SLAB_MERGE_DEFAULT and SLUB_DEBUG on !SLUB_TINY); the 6.12-only
# symbols (SLAB_BUCKETS, RANDOM_KMALLOC_CACHES) are left out, and so is
# tiny.config (tinyconfig reads the tree's own copy). One difference outside
# mm/ matters: 6.12 has no EMBEDDED, which in 6.1 (and 6.2) selects EXPERT;
# conf gets the file with CONFIG_EXPERT=y added when it sets CONFIG_EMBEDDED=y
# (after checking, in the 6.1 tree, that EMBEDDED selects EXPERT there).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib.sh"
. "$here/common.sh"
kc_tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
version=$2
command -v git >/dev/null || { echo "model-diff: git missing: skipped"; exit 77; }
work=${ST_BUILDDIR:-/tmp}/kconfig-diff
export SLUBTINY_CACHE_DIR=${SLUBTINY_CACHE_DIR:-$work/cache}
treev=$version
[ "$version" = 6.2 ] && treev=6.12
tree=$(st_shared_tree "$treev")
rc=$?
[ $rc = 77 ] && { echo "model-diff: linux-source-$treev or tools missing: skipped"; exit 77; }
[ $rc = 0 ] || exit 1
if [ "$version" = 6.2 ]; then
	: "${SLUBTINY:?}" "${ST_SRCDIR:?}"
	[ -r /usr/src/linux-source-6.1.tar.xz ] || { echo "model-diff: linux-source-6.1 missing: skipped"; exit 77; }
	t61=$(st_shared_tree 6.1) || exit 1
	awk '/^config / { on = ($2 == "EMBEDDED") } on && /^[ \t]*select EXPERT$/ { found = 1 }
		END { exit !found }' "$t61/init/Kconfig" ||
		{ echo "model-diff: EMBEDDED does not select EXPERT in linux 6.1"; exit 1; }
fi
treekey=$(st_tree_key "$treev")
run=$work/model-$version.$$
rm -rf "$run" && mkdir -p "$run" || exit 1
# (only the 6.2 run puts files into the tree, and removes only its own)
st_atexit 'rm -rf "$run"; [ "$version" = 6.2 ] && rm -f "$tree"/arch/*/configs/st62_*_defconfig'
syms="SLAB SLUB SLOB SLOB_DEPRECATED SLUB_TINY EXPERT SLAB_MERGE_DEFAULT
SLAB_FREELIST_RANDOM SLAB_FREELIST_HARDENED SLAB_BUCKETS RANDOM_KMALLOC_CACHES"
[ "$version" = 6.2 ] && syms="SLAB SLUB SLOB SLOB_DEPRECATED SLUB_TINY EXPERT
SLAB_MERGE_DEFAULT SLAB_FREELIST_RANDOM SLAB_FREELIST_HARDENED SLUB_DEBUG"

n=0 bad=0 tiny=0
index=$ST_SRCDIR/tests/cli/slob-rename-6.2.index
# The inputs: "ARCH REL TARGET FILE" lines (FILE the bytes to resolve).
if [ "$version" = 6.2 ]; then
	k61=$(ST_BUILDDIR=${ST_BUILDDIR:-/tmp} sh "$ST_SRCDIR/tests/unit/defconfig/extract-configs.sh" 6.1) ||
		exit 1
	files=$(sed -n 's/^\(arch[^ ]*\) .*/\1/p' "$index")
	for f in $files; do
		mkdir -p "$run/in/$(dirname "$f")" && cp "$k61/$f" "$run/in/$f" || exit 1
	done
	# shellcheck disable=SC2086
	(cd "$run/in" && "$SLUBTINY" migrate --target 6.2 --in-place --no-verify $files) \
		>/dev/null 2>"$run/err"
	[ $? -le 1 ] || { echo "model-diff: migrate --target 6.2 failed:"; cat "$run/err"; exit 1; }
	for f in $files; do
		want=$(awk -v f="$f" '$1 == f { split($2, b, "[.][.]"); print b[2] }' "$index")
		case $(git hash-object "$run/in/$f") in
		"$want"*) ;;
		*) echo "MODEL-INPUT $f: not upstream's 6.2 file (see migrate-upstream)" >&2
		   bad=$((bad + 1)); continue ;;
		esac
		a=${f#arch/}; a=${a%%/*} b=$(basename "$f")
		# conf reads defconfigs from the tree: a copy under our own name
		cp "$run/in/$f" "$tree/arch/$a/configs/st62_$b" || exit 1
		grep -qx 'CONFIG_EMBEDDED=y' "$run/in/$f" &&
			echo 'CONFIG_EXPERT=y' >>"$tree/arch/$a/configs/st62_$b"
		echo "$a arch/$a/configs/st62_$b st62_$b $run/in/$f"
	done >"$run/list"
else
	for f in arm:clps711x arm:collie arm:multi_v4t arm:omap1 arm:pxa arm:tct_hammer \
		arm:xcep openrisc:or1ksim openrisc:simple_smp riscv:nommu_k210 \
		riscv:nommu_k210_sdcard riscv:nommu_virt sh:rsk7201 sh:rsk7203 \
		sh:se7206 sh:shmin sh:shx3 x86:tiny; do
		a=${f%%:*} b=${f#*:}
		if [ "$b" = tiny ]; then rel=kernel/configs/tiny.config tg=tinyconfig
		else rel=arch/$a/configs/${b}_defconfig tg=${b}_defconfig; fi
		[ -f "$tree/$rel" ] && echo "$a $rel $tg $tree/$rel"
	done >"$run/list"
fi

while read -r a rel tg file; do
	key=$(echo "$rel" | tr / %)
	st_ref_cached "$tree" "$a" "$rel" "$tg" "$work/obj-$treev-model" "$run/ref" "$treekey" ||
		{ echo "MODEL-REF-FAILED $rel"; bad=$((bad + 1)); continue; }
	# The model knows no tinyconfig base: tiny.config is verified as a
	# plain fragment, which is how it reads without a tree.
	mkdir -p "$run/in-kc/$(dirname "$rel")" && cp "$file" "$run/in-kc/$rel" || exit 1
	(cd "$run/in-kc" && "$kc_tool" --target "$version" --config-dir "$run" "$rel") \
		>"$run/f" 2>"$run/kc.err"
	st=$?
	grep -v '^kc-tool: using ' "$run/kc.err" >"$run/kc.err2"
	if [ $st -gt 1 ] || [ -s "$run/kc.err2" ] || [ ! -s "$run/$key.config" ]; then
		echo "MODEL-KC-FAILED $rel: exit $st, $(head -1 "$run/kc.err2")"
		bad=$((bad + 1)); continue
	fi
	n=$((n + 1))
	[ "$tg" = tinyconfig ] && continue	# allnoconfig vs defaults: values differ by design
	grep -qx 'CONFIG_SLUB_TINY=y' "$run/ref" && tiny=$((tiny + 1))
	for s in $syms; do
		want=$(sed -n "s/^CONFIG_$s=\(.*\)/\1/p; s/^# CONFIG_$s is not set/n/p" "$run/ref")
		got=$(sed -n "s/^CONFIG_$s=\(.*\)/\1/p; s/^# CONFIG_$s is not set/n/p" "$run/$key.config")
		# Not written and "is not set" are both n.
		[ "${want:-n}" = "${got:-n}" ] ||
			{ echo "MODEL-MISMATCH $rel: $s conf=${want:-absent} model=${got:-absent}"; bad=$((bad + 1)); }
		req=$(sed -n "s/^CONFIG_$s=\(.*\)/\1/p" "$file" | tail -1)
		if [ -n "$req" ] && [ "$req" != n ]; then
			kept=no; [ "$req" = "$want" ] && kept=yes
			rep=no; grep -q "^F	$rel	[0-9]*	$s	" "$run/f" && rep=yes
			[ $kept != $rep ] || { echo "MODEL-FINDING-MISMATCH $rel: $s conf kept=$kept, model reported=$rep"; bad=$((bad + 1)); }
		fi
	done
done <"$run/list"
want=$(wc -l <"$run/list")
echo "model-diff $version: $n of $want upstream files verified with the bundled model (conf on linux $treev; SLUB_TINY=y in $tiny), $bad mismatches or failures in the slab symbols"
[ "$bad" = 0 ] && [ "$n" -gt 0 ] && [ "$n" = "$want" ]
