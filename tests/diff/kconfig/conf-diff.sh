#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Differential test of lib/kconfig + kconfig/st_kconfig.py against the
# kernel's own conf (make O=... ARCH=... NAME_defconfig / tinyconfig) on a
# Debian linux-source tree extracted into the build directory.
#
#   conf-diff.sh KC_TOOL VERSION SET [JOBS]
#
# SET: upstream  the 18 files of the upstream SLOB -> SLUB_TINY patch
#      quick     three of them, two arches (the default test suite)
#      arches    the upstream files the tree still has and the first
#                defconfig of every arch (in st_defconfigs' order)
#      all       every arch/*/configs/**/*_defconfig of the tree
# For each file: (1) every CONFIG_ symbol kc-tool resolves equals conf's
# .config, and (2) the options the file sets (to anything but n) that conf
# did not keep are exactly those kc-tool reports (ineffective/unknown).
# On a tree after 6.12 (7.2, 7.3: tests/fetch-linux-source.sh), whose
# defconfigs no slab rule rewrites, also (3): what `slubtiny migrate
# --check --json --srctree` (one run over every file of the set) reports
# as not taking effect (an ineffective finding, an unknown one but for an
# "is not set" line) is exactly what conf did not keep, "is not set" lines
# included (conf sets the symbol).
# One helper per arch; JOBS (default 1) arches in parallel. Exit 0 when
# everything matches, 1 on a mismatch, 77 when the tarball or the tools
# are missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib.sh"
. "$here/common.sh"

kc_tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
version=$2 set=$3 jobs=${4:-1}
work=${ST_BUILDDIR:-/tmp}/kconfig-diff
export SLUBTINY_CACHE_DIR=${SLUBTINY_CACHE_DIR:-$work/cache}
tree=$(st_shared_tree "$version")
rc=$?
[ $rc = 77 ] && { echo "conf-diff: linux-source-$version or make/flex/bison/xz missing: skipped"; exit 77; }
[ $rc = 0 ] || { echo "conf-diff: cannot extract linux-source-$version" >&2; exit 1; }
[ -x /usr/bin/python3 ] || [ -n "${SLUBTINY_PYTHON:-}" ] || exit 77
treekey=$(st_tree_key "$version")

run=$work/run-$version-$set.$$
rm -rf "$run" && mkdir -p "$run" || exit 1
st_atexit 'rm -rf "$run"'

# The 18 files of "mm, slob: rename CONFIG_SLOB to CONFIG_SLOB_DEPRECATED"
# (Linux 6.2): ARCH REL TARGET, tiny.config resolving as make tinyconfig.
upstream() {
	for f in arm:clps711x arm:collie arm:multi_v4t arm:omap1 arm:pxa \
		arm:tct_hammer arm:xcep openrisc:or1ksim openrisc:simple_smp \
		riscv:nommu_k210 riscv:nommu_k210_sdcard riscv:nommu_virt \
		sh:rsk7201 sh:rsk7203 sh:se7206 sh:shmin sh:shx3; do
		a=${f%%:*} n=${f#*:}
		echo "$a arch/$a/configs/${n}_defconfig ${n}_defconfig"
	done
	echo "x86 kernel/configs/tiny.config tinyconfig"
}

case $set in
upstream) upstream ;;
quick) upstream | grep -E '^(sh .*(rsk7201|shmin)|x86 )' ;;
arches)
	# Under the sanitizers (ST_SANITIZE, tests/meson.build) the upstream
	# files alone (five arches): the C code takes the same paths, and the
	# time of the other arches is the helper's python and conf's cache.
	{ upstream | while read -r a rel tg; do
		[ -f "$tree/$rel" ] && echo "$a $rel $tg"; done
	  [ "${ST_SANITIZE:-none}" = none ] && st_defconfigs "$tree" | awk '!seen[$1]++'
	} | awk '!seen[$2]++' ;;
all) st_defconfigs "$tree" ;;
*) echo "conf-diff: unknown set '$set'" >&2; exit 2 ;;
esac | while read -r a rel tg; do
	# Boards come and go (tct_hammer and xcep are gone in 6.12).
	if [ -f "$tree/$rel" ]; then echo "$a $rel $tg"
	else echo "conf-diff: $rel: not in linux $version, skipped" >&2; fi
done >"$run/list"

# Differences of kc-tool's resolution from conf's that are known and not
# counted (each is printed as a KNOWN line): on 7.x,
# PAGE_BLOCK_MAX_ORDER (mm/Kconfig, "default 10 if ARCH_FORCE_MAX_ORDER =
# 0") on an arch without ARCH_FORCE_MAX_ORDER: conf 10, the helper 1.
known=
case $version in
[0-6].*) ;;
*) known=PAGE_BLOCK_MAX_ORDER ;;
esac

# One arch: conf for each file, then kc-tool once for all of them.
#   one_arch ARCH JOB
one_arch() {
	a=$1 d=$run/$a
	mkdir -p "$d/ref" "$d/kc"
	: >"$d/files"; : >"$d/tiny"
	grep "^$a " "$run/list" | while read -r _ rel tg; do
		key=$(echo "$rel" | tr / %)
		# conf's output depends on the tree and the host's tools only:
		# cached for the next run and the other build directory. conf
		# is arch-neutral: one object dir per set and job, built once.
		st_ref_cached "$tree" "$a" "$rel" "$tg" "$work/obj-$version-$set-$2" \
			"$d/ref/$key" "$treekey" || echo "REF-FAILED $a $rel" >>"$d/out"
		if [ "$tg" = tinyconfig ]; then echo "$rel" >>"$d/tiny"
		else echo "$rel" >>"$d/files"; fi
	done
	for kind in files tiny; do
		[ -s "$d/$kind" ] || continue
		opt=; [ $kind = tiny ] && opt=--tiny
		(cd "$tree" && "$kc_tool" --srctree "$tree" --arch "$a" $opt \
			--config-dir "$d/kc" $(cat "$d/$kind")) \
			>>"$d/findings" 2>"$d/kc.err"
		[ $? -le 1 ] || { echo "KC-FAILED $a: $(tail -1 "$d/kc.err")" >>"$d/out"; }
		# A sanitizer report, a crash message: anything on stderr but
		# the line naming the tree.
		grep -v '^kc-tool: using linux [^ ]* tree ' "$d/kc.err" >"$d/kc.err2"
		[ -s "$d/kc.err2" ] && echo "KC-FAILED $a: stderr: $(head -1 "$d/kc.err2")" >>"$d/out"
	done
	grep "^$a " "$run/list" | while read -r _ rel tg; do
		key=$(echo "$rel" | tr / %)
		[ -f "$d/ref/$key" ] || continue	# REF-FAILED above
		# Every file gives a config, or the file counts as failed.
		[ -s "$d/kc/$key.config" ] ||
			{ echo "KC-FAILED $rel: no config written" >>"$d/out"; continue; }
		grep "^F	$rel	" "$d/findings" >"$d/f.tmp"
		awk -v def="$tree/$rel" -v ref="$d/ref/$key" -v ours="$d/kc/$key.config" \
			-v fnd="$d/f.tmp" -v name="$rel" -v known="$known" \
			-f "$here/compare.awk" </dev/null >>"$d/out"
	done
}

# Spread the arches over JOBS buckets, biggest first into the lightest.
cut -d' ' -f1 "$run/list" | sort | uniq -c | sort -rn | awk -v j="$jobs" '
	{ b = 0; for (i = 1; i < j; i++) if (w[i] < w[b]) b = i; w[b] += $1
	  print b, $2 }' >"$run/buckets"

start=$(date +%s)
i=0
while [ $i -lt "$jobs" ]; do
	(for a in $(awk -v b=$i '$1 == b { print $2 }' "$run/buckets"); do
		one_arch "$a" "job$i"
	done) &
	i=$((i + 1))
done
wait

# 3. slubtiny migrate --check on a tree after 6.12, against conf's
# results of the steps above (cached, not run again)
mig=
case $version in
[0-6].*) ;;
*)	mig=" (migrate --check: none)"
	command -v jq >/dev/null || { echo "conf-diff: jq missing: skipped"; exit 77; }
	st_start=$(date +%s)
	# shellcheck disable=SC2046
	(cd "$tree" && "${SLUBTINY:?}" migrate --check --json --srctree "$tree" \
		$(cut -d' ' -f2 "$run/list")) >"$run/mig.json" 2>"$run/mig.err"
	rc=$?
	st_t=$(($(date +%s) - st_start))
	[ $rc -le 1 ] || echo "MIG-FAILED: exit $rc: $(grep -v '^slubtiny: migrate: checked ' \
		"$run/mig.err" | head -1)" >>"$run/mig.out"
	grep -v '^slubtiny: migrate: checked [0-9]' "$run/mig.err" | grep . >"$run/mig.err2" &&
		echo "MIG-FAILED: stderr: $(head -1 "$run/mig.err2")" >>"$run/mig.out"
	jq -r '.files[] | .path as $p | .findings[] |
		select(.kind == "ineffective" or (.kind == "unknown" and .requested != "n")) |
		"\($p)\t\(.symbol)"' "$run/mig.json" >"$run/mig.rep" 2>/dev/null ||
		echo "MIG-FAILED: not one JSON document" >>"$run/mig.out"
	nmf=0 nmk=0
	while read -r a rel tg; do
		key=$(echo "$rel" | tr / %)
		ref=$run/$a/ref/$key
		[ -f "$ref" ] || continue	# REF-FAILED above
		# the last assignment of each symbol, conf's value of it
		awk -v ref="$ref" 'BEGIN { while ((getline l < ref) > 0)
				if (l ~ /^CONFIG_[A-Za-z0-9_]+=/) {
					i = index(l, "="); c[substr(l, 8, i - 8)] = substr(l, i + 1) } }
			{ sub(/[ \t\r]+$/, "") }
			/^CONFIG_[A-Za-z0-9_]+=/ { i = index($0, "=")
				w[substr($0, 8, i - 8)] = substr($0, i + 1) }
			/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { s = $2; sub(/^CONFIG_/, "", s); w[s] = "n" }
			END { for (s in w) {
				if (w[s] == "n") { if ((s in c) && c[s] != "n") print s }
				else if (!(s in c) || c[s] != w[s]) print s } }' \
			"$tree/$rel" | LC_ALL=C sort >"$run/m.conf"
		awk -F'\t' -v f="$rel" '$1 == f { print $2 }' "$run/mig.rep" |
			LC_ALL=C sort -u >"$run/m.st"
		nmf=$((nmf + 1)) nmk=$((nmk + $(wc -l <"$run/m.conf")))
		cmp -s "$run/m.conf" "$run/m.st" ||
			echo "MIG-MISMATCH $rel: not kept by conf, not reported: [$(LC_ALL=C comm -23 \
				"$run/m.conf" "$run/m.st" | tr '\n' ' ')]; reported, kept by conf: [$(LC_ALL=C \
				comm -13 "$run/m.conf" "$run/m.st" | tr '\n' ' ')]" >>"$run/mig.out"
	done <"$run/list"
	mig=" (migrate --check: $nmf files, $nmk lines conf did not keep, $(wc -l <"$run/mig.rep") reported, ${st_t}s)"
	;;
esac
end=$(date +%s)

cat "$run"/*/out "$run/mig.out" >"$run/all.out" 2>/dev/null
grep -v '^STAT ' "$run/all.out"
awk -v v="$version" -v s="$set" -v t=$((end - start)) -v want="$(wc -l <"$run/list")" \
	-v mig="$mig" '
	$1 == "STAT" { n++; nk += $3; nr += $4; if ($3) fk++; if ($5) cm++ }
	$1 == "SET-MISMATCH" || $1 == "MIG-MISMATCH" { sm++ }
	$1 == "REF-FAILED" || $1 == "KC-FAILED" || $1 == "MIG-FAILED:" { fail++ }
	$1 == "KNOWN" { kn++ }
	END {
		printf "conf-diff %s %s: %d of %d files compared (%d failed to run), %d config mismatches (%d known, not counted), %d set mismatches; %d files have %d options conf did not keep, kc reported %d%s; %ds\n",
			v, s, n, want, fail, cm, kn, sm, fk, nk, nr, mig, t
		exit (cm || sm || fail || !n || n != want) ? 1 : 0
	}' "$run/all.out"
