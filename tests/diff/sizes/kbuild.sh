#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build mm/ of Linux 6.12 tinyconfig with kbuild, SLUB_TINY off and on, for
# one architecture, and print the directory that holds the two results:
#   kbuild.sh ARCH CROSS_COMPILE      (ARCH as the kernel spells it)
# prints DIR with DIR/n and DIR/y each holding mm/built-in.a (a kbuild thin
# archive) and the mm/ objects it names. The builds are slow, so they are
# cached under $ST_SRCDIR/build-cache/sizes-kbuild/KEY, KEY a hash of the
# tarball, the arch, the compiler's and linker's versions and a recipe number: the plain and
# the sanitizer runs of the suite share them. The cache entry appears by
# rename only when complete; mkdir is the lock between concurrent runs.
# Exit 77 (nothing built) when a prerequisite is missing, 1 when the build
# fails.
set -eu
. "$(dirname "$0")/../../lib.sh"
arch=$1 cross=$2
: "${ST_SRCDIR:?}"
tarball=/usr/src/linux-source-6.12.tar.xz

skip() { echo "SKIP: $*" >&2; exit 77; }
[ -r "$tarball" ] || skip "$tarball missing (Debian package linux-source-6.12)"
for t in make flex bison bc "${cross}gcc" "${cross}ar" "${cross}ld"; do
	command -v "$t" >/dev/null 2>&1 || skip "$t missing"
done

cache=$ST_SRCDIR/build-cache/sizes-kbuild
mkdir -p "$cache"
# the tarball's identity: its hash, computed once per (size, mtime)
stamp=$(stat -c '%s-%Y' "$tarball")
if [ -s "$cache/tarball-$stamp.sha" ]; then
	tsha=$(cat "$cache/tarball-$stamp.sha")
else
	tsha=$(sha256sum <"$tarball" | cut -c1-64)
	echo "$tsha" >"$cache/tarball-$stamp.sha.$$" && mv "$cache/tarball-$stamp.sha.$$" "$cache/tarball-$stamp.sha"
fi
# bump when the recipe below changes what is built
recipe=2
key=$( { echo "$tsha $arch $cross $recipe"; "${cross}gcc" --version | head -1
	"${cross}ld" --version | head -1; } | sha256sum | cut -c1-16)
dir=$cache/$arch-$key
if [ -s "$dir/done" ]; then
	echo "$dir"
	exit 0
fi

lock=$cache/$arch-$key.lock
i=0
until mkdir "$lock" 2>/dev/null; do
	[ $i -lt 3600 ] || { echo "kbuild: $lock held for an hour" >&2; exit 1; }
	if [ -s "$dir/done" ]; then
		echo "$dir"
		exit 0
	fi
	sleep 1
	i=$((i + 1))
done
tmp=$cache/tmp-$arch-$key.$$
st_atexit 'rm -rf "$tmp" "$lock"'
rm -rf "$tmp"
mkdir -p "$tmp"
# the full tree the kernel tests build from (build-cache/kernel-src, one
# extraction for every arch and test; kbuild writes only under O=).
# extract() gives up after 10 minutes of another test's extraction: as
# before, wait up to an hour for it on a loaded machine.
i=0
until src=$(. "$ST_SRCDIR/tests/cli/kernel/lib.sh" && extract 6.12); do
	i=$((i + 1))
	[ $i -lt 6 ] || { echo "kbuild: cannot extract $tarball" >&2; exit 1; }
done
jobs=$(nproc 2>/dev/null || echo 2)
# One object directory: the y build after the n one remakes only what
# depends on the options that changed (kbuild's own dependency tracking),
# not the host tools and generated headers of the prepare stage. Each
# .config is made from scratch by the same commands as in a fresh
# directory, so each archive is what a build of its own would give.
o=$tmp/o
mk() { make -s -C "$src" O="$o" ARCH="$arch" CROSS_COMPILE="$cross" "$@"; }
for v in n y; do
	echo "kbuild: $arch SLUB_TINY=$v: make tinyconfig, mm/" >&2
	mk tinyconfig >"$tmp/log-$v" 2>&1 || { tail -20 "$tmp/log-$v" >&2; exit 1; }
	[ "$v" = y ] && flag=-e || flag=-d
	"$src/scripts/config" --file "$o/.config" -e EXPERT -e SLUB $flag SLUB_TINY
	mk olddefconfig >>"$tmp/log-$v" 2>&1 || { tail -20 "$tmp/log-$v" >&2; exit 1; }
	grep -qx "CONFIG_SLUB_TINY=y" "$o/.config" && got=y || got=n
	[ "$got" = "$v" ] || { echo "kbuild: SLUB_TINY=$v did not stick" >&2; exit 1; }
	mk -j"$jobs" mm/ >>"$tmp/log-$v" 2>&1 || { tail -20 "$tmp/log-$v" >&2; exit 1; }
	# keep the archive, the objects it names and the .config, nothing else
	mkdir -p "$tmp/out/$v"
	(cd "$o" && find mm -name '*.o' -o -name 'built-in.a' | tar -cf - -T - .config) |
		tar -C "$tmp/out/$v" -xf -
done
rm -rf "$dir"
mv "$tmp/out" "$dir"
echo "$key" >"$dir/done"
echo "$dir"
