#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Choices against the kernel's own conf on linux-source-6.1 and 6.12 (conf
# changed its rule in 6.11: a choice whose members the file sets to n, or
# whose default it sets to n, resolves differently on the two).
#
#   choice-diff.sh KC_TOOL SLUBTINY
#
# Inputs: the x86 files of choices/ (written for this test): every member
# of each choice n (in menu order and reversed), only the default n, some
# members n, y lines on visible and hidden members with a member assigned
# twice, and a tiny.config fragment (make tinyconfig). For each file and
# version: (1) every symbol kc-tool resolves equals conf's .config, and
# (2) the lines conf did not keep, "is not set" lines too, are exactly
# those kc-tool reports. Then `slubtiny check --srctree` on the all-n file
# (6.12) must warn on just those lines, exit 1, and print nothing else on
# stderr. conf's results are cached in build-cache/conf-boards/.
# Exit 77 when a tarball, make, flex, bison or xz is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib.sh"
. "$here/common.sh"
case $1 in /*) kc_tool=$1 ;; *) kc_tool=$PWD/$1 ;; esac
case $2 in /*) slubtiny=$2 ;; *) slubtiny=$PWD/$2 ;; esac
work=${ST_BUILDDIR:-/tmp}/kconfig-diff
export SLUBTINY_CACHE_DIR=${SLUBTINY_CACHE_DIR:-$work/cache}
[ -x /usr/bin/python3 ] || [ -n "${SLUBTINY_PYTHON:-}" ] || exit 77

run=$work/choice.$$
rm -rf "$run" && mkdir -p "$run" || exit 1
st_atexit 'rm -rf "$run"'
cd "$here/choices" || exit 1

for v in 6.1 6.12; do
	tree=$(st_shared_tree $v)
	rc=$?
	[ $rc = 77 ] && { echo "choice-diff: linux-source-$v or make/flex/bison/xz missing: skipped"; exit 77; }
	[ $rc = 0 ] || { echo "choice-diff: cannot extract linux-source-$v" >&2; exit 1; }
	d=$run/$v
	mkdir -p "$d/kc" || exit 1
	for f in *_defconfig tiny.config; do
		if [ $f = tiny.config ]; then rel=kernel/configs/tiny.config
		else rel=arch/x86/configs/$f; fi
		c=$(st_conf_cached "$tree" x86 "$rel" "$f" "$d/scratch") ||
			{ bad "$v $f: conf failed"; continue; }
		cp "$c" "$d/$f.conf" || exit 1
	done
	for kind in files tiny; do
		opt= files=$(ls -- *_defconfig)
		[ $kind = tiny ] && opt=--tiny files=tiny.config
		# shellcheck disable=SC2086
		"$kc_tool" --srctree "$tree" --arch x86 $opt --config-dir "$d/kc" \
			$files >>"$d/findings" 2>"$d/kc.err"
		rc=$?
		[ $rc -le 1 ] || bad "$v: kc-tool $opt: exit $rc: $(tail -1 "$d/kc.err")"
		grep -v '^kc-tool: using linux [^ ]* tree ' "$d/kc.err" | grep . &&
			bad "$v: kc-tool $opt: stderr (above)"
	done
	for f in *_defconfig tiny.config; do
		[ -f "$d/$f.conf" ] || continue
		ours=$d/kc/$f.config
		[ -s "$ours" ] || { bad "$v $f: kc-tool wrote no config"; continue; }
		# (an "is not set" line of a symbol the tree lacks is kept by
		# conf, and reported as unknown: SLAB and SLOB on 6.12)
		awk -F'\t' -v f="$f" '$1 == "F" && $2 == f &&
			!($5 == "unknown" && $7 == "n")' "$d/findings" >"$d/f.tmp"
		awk -v def="$f" -v ref="$d/$f.conf" -v ours="$ours" -v fnd="$d/f.tmp" \
			-v name="$v $f" -v withn=1 -f "$here/compare.awk" </dev/null >"$d/cmp"
		grep -v '^STAT ' "$d/cmp" | grep . && bad "$v $f: differs from conf (above)"
		# STAT VERSION FILE NOTKEPT REPORTED MISMATCHES
		set -- $(grep '^STAT ' "$d/cmp")
		echo "$v $f: $4 lines conf did not keep, $5 reported"
	done
done

# The CLI on the reported case: 6.12, every member n.
tree=$(st_shared_tree 6.12) || exit 1
"$slubtiny" check --srctree "$tree" --arch x86 \
	--ignore hardening-notice,unknown-symbol \
	all-n_defconfig >"$run/out" 2>"$run/err"
rc=$?
[ $rc = 1 ] || bad "check all-n_defconfig: exit $rc, want 1"
grep -v '^all-n_defconfig:[0-9]*:1: warning: .* \[ineffective-option\]$' "$run/err" |
	grep -v '^slubtiny: check: checked 1 kernel config, ARCH=x86 (from --arch)$' |
	grep . && bad "check all-n_defconfig: unexpected stderr (above)"
sed -n 's/^all-n_defconfig:\([0-9]*\):1: warning: .*/\1/p' "$run/err" >"$run/got"
awk 'NR == FNR { if (/^CONFIG_[A-Za-z0-9_]*=y$/) { sub(/^CONFIG_/, ""); sub(/=y$/, ""); y[$0] = 1 }; next }
	/^# CONFIG_[A-Za-z0-9_]* is not set$/ { s = $2; sub(/^CONFIG_/, "", s); if (s in y) print FNR }' \
	"$run/6.12/all-n_defconfig.conf" all-n_defconfig >"$run/want"
cmp -s "$run/got" "$run/want" ||
	bad "check all-n_defconfig: warns on lines $(echo $(cat "$run/got")), conf keeps all but $(echo $(cat "$run/want"))"
[ -s "$run/want" ] || bad "check all-n_defconfig: conf kept every line (the input tests nothing)"
echo "choice-diff: check all-n_defconfig (6.12): lines $(echo $(cat "$run/got"))"
exit $fail
