#!/bin/sh
# slubtiny footprint --boot on the real thing, and the recorded measurement
# reproduced: Linux 6.12 tinyconfig x86_64 with SLUB and SLUB_TINY and Linux
# 6.1 tinyconfig with SLOB (Debian's linux-source tarballs), built with the
# record's fragments (fixtures/boot-record/) and Debian's static busybox in
# the initramfs, each bzImage booted in qemu-system-x86_64 at -m 32 -smp 1.
# The figures are what the booted kernel prints of /proc/meminfo: they are
# checked against the console log itself (read here with awk), and each
# Slab: within 5% of the record's (SLUB 2208 kB, SLUB_TINY 1972 kB, SLOB
# 1828 kB); SLUB booted with slub_max_order=1 (--cmdline) lies between
# SLUB_TINY and SLUB, as the record's 2136 kB does.
#
# The images are built under $ST_SRCDIR/build-cache/kernel-boot/ (slubtiny's own
# stamps; shared with the kernel test's tree extraction and by the plain and
# sanitizer runs): a cold run builds three bzImages, a warm one only boots.
set -u
. "$(dirname "$0")/lib.sh"
# (not kernel-tinyconfig's build-cache/kernel/: a --builddir is one run's
# at a time, and the two tests run side by side)
kdir=$cache/kernel-boot
work=$ST_BUILDDIR/tests-kernel/boot

need_trees make gcc flex bison bc jq python3 xz perl qemu-system-x86_64 readelf
bb=/bin/busybox
[ -x $bb ] || { echo "SKIP: $bb missing (Debian package busybox-static)"; exit 77; }
readelf -l $bb | grep -q 'program interpreter' &&
	{ echo "SKIP: $bb is not static (Debian package busybox-static)"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
tiny="--defconfig tinyconfig --arch x86_64 --builddir $kdir -j2 --busybox $bb"

boot() { # name src args...
	name=$1 src=$2
	shift 2
	t0=$(now)
	# TCG, as the record was measured, also where /dev/kvm would start it
	nice "$SLUBTINY" footprint --boot --srctree "$src" $tiny --accel tcg --json \
		--svg "$work/$name.svg" \
		"$@" >"$work/$name.out" 2>"$work/$name.err"
	st=$?
	ms=$((($(now) - t0) / 1000000))
	echo "boot: $name: exit $st in $ms ms" >&2
	[ $st = 0 ] || { err "$name: exit status $st"; cat "$work/$name.err"; }
	only_progress "$work/$name.err" footprint
	# each console log, before a later boot of the same image replaces it
	jq -r '.results[] | "\(.variant) \(.image)"' "$work/$name.out" | while read -r v img; do
		cp "${img%/arch/x86/boot/bzImage}/slubtiny-console.log" "$work/$name-$v.log"
	done
}

# First, so that the plain SLUB boot below is the latest one footprint reads.
boot 6.12-mo1 "$src612" $record_612 --variant slub --cmdline slub_max_order=1
boot 6.12 "$src612" $record_612 --variant slub --variant slub_tiny
boot 6.1 "$src61" $record_61 --variant slob

# Each figure against the console log the kernel printed, and the record's.
# The record was made on Debian's 6.12.118 and 6.1.192: its figures are
# asserted on those trees, only printed beside another release's.
for c in 6.12:slub:2208:linux-6.12.118 6.12:slub_tiny:1972:linux-6.12.118 \
	6.1:slob:1828:linux-6.1.192; do
	IFS=: read -r name v ref rtree <<E
$c
E
	j=$work/$name.out
	slab=$(jq -r --arg v "$v" '.results[] | select(.variant == $v) | .slab_kb' "$j")
	[ -n "$slab" ] && [ "$slab" != null ] || { err "$name $v: no result"; continue; }
	img=$(jq -r --arg v "$v" '.results[] | select(.variant == $v) | .image' "$j")
	dir=${img%/arch/x86/boot/bzImage}
	log=$work/$name-$v.log
	[ -s "$log" ] || { err "$name $v: no console log $log"; continue; }
	# /proc/meminfo between the markers, as the kernel printed it
	tr -d '\r' <"$log" | awk '/=== slubtiny-boot begin ===/ { on = 1 }
		/^=== slubtiny-boot end ===/ { on = 0 } on' >"$work/$name-$v.block"
	for k in Slab SReclaimable SUnreclaim MemFree MemTotal; do
		want=$(awk -v k="$k:" '$1 == k { print $2 }' "$work/$name-$v.block")
		key=$(echo "$k" | tr 'A-Z' 'a-z')_kb
		got=$(jq -r --arg v "$v" --arg k "$key" '.results[] | select(.variant == $v) | .[$k]' "$j")
		[ -n "$want" ] && [ "$want" = "$got" ] || err "$name $v: $k: console $want, slubtiny $got"
	done
	awk '$1 == "Slab:" { s = $2 } $1 == "SReclaimable:" { r = $2 } $1 == "SUnreclaim:" { u = $2 }
		END { exit !(s == r + u) }' "$work/$name-$v.block" ||
		err "$name $v: Slab: is not SReclaimable: + SUnreclaim:"
	case $v in
	slub) grep -qx CONFIG_SLUB=y "$dir/.config" && ! grep -qx CONFIG_SLUB_TINY=y "$dir/.config" &&
		! grep -qx CONFIG_SLUB_DEBUG=y "$dir/.config" ;;
	slub_tiny) grep -qx CONFIG_SLUB_TINY=y "$dir/.config" ;;
	slob) grep -qx CONFIG_SLOB=y "$dir/.config" ;;
	esac || err "$name $v: .config has not the allocator"
	echo "boot: $name $v: Slab: $slab kB (record: $ref kB), $(jq -r --arg v "$v" \
		'.results[] | select(.variant == $v) | "\(.accel), boot \(.boot_s) s"' "$j")" >&2
	awk -v s="$slab" -v r="$ref" -v n="$name $v" \
		'BEGIN { printf "boot: %s: %+.1f%% from the record\n", n, 100 * (s - r) / r }' >&2
	tree=$(jq -r .tree "$j")
	if [ "$tree" != "$rtree" ]; then
		echo "boot: $name $v: $tree, not the record's $rtree: 5% not asserted" >&2
	elif ! awk -v s="$slab" -v r="$ref" 'BEGIN { d = (s - r) / r; exit !(d <= 0.05 && d >= -0.05) }'; then
		err "$name $v: Slab: $slab kB is not within 5% of the record's $ref kB"
	fi
	eval "slab_$v=$slab"
done
awk -v o="${slab_slob:-0}" -v t="${slab_slub_tiny:-0}" -v s="${slab_slub:-0}" \
	'BEGIN { exit !(o > 0 && o < t && t < s) }' ||
	err "not SLOB < SLUB_TINY < SLUB: ${slab_slob:-} ${slab_slub_tiny:-} ${slab_slub:-}"
for k in boot_config cmdline; do
	[ "$(jq -r ".$k" "$work/6.12.out")" = "$(jq -r ".results[0].$k" "$work/6.12.out")" ] ||
		err "6.12: $k differs between the run and its result"
done
[ "$(jq -r '.boot_config + ":" + .cmdline' "$work/6.12.out")" = "minimal:" ] ||
	err "6.12: boot_config/cmdline: $(jq -c '[.boot_config, .cmdline]' "$work/6.12.out")"

# slub_max_order=1 on the kernel's command line (its console log says so),
# and its Slab: between SLUB_TINY's and SLUB's, as in the record.
mo1=$(jq -r '.results[] | select(.variant == "slub") | .slab_kb' "$work/6.12-mo1.out")
[ "$(jq -r '.cmdline' "$work/6.12-mo1.out")" = slub_max_order=1 ] || err "mo1: cmdline not kept"
tr -d '\r' <"$work/6.12-mo1-slub.log" | grep -q '^Kernel command line: .* slub_max_order=1$' ||
	err "mo1: the kernel's command line has no slub_max_order=1"
want=$(tr -d '\r' <"$work/6.12-mo1-slub.log" | awk '/=== slubtiny-boot begin ===/ { on = 1 }
	on && $1 == "Slab:" { print $2; exit }')
[ -n "$mo1" ] && [ "$mo1" = "$want" ] || err "mo1: Slab: console $want, slubtiny $mo1"
awk -v m="${mo1:-0}" -v t="${slab_slub_tiny:-0}" -v s="${slab_slub:-0}" \
	'BEGIN { exit !(t > 0 && t < m && m < s) }' ||
	err "not SLUB_TINY < SLUB slub_max_order=1 < SLUB: ${slab_slub_tiny:-} ${mo1:-} ${slab_slub:-}"
echo "boot: 6.12 slub slub_max_order=1: Slab: ${mo1:-?} kB (record: 2136 kB)" >&2
awk -v s="${mo1:-0}" 'BEGIN { printf "boot: 6.12 slub slub_max_order=1: %+.1f%% from the record\n", 100 * (s - 2136) / 2136 }' >&2

# The SVG is well-formed and has a bar per variant.
python3 -c 'import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); sys.exit(len(d.getElementsByTagName("rect")) != 5)' \
	"$work/6.12.svg" || err "6.12.svg: not an SVG with two bars"

# footprint (trace replay) reads the booted figures back, and says whose.
"$SLUBTINY" footprint --builddir "$kdir" --variant slub --variant slub_tiny --variant slob \
	--time-ms 20 --json >"$work/replay.out" 2>"$work/replay.err"
st=$?
[ $st -le 1 ] && [ ! -s "$work/replay.err" ] || { err "footprint: exit $st"; cat "$work/replay.err"; }
for v in slub slub_tiny slob; do
	eval "want=\${slab_$v:-}"
	got=$(jq -r --arg v "$v" '.kernel_slab_kb[$v]' "$work/replay.out")
	[ "$got" = "$want" ] || err "footprint: kernel $v $got kB, booted $want kB"
	jq -r --arg v "$v" '.kernel_slab_from[$v]' "$work/replay.out" | grep -q '^booted linux-6\.1.* x86_64 tinyconfig, 32 MB, 1 CPU$' ||
		err "footprint: $v: from '$(jq -r --arg v "$v" '.kernel_slab_from[$v]' "$work/replay.out")'"
done

# A boot that cannot finish in time: exit 2, the console's tail, no hang.
t0=$(now)
"$SLUBTINY" footprint --boot --srctree "$src612" $tiny $record_612 --variant slub --accel tcg --timeout 1 \
	>"$work/timeout.out" 2>"$work/timeout.err"
st=$?
ms=$((($(now) - t0) / 1000000))
[ $st = 2 ] || err "timeout: exit $st, want 2"
grep -q 'did not reach the end marker within 1 s' "$work/timeout.err" || { err "timeout: message"; cat "$work/timeout.err"; }
[ "$ms" -lt 30000 ] || err "timeout: took $ms ms"

# --boot-config: an unknown one, and a tree without the kvm-guest fragment
# (checked before anything is built): exit 2, one line on stderr.
"$SLUBTINY" footprint --boot --srctree "$src612" $tiny --boot-config big \
	>"$work/prof.out" 2>"$work/prof.err"
st=$?
[ $st = 2 ] && [ "$(wc -l <"$work/prof.err")" = 1 ] && grep -q "'big'" "$work/prof.err" ||
	{ err "--boot-config big: exit $st"; cat "$work/prof.err"; }
mkdir -p "$work/notree"
"$SLUBTINY" footprint --boot --srctree "$work/notree" $tiny --boot-config kvm-guest \
	>"$work/prof.out" 2>"$work/prof.err"
st=$?
[ $st = 2 ] && [ "$(wc -l <"$work/prof.err")" = 1 ] &&
	grep -q "notree/kernel/configs/kvm_guest.config" "$work/prof.err" ||
	{ err "--boot-config kvm-guest without the fragment: exit $st"; cat "$work/prof.err"; }

exit $fail
