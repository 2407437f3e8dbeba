#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# First contact, round two (issue 44): what a new user meets in a first
# session, one test per case, on the README's board (fixtures/readme) and
# the bundled Kconfig models (no kernel tree, a few seconds each):
#
#   contact.sh CASE
#
#   arch-env	one rule for which ARCH wins (issue 45): --arch, the build
#		system's, the path, $ARCH, the host; each source that loses
#		and says another ARCH is one warning naming both; the ARCH
#		and its source are said (stderr, JSON; check's top-level
#		"arch" is the decided one) (check, migrate)
#   side-effects	the side-effect list says what it leaves out and --all
#		lists it, as scripts/diffconfig would; without a tree one
#		line says the list is the bundled model's only (migrate, and
#		check --fix, which prints the same list)
#   target-range	migrate --target below the bundled models: one line
#		naming the range, exit 2, no internal file name
#   fix-lines	the "line N" in --fix / --fix-deps notes name the lines of
#		the file as written (or as it is, when nothing is written)
#   fix-deps-hint	the ineffective-migration note says --fix-deps would fix
#		it, only where --fix-deps does
#   format	--format NAME on every command, the same names; old flags
#		kept as aliases; an unsupported name: one line listing the
#		command's, exit 2
set -u
. "$(dirname "$0")/../lib.sh"
cname=$1
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
unset ARCH CROSS_COMPILE
S=$SLUBTINY
fixture=$ST_SRCDIR/fixtures/readme/arch/arm/configs/board_defconfig
st_tmpdir t
cd "$t" || exit 2

bad() { echo "FAIL: $cname: $*"; fail=1; }
# run WANT-STATUS WHAT CMD...: stdout to out, stderr to err
run() {
	want=$1 what=$2
	shift 2
	"$@" >out 2>err
	got=$?
	[ "$got" = "$want" ] || { bad "$what: exit $got, want $want"; head -5 err; }
}
has() { grep -q -- "$1" "${3:-err}" || { bad "$2: lacks '$1'"; head -5 "${3:-err}"; }; }
hasnt() { grep -q -- "$1" "${3:-err}" && { bad "$2: has '$1'"; grep -- "$1" "${3:-err}" | head -3; }; }
# the file's only line that matches @1 is exactly @2
line_is() {
	[ "$(grep -c -- "$1" "${4:-err}")" = 1 ] && [ "$(grep -- "$1" "${4:-err}")" = "$2" ] ||
		{ bad "$3: want the one line '$2'"; head -5 "${4:-err}"; }
}
board() {
	mkdir -p "$(dirname "$1")" && cp "$fixture" "$1"
}

case_arch_env() {
	board arch/arm/configs/board_defconfig
	board other/board_defconfig
	board arch/x86/configs/tiny_defconfig
	w='warning: ARCH=x86 from the environment contradicts arch/arm/configs/ in the path; using arm'
	for c in check migrate; do
		opts=; [ $c = check ] && opts=--no-config
		# the reference: no $ARCH, the path decides
		run 1 "$c without \$ARCH" "$S" $c $opts arch/arm/configs/board_defconfig
		cp out ref.out
		grep -v "^slubtiny: $c: warning: " err >ref.err
		run 1 "$c ARCH=x86 on arch/arm/configs/" env ARCH=x86 "$S" $c $opts \
			arch/arm/configs/board_defconfig
		line_is "warning: ARCH=" "slubtiny: $c: $w" "$c: the contradiction is said once"
		cmp -s out ref.out || bad "$c: ARCH=x86 changed stdout (the path should win)"
		grep -v "^slubtiny: $c: warning: " err >got.err
		cmp -s got.err ref.err || { bad "$c: ARCH=x86 changed the verdict"; diff ref.err got.err; }
		has "ARCH=arm (from path: arch/arm/configs/)" "$c: ARCH=x86 on arch/arm/configs/"
		# said with -q and beside a JSON document, which names the path
		run 1 "$c -q --json ARCH=x86" env ARCH=x86 "$S" $c $opts -q --json \
			arch/arm/configs/board_defconfig
		line_is "warning: ARCH=" "slubtiny: $c: $w" "$c -q --json: the warning"
		[ "$(jq -r '.files[0] | "\(.arch) \(.arch_from)"' out)" = "arm path" ] ||
			bad "$c --json with ARCH=x86: $(jq -c '.files[0] | [.arch, .arch_from]' out)"
		# no contradiction: x86_64 is x86's, and a file outside arch/ takes $ARCH
		"$S" $c $opts arch/x86/configs/tiny_defconfig >/dev/null 2>&1
		run $? "$c ARCH=x86_64 on arch/x86/configs/" env ARCH=x86_64 "$S" $c $opts \
			arch/x86/configs/tiny_defconfig
		hasnt "warning: ARCH=" "$c: ARCH=x86_64 with arch/x86/configs/"
		run 1 "$c ARCH=arm outside arch/" env ARCH=arm "$S" $c $opts other/board_defconfig
		hasnt "warning: ARCH=" "$c: ARCH=arm outside arch/"
		has 'ARCH=arm (from \$ARCH)' "$c: ARCH=arm outside arch/"
	done
	# --arch is said and wins over all; each other source that says
	# another ARCH is one warning naming both (check and migrate alike)
	for c in check migrate; do
		opts=; [ $c = check ] && opts=--no-config
		run 1 "$c --arch x86 ARCH=arm" env ARCH=arm "$S" $c $opts --arch x86 \
			arch/arm/configs/board_defconfig
		line_is "warning: arch/" "slubtiny: $c: warning: arch/arm/configs/ in the path contradicts ARCH=x86 from --arch; using x86" \
			"$c --arch x86 on arch/arm/configs/"
		line_is "warning: ARCH=" "slubtiny: $c: warning: ARCH=arm from the environment contradicts ARCH=x86 from --arch; using x86" \
			"$c --arch x86 with ARCH=arm"
		has "ARCH=x86 (from --arch)" "$c --arch with ARCH=arm"
	done
	# i386, x86 and x86_64 are one arch/: no contradiction
	run 1 "check --arch x86_64 ARCH=i386 on arch/x86/configs/" env ARCH=i386 "$S" check \
		--no-config --arch x86_64 arch/x86/configs/tiny_defconfig
	hasnt "contradicts" "check --arch x86_64 ARCH=i386 on arch/x86/configs/"
	has "ARCH=x86_64 (from --arch)" "check --arch x86_64 on arch/x86/configs/"

	# check --json: the top-level "arch" is the ARCH decided, not $ARCH's
	run 1 "check --json ARCH=x86 on arch/arm/configs/" env ARCH=x86 "$S" check --no-config \
		--json arch/arm/configs/board_defconfig
	[ "$(jq -r '"\(.arch.name) \(.arch.from)"' out)" = "arm path" ] ||
		bad "check --json ARCH=x86 on arch/arm/configs/: arch $(jq -c .arch out)"
	# $ARCH over the host, for a file nothing else places; the host's when unset
	printf 'CONFIG_SLOB=y\n' >plain_defconfig
	run 1 "check --json ARCH=riscv" env ARCH=riscv "$S" check --no-config --json \
		plain_defconfig
	[ "$(jq -r '"\(.arch.name) \(.arch.from) \(.files[0].arch) \(.files[0].arch_from)"' out)" = \
		'riscv $ARCH riscv $ARCH' ] || bad "check --json ARCH=riscv: $(jq -c '[.arch, .files]' out)"
	hasnt "contradicts" "check ARCH=riscv on a plain file"
	run 1 "check --json, no ARCH" "$S" check --no-config --json plain_defconfig
	host=$(jq -r .arch.name out)
	[ "$(jq -r '"\(.arch.from) \(.files[0].arch) \(.files[0].arch_from)"' out)" = "host $host host" ] ||
		bad "check --json without ARCH: $(jq -c '[.arch, .files]' out)"
	# standard input has symbols too (issue 43: CONFIG_ARCH_AT91=y on stdin
	# was judged for the host), read once and judged from the same bytes
	for c in check migrate; do
		opts=; [ $c = check ] && opts=--no-config
		printf 'CONFIG_ARCH_AT91=y\nCONFIG_SLOB=y\n' >at91.in
		run 1 "$c - with CONFIG_ARCH_AT91" env -u ARCH "$S" $c $opts - <at91.in
		has "ARCH=arm (from symbols: CONFIG_ARCH_AT91)" "$c - with CONFIG_ARCH_AT91"
		has "^-:2:1: .*CONFIG_SLOB=y" "$c - with CONFIG_ARCH_AT91: the file judged after its ARCH"
	done
	# as make's SUBARCH: an x86_64 or i686 machine is x86
	case $(uname -m) in
	x86_64|i?86) [ "$host" = x86 ] || bad "host $(uname -m): ARCH=$host, want x86" ;;
	esac
	run 1 "check, no ARCH" "$S" check --no-config plain_defconfig
	has "ARCH=$host (from host)" "check without ARCH"

	# The build system's ARCH beats the path and $ARCH: an OpenWrt tree
	# (ramips: ARCH:=mipsel) that happens to sit below an arch/arm/configs/
	mkdir -p w/arch/arm/configs && cp -R "$ST_SRCDIR/fixtures/layout/openwrt" w/arch/arm/configs/
	f=w/arch/arm/configs/openwrt/target/linux/ramips/mt76x8/config-6.6
	mk=w/arch/arm/configs/openwrt/target/linux/ramips/Makefile
	for c in check migrate; do
		opts=; [ $c = check ] && opts=--no-config
		env ARCH=x86 "$S" $c $opts -q --json "$f" >out 2>err
		[ "$(jq -r '.files[0] | "\(.arch) \(.arch_from) \(.arch_why)"' out)" = \
			"mips build system $mk:4: ARCH:=mipsel" ] ||
			bad "$c: the build system does not win: $(jq -c '.files[0]' out)"
		line_is "warning: arch/" "slubtiny: $c: warning: arch/arm/configs/ in the path contradicts the build system's ARCH=mips from $mk:4: ARCH:=mipsel; using mips" \
			"$c: the build system over the path"
		line_is "warning: ARCH=" "slubtiny: $c: warning: ARCH=x86 from the environment contradicts the build system's ARCH=mips from $mk:4: ARCH:=mipsel; using mips" \
			"$c: the build system over \$ARCH"
	done
	env ARCH=x86 "$S" check --no-config -q --json "$f" >out 2>err
	[ "$(jq -r '"\(.arch.name) \(.arch.from)"' out)" = "mips build system" ] ||
		bad "check --json: top-level arch with the build system's: $(jq -c .arch out)"
	# --arch still beats the build system
	env ARCH=x86 "$S" check --no-config -q --json --arch sh "$f" >out 2>err
	[ "$(jq -r '.files[0] | "\(.arch) \(.arch_from)"' out)" = "sh --arch" ] ||
		bad "check --arch sh over the build system: $(jq -c '.files[0]' out)"
	[ "$(grep -c 'warning: .* contradicts ARCH=sh from --arch; using sh$' err)" = 3 ] ||
		{ bad "check --arch sh: want 3 warnings (build system, path, \$ARCH):"; cat err; }
}

case_side_effects() {
	board arch/arm/configs/board_defconfig
	f=arch/arm/configs/board_defconfig
	run 0 "migrate --fix-deps" "$S" migrate --fix-deps -q $f
	has "^$f: note: [0-9]* options\? changes\? as a side effect (not listed: [0-9]* set by the changed lines, [0-9]* that only appear or vanish as n; --all lists them too):\$" \
		"the side-effect header says what it leaves out"
	n=$(sed -n 's/.*note: \([0-9]*\) options\? changes\? as a side effect.*/\1/p' err)
	d=$(sed -n 's/.*not listed: \([0-9]*\) set by the changed lines.*/\1/p' err)
	v=$(sed -n 's/.* \([0-9]*\) that only appear or vanish as n.*/\1/p' err)
	grep '^[-+ ][A-Z0-9_]* ' err >side
	[ "$(wc -l <side)" = "$n" ] || bad "the header counts $n, $(wc -l <side) listed"
	model="$f: note: these are the side effects within the bundled slab Kconfig model only; --srctree DIR lists every option that changes"
	line_is "bundled slab Kconfig model only" "$model" "without a tree: the model's list"
	cp err migrate.err
	# check --fix: the same fix, the same list, the same line (also with -q)
	run 0 "check --fix -q" "$S" check --no-config --fix -q $f
	grep -v ': note: fixed: \|^slubtiny: check: --fix: ' err >check.side
	grep -v '^slubtiny: ' migrate.err >migrate.side
	cmp -s check.side migrate.side || { bad "check --fix and migrate --fix-deps: other side effects"; diff migrate.side check.side; }
	board arch/arm/configs/board_defconfig
	run 0 "migrate --fix-deps --all" "$S" migrate --fix-deps --all -q $f
	all=$((n + d + v))
	has "^$f: note: $all options change as scripts/diffconfig shows them ($n as a side effect, $d set by the changed lines, $v only appearing or vanishing as n):\$" \
		"--all: the header"
	grep '^[-+ ][A-Z0-9_]* ' err >all
	[ "$(wc -l <all)" = $all ] || bad "--all lists $(wc -l <all), want $all"
	# the side effects are among them; so are the lines' own and the n ones
	grep -vxFf all side | grep . && bad "--all lacks side effects (above)"
	grep -q '^ EXPERT n -> y$' all || bad "--all lacks ' EXPERT n -> y'"
	grep -q '^+SLUB_TINY y$' all || bad "--all lacks '+SLUB_TINY y'"
	[ "$(grep -c '^[-+][A-Z0-9_]* n$' all)" = "$v" ] || bad "--all: not $v '+SYM n'/'-SYM n' lines"
	# in diffconfig's order: removed, changed, added, each by name
	{ grep '^-' all | sort -c && grep '^ ' all | sort -c && grep '^+' all | sort -c &&
	  grep -n . all | sed -n 's/^\([0-9]*\):\(.\).*/\2/p' | uniq | tr -d '\n' |
	  grep -qx '\(-\)\{0,1\}\( \)\{0,1\}\(+\)\{0,1\}'; } || bad "--all: not in diffconfig's order"
}

case_target_range() {
	board arch/arm/configs/board_defconfig
	f=arch/arm/configs/board_defconfig
	oldest=$(ls "$ST_SRCDIR/kconfig/models" | grep '^[0-9][0-9.]*$' | sort -V | head -1)
	newest=$("$S" migrate --json --no-verify $f | jq -r .target)
	[ -n "$oldest" ] && [ -n "$newest" ] || { bad "no oldest model or newest target"; return; }
	for v in 5.10 4.14; do
		run 2 "migrate --target $v" "$S" migrate --target $v $f
		[ "$(wc -l <err)" = 1 ] || { bad "--target $v: $(wc -l <err) lines on stderr"; cat err; }
		has "^slubtiny: migrate: --target $v is older than the bundled Kconfig models (linux $oldest to $newest); give --srctree with that kernel, or --no-verify\$" \
			"--target $v"
		hasnt "st_kconfig\|\.py" "--target $v"
		[ -s out ] && bad "--target $v: stdout not empty"
		run 2 "migrate --target $v --json" "$S" migrate --json --target $v $f
		[ "$(jq -r '.error.message' out)" = "--target $v is older than the bundled Kconfig models (linux $oldest to $newest); give --srctree with that kernel, or --no-verify" ] ||
			bad "--target $v --json: $(cat out)"
	done
	# the oldest model itself, and the rules alone, still work
	"$S" migrate --target "$oldest" $f >out 2>err
	[ $? -le 1 ] || { bad "migrate --target $oldest: $(cat err)"; }
	has "bundled slab-related Kconfig model for linux $oldest " "migrate --target $oldest"
	run 0 "migrate --target 5.10 --no-verify" "$S" migrate --target 5.10 --no-verify -q $f
}

# "(line N)" in the first note matching @1 of err, or ""
note_line() {
	grep -- "$1" err | head -1 | sed -n 's/.*(line \([0-9]*\)).*/\1/p'
}

case_fix_lines() {
	f=arch/arm/configs/board_defconfig
	board $f
	slob=$(grep -n '^CONFIG_SLOB=y$' $f | cut -d: -f1)
	# not written: the input's numbering (SLUB_TINY takes SLOB's line)
	run 0 "migrate --fix-deps" "$S" migrate --fix-deps $f
	n=$(note_line 'added CONFIG_EXPERT=y')
	[ "$n" = "$slob" ] || bad "migrate --fix-deps: the EXPERT note names line '$n', want $slob"
	run 0 "migrate --fix-deps --json" "$S" migrate --json --fix-deps $f
	jq -r '.files[0].changes[].message' out | grep -q "CONFIG_SLUB_TINY=y (line $slob)" ||
		bad "migrate --fix-deps --json: $(jq -c '.files[0].changes' out)"
	# written: the lines of the file as written, though EXPERT went above
	run 0 "migrate --fix-deps --in-place" "$S" migrate --fix-deps --in-place $f
	n=$(note_line 'fixed: added CONFIG_EXPERT=y')
	[ -n "$n" ] && [ "$(sed -n "${n}p" $f)" = CONFIG_SLUB_TINY=y ] ||
		{ bad "--in-place: the EXPERT note names line '$n': '$(sed -n "${n:-1}p" $f)'"; cat err; }
	e=$(grep 'fixed: added CONFIG_EXPERT=y' err | cut -d: -f2)
	[ "$(sed -n "${e}p" $f)" = CONFIG_EXPERT=y ] || bad "--in-place: the EXPERT note is at line $e"
	board $f
	run 0 "check --fix" "$S" check --no-config --fix $f
	n=$(note_line 'fixed: added CONFIG_EXPERT=y')
	[ -n "$n" ] && [ "$(sed -n "${n}p" $f)" = CONFIG_SLUB_TINY=y ] ||
		{ bad "check --fix: the EXPERT note names line '$n': '$(sed -n "${n:-1}p" $f)'"; cat err; }
}

case_fix_deps_hint() {
	f=arch/arm/configs/board_defconfig
	board $f
	run 1 "migrate" "$S" migrate $f
	has "^$f:[0-9]*:1: note: EXPERT, which is n: EXPERT is not set in this file; add CONFIG_EXPERT=y (--fix-deps adds it)\$" \
		"migrate: the note suggests --fix-deps"
	# and it does: with it, nothing is left that does not take effect
	run 0 "migrate --fix-deps" "$S" migrate --fix-deps $f
	hasnt "warning:" "migrate --fix-deps"
	hasnt "(--fix-deps adds it)" "migrate --fix-deps"
	# where --fix-deps would refuse (a line EXPERT would switch off): no hint
	printf 'CONFIG_SLUB_DEBUG=y\n' >>$f
	run 1 "migrate, SLUB_DEBUG=y kept" "$S" migrate $f
	has "add CONFIG_EXPERT=y\$" "migrate with SLUB_DEBUG=y"
	hasnt "(--fix-deps adds it)" "migrate with SLUB_DEBUG=y (--fix-deps refuses)"
	run 1 "migrate --fix-deps, SLUB_DEBUG=y kept" "$S" migrate --fix-deps $f
	has "not adding CONFIG_EXPERT=y" "migrate --fix-deps with SLUB_DEBUG=y"
	# SLUB_TINY depends on !COMPILE_TEST (6.15+): --fix-deps never turns a
	# build-test config off, and says so instead of nothing
	printf 'CONFIG_COMPILE_TEST=y\nCONFIG_EXPERT=y\nCONFIG_SLOB=y\n' >ct.config
	run 1 "migrate --fix-deps --target 7.3, COMPILE_TEST=y" "$S" migrate --fix-deps --target 7.3 ct.config
	has "^ct.config: note: not adding # CONFIG_COMPILE_TEST is not set for CONFIG_SLUB_TINY=y (line 3): COMPILE_TEST only exists for test builds \[fix-deps\]\$" \
		"migrate --fix-deps with COMPILE_TEST=y: the refusal"
	hasnt "fix: add # CONFIG_COMPILE_TEST" "migrate --fix-deps with COMPILE_TEST=y"
}

# fmt WANT-STATUS CMD ARGS...: run with stdout in out, stderr in err
case_format() {
	board arch/arm/configs/board_defconfig
	f=arch/arm/configs/board_defconfig
	cc -x c -c -o a.o - <<-'EOF' || { echo "skip: cc"; exit 77; }
	int x = 1; int f(void) { return x; }
	EOF
	cp a.o b.o
	mkdir empty
	# each command's names: --help shows them, an unsupported one is one line
	for spec in "check:text|json|github|sarif" "migrate:text|json" "size-diff:text|json" \
		"size:text|json|berkeley|sysv|gnu" "build:text|json" "report:text|json|markdown|html" \
		"kernel:text|json|markdown|html" "footprint:text|json|svg"; do
		c=${spec%%:*} names=${spec#*:}
		"$S" $c --help >help 2>&1
		grep -q -- "--format {$names}" help || bad "$c --help: no --format {$names}"
		list=$(printf '%s' "$names" | sed 's/|/, /g; s/, \([a-z]*\)$/ or \1/')
		run 2 "$c --format xml" "$S" $c --format xml x
		[ "$(cat err)" = "slubtiny: $c: --format is $list, not 'xml'" ] ||
			bad "$c --format xml: '$(cat err)'"
		[ -s out ] && bad "$c --format xml: stdout not empty"
	done
	"$S" footprint boot --help | grep -q -- "--format {text|json|svg}" ||
		bad "footprint boot --help: no --format"
	# a name another command has: the same one-line error
	run 2 "migrate --format sarif" "$S" migrate --format sarif $f
	[ "$(cat err)" = "slubtiny: migrate: --format is text or json, not 'sarif'" ] ||
		bad "migrate --format sarif: '$(cat err)'"
	run 2 "size --format svg" "$S" size --format svg a.o
	has "^slubtiny: size: --format is text, json, berkeley, sysv or gnu, not 'svg'\$" "size --format svg"
	# --format json is --json, byte for byte
	for cmd in "migrate $f" "check --no-config $f" "size-diff a.o b.o" "size a.o"; do
		"$S" $cmd --json >old.out 2>old.err
		st_old=$?
		run $st_old "$cmd --format json" "$S" $cmd --format json
		cmp -s out old.out || bad "$cmd: --format json differs from --json"
		cmp -s err old.err || bad "$cmd: --format json stderr differs from --json's"
		jq -e . out >/dev/null || bad "$cmd --format json: not JSON"
	done
	run 0 "size --format text" "$S" size --format text a.o
	"$S" size a.o >plain.out
	cmp -s out plain.out || bad "size --format text is not the default"
	run 0 "size --format=sysv" "$S" size --format=sysv a.o
	has "^section  *size  *addr\$" "size --format=sysv" out
	# the old flags are aliases; two different formats are one error
	run 2 "migrate --json --format text" "$S" migrate --json --format text $f
	has "^slubtiny: migrate: --json and --format text ask for two output formats; give one --format\$" \
		"two formats"
	run 2 "report --json --markdown" "$S" report --json --markdown --objects a=a.o b=b.o
	has "^slubtiny: report: --json and --markdown ask for two output formats; give one --format\$" \
		"report --json --markdown"
	# report --objects: Markdown and HTML by name
	run 0 "report --markdown" "$S" report --objects --markdown a=a.o b=b.o
	cp out md.old
	run 0 "report --format markdown" "$S" report --objects --format markdown a=a.o b=b.o
	cmp -s out md.old || bad "report: --format markdown differs from --markdown"
	grep -q '^|' out || bad "report --format markdown: no table"
	run 0 "report --format html" "$S" report --objects --format html a=a.o b=b.o
	grep -qi '^<!doctype html>' out || bad "report --format html: not HTML on stdout: $(head -c 80 out)"
	run 0 "report --html FILE" "$S" report --objects --html page.html a=a.o b=b.o
	cmp -s out md.old && bad "report --html FILE: stdout is Markdown"
	"$S" report --objects --format html a=a.o b=b.o | cmp -s - page.html ||
		bad "report: --format html on stdout differs from --html FILE"
	# the github format is check's: its annotations on stdout
	run 1 "check --format github" "$S" check --no-config --format github $f
	grep -q '^::warning file=' out || bad "check --format github: $(head -2 out)"
	# completion offers the names after --format
	"$S" completion bash >comp.bash
	grep -q 'text json markdown html' comp.bash || bad "completion: report's --format names"
}

case "$cname" in
arch-env) case_arch_env ;;
side-effects) case_side_effects ;;
target-range) case_target_range ;;
fix-lines) case_fix_lines ;;
fix-deps-hint) case_fix_deps_hint ;;
format) case_format ;;
*) echo "FAIL: unknown case '$cname'"; exit 2 ;;
esac
exit $fail
