#!/bin/sh
# `slubtiny kernel --config FRAGMENT`'s merge (st_kernel_merge_fragment(),
# driven by merge-tool) must give byte for byte what the kernel's own
# scripts/kconfig/merge_config.sh -m (Linux 6.12, extracted once into
# $ST_SRCDIR/build-cache/merge-config/) makes of the same real defconfigs
# and fragments of linux-source-6.1, merged in order (later ones win).
set -u
. "$(dirname "$0")/../../lib.sh"
tarball=/usr/src/linux-source-6.12.tar.xz
[ -r "$tarball" ] || { echo "skip: $tarball not installed"; exit 77; }
for p in bash sed grep tar xz; do
	command -v $p >/dev/null || { echo "skip: $p missing"; exit 77; }
done
k61=$(sh "$ST_SRCDIR/tests/unit/defconfig/extract-configs.sh" 6.1) || exit $?
cache=$ST_SRCDIR/build-cache/merge-config/6.12
mc=$cache/merge_config.sh
if [ ! -f "$mc" ]; then
	mkdir -p "$cache" || exit 1
	tmp=$(mktemp -d "$cache/tmp.XXXXXX") || exit 1
	nice tar -C "$tmp" -xJf "$tarball" linux-source-6.12/scripts/kconfig/merge_config.sh &&
		mv "$tmp/linux-source-6.12/scripts/kconfig/merge_config.sh" "$mc.$$" &&
		mv "$mc.$$" "$mc"
	rm -rf "$tmp"
	[ -f "$mc" ] || { echo "FAIL: cannot extract merge_config.sh"; exit 1; }
fi
st_tmpdir t

# case NAME BASE FRAGMENT...
check() {
	name=$1; shift
	(cd "$t" && bash "$mc" -m -O "$t/$name.ref" "$@") >"$t/$name.mc.log" 2>&1 ||
		{ echo "FAIL: $name: merge_config.sh failed:"; cat "$t/$name.mc.log"; fail=1; return; }
	"$MERGE_TOOL" "$@" >"$t/$name.out" 2>"$t/$name.err"; st=$?
	[ $st = 0 ] || { echo "FAIL: $name: merge-tool exit $st"; fail=1; }
	[ ! -s "$t/$name.err" ] || { echo "FAIL: $name: stderr:"; cat "$t/$name.err"; fail=1; }
	cmp -s "$t/$name.ref/.config" "$t/$name.out" ||
		{ echo "FAIL: $name differs from merge_config.sh:"
		  diff "$t/$name.ref/.config" "$t/$name.out" | head -10; fail=1; }
}

mkdir -p "$t/a.ref" "$t/b.ref" "$t/c.ref" "$t/d.ref"
c=$k61/kernel/configs
check a "$k61/arch/arm/configs/pxa_defconfig" "$c/tiny.config"
check b "$k61/arch/x86/configs/x86_64_defconfig" "$c/kvm_guest.config" "$c/xen.config" "$c/tiny.config"
check c "$k61/arch/arm/configs/multi_v7_defconfig" "$k61/arch/x86/configs/tiny.config" "$c/nopm.config"
check d "$k61/arch/powerpc/configs/ppc64_defconfig" "$k61/arch/powerpc/configs/disable-werror.config" "$k61/arch/powerpc/configs/le.config"
exit $fail
