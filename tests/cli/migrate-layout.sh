#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# migrate --fix-deps on a file of a build system's stack (fixtures/layout),
# judged with the kernel's conf on the merged config (the parts concatenated
# in merge order) for the ARCH the build system gives: the migrated file
# makes SLUB_TINY take effect, adds nothing the base already gives (OpenWrt's
# generic config has CONFIG_EXPERT=y), changes only the owned file, and the
# collateral it reports is exactly what conf's two merged configs differ in.
set -u
. "$(dirname "$0")/../lib.sh"
for p in make flex bison gcc python3 jq; do
	command -v $p >/dev/null || { echo "skip: $p missing"; exit 77; }
done
. "$ST_SRCDIR/tests/diff/kconfig/common.sh"
tree=$(st_shared_tree 6.12) || { echo "skip: linux-source-6.12 missing"; exit 77; }
st_tmpdir w

migrate() { # tree-dir owned-file arch
	rm -rf "$w/t" && cp -r "$ST_SRCDIR/fixtures/layout/$1" "$w/t" || exit 2
	cd "$w/t" || exit 2
	"$SLUBTINY" migrate --json --fix-deps --in-place --srctree "$tree" "$2" >"$w/json" 2>"$w/err"
	st=$?
	[ $st = 0 ] || { echo "FAIL: $2: migrate exits $st"; cat "$w/err"; fail=1; }
	[ -s "$w/err" ] && { echo "FAIL: $2: stderr:"; cat "$w/err"; fail=1; }
	[ "$(jq -r '.files[0].arch' "$w/json")/$(jq -r '.files[0].arch_from' "$w/json")" = "$3/build system" ] ||
		{ echo "FAIL: $2: arch $(jq -c '.files[0] | [.arch, .arch_from]' "$w/json")"; fail=1; }
	# the parts in merge order, the kernel's defconfig first (Buildroot's
	# BR2_LINUX_KERNEL_DEFCONFIG); the owned file may have parts over it
	kdef=$(jq -r '.files[0].stack.base_defconfig // empty' "$w/json")
	{ [ -z "$kdef" ] || echo "$tree/arch/$3/configs/$kdef"
	  jq -r '.files[0].stack.parts[]' "$w/json"; } >"$w/parts"
	# only the owned file changes
	(cd "$ST_SRCDIR/fixtures/layout/$1" && find . -type f | sort | while read -r f; do
		cmp -s "$f" "$w/t/$f" || echo "${f#./}"; done) >"$w/changed"
	[ "$(cat "$w/changed")" = "$2" ] || { echo "FAIL: $2: changed files:"; cat "$w/changed"; fail=1; }
	# nothing the base already sets the same way is added
	grep -vxF "$2" "$w/parts" | xargs cat | grep '^CONFIG_\|^# CONFIG_' | sort -u >"$w/base-lines"
	diff "$ST_SRCDIR/fixtures/layout/$1/$2" "$2" | sed -n 's/^> //p' | sort -u >"$w/added"
	comm -12 "$w/base-lines" "$w/added" | grep . &&
		{ echo "FAIL: $2: adds lines the base has (above)"; fail=1; }
	# conf on the merged config, before and after
	while read -r p; do
		if [ "$p" = "$2" ]; then cat "$ST_SRCDIR/fixtures/layout/$1/$2"; else cat "$p"; fi
	done <"$w/parts" >"$w/before"
	# shellcheck disable=SC2046
	cat $(cat "$w/parts") >"$w/after"
	b=$(st_conf_cached "$tree" "$3" "layout/$2" "$w/before" "$w/scratch") &&
	a=$(st_conf_cached "$tree" "$3" "layout/$2" "$w/after" "$w/scratch") ||
		{ echo "FAIL: $2: conf failed"; fail=1; cd - >/dev/null; return; }
	grep -qx 'CONFIG_SLUB_TINY=y' "$a" || { echo "FAIL: $2: conf drops SLUB_TINY"; fail=1; }
	# what conf's two configs differ in, but for what the migration set
	# on purpose (the lines it changed, and SLUB, which SLUB_TINY implies)
	diff "$ST_SRCDIR/fixtures/layout/$1/$2" "$2" >"$w/diff"
	python3 - "$b" "$a" "$w/diff" <<'PY' | sort >"$w/want"
import re, sys
def values(p):
    v = {}
    for l in open(p):
        m = re.match(r"^CONFIG_(\w+)=(.*)$", l.rstrip("\n"))
        if m:
            v[m.group(1)] = m.group(2)
    return v
b, a = values(sys.argv[1]), values(sys.argv[2])
direct = {"SLUB"} | set(re.findall(r"^[<>] (?:# )?CONFIG_(\w+)", open(sys.argv[3]).read(), re.M))
for s in sorted(set(a) | set(b)):
    if s not in direct and b.get(s, "n") != a.get(s, "n"):
        print(s)
PY
	jq -r '.files[0].collateral[].symbol' "$w/json" | sort >"$w/got"
	cmp -s "$w/want" "$w/got" || { echo "FAIL: $2: collateral (< conf, > migrate):"; diff "$w/want" "$w/got"; fail=1; }
	echo "$2: added $(wc -l <"$w/added") lines, $(wc -l <"$w/got") collateral, as conf"
	cd - >/dev/null
}

migrate openwrt target/linux/ramips/mt76x8/config-6.6 mips
# over the kernel's versatile_defconfig and a fragment, under one that sets
# CONFIG_EXPERT=y: nothing to add for EXPERT, nothing in the kernel's file
migrate buildroot board/acme/kdef/tiny.fragment arm
[ "$(cat "$w/added")" = CONFIG_SLUB_TINY=y ] ||
	{ echo "FAIL: kdef: added lines:"; cat "$w/added"; fail=1; }
grep -vq -e '^slubtiny: verified against ' -e '^board/acme/kdef/tiny.fragment' "$w/err" &&
	{ echo "FAIL: kdef: stderr:"; cat "$w/err"; fail=1; }
# the kernel's defconfig needs the tree: without it, one note says so
cd "$ST_SRCDIR/fixtures/layout/buildroot" || exit 2
"$SLUBTINY" migrate board/acme/kdef/tiny.fragment >"$w/out" 2>"$w/err"
st=$?
[ $st = 0 ] || { echo "FAIL: kdef without a tree: exit $st, want 0"; fail=1; }
grep -q 'kdef/tiny.fragment: note: buildroot stack, over the kernel.s versatile_defconfig (not read without a kernel tree) + board/acme/kdef/size.fragment, under board/acme/kdef/expert.fragment; ARCH=arm;' "$w/err" ||
	{ echo "FAIL: kdef without a tree: no note on the kernel's defconfig:"; cat "$w/err"; fail=1; }
[ "$(grep -c 'warning' "$w/err")" = 0 ] ||
	{ echo "FAIL: kdef without a tree: warnings:"; cat "$w/err"; fail=1; }
cd - >/dev/null
exit $fail
