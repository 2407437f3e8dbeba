#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark of `slubtiny build`: a cold build of every variant for every
# arch found, then a warm re-run, timed in the same run against a plain
# ninja build of the same sources with the same commands (Kconfig helper,
# cc per source, cc -r per variant and arch). Targets: cold within 1.5x of
# ninja, warm < 1 s. Prints the times and the ratios; exit 1 if a target is
# missed.  usage: build.sh [JOBS]   (env: SLUBTINY, ST_SRCDIR, ST_BUILDDIR)
set -u
: "${SLUBTINY:?}" "${ST_SRCDIR:?}" "${ST_BUILDDIR:?}"
python=${ST_PYTHON:-/usr/bin/python3}
jobs=${1:-$(nproc)}
command -v ninja >/dev/null || { echo "SKIP: ninja missing"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq missing"; exit 77; }
w=$ST_BUILDDIR/bench-build
rm -rf "$w"
mkdir -p "$w/st" "$w/ninja/config"
now() { date +%s.%N; }
secs() { echo "$1 $2" | awk '{ printf "%.3f", $2 - $1 }'; }

# --- slubtiny, cold then warm
t0=$(now)
"$SLUBTINY" build --builddir "$w/st" -j "$jobs" --json >"$w/st.json" || { echo "slubtiny build failed"; exit 1; }
t1=$(now)
"$SLUBTINY" build --builddir "$w/st" -j "$jobs" --json >"$w/st-warm.json" || exit 1
t2=$(now)
st_cold=$(secs "$t0" "$t1") st_warm=$(secs "$t1" "$t2")
units=$(jq '.units | length' "$w/st.json")
ran=$(jq '.jobs_run' "$w/st.json") warm_ran=$(jq '.jobs_run' "$w/st-warm.json")

# --- the same build as a build.ninja (the commands lib/build runs)
flags="-Os -fno-asynchronous-unwind-tables -fno-unwind-tables -fno-pic -fno-stack-protector -fno-common -g0"
slab=$ST_SRCDIR/lib/slab
srcs=$(cd "$slab" && ls *.c)
prefix_of() {
	case $1 in
	x86_64) [ "$(uname -m)" = x86_64 ] && echo "" || echo x86_64-linux-gnu- ;;
	i686) echo i686-linux-gnu- ;;
	arm) echo arm-linux-gnueabi- ;;
	aarch64) echo aarch64-linux-gnu- ;;
	riscv64) echo riscv64-linux-gnu- ;;
	mips) echo mips-linux-gnu- ;;
	mipsel) echo mipsel-linux-gnu- ;;
	powerpc) echo powerpc-linux-gnu- ;;
	sh4) echo sh4-linux-gnu- ;;
	or1k) echo or1k-elf- ;;
	esac
}
{
	echo "rule kconfig"
	echo "  command = $python $ST_SRCDIR/kconfig/st_kconfig.py autoconf --kconfig $ST_SRCDIR/kconfig/Kconfig --defconfig \$in --header \$out --config \$out.config"
	echo "rule cc"
	echo "  command = \$cc $flags \$aflags -std=gnu11 -D_GNU_SOURCE -I $slab -include \$hdr -c \$in -o \$out"
	echo "rule ld"
	echo "  command = \$cc -r -nostdlib -no-pie -o \$out \$in"
	for v in $(jq -r '.units[].variant' "$w/st.json" | sort -u); do
		echo "build config/$v.h: kconfig $ST_SRCDIR/defconfigs/${v}_defconfig"
	done
	jq -r '.units[] | "\(.arch) \(.variant)"' "$w/st.json" | while read -r arch v; do
		pre=$(prefix_of "$arch") aflags=
		[ "$arch" = x86_64 ] && aflags=-mcx16
		objs=
		for s in $srcs; do
			o=$arch/$v/${s%.c}.o
			echo "build $o: cc $slab/$s | config/$v.h"
			echo "  cc = ${pre}gcc"
			echo "  aflags = $aflags"
			echo "  hdr = config/$v.h"
			objs="$objs $o"
		done
		echo "build $arch/$v.o: ld$objs"
		echo "  cc = ${pre}gcc"
	done
} >"$w/ninja/build.ninja"
t0=$(now)
ninja -C "$w/ninja" -j "$jobs" >/dev/null 2>"$w/ninja.err" || { cat "$w/ninja.err"; echo "ninja failed"; exit 1; }
t1=$(now)
ninja -C "$w/ninja" -j "$jobs" >/dev/null 2>&1
t2=$(now)
nj_cold=$(secs "$t0" "$t1") nj_warm=$(secs "$t1" "$t2")

# Same commands, same objects: the sizes must agree.
diffs=0
jq -r '.units[] | "\(.arch) \(.variant) \(.object)"' "$w/st.json" | while read -r arch v obj; do
	a=$(size "$obj" | awk 'NR == 2 { print $1, $2, $3 }')
	b=$(size "$w/ninja/$arch/$v.o" | awk 'NR == 2 { print $1, $2, $3 }')
	[ "$a" = "$b" ] || echo "MISMATCH $arch $v: slubtiny $a, ninja $b"
done | tee "$w/mismatch" | head -5
[ -s "$w/mismatch" ] && diffs=1

ratio=$(echo "$st_cold $nj_cold" | awk '{ printf "%.2f", $1 / $2 }')
echo "build benchmark: $units objects ($ran jobs), -j$jobs, $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
echo "  slubtiny cold  ${st_cold} s"
echo "  ninja cold     ${nj_cold} s"
echo "  ratio cold     ${ratio}x (target <= 1.5x)"
echo "  slubtiny warm  ${st_warm} s, $warm_ran jobs run (target < 1 s)"
echo "  ninja warm     ${nj_warm} s (no-op)"
ok=0
echo "$ratio" | awk '{ exit !($1 <= 1.5) }' || { echo "  MISSED: cold ratio"; ok=1; }
echo "$st_warm" | awk '{ exit !($1 < 1.0) }' || { echo "  MISSED: warm time"; ok=1; }
[ "$warm_ran" = 0 ] || { echo "  MISSED: warm run rebuilt $warm_ran jobs"; ok=1; }
[ "$diffs" = 0 ] || { echo "  MISMATCH: objects differ from ninja's"; ok=1; }
exit $ok
