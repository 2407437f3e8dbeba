#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# migrate and check on real boards, one test per case (named below):
#
#   boards.sh CASE
#
# Inputs are the Debian linux-source 6.1 and 6.12 boards (extracted once
# into $ST_SRCDIR/build-cache/trees by tests/diff/kconfig/common.sh, shared
# by the build directories); where a
# result is a matter of Kconfig, the kernel's own conf decides (results
# cached in $ST_SRCDIR/build-cache/conf-boards/). Exit 77 when the tarballs
# or the tools are missing, checked before slubtiny runs.
set -u
. "$(dirname "$0")/../../lib.sh"
cname=$1
. "$ST_SRCDIR/tests/diff/kconfig/common.sh"
work=$ST_BUILDDIR/kconfig-diff
export SLUBTINY_CACHE_DIR=${SLUBTINY_CACHE_DIR:-$work/cache}
command -v jq >/dev/null && command -v sha256sum >/dev/null || { echo "skip: jq"; exit 77; }
k61=$(st_shared_tree 6.1) || { echo "skip: linux-source-6.1"; exit 77; }
k612=$(st_shared_tree 6.12) || { echo "skip: linux-source-6.12"; exit 77; }
st_tmpdir t
cd "$t" || exit 1
S=$SLUBTINY

bad() { echo "FAIL: $cname: $*"; fail=1; }
# run WANT-STATUS WHAT ARGS...: stdout to out, stderr to err
run() {
	want=$1 what=$2
	shift 2
	"$S" "$@" >out 2>err
	got=$?
	[ "$got" = "$want" ] || { bad "$what: exit $got, want $want"; cat err; }
}
has() { grep -q -- "$1" "${3:-err}" || { bad "$2: lacks '$1'"; cat "${3:-err}"; }; }
hasnt() { grep -q -- "$1" "${3:-err}" && { bad "$2: has '$1'"; grep -- "$1" "${3:-err}" | head -3; }; }
# board V ARCH NAME: copy a board of linux V to ./arch/ARCH/configs/
board() {
	src=$k61
	[ "$1" = 6.12 ] && src=$k612
	mkdir -p "arch/$2/configs" && cp "$src/arch/$2/configs/$3_defconfig" "arch/$2/configs/"
}
# conf TREE ARCH FILE: conf's .config for FILE (cached)
conf() {
	st_conf_cached "$1" "$2" "arch/$2/configs/$(basename "$3")" "$3" "$t/conf-${1##*-}"
}
# savedefconfig TREE ARCH CONFIG OUT: conf's savedefconfig of CONFIG (cached)
savedefconfig() {
	_s=$(st_save_cached "$1" "$2" "$3" "$t/conf-${1##*-}") && cp "$_s" "$4"
}
# lines_agree FILE: every "FILE:N:1: warning: CONFIG_X..." names line N's symbol
lines_agree() {
	sed -n "s|^$1:\([0-9]*\):1: warning: # *\(CONFIG_[A-Za-z0-9_]*\).*|\1 \2|p;
		s|^$1:\([0-9]*\):1: warning: \(CONFIG_[A-Za-z0-9_]*\).*|\1 \2|p" err |
	while read -r n sym; do
		sed -n "${n}p" "$1" | grep -q "$sym[= ]" || echo "$1:$n is not $sym"
	done
}

case $cname in
inplace-own-findings)	# --in-place writes a board whose own findings are not the migration's
	board 6.1 arc hsdk
	run 0 "hsdk --in-place" migrate --in-place --srctree "$k612" arch/arc/configs/hsdk_defconfig
	hasnt 'not written' "hsdk written"
	has 'hsdk_defconfig: note: [0-9]* pre-existing findings' "pre-existing summed up"
	grep -q '^CONFIG_SLAB=y' arch/arc/configs/hsdk_defconfig && bad "hsdk not migrated"
	cp "$k612/arch/x86/configs/x86_64_defconfig" .
	run 0 "--check on upstream x86_64_defconfig" migrate --check --srctree "$k612" \
		--arch x86_64 x86_64_defconfig
	# a refusal does not suggest the option that was given
	printf 'CONFIG_SLOB=y\nCONFIG_COMPILE_TEST=y\n' >arch/arc/configs/t_defconfig
	run 1 "refused" migrate --in-place --fix-deps --srctree "$k612" arch/arc/configs/t_defconfig
	has 'not written' "refusal"
	hasnt 'fix-deps may help' "no --fix-deps hint with --fix-deps"
	;;
fix-scope)	# fixes only for the migration, never COMPILE_TEST nor the platform
	for b in ecovec24 rsk7201 urquell; do board 6.1 sh $b; done
	board 6.1 arm s3c2410
	run 0 "--fix-deps" migrate --in-place --fix-deps --srctree "$k612" arch
	for f in arch/*/configs/*; do
		diff "$f" "$k61/$f" | grep '^<' | grep -E 'COMPILE_TEST|CONFIG_SMP|CONFIG_ARCH_' &&
			bad "$f: a fix outside the slab scope"
	done
	has '^arch/sh/configs/rsk7201_defconfig:[0-9]*:1: note: fixed: added CONFIG_EXPERT=y.* \[fix-deps\]$' "fixed: line"
	# CONFIG_EXPERT=y and the lines that pin what it would change
	has '^slubtiny: fixed [0-9]* lines in 1 file' "closing count"
	has '^arch/sh/configs/rsk7201_defconfig:[0-9]*:1: note: fixed: added # CONFIG_FTRACE is not set: keeps FTRACE at n.* \[pin\]$' "pin"
	# conf keeps SLUB_TINY=y and the timer drivers of ecovec24
	c=$(conf "$k612" sh arch/sh/configs/rsk7201_defconfig) || bad "conf"
	grep -q '^CONFIG_SLUB_TINY=y' "$c" || bad "conf drops SLUB_TINY on rsk7201"
	c=$(conf "$k612" sh arch/sh/configs/ecovec24_defconfig) || bad "conf"
	grep -q '^CONFIG_SH_TIMER_CMT=y' "$c" || bad "ecovec24 lost its timer"
	# check --fix: reports what it wrote, and honours --select
	board 6.1 sh shmin
	cp arch/sh/configs/shmin_defconfig shmin.orig
	run 0 "check --fix --select" check --no-config --fix --select duplicate-assignment \
		arch/sh/configs/shmin_defconfig
	cmp -s shmin.orig arch/sh/configs/shmin_defconfig || bad "--select ignored by --fix"
	"$S" check --no-config --fix --srctree "$k612" arch/sh/configs/shmin_defconfig >out 2>err
	has '^arch/sh/configs/shmin_defconfig:[0-9]*:1: note: fixed: .* \[slob-to-slub-tiny\]$' "check fixed:"
	has 'check: --fix: fixed [0-9]* lines\? in 1 file' "check closing count"
	;;
baseline)	# the slab finding does not drown; check --baseline
	board 6.1 arm pxa
	run 1 "pxa" migrate --srctree "$k612" arch/arm/configs/pxa_defconfig
	# one warning: EMBEDDED=y becomes EXPERT=y (SLUB_TINY takes effect),
	# which hides I2C_MUX that the I2C_MUX_PCA954x=m line needs
	[ "$(grep -c ': warning: ' err)" = 1 ] && has ': warning: CONFIG_I2C_MUX_PCA954x=m' "slab" ||
		bad "warnings without --all: $(grep -c ': warning: ' err), want 1"
	has 'CONFIG_EMBEDDED=y -> CONFIG_EXPERT=y \[embedded-to-expert\]' "EMBEDDED"
	has 'pxa_defconfig: note: [0-9]* pre-existing findings' "summary"
	run 1 "pxa --all" migrate --all --srctree "$k612" arch/arm/configs/pxa_defconfig
	has ', pre-existing\]' "--all lists them"
	run 1 "pxa --json" migrate --json --srctree "$k612" arch/arm/configs/pxa_defconfig
	jq -e '[.files[0].findings[] | select(.origin == "introduced") | .symbol] == ["I2C_MUX_PCA954x"]
		and ([.files[0].findings[] | select(.origin == "pre-existing")] | length > 10)' out \
		>/dev/null || bad "JSON origin"
	# check in a repository: only what the edit brings
	git init -q . && git add arch && git -c user.name=t -c user.email=t@t.invalid \
		commit -q -m b || bad "git"
	echo 'CONFIG_SLUB_TINY=y' >>arch/arm/configs/pxa_defconfig
	run 1 "check --baseline HEAD" check --no-config --srctree "$k612" --baseline HEAD \
		arch/arm/configs/pxa_defconfig
	n=$(wc -l <arch/arm/configs/pxa_defconfig)
	grep ': warning: ' err | grep -v "^arch/arm/configs/pxa_defconfig:$n:" &&
		bad "--baseline HEAD shows more than the edit (line $n)"
	has "^arch/arm/configs/pxa_defconfig:$n:.*SLUB_TINY" "the edit" err
	run 1 "--baseline none" check --no-config --srctree "$k612" --baseline none \
		arch/arm/configs/pxa_defconfig
	[ "$(grep -c ': warning: ' err)" -gt 10 ] || bad "--baseline none shows all"
	# the pre-commit hook's command (.pre-commit-hooks.yaml) with a tree, on
	# unmodified 6.12 boards plus one edited board: only the edit's findings
	mkdir up && cd up && git init -q . || bad "git"
	for b in multi_v7 omap2plus imx_v6_v7 pxa sama5; do board 6.12 arm $b; done
	git add arch && git -c user.name=t -c user.email=t@t.invalid commit -q -m up
	hook=$(sed -n 's/^  entry: slubtiny check//p' "$ST_SRCDIR/.pre-commit-hooks.yaml")
	printf '# CONFIG_SLUB_TINY is not set\nCONFIG_SLAB=y\n' >>arch/arm/configs/sama5_defconfig
	n=$(wc -l <arch/arm/configs/sama5_defconfig)
	# shellcheck disable=SC2086
	run 1 "hook on the tree" check --no-config --srctree "$k612" $hook arch/arm/configs/*
	grep ': warning: ' err | grep -v "^arch/arm/configs/sama5_defconfig:$((n - 1)):" |
		grep -v "^arch/arm/configs/sama5_defconfig:$n:" &&
		bad "the hook reports findings of the untouched boards"
	has "^arch/arm/configs/sama5_defconfig:$n:.*CONFIG_SLAB=y" "the edit's finding" err
	cd ..
	;;
savedefconfig-form)	# savedefconfig form: no CONFIG_SLUB=y where SLUB has no prompt
	board 6.1 sh rsk7201
	board 6.1 sh ecovec24
	run 0 "6.12" migrate --in-place --fix-deps --srctree "$k612" arch/sh/configs
	grep -q '^CONFIG_SLUB=y' arch/sh/configs/* && bad "CONFIG_SLUB=y written for 6.12"
	for f in arch/sh/configs/*; do
		c=$(conf "$k612" sh "$f") && savedefconfig "$k612" sh "$c" saved ||
			{ bad "conf"; continue; }
		tr -d '\r' <"$f" | grep -vxF -f "$k61/$f" | while IFS= read -r l; do
			grep -qxF -- "$l" saved || echo "$f: $l"
		done >lost
		[ -s lost ] && { bad "dropped by savedefconfig: $(cat lost)"; }
	done
	grep -q '^CONFIG_SLUB_TINY=y' arch/sh/configs/rsk7201_defconfig || bad "no SLUB_TINY"
	;;
line-numbers)	# one line numbering: the file as it is, or as --in-place writes it
	board 6.1 sh rsk7201
	f=arch/sh/configs/rsk7201_defconfig
	run 1 "--check" migrate --check --srctree "$k612" $f
	l=$(sed -n "s|^$f:\([0-9]*\):1: warning: CONFIG_SLUB_TINY=y.*|\1|p" err)
	[ -n "$l" ] && [ "$(sed -n "${l}p" $f)" = CONFIG_SLOB=y ] ||
		bad "--check: line '$l' is not the SLOB line it replaces"
	run 1 "--in-place --force" migrate --in-place --force --srctree "$k612" $f
	l=$(sed -n "s|^$f:\([0-9]*\):1: warning: CONFIG_SLUB_TINY=y.*|\1|p" err)
	[ -n "$l" ] && [ "$(sed -n "${l}p" $f)" = CONFIG_SLUB_TINY=y ] ||
		bad "--in-place: line '$l' of the written file is not SLUB_TINY"
	lines_agree $f >wrong
	[ -s wrong ] && bad "$(cat wrong)"
	# tegra with --fix-deps: every finding's line is its line in the written file
	board 6.1 arm tegra
	f=arch/arm/configs/tegra_defconfig
	run 0 "tegra" migrate --in-place --fix-deps --all --srctree "$k612" $f
	grep -q ": warning: " err || bad "tegra: no pre-existing finding listed"
	lines_agree $f >wrong
	[ -s wrong ] && bad "$(cat wrong)"
	;;
paths-sarif)	# absolute paths as given; SARIF file:// URIs
	board 6.1 sh rsk7201
	f=$t/arch/sh/configs/rsk7201_defconfig
	run 0 "absolute path" migrate --no-verify "$f"
	has "^$f:[0-9]*:1: note: " "finding path"
	has "^--- $f\$" "diff header" out
	run 0 "json" migrate --json --no-verify "$f"
	jq -e --arg p "$f" '.files[0].path == $p' out >/dev/null || bad "JSON path"
	run 1 "sarif" check --no-config --format sarif "$f"
	jq -e --arg u "file://$f" '.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri == $u' \
		out >/dev/null || bad "SARIF uri"
	;;
symlinks)	# symlinks: followed and announced, arch from the path given
	mkdir -p real arch/sh/configs
	cp "$k61/arch/sh/configs/rsk7201_defconfig" real/
	ln -s ../../../real/rsk7201_defconfig arch/sh/configs/link_defconfig
	run 1 "walk" migrate --srctree "$k612" arch
	has 'arch/sh/configs/link_defconfig: note: a symlink to' "announced"
	has 'ARCH=sh' "arch from the path given"
	has '^arch/sh/configs/link_defconfig:' "walk follows it"
	run 0 "write through" migrate --in-place --no-verify arch/sh/configs/link_defconfig
	[ -L arch/sh/configs/link_defconfig ] || bad "the link was replaced"
	grep -q '^CONFIG_SLUB_TINY=y' real/rsk7201_defconfig || bad "target not written"
	;;
conf-semantics)	# Kconfig semantics as conf
	# (collie sets EXPERT, which SLOB needs in 6.1: its SLOB=y takes effect)
	board 6.1 arm collie
	f=arch/arm/configs/collie_defconfig
	c=$(conf "$k61" arm $f) || bad conf
	grep -q '^CONFIG_SLOB=y' "$c" || bad "reference: conf 6.1 should build SLOB"
	echo CONFIG_SLAB=y >>$f
	c=$(conf "$k61" arm $f) || bad conf
	grep -q '^CONFIG_SLAB=y' "$c" || bad "reference: conf 6.1 should build SLAB"
	run 0 "SLOB then SLAB" migrate --in-place --no-verify $f
	grep -q 'SLUB_TINY\|^CONFIG_SL[OA]B=' $f && bad "SLOB=y before SLAB=y migrated as SLOB"
	has 'slab-choice-overridden' "says the SLOB line was overridden"
	f=arch/arm/configs/comment_defconfig
	sed 's/^CONFIG_SLOB=y$/CONFIG_SLOB=y # small board/' \
		"$k61/arch/arm/configs/collie_defconfig" >$f
	c=$(conf "$k61" arm $f) || bad conf
	grep -q '^CONFIG_SLOB=y' "$c" || bad "reference: conf 6.1 reads 'y # comment' as y"
	run 0 "trailing comment" migrate --in-place --no-verify $f
	grep -q '^CONFIG_SLUB_TINY=y' $f || bad "SLOB=y # comment not migrated"
	hasnt '\[syntax' "no syntax finding"
	# imply: a user's m stays m (conf 6.12, cns3420vb IOSCHED_BFQ)
	board 6.1 arm cns3420vb
	f=arch/arm/configs/cns3420vb_defconfig
	"$S" migrate --in-place --no-verify $f 2>/dev/null
	c=$(conf "$k612" arm $f) || bad conf
	grep -q '^CONFIG_IOSCHED_BFQ=m' "$c" || bad "reference: conf 6.12 keeps IOSCHED_BFQ=m"
	run 0 "imply" migrate --check --all --json --srctree "$k612" $f
	jq -e '[.files[0].findings[] | select(.symbol == "IOSCHED_BFQ")] == []' out >/dev/null ||
		bad "IOSCHED_BFQ=m reported ineffective"
	run 2 "unknown arch" migrate --arch frob $f
	has "unknown ARCH 'frob' (from --arch" "unknown arch"
	run 2 "too new" migrate --target 9.9 $f
	has 'newer than the newest kernel' "too-new target"
	run 0 "tree and target differ" migrate --no-verify --target 6.12 --srctree "$k61" $f
	has 'warning: target kernel 6.12 but .* is linux 6.1' "version warning"
	;;
probe-cache)	# the same bytes with the compiler-probe cache on and off; cause names
	for b in clps711x ep93xx pxa collie; do board 6.1 arm $b; done
	"$S" migrate --check --json --srctree "$k61" arch >on.json 2>on.err
	on=$?
	SLUBTINY_NO_CACHE=1 "$S" migrate --check --json --srctree "$k61" arch >off.json 2>off.err
	off=$?
	[ $on -le 1 ] && [ $on = $off ] || bad "exit $on with the cache, $off without"
	cmp -s on.json off.json || { bad "JSON differs"; diff on.json off.json | head -5; }
	jq -e '[.files[].findings[].cause | test("^[a-z_]+$")] | all' on.json >/dev/null ||
		bad "a cause that is not a name"
	;;
*)	echo "boards.sh: no case $cname"; exit 2 ;;
esac
exit $fail
