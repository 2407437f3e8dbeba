#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# What `migrate --fix-deps` changes as a side effect, against the
# kernel's own scripts/diffconfig on conf's .config before and after:
#
#   side-effects-diff.sh SLUBTINY
#
# Linux 6.1 boards that set SLOB (pxa: 228 options, DEBUG_KERNEL and
# DEBUG_INFO among them; the issue counted 227, without KALLSYMS_ALL, the
# neighbour of the line --fix-deps adds), migrated to 6.12 with
#	slubtiny migrate --srctree <linux-source-6.12> --fix-deps --in-place -q
# and resolved by conf (make ARCH=... NAME_defconfig) as they were and as
# written. stderr must hold "FILE: note: N options change as a side
# effect:" and then exactly the lines scripts/diffconfig prints for the two
# .config files, but for
#   - the options a line of the file names that the migration changed (it
#     set them on purpose: the diff shows them) and SLUB (the allocator
#     choice itself);
#   - "+SYM n" and "-SYM n": an option that is n and then not written (or
#     the other way round) keeps its value, n.
# The same list without -q. conf's results are cached in
# $ST_SRCDIR/build-cache/conf-boards/ (common.sh). Exit 77 without the
# tarballs, make, flex, bison, xz or python3.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib.sh"
. "$here/common.sh"
case $1 in /*) slubtiny=$1 ;; *) slubtiny=$PWD/$1 ;; esac
work=${ST_BUILDDIR:-/tmp}/kconfig-diff
export SLUBTINY_CACHE_DIR=${SLUBTINY_CACHE_DIR:-$work/cache}
command -v python3 >/dev/null || { echo "skip: python3 missing"; exit 77; }
t61=$(st_shared_tree 6.1)
rc=$?
[ $rc = 77 ] && { echo "skip: linux-source-6.1 or make/flex/bison/xz missing"; exit 77; }
[ $rc = 0 ] || { echo "FAIL: cannot extract linux-source-6.1"; exit 1; }
t612=$(st_shared_tree 6.12)
rc=$?
[ $rc = 77 ] && { echo "skip: linux-source-6.12 missing"; exit 77; }
[ $rc = 0 ] || { echo "FAIL: cannot extract linux-source-6.12"; exit 1; }
run=$work/side-effects.$$
rm -rf "$run" && mkdir -p "$run" || exit 1
st_atexit 'rm -rf "$run"'

for b in arm:pxa sh:rsk7201 arm:collie; do
	a=${b%%:*} n=${b#*:}
	rel=arch/$a/configs/${n}_defconfig
	d=$run/$n cnt=none
	mkdir -p "$d/$(dirname "$rel")" && cp "$t61/$rel" "$d/$rel" && cp "$t61/$rel" "$d/orig" || exit 1
	(cd "$d" && "$slubtiny" migrate --srctree "$t612" --fix-deps --in-place -q "$rel") \
		>"$d/out" 2>"$d/err"
	st=$?
	[ $st = 0 ] || { bad "$rel: migrate exit $st"; cat "$d/err"; continue; }
	cmp -s "$d/orig" "$d/$rel" && { bad "$rel: not migrated (the case tests nothing)"; continue; }
	before=$(st_conf_cached "$t612" "$a" "$rel" "$d/orig" "$d/scratch") &&
		after=$(st_conf_cached "$t612" "$a" "$rel" "$d/$rel" "$d/scratch") ||
		{ bad "$rel: conf failed"; continue; }
	python3 "$t612/scripts/diffconfig" "$before" "$after" >"$d/diffconfig" ||
		{ bad "$rel: scripts/diffconfig failed"; continue; }
	# what the migration set on purpose: the symbols of the lines it changed
	{ echo SLUB; diff "$d/orig" "$d/$rel" |
		sed -n 's/^[<>] \(# \)\{0,1\}CONFIG_\([A-Za-z0-9_]*\)[= ].*/\2/p'; } | sort -u >"$d/direct"
	awk 'NR == FNR { direct[$1] = 1; next }
		{ s = substr($1, 1, 1) == "-" || substr($1, 1, 1) == "+" ? substr($1, 2) : $1 }
		s in direct { next }
		/^[-+]/ && $2 == "n" && NF == 2 { next }
		{ print }' "$d/direct" "$d/diffconfig" >"$d/want"
	for q in -q ""; do
		if [ -z "$q" ]; then
			# without -q (and without --in-place): the same list
			cp "$d/orig" "$d/$rel"
			(cd "$d" && "$slubtiny" migrate --srctree "$t612" --fix-deps "$rel") \
				>"$d/out" 2>"$d/err"
		fi
		hdr=$(grep -n "^$rel: note: [0-9]* options\{0,1\} changes\{0,1\} as a side effect\( ([^)]*)\)\{0,1\}:\$" "$d/err")
		[ -n "$hdr" ] || { bad "$rel ${q:-(default)}: no count of the side effects:"; head -5 "$d/err"; continue; }
		sed -n "$((${hdr%%:*} + 1)),\$p" "$d/err" | awk '!/^[-+ ][A-Za-z0-9_]+ / { exit } { print }' >"$d/got"
		cnt=$(echo "$hdr" | sed 's/.*: note: \([0-9]*\) option.*/\1/')
		[ "$cnt" = "$(wc -l <"$d/got")" ] || bad "$rel ${q:-(default)}: count $cnt, $(wc -l <"$d/got") lines"
		if ! cmp -s "$d/want" "$d/got"; then
			bad "$rel ${q:-(default)}: the side effects differ from scripts/diffconfig's (< diffconfig, > slubtiny):"
			diff "$d/want" "$d/got" | head -10
		fi
		if [ -n "$q" ]; then
			# -q: the count and the list, nothing else
			grep -v "^$rel: note: [0-9]* options\{0,1\} change" "$d/err" |
				grep -v '^[-+ ][A-Za-z0-9_]* ' | grep . && bad "$rel -q: more than the side effects on stderr"
		fi
	done
	echo "$rel: $cnt options change as a side effect (scripts/diffconfig agrees):" \
		"$(grep -c '^+' "$d/got") added, $(grep -c '^-' "$d/got") removed," \
		"$(grep -c '^ ' "$d/got") changed, $(grep -c ' m$' "$d/got") modules"
	case $n in pxa)
		for s in DEBUG_KERNEL DEBUG_INFO; do
			grep -q "^[-+ ]$s " "$d/got" || bad "$rel: $s not listed"
		done ;;
	esac
done
exit $fail
