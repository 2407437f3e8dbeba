#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The conf runs of the kconfig tests probe the compiler through memo-cc
# (common.sh, st_make): its remembered answers must leave conf's .config
# exactly as the compiler itself does.
#
#   memo-diff.sh
#
# x86 tinyconfig on linux-source 6.1 and 7.3 (fetched, see
# tests/fetch-linux-source.sh), arm's multi_v7_defconfig on 6.12: conf
# with the compiler itself (ST_MEMO=0), then through memo-cc with a fresh
# memory (every answer a miss, which runs the compiler and keeps what it
# said), then again (every answer a hit): the three .config files are
# byte-identical, and the second run kept answers that the third used.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib.sh"
. "$here/common.sh"
[ -x "${ST_MEMO_CC:-}" ] || { echo "FAIL: ST_MEMO_CC is not an executable"; exit 1; }
work=${ST_BUILDDIR:-/tmp}/kconfig-diff/memo.$$
rm -rf "$work" && mkdir -p "$work" || exit 1
st_atexit 'rm -rf "$work"'
n=0
for c in "6.1 x86 tinyconfig" "6.12 arm multi_v7_defconfig" "7.3 x86 tinyconfig"; do
	set -- $c
	v=$1
	shift
	tree=$(st_shared_tree "$v")
	rc=$?
	[ $rc = 77 ] && { echo "skip: linux-source-$v or make/flex/bison/xz missing"; exit 77; }
	[ $rc = 0 ] || { bad "cannot extract linux-source-$v"; continue; }
	{
		d=$work/$v-$1
		mkdir -p "$d/memo" || exit 1
		(export ST_MEMO=0; st_ref "$tree" "$1" "$2" "$d/obj" "$d/plain.config") ||
			{ bad "$v $2: conf failed"; continue; }
		# a memory of its own: every probe a miss, then every one a hit
		gcc --version >"$d/memo/.id" || exit 1
		for run in cold warm; do
			rm -f "$d/obj/.config"
			(export ST_MEMO_DIR="$d/memo"
			 st_ref "$tree" "$1" "$2" "$d/obj" "$d/$run.config") ||
				{ bad "$v $2: conf through memo-cc ($run) failed"; continue 2; }
			[ $run = cold ] && kept=$(ls "$d/memo" | grep -c '\.rc$')
		done
		for run in cold warm; do
			cmp -s "$d/plain.config" "$d/$run.config" ||
				{ bad "$v ARCH=$1 $2: .config through memo-cc ($run) differs:"
				  diff "$d/plain.config" "$d/$run.config" | head -5; }
		done
		after=$(ls "$d/memo" | grep -c '\.rc$')
		[ "$kept" -ge 20 ] && [ "$after" = "$kept" ] ||
			bad "$v $2: memo-cc kept $kept answers, $after after the warm run (want >= 20, the same)"
		echo "$v ARCH=$1 $2: .config the same with and without memo-cc ($kept answers kept)"
		n=$((n + 1))
	}
done
[ $n = 3 ] || bad "$n of 3 cases compared"
exit $fail
