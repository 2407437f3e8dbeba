# SPDX-License-Identifier: GPL-2.0-only
# Sourced by tests that compare with the real scripts/bloat-o-meter of Linux
# 6.12: get_bom extracts it once per build directory from Debian's
# linux-source-6.12 tarball (mkdir is the lock between tests running in
# parallel) and sets $bom; it returns 1 when the reference cannot be had.
bom=$ST_BUILDDIR/tests/diff/sizes/ref/bloat-o-meter
get_bom() {
	tarball=/usr/src/linux-source-6.12.tar.xz
	refdir=$(dirname "$bom")
	[ -s "$bom" ] && return 0
	[ -r "$tarball" ] || return 1
	mkdir -p "$refdir"
	# a lock left by a test killed while extracting (timeout) is broken after 5 minutes
	[ -n "$(find "$refdir/lock" -maxdepth 0 -mmin +5 2>/dev/null)" ] && rm -rf "$refdir/lock"
	if mkdir "$refdir/lock" 2>/dev/null; then
		tmp=$refdir/tmp.$$
		mkdir -p "$tmp"
		tar -C "$tmp" -xJf "$tarball" --wildcards '*/scripts/bloat-o-meter' &&
			mv "$(find "$tmp" -name bloat-o-meter | head -1)" "$bom"
		rm -rf "$tmp" "$refdir/lock"
	else
		i=0
		while [ -d "$refdir/lock" ] && [ $i -lt 600 ]; do sleep 0.2; i=$((i + 1)); done
	fi
	[ -s "$bom" ]
}
