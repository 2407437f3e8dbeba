#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build systems' config stacks (fixtures/layout): check --srctree on a file
# merged over its base, against the kernel's conf on the merged config (the
# parts concatenated in merge order, later lines winning, as OpenWrt's
# kconfig.pl merges them) for the ARCH the build system gives. Lines of the
# owned file that conf does not keep are its findings, at its own lines;
# those of the base are counted as the base's, never the owned file's.
set -u
. "$(dirname "$0")/../../lib.sh"
for p in make flex bison gcc python3 jq; do
	command -v $p >/dev/null || { echo "skip: $p missing"; exit 77; }
done
. "$ST_SRCDIR/tests/diff/kconfig/common.sh"
tree=$(st_shared_tree 6.12) || { echo "skip: linux-source-6.12 missing"; exit 77; }
st_tmpdir w
F=$ST_SRCDIR/fixtures/layout

# Symbols whose last assignment conf does not keep, "owned" or "base": the
# part $OWNED (0-based) is the owned file.
dropped() { # config part...
	python3 - "$@" <<'PY'
import os, re, sys
conf = {}
for l in open(sys.argv[1]):
    m = re.match(r"^CONFIG_(\w+)=(.*)$", l.rstrip("\n"))
    if m:
        conf[m.group(1)] = m.group(2)
last = {}
parts = sys.argv[2:]
for i, p in enumerate(parts):
    for l in open(p):
        m = re.match(r"^CONFIG_(\w+)=(.*)$", l.rstrip("\n")) or \
            re.match(r"^# CONFIG_(\w+) is not set$", l.rstrip("\n"))
        if m:
            last[m.group(1)] = (m.group(2) if m.lastindex == 2 else "n", i)
for s, (v, i) in sorted(last.items()):
    if conf.get(s, "n") != v:
        print("owned" if i == int(os.environ["OWNED"]) else "base", s)
PY
}

stack() { # dir owned-file arch [--arch]: the check of one stack against conf
	dir=$1 file=$2 arch=$3 layout_arch=$3
	cd "$F/$dir" || exit 2
	# a build system that gives no ARCH (Yocto): --arch
	[ $# -gt 3 ] && layout_arch=null
	"$SLUBTINY" check --no-config --format json --srctree "$tree" ${4:+$4 $arch} "$file" \
		>"$w/json" 2>"$w/err"
	st=$?
	[ -s "$w/err" ] && { echo "FAIL: $file: stderr:"; cat "$w/err"; fail=1; }
	[ "$(jq -r '.stacks[0].arch.name' "$w/json")" = "$layout_arch" ] ||
		{ echo "FAIL: $file: arch $(jq -c .stacks "$w/json"), want $arch"; fail=1; }
	# the tree was resolved for the build system's ARCH: the stack says used
	# (it said "not used": the worker looked for the file in its own list)
	[ $# -gt 3 ] || [ "$(jq -r '.stacks[0].arch.used' "$w/json")" = true ] ||
		{ echo "FAIL: $file: the stack's ARCH not said used: $(jq -c .stacks[0].arch "$w/json")"; fail=1; }
	# the kernel's defconfig under the parts (Buildroot's
	# BR2_LINUX_KERNEL_DEFCONFIG), parts merged over the owned file after it
	kdef=$(jq -r '.stacks[0].base_defconfig // empty' "$w/json")
	{ [ -z "$kdef" ] || echo "$tree/arch/$arch/configs/$kdef"
	  jq -r '.stacks[0].parts[]' "$w/json"; } >"$w/parts"
	OWNED=$(($(grep -nxF "$file" "$w/parts" | cut -d: -f1) - 1))
	export OWNED
	[ "$OWNED" -ge 0 ] && [ "$(sed -n "$((OWNED + 1))p" "$w/parts")" = "$file" ] ||
		{ echo "FAIL: $file: parts:"; cat "$w/parts"; fail=1; }
	# shellcheck disable=SC2046
	cat $(cat "$w/parts") >"$w/merged"
	cfg=$(st_conf_cached "$tree" "$arch" "layout/$file" "$w/merged" "$w/scratch") ||
		{ echo "FAIL: $file: conf failed"; fail=1; cd - >/dev/null; return; }
	# shellcheck disable=SC2046
	dropped "$cfg" $(cat "$w/parts") >"$w/want"
	sed -n 's/^owned //p' "$w/want" >"$w/want-owned"
	jq -r '.findings[] | select(.file == "'"$file"'") | select(.rule | test("^(ineffective-option|unknown-symbol|slub-tiny-deps|slub-tiny-disables|removed-allocator)$")) | .symbol' \
		"$w/json" | sort -u >"$w/got"
	cmp -s "$w/want-owned" "$w/got" ||
		{ echo "FAIL: $file: check vs conf (< conf drops it, > check reports it):"; diff "$w/want-owned" "$w/got"; fail=1; }
	nb=$(grep -c '^base ' "$w/want")
	[ "$(jq '.stacks[0].base_findings' "$w/json")" = "$nb" ] ||
		{ echo "FAIL: $file: base findings $(jq '.stacks[0].base_findings' "$w/json"), conf drops $nb base lines"; fail=1; }
	want_st=0
	[ -s "$w/want-owned" ] && want_st=1
	[ $st = $want_st ] || { echo "FAIL: $file: exit $st, want $want_st"; fail=1; }
	echo "$file: conf drops $(wc -l <"$w/want-owned") owned and $nb base lines; check exit $st"
	cd - >/dev/null
}

stack openwrt target/linux/ramips/mt76x8/config-6.6 mips
stack buildroot board/acme/tiny/tiny.fragment arm
# over the kernel's versatile_defconfig, under a fragment with EXPERT=y
stack buildroot board/acme/kdef/tiny.fragment arm
stack yocto meta-board/recipes-kernel/linux/files/net.cfg x86 --arch

# A Buildroot defconfig that names a file missing below the one checked:
# an error for that file.
cd "$F/buildroot" || exit 2
"$SLUBTINY" check --no-config board/acme/other/extra.fragment >"$w/out" 2>"$w/err"; st=$?
[ $st = 2 ] && [ "$(cat "$w/err")" = "slubtiny: check: board/acme/other/extra.fragment: configs/acme_other_defconfig:6 names board/acme/other/missing.fragment: No such file or directory" ] ||
	{ echo "FAIL: missing fragment: exit $st"; cat "$w/err"; fail=1; }
cd - >/dev/null

# Judged alone the fragment lacks generic's CONFIG_EXPERT=y: the EXPERT
# options are wrongly reported, which the stack avoids.
cp "$F/openwrt/target/linux/ramips/mt76x8/config-6.6" "$w/alone.config"
"$SLUBTINY" check --no-config --format json --arch mips --srctree "$tree" "$w/alone.config" >"$w/json" 2>"$w/err"
n=$(jq '[.findings[] | select(.message | test("depends on EXPERT"))] | length' "$w/json")
[ "$n" -ge 5 ] || { echo "FAIL: alone: $n EXPERT findings, want 5 or more"; fail=1; }
echo "alone: $n findings on EXPERT"

# The version the build system gives: SLAB still exists in 4.14.
cd "$F/openwrt" || exit 2
f=target/linux/ath79/tiny/config-default
"$SLUBTINY" check --no-config "$f" >"$w/out" 2>"$w/err"; st=$?
[ $st = 0 ] || { echo "FAIL: $f: exit $st, want 0 (linux 4.14 has SLAB)"; cat "$w/err"; fail=1; }
grep -qx "$f: note: openwrt stack, over target/linux/ath79/config-4.14; ARCH=mips (not used); linux 4.14" "$w/err" ||
	{ echo "FAIL: $f: the stack note:"; cat "$w/err"; fail=1; }
"$SLUBTINY" check --no-config --format json --target 6.12 "$f" >"$w/json" 2>"$w/err"; st=$?
[ $st = 1 ] && [ ! -s "$w/err" ] && jq -e '.findings[0].rule == "removed-allocator"' "$w/json" >/dev/null ||
	{ echo "FAIL: $f: --target 6.12: exit $st"; cat "$w/err" "$w/json"; fail=1; }
"$SLUBTINY" check --no-config --target 6.x "$f" >/dev/null 2>"$w/err"; st=$?
[ $st = 2 ] && grep -q "invalid --target '6.x'" "$w/err" ||
	{ echo "FAIL: --target 6.x: exit $st"; cat "$w/err"; fail=1; }
cd - >/dev/null

# Without a tree the rules know the base too: generic has CONFIG_EXPERT=y,
# so the hint adds none, and --fix writes only the allocator line.
cp -r "$F/openwrt" "$w/ow"
cd "$w/ow" || exit 2
f=target/linux/ramips/mt76x8/config-6.6
"$SLUBTINY" check --no-config --format json "$f" >"$w/json" 2>"$w/err"; st=$?
[ $st = 1 ] && [ ! -s "$w/err" ] && [ "$(jq -r '.findings[0].hint' "$w/json")" = "replace with CONFIG_SLUB_TINY=y; 'slubtiny check --fix' does it" ] ||
	{ echo "FAIL: $f: hint without tree: exit $st"; cat "$w/err"; jq -c .findings "$w/json"; fail=1; }
"$SLUBTINY" check --no-config --fix --srctree "$tree" "$f" >/dev/null 2>"$w/err"; st=$?
diff "$F/openwrt/$f" "$f" | grep '^[<>]' >"$w/diff"
printf '< CONFIG_SLOB=y\n> CONFIG_SLUB_TINY=y\n' | cmp -s - "$w/diff" ||
	{ echo "FAIL: $f: --fix wrote (exit $st):"; cat "$w/diff" "$w/err"; fail=1; }
cd - >/dev/null
exit $fail
