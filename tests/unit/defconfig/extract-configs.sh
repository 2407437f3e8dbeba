#!/bin/sh
# Usage: extract-configs.sh VERSION
# Extract arch/*/configs and kernel/configs of Debian's linux-source-VERSION
# into $ST_BUILDDIR/kernel-configs/VERSION (once; concurrent callers wait)
# and print that directory. Exit 77 when the tarball is not installed.
set -eu
v=$1
tarball=/usr/src/linux-source-$v.tar.xz
[ -r "$tarball" ] || { echo "skip: $tarball not installed" >&2; exit 77; }
top=${ST_BUILDDIR:?}/kernel-configs
dir=$top/$v
mkdir -p "$top"
(
	flock 9
	if [ ! -f "$dir/.done" ]; then
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp"
		tar -xJf "$tarball" -C "$dir.tmp" --strip-components=1 --wildcards \
			"linux-source-$v/arch/*/configs/*" "linux-source-$v/kernel/configs/*"
		rm -rf "$dir"
		mv "$dir.tmp" "$dir"
		touch "$dir/.done"
	fi
) 9>"$top/.lock-$v"
echo "$dir"
