#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The former SLOB boards of Linux 6.1 on a later kernel, judged by that
# kernel's own conf:
#
#   tiny-boards.sh SLUBTINY VERSION        (7.3: tests/fetch-linux-source.sh)
#
# The 17 arch/*/configs/*_defconfig of linux-source-6.1 with CONFIG_SLOB=y
# are migrated in one run with
#	slubtiny migrate --in-place --fix-deps --srctree <linux-source-VERSION>
# and each result is resolved by VERSION's conf (make NAME_defconfig on a
# hard-linked copy of the tree, st_conf_cached: results kept in
# build-cache/conf-boards/, shared by the build directories). Passes when
# migrate exits 0, writes all 17 and nothing but its "verified against"
# line on stderr, and conf builds SLUB with CONFIG_SLUB_TINY=y on each
# (under the sanitizers on the first board of each arch).
# Exit 77 when a tarball cannot be had or make, flex, bison, xz or jq is
# missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib.sh"
. "$here/common.sh"
case $1 in /*) slubtiny=$1 ;; *) slubtiny=$PWD/$1 ;; esac
v=$2
work=${ST_BUILDDIR:-/tmp}/kconfig-diff
export SLUBTINY_CACHE_DIR=${SLUBTINY_CACHE_DIR:-$work/cache}
command -v jq >/dev/null || { echo "tiny-boards: jq missing: skipped"; exit 77; }
t61=$(st_shared_tree 6.1)
rc=$?
[ $rc = 77 ] && { echo "tiny-boards: linux-source-6.1 or make/flex/bison/xz missing: skipped"; exit 77; }
[ $rc = 0 ] || { echo "FAIL: cannot extract linux-source-6.1"; exit 1; }
tv=$(st_shared_tree "$v")
rc=$?
[ $rc = 77 ] && { echo "tiny-boards: linux-source-$v cannot be had: skipped"; exit 77; }
[ $rc = 0 ] || { echo "FAIL: cannot fetch or extract linux-source-$v"; exit 1; }
st_tmpdir run
start=$(date +%s)

(cd "$t61" && grep -l '^CONFIG_SLOB=y' arch/*/configs/*_defconfig | LC_ALL=C sort) >"$run/list"
n=$(wc -l <"$run/list")
[ "$n" = 17 ] || bad "want 17 SLOB boards in 6.1, found $n"
# Under the sanitizers (ST_SANITIZE, tests/meson.build) the first board of
# each arch (4): the C code takes the same paths on each; the time of the
# others is the helper's python and conf's (cached) runs.
if [ "${ST_SANITIZE:-none}" != none ]; then
	awk -F/ '!seen[$2]++' "$run/list" >"$run/list1" && mv "$run/list1" "$run/list" || exit 1
	n=$(wc -l <"$run/list")
fi
while read -r rel; do
	mkdir -p "$run/fix/$(dirname "$rel")" && cp "$t61/$rel" "$run/fix/$rel" || exit 1
done <"$run/list"

# shellcheck disable=SC2046
(cd "$run/fix" && "$slubtiny" migrate --in-place --fix-deps --srctree "$tv" --json \
	$(cat "$run/list")) >"$run/fix.json" 2>"$run/fix.err"
rc=$?
t1=$(date +%s)
[ $rc = 0 ] || bad "migrate --in-place --fix-deps --srctree $v: exit $rc, want 0"
grep -v '^slubtiny: verified against ' "$run/fix.err" | grep . &&
	bad "migrate wrote to stderr (above)"
written=$(jq '[.files[] | select(.written)] | length' "$run/fix.json") ||
	{ bad "migrate: not one JSON document"; exit 1; }
[ "$written" = "$n" ] || bad "$written of $n files written"
fixes=$(jq '[.files[].changes[] | select(.rule == "fix-deps" or .rule == "pin")] | length' \
	"$run/fix.json")

# conf on each migrated board, two workers with a copy of the tree each
for j in 0 1; do
	(awk -v j=$j 'NR % 2 == j' "$run/list" | while read -r rel; do
		a=${rel#arch/}; a=${a%%/*}
		c=$(st_conf_cached "$tv" "$a" "$rel" "$run/fix/$rel" "$run/w$j") &&
			echo "$c" >"$run/fix/$rel.cfg" || echo "$rel" >>"$run/conf-failed"
	done) &
done
wait
[ -s "$run/conf-failed" ] && bad "conf failed on: $(tr '\n' ' ' <"$run/conf-failed")"
t2=$(date +%s)

tiny=0
while read -r rel; do
	[ -f "$run/fix/$rel.cfg" ] || continue
	cfg=$(cat "$run/fix/$rel.cfg")
	if grep -qx 'CONFIG_SLUB_TINY=y' "$cfg" && grep -qx 'CONFIG_SLUB=y' "$cfg"; then
		tiny=$((tiny + 1))
	else
		bad "$rel: linux $v's conf does not build SLUB_TINY: $(grep '^CONFIG_SL[AOU]B\|SLUB_TINY' \
			"$cfg" | tr '\n' ' ')"
	fi
done <"$run/list"

echo "tiny-boards: $n SLOB boards of 6.1 -> linux $v: $written written, $fixes fix-deps" \
	"and pin lines; conf: SLUB_TINY=y on $tiny/$n; migrate $((t1 - start))s," \
	"conf $((t2 - t1))s"
exit $fail
