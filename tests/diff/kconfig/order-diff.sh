#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Where `migrate --fix-deps` puts CONFIG_EXPERT=y without a tree (the
# bundled model and its recorded menu order, kconfig/models/6.12/order),
# judged by the kernel's own `make savedefconfig` on linux-source-6.12.
#
#   order-diff.sh SLUBTINY [all]
#
# Inputs, real defconfigs of the Debian trees:
#   - every Linux 6.1 board with CONFIG_SLOB=y, as it is (rsk7201, ...);
#   - per arch of 6.12 (with "all" also of 6.1: twice the conf runs, half
#     an hour cold on a busy 2-core machine), the first (by name) with
#     CONFIG_EXPERT=y, that line removed, and the first without it;
#     each with CONFIG_SLOB=y appended, so that the migration writes
#     CONFIG_SLUB_TINY=y, which needs EXPERT.
# Each is migrated with `migrate --target 6.12 --fix-deps --in-place -q` (no
# --srctree; 6.12, the kernel of the savedefconfig that judges it),
# then resolved by conf on the 6.12 tree and written back by savedefconfig
# (cached in build-cache/conf-boards/, see common.sh). Passes when migrate
# exits 0 with nothing but the model line and the side effects (and the
# note that they are the model's) on stderr,
# every file but the SLOB boards that have it gets CONFIG_EXPERT=y (in
# place of CONFIG_EMBEDDED=y where a board has that), savedefconfig keeps
# it, and it follows the last line of the file that
# savedefconfig puts before it (of the lines whose symbol both files have).
# Exit 77 when the tarballs, make, flex, bison or xz are missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib.sh"
. "$here/common.sh"
case $1 in /*) slubtiny=$1 ;; *) slubtiny=$PWD/$1 ;; esac
[ "${2:-}" = all ] && versions="6.1 6.12" || versions=6.12
work=${ST_BUILDDIR:-/tmp}/kconfig-diff
export SLUBTINY_CACHE_DIR=${SLUBTINY_CACHE_DIR:-$work/cache}
t61=$(st_shared_tree 6.1)
rc=$?
[ $rc = 77 ] && { echo "order-diff: linux-source-6.1 or make/flex/bison/xz missing: skipped"; exit 77; }
[ $rc = 0 ] || { echo "order-diff: cannot extract linux-source-6.1" >&2; exit 1; }
t612=$(st_shared_tree 6.12)
rc=$?
[ $rc = 77 ] && { echo "order-diff: linux-source-6.12 missing: skipped"; exit 77; }
[ $rc = 0 ] || { echo "order-diff: cannot extract linux-source-6.12" >&2; exit 1; }

run=$work/order.$$
rm -rf "$run" && mkdir -p "$run" || exit 1
st_atexit 'rm -rf "$run"'

# "v REL" lines: the inputs, copied to $run/v/REL
(cd "$t61" && grep -lx 'CONFIG_SLOB=y' arch/*/configs/*defconfig | LC_ALL=C sort) |
while read -r rel; do
	mkdir -p "$run/6.1/$(dirname "$rel")" && cp "$t61/$rel" "$run/6.1/$rel" &&
		echo "6.1 $rel"
done >"$run/list"
for v in $versions; do
	[ $v = 6.1 ] && t=$t61 || t=$t612
	for d in "$t612"/arch/*/configs; do
		a=${d%/configs}; a=${a##*/}
		[ -d "$t/arch/$a/configs" ] || continue
		ls "$t/arch/$a/configs" | grep 'defconfig$' | LC_ALL=C sort | while read -r b; do
			f=$t/arch/$a/configs/$b
			[ -f "$f" ] || continue
			# (what the model knows besides EXPERT stays out: a fix
			# that would switch off SLAB_BUCKETS=y is refused)
			grep -q '^CONFIG_\(SL[AOU]B\|SLAB_[A-Z_]*\|SLUB_[A-Z_]*\|RANDOM_KMALLOC_CACHES\|KASAN\|EMBEDDED\|COMPILE_TEST\)=' \
				"$f" && continue
			grep -qx 'CONFIG_EXPERT=y' "$f" && echo "e $b" || echo "n $b"
		done >"$run/c"
		for k in e n; do
			awk -v k=$k '$1 == k { print $2 }' "$run/c" | head -1
		done | while read -r b; do
			rel=arch/$a/configs/$b
			grep -qx "$v $rel" "$run/list" && continue
			mkdir -p "$run/$v/arch/$a/configs" || exit 1
			{ grep -vx 'CONFIG_EXPERT=y' "$t/$rel"; echo 'CONFIG_SLOB=y'; } \
				>"$run/$v/$rel" || exit 1
			echo "$v $rel" >>"$run/list"
		done
	done
done
nfiles=$(wc -l <"$run/list")

for v in 6.1 6.12; do
	cp -r "$run/$v" "$run/in-$v" || exit 1
	# shellcheck disable=SC2046
	(cd "$run/$v" && "$slubtiny" migrate --target 6.12 --fix-deps --in-place -q \
		$(awk -v v=$v '$1 == v { print $2 }' "$run/list")) >"$run/out" 2>"$run/err"
	rc=$?
	[ $rc = 0 ] || bad "$v: migrate --fix-deps --in-place -q: exit $rc, want 0"
	[ -s "$run/out" ] && bad "$v: migrate -q wrote to stdout: $(head -2 "$run/out")"
	# besides the model line, -q keeps only the side effects (a count,
	# then scripts/diffconfig's "-SYM v", " SYM a -> b", "+SYM v" lines)
	# and, without a tree, each file's line that the list is the model's
	grep -v '^slubtiny: verified against bundled slab-related Kconfig model for linux 6.12 ' \
		"$run/err" | grep -v '^[^ ]*: note: [0-9]* options\{0,1\} changes\{0,1\} as a side effect\( ([^)]*)\)\{0,1\}:$' |
		grep -vx '[^ ]*: note: these are the side effects within the bundled slab Kconfig model only; --srctree DIR lists every option that changes' |
		grep -v '^[-+ ][A-Za-z0-9_]* ' | grep . &&
		bad "$v: stderr has more than the model line and the side effects (above)"
done

# symbol of each assignment line, in file order
syms() { sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p; s/^# CONFIG_\([A-Za-z0-9_]*\) is not set.*/\1/p' "$1"; }
# OURS SAVE: "WANT GOT", the line of OURS that EXPERT should follow and
# the one it follows, of those whose symbol SAVE has too ("-": the top):
# the last one whose symbol savedefconfig puts before EXPERT (a file out of
# menu order, as most 6.1 files are under 6.12, is reordered by
# savedefconfig; a line is inserted, not the file reordered)
placement() {
	awk 'NR == FNR {
		if ($0 == "EXPERT") done = 1; else { in_s[$0] = 1; if (!done) pre[$0] = 1 }
		next
	}
	$0 == "EXPERT" { got = prev; next }
	$0 in in_s { prev = FNR ": " $0; if ($0 in pre) want = prev }
	END { print (want == "" ? "-" : want) " / " (got == "" ? "-" : got) }' "$2" "$1"
}

n=0 same=0 skipped=0 embedded=0 scratch=$run/w
while read -r v rel; do
	a=${rel#arch/}; a=${a%%/*}
	out=$run/$v/$rel
	if grep -qx 'CONFIG_EXPERT=y' "$run/in-$v/$rel"; then
		skipped=$((skipped + 1))	# a SLOB board that has it
		continue
	fi
	grep -qx 'CONFIG_EXPERT=y' "$out" || { bad "$v $rel: no CONFIG_EXPERT=y added"; continue; }
	c=$(st_conf_cached "$t612" "$a" "$rel" "$out" "$scratch") &&
		s=$(st_save_cached "$t612" "$a" "$c" "$scratch") ||
		{ bad "$v $rel: conf or savedefconfig failed"; continue; }
	n=$((n + 1))
	grep -qx 'CONFIG_EXPERT=y' "$s" ||
		{ bad "$v $rel: savedefconfig drops CONFIG_EXPERT=y"; continue; }
	# CONFIG_EMBEDDED=y (which selected EXPERT until 6.6) becomes
	# CONFIG_EXPERT=y where it is: one line changed, not one moved
	if grep -qx 'CONFIG_EMBEDDED=y' "$run/in-$v/$rel"; then
		embedded=$((embedded + 1))
		[ "$(grep -B1 -x 'CONFIG_EMBEDDED=y' "$run/in-$v/$rel" | head -1)" = \
		  "$(grep -B1 -x 'CONFIG_EXPERT=y' "$out" | head -1)" ] ||
			bad "$v $rel: CONFIG_EXPERT=y not where CONFIG_EMBEDDED=y was"
		continue
	fi
	syms "$out" >"$run/so"
	syms "$s" >"$run/ss"
	res=$(placement "$run/so" "$run/ss")
	if [ "${res% / *}" = "${res#* / }" ]; then
		same=$((same + 1))
	else
		bad "$v $rel: CONFIG_EXPERT=y after ${res#* / }, want after ${res% / *}" \
			"(savedefconfig: after $(grep -B1 -x 'CONFIG_EXPERT=y' "$s" | head -1))"
	fi
done <"$run/list"

echo "order-diff: $nfiles files (6.1 SLOB boards, and per arch boards of $versions" \
	"with SLOB=y added; $skipped SLOB boards have EXPERT=y, $embedded have EMBEDDED=y" \
	"replaced in place): CONFIG_EXPERT=y where" \
	"savedefconfig puts it in $same of $((n - embedded)) judged by conf on linux-source-6.12"
[ "$n" -gt 0 ] || bad "no file judged"
exit $fail
