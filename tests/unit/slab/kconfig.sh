#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# kconfig/Kconfig and defconfigs/ resolved two ways: by the Kconfiglib
# helper (st_kconfig.py autoconf, what the build uses) and by the kernel's
# own conf (scripts/kconfig of linux-source-6.12, built here from the
# Debian tarball). Every defconfig and a set of edge cases must give the
# same .config; then the resolved values are checked against what the
# tree is meant to express (SLUB_TINY turning the others off, SLOB needing
# EXPERT, the legacy EMBEDDED defconfig still reaching SLOB, SLAB dead).
#   kconfig.sh   (env: ST_SRCDIR ST_BUILDDIR ST_PYTHON)
# Exit 77 when the tarball, xz, flex, bison or a C compiler are missing.
set -u
src=$ST_SRCDIR
work=$ST_BUILDDIR/slab-kconfig
ver=6.12
tree=$work/linux-source-$ver
conf=$tree/scripts/kconfig/conf
fail=0

skip() { echo "kconfig: $*: skipped"; exit 77; }

build_conf() {
	[ -x "$conf" ] && return 0
	tb=/usr/src/linux-source-$ver.tar.xz
	[ -r "$tb" ] || skip "$tb missing"
	for t in xz tar flex bison cc; do
		command -v $t >/dev/null || skip "$t missing"
	done
	rm -rf "$tree" && mkdir -p "$work" || exit 2
	# The Kconfig part of the tarball that the differential tests share
	# (build-cache/trees, one extraction for the plain and sanitizer runs).
	. "$src/tests/diff/kconfig/common.sh"
	other=$(st_shared_tree $ver)
	case $? in 0) ;; 77) skip "cannot use $tb (make, flock?)" ;; *) exit 2 ;; esac
	mkdir -p "$tree/scripts" && cp -R "$other/scripts/kconfig" \
		"$other/scripts/include" "$tree/scripts/" || exit 2
	(cd "$tree/scripts/kconfig" &&
		flex -L -o lexer.lex.c lexer.l &&
		bison -t -l -d -o parser.tab.c parser.y &&
		cc -O1 -w -I../include -I. -o conf.tmp conf.c confdata.c expr.c \
			lexer.lex.c parser.tab.c menu.c preprocess.c symbol.c util.c &&
		mv conf.tmp conf) >"$work/build.log" 2>&1 || {
		echo "kconfig: building conf failed:"; tail -5 "$work/build.log"; exit 2; }
}

# resolve NAME DEFCONFIG: NAME.ref (conf) and NAME.kc (helper), compared
resolve() {
	(cd "$work" && srctree=$src/kconfig KCONFIG_CONFIG=$work/$1.ref \
		"$conf" --defconfig="$2" Kconfig >/dev/null) ||
		{ echo "FAIL: conf rejected $2"; fail=1; return; }
	"$ST_PYTHON" "$src/kconfig/st_kconfig.py" autoconf \
		--kconfig "$src/kconfig/Kconfig" --defconfig "$2" \
		--header "$work/$1.h" --config "$work/$1.kc" ||
		{ echo "FAIL: helper rejected $2"; fail=1; return; }
	grep '^CONFIG_\|^# CONFIG_' "$work/$1.ref" | LC_ALL=C sort >"$work/$1.a"
	grep '^CONFIG_\|^# CONFIG_' "$work/$1.kc" | LC_ALL=C sort >"$work/$1.b"
	if ! cmp -s "$work/$1.a" "$work/$1.b"; then
		echo "FAIL: $1: conf and the helper disagree:"
		diff "$work/$1.a" "$work/$1.b"
		fail=1
	fi
}

# expect NAME SYMBOL VALUE ("n" = not set)
expect() {
	v=$(sed -n "s/^CONFIG_$2=//p" "$work/$1.ref")
	[ -n "$v" ] || v=n
	if [ "$v" != "$3" ]; then
		echo "FAIL: $1: CONFIG_$2=$v, expected $3"
		fail=1
	fi
}

synth() { # NAME LINES...: write a defconfig into the work dir
	n=$1; shift
	printf '%s\n' "$@" >"$work/$n.defconfig"
	resolve "$n" "$work/$n.defconfig"
}

build_conf
for d in "$src"/defconfigs/*_defconfig; do
	n=$(basename "$d" _defconfig)
	resolve "$n" "$d"
	# committed defconfigs are what savedefconfig writes: minimal, in order
	(cd "$work" && srctree=$src/kconfig KCONFIG_CONFIG=$work/$n.ref \
		"$conf" --savedefconfig="$work/$n.saved" Kconfig >/dev/null)
	if ! cmp -s "$d" "$work/$n.saved"; then
		echo "FAIL: $d is not in savedefconfig form:"
		diff "$d" "$work/$n.saved"
		fail=1
	fi
done

# the variants
expect slob SLOB y;		expect slob SLUB n;	expect slob SLUB_DEBUG n
expect slub SLUB y;		expect slub SLUB_TINY n; expect slub SLUB_DEBUG y
expect slub SLUB_CPU_PARTIAL y;	expect slub SLAB_FREELIST_HARDENED y
expect slub_tiny SLUB_TINY y
for s in SLUB_DEBUG SLUB_STATS SLUB_CPU_PARTIAL SLAB_FREELIST_RANDOM \
	SLAB_FREELIST_HARDENED; do
	expect slub_tiny $s n
done
expect slub_tiny SLAB_MERGE_DEFAULT y
expect slub_debug SLUB_DEBUG_ON y;	expect slub_debug SLUB_STATS y
# Linux 7.0's SLUB: the rest of slub, without CPU partial slabs
expect slub_sheaves SLUB_SHEAVES y;	expect slub_sheaves SLUB_CPU_PARTIAL n
expect slub_sheaves SLUB_DEBUG y;	expect slub_sheaves SLAB_FREELIST_HARDENED y
expect slub SLUB_SHEAVES n
# the legacy defconfig: EMBEDDED selects EXPERT, so SLOB stays
expect slob_legacy EMBEDDED y;	expect slob_legacy EXPERT y
expect slob_legacy SLOB y
if ! diff "$work/slob.a" "$work/slob_legacy.a" | grep '^[<>]' |
	grep -qv 'CONFIG_EMBEDDED'; then :; else
	echo "FAIL: slob_legacy resolves differently from slob beyond EMBEDDED"
	fail=1
fi

# edge cases
synth noexpert_slob CONFIG_SLOB=y
expect noexpert_slob SLOB n;	expect noexpert_slob SLUB y
synth slab CONFIG_SLAB=y
expect slab SLAB n;	expect slab SLUB y
synth noexpert_tiny CONFIG_SLUB_TINY=y
expect noexpert_tiny SLUB_TINY n
synth tiny_all CONFIG_EXPERT=y CONFIG_SLUB_TINY=y CONFIG_SLUB_DEBUG=y \
	CONFIG_SLUB_DEBUG_ON=y CONFIG_SLUB_STATS=y CONFIG_SLAB_FREELIST_RANDOM=y \
	'# CONFIG_SLAB_MERGE_DEFAULT is not set'
for s in SLUB_DEBUG SLUB_DEBUG_ON SLUB_STATS SLAB_FREELIST_RANDOM; do
	expect tiny_all $s n
done
expect tiny_all SLAB_MERGE_DEFAULT y
# sheaves under SLUB_TINY: allowed (capacity 0), TINY's choices kept
synth tiny_sheaves CONFIG_EXPERT=y CONFIG_SLUB_TINY=y CONFIG_SLUB_SHEAVES=y
expect tiny_sheaves SLUB_SHEAVES y;	expect tiny_sheaves SLUB_TINY y
expect tiny_sheaves SLUB_CPU_PARTIAL n
synth nosmp '# CONFIG_SMP is not set'
expect nosmp NR_CPUS 1;	expect nosmp SLUB_CPU_PARTIAL n
synth nosysfs '# CONFIG_SYSFS is not set' CONFIG_SLUB_STATS=y
expect nosysfs SLUB_DEBUG n;	expect nosysfs SLUB_STATS n

# the headers the build compiled against say the same
for v in slob slub slub_tiny slub_debug slub_sheaves; do
	h=$ST_BUILDDIR/defconfigs/config-$v.h
	[ -f "$h" ] || continue
	if ! grep '^#define CONFIG_' "$h" | LC_ALL=C sort |
		cmp -s - "$(cd "$work" && grep '^#define CONFIG_' "$v.h" | LC_ALL=C sort >"$v.hs" && echo "$work/$v.hs")"; then
		echo "FAIL: $h differs from a fresh resolution"
		fail=1
	fi
done
[ $fail = 0 ] && echo "kconfig: conf and the helper agree; the tree means what it says"
exit $fail
