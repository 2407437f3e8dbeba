#!/bin/sh
# Kernel-scale check of `slubtiny report --objects` (not part of the test
# suite: it builds two kernel objects, a few minutes on 2 cores).
#
# Builds Linux 6.12 tinyconfig for x86_64 twice, with EXPERT on in both and
# SLUB_TINY off / on, only as far as mm/slub.o, from Debian's
# linux-source-6.12 tarball in a scratch dir, then reports the two objects.
#
# usage: tests/kernel-report.sh [SCRATCH_DIR [REPORT_OPTIONS...]]
#        (SLUBTINY=path/to/slubtiny, JOBS=2, REBUILD=1 to rebuild the objects)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
slubtiny=${SLUBTINY:-$top/build/cli/slubtiny}
work=${1:-${TMPDIR:-/tmp}/slubtiny-kernel}
[ $# -gt 0 ] && shift
tarball=/usr/src/linux-source-6.12.tar.xz
jobs=${JOBS:-2}

[ -r "$tarball" ] || { echo "kernel-report: $tarball missing (apt-get install linux-source-6.12)" >&2; exit 77; }
[ -x "$slubtiny" ] || { echo "kernel-report: $slubtiny not built" >&2; exit 2; }
mkdir -p "$work"
src=$work/linux-source-6.12
if [ ! -f "$work/.extracted" ]; then
	echo "kernel-report: extracting $tarball" >&2
	rm -rf "$src"
	nice tar -xJf "$tarball" -C "$work"
	touch "$work/.extracted"
fi

build() { # name, y|n for SLUB_TINY
	out=$work/out-$1
	# Objects of an earlier run are reused unless REBUILD=1.
	if [ "${REBUILD:-0}" != 1 ] && [ -f "$out/mm/slub.o" ]; then
		echo "kernel-report: reusing $out/mm/slub.o (REBUILD=1 to rebuild)" >&2
		return 0
	fi
	mkdir -p "$out"
	nice make -s -C "$src" O="$out" ARCH=x86_64 tinyconfig >/dev/null
	"$src/scripts/config" --file "$out/.config" -e EXPERT
	if [ "$2" = y ]; then
		"$src/scripts/config" --file "$out/.config" -e SLUB_TINY
	else
		"$src/scripts/config" --file "$out/.config" -d SLUB_TINY
	fi
	nice make -s -C "$src" O="$out" ARCH=x86_64 olddefconfig >/dev/null
	grep -q "^CONFIG_SLUB_TINY=y" "$out/.config" && got=y || got=n
	[ "$got" = "$2" ] || { echo "kernel-report: $1: SLUB_TINY=$got after olddefconfig" >&2; exit 2; }
	nice make -s -C "$src" O="$out" ARCH=x86_64 -j"$jobs" mm/slub.o >/dev/null
}

start=$(date +%s)
build slub n
build slub_tiny y
echo "kernel-report: built both mm/slub.o in $(( $(date +%s) - start )) s" >&2
echo "\$ slubtiny report --objects slub=out-slub/mm/slub.o slub_tiny=out-slub_tiny/mm/slub.o"
"$slubtiny" report --objects "slub=$work/out-slub/mm/slub.o" "slub_tiny=$work/out-slub_tiny/mm/slub.o" "$@" || exit 2
# The same pair through the real references: size and bloat-o-meter.
old=$work/out-slub/mm/slub.o new=$work/out-slub_tiny/mm/slub.o
echo "\$ size out-slub/mm/slub.o out-slub_tiny/mm/slub.o"
size "$old" "$new" | sed "s|$work/||"
python3 "$src/scripts/bloat-o-meter" "$old" "$new" >"$work/bloat-o-meter.txt"
if "$slubtiny" size-diff "$old" "$new" | cmp -s - "$work/bloat-o-meter.txt"; then
	echo "slubtiny size-diff and scripts/bloat-o-meter: identical output"
else
	echo "slubtiny size-diff and scripts/bloat-o-meter DIFFER" >&2
	exit 1
fi
