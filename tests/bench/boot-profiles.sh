#!/bin/sh
# slubtiny footprint --boot beside the issue's hand measurement (x86_64
# tinyconfig, 32 MB, one CPU, idle: Slab: SLUB 2208 kB, SLUB_TINY 1972 kB,
# SLOB 1828 kB, SLUB with slub_max_order=1 2136 kB), for each boot
# configuration: minimal (what a boot needs, the default) and kvm-guest
# (the tree's kernel/configs/kvm_guest.config first, as `make tinyconfig
# kvm_guest.config`). Then arm and riscv64 tinyconfig on QEMU's virt board
# (6.12 SLUB and SLUB_TINY) where qemu-system-arm / qemu-system-riscv64
# (Debian's qemu-system-arm, qemu-system-misc: `.ci/deps bench`) and the
# cross compilers are installed. Every figure is checked against the console log the kernel
# printed; the distances are printed, not judged.
#
# Images are built (cold: about 5 min each for kvm-guest on 2 CPUs) under
# $ST_SRCDIR/build-cache/kernel-boot/, shared with the boot test.
# meson test -C BUILD --benchmark --suite kernel boot-profiles
set -u
. "$ST_SRCDIR/tests/cli/kernel/lib.sh"
kdir=$cache/kernel-boot
work=$ST_BUILDDIR/bench-boot

need_trees make gcc flex bison bc jq python3 xz perl qemu-system-x86_64
rm -rf "$work"
mkdir -p "$work"

# boot NAME SRC ARGS...: one footprint --boot run into $work/NAME.out; each
# result's Slab: checked against its console log (copied to NAME-VARIANT.log).
boot() {
	name=$1 src=$2
	shift 2
	t0=$(now)
	nice "$SLUBTINY" footprint --boot --srctree "$src" --defconfig tinyconfig \
		--builddir "$kdir" -j2 --accel tcg --json "$@" >"$work/$name.out" 2>"$work/$name.err"
	st=$?
	ms=$((($(now) - t0) / 1000000))
	echo "boot-profiles: $name: exit $st in $ms ms (load $(cut -d' ' -f1-3 /proc/loadavg))"
	[ $st = 0 ] || { err "$name: exit status $st"; cat "$work/$name.err"; return; }
	only_progress "$work/$name.err" footprint
	jq -r '.results[] | "\(.variant) \(.image) \(.slab_kb)"' "$work/$name.out" |
	while read -r v img slab; do
		log=$work/$name-$v.log
		cp "${img%/arch/*}/slubtiny-console.log" "$log"
		want=$(tr -d '\r' <"$log" | awk '/=== slubtiny-boot begin ===/ { on = 1 }
			on && $1 == "Slab:" { print $2; exit }')
		[ "$want" = "$slab" ] || echo "FAIL: $name $v: console $want, slubtiny $slab"
	done >"$work/$name.check"
	if grep -q . "$work/$name.check"; then
		cat "$work/$name.check"
		fail=1
	fi
}

# line NAME VARIANT REF: the figure and its distance to the issue's
line() {
	slab=$(jq -r --arg v "$2" '.results[] | select(.variant == $v) | .slab_kb' "$work/$1.out" 2>/dev/null)
	[ -n "$slab" ] || { err "$1 $2: no result"; return; }
	if [ "$3" = - ]; then
		printf '  %-22s %-10s %5s kB\n' "$1" "$2" "$slab"
	else
		awk -v n="$1" -v v="$2" -v s="$slab" -v r="$3" 'BEGIN {
			printf "  %-22s %-10s %5d kB  issue %4d kB  %+6.1f%%\n", n, v, s, r, 100 * (s - r) / r }'
	fi
}

for prof in minimal kvm-guest; do
	boot "6.12-$prof" "$src612" --boot-config "$prof" --variant slub --variant slub_tiny
	boot "6.12-$prof-mo1" "$src612" --boot-config "$prof" --variant slub \
		--cmdline slub_max_order=1
	boot "6.1-$prof" "$src61" --boot-config "$prof" --variant slob
done

echo "x86_64 tinyconfig, 32 MB, 1 CPU, TCG: Slab: against the issue's hand figures"
for prof in minimal kvm-guest; do
	line "6.12-$prof" slub 2208
	line "6.12-$prof-mo1" slub 2136
	line "6.12-$prof" slub_tiny 1972
	line "6.1-$prof" slob 1828
done

# The other arches: tinyconfig + the virt board's lines, minimal only.
for a in arm:qemu-system-arm:arm-linux-gnueabi- riscv:qemu-system-riscv64:riscv64-linux-gnu-; do
	IFS=: read -r arch q cross <<E
$a
E
	if ! command -v "$q" >/dev/null || ! command -v "${cross}gcc" >/dev/null; then
		echo "boot-profiles: $arch: $q or ${cross}gcc not installed, not booted"
		continue
	fi
	boot "6.12-$arch" "$src612" --arch "$arch" --variant slub --variant slub_tiny
	echo "$arch tinyconfig (virt), 32 MB, 1 CPU, TCG:"
	line "6.12-$arch" slub -
	line "6.12-$arch" slub_tiny -
done
exit $fail
