#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# $ARCH is read as make reads it: `ARCH=arm slubtiny migrate --srctree T
# board_defconfig` (a file outside arch/arm/configs/) resolves as arm, the
# same as --arch arm; --arch wins over $ARCH; without either, the file's
# arm-only symbols (ARCH_MULTI_V5, ARCH_AT91) give arm, not the host; the arch
# and where it came from are printed (stderr, JSON); --arch over $ARCH is
# one warning naming both; an unknown ARCH is a one-line error naming it,
# exit 2. Against the Kconfig of Debian's
# linux-source-6.12 (check-tree's extraction).
set -u
. "$(dirname "$0")/../lib.sh"
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
. "$(dirname "$0")/kernel-tree.sh"
unset ARCH CROSS_COMPILE
st_tmpdir t
cd "$t" || exit 2
# An at91 board as README's, but not below arch/arm/configs/: on x86 the
# ARM symbols are unknown (findings the arm verdict does not have).
cat >board_defconfig <<'EOF'
CONFIG_SYSVIPC=y
CONFIG_LOG_BUF_SHIFT=14
CONFIG_BLK_DEV_INITRD=y
CONFIG_CC_OPTIMIZE_FOR_SIZE=y
# CONFIG_SLUB is not set
CONFIG_SLOB=y
# CONFIG_ARCH_MULTI_V7 is not set
CONFIG_ARCH_MULTI_V5=y
CONFIG_ARCH_AT91=y
CONFIG_MODULES=y
EOF

# run NAME [VAR=VALUE...] -- ARGS: exit status in NAME.st, stdout, stderr
run() {
	n=$1; shift
	env "$@" >"$n.out" 2>"$n.err"
	echo $? >"$n.st"
}
S=$SLUBTINY

# migrate --json: the verdict (exit status and findings) and the arch fields
run m-env ARCH=arm "$S" migrate --all --json --srctree "$tree" board_defconfig
run m-opt "$S" migrate --all --json --srctree "$tree" --arch arm board_defconfig
run m-host "$S" migrate --all --json --srctree "$tree" board_defconfig
run m-win ARCH=arm "$S" migrate --all --json --srctree "$tree" --arch x86 board_defconfig
for n in m-env m-opt m-host m-win; do
	jq -e . "$n.out" >/dev/null 2>&1 || { bad "$n: stdout is not JSON"; head -c 300 "$n.out"; }
	jq -c '[.files[0].findings[] | [.line, .symbol, .kind, .origin]]' "$n.out" >"$n.v" 2>/dev/null
	jq -r '.files[0] | "\(.arch) \(.arch_from)"' "$n.out" >"$n.a" 2>/dev/null
	[ $n = m-win ] && continue
	[ -s "$n.err" ] && { bad "$n: stderr not empty with --json"; head -3 "$n.err"; }
done
[ "$(cat m-win.err)" = 'slubtiny: migrate: warning: ARCH=arm from the environment contradicts ARCH=x86 from --arch; using x86' ] ||
	{ bad "m-win: --arch x86 over ARCH=arm is not one warning:"; cat m-win.err; }
[ "$(cat m-env.st)" = "$(cat m-opt.st)" ] || bad "migrate: ARCH=arm exits $(cat m-env.st), --arch arm $(cat m-opt.st)"
cmp -s m-env.v m-opt.v || { bad "migrate: ARCH=arm findings differ from --arch arm"; cat m-env.v m-opt.v; }
cmp -s m-env.v m-win.v && bad "migrate: ARCH=arm findings are x86's (ARCH ignored)"
cmp -s m-host.v m-opt.v || { bad "migrate: the symbols' arm verdict is not --arch arm's"; cat m-host.v m-opt.v; }
[ "$(cat m-env.a)" = 'arm $ARCH' ] || bad "migrate --json: arch/arch_from with ARCH=arm: $(cat m-env.a)"
[ "$(cat m-opt.a)" = 'arm --arch' ] || bad "migrate --json: arch/arch_from with --arch arm: $(cat m-opt.a)"
[ "$(cat m-win.a)" = 'x86 --arch' ] || bad "migrate --json: --arch x86 does not win over ARCH=arm: $(cat m-win.a)"
[ "$(cat m-host.a)" = 'arm symbols' ] ||
	bad "migrate --json: arch/arch_from without either: $(cat m-host.a)"
[ "$(jq -r '.files[0].arch_why' m-host.out)" = CONFIG_ARCH_MULTI_V5 ] ||
	bad "migrate --json: arch_why without either: $(jq -r '.files[0].arch_why' m-host.out)"

# migrate text: the arch and its source on the "verified against" line
run m-text ARCH=arm "$S" migrate --srctree "$tree" board_defconfig
[ "$(cat m-text.st)" = "$(cat m-opt.st)" ] || bad "migrate text: exit $(cat m-text.st), want $(cat m-opt.st)"
grep -q '^slubtiny: verified against linux .* (ARCH=arm from \$ARCH)$' m-text.err ||
	{ bad "migrate: the ARCH and where it came from are not said"; head -3 m-text.err; }
grep -q '^--- a/board_defconfig$' m-text.out || bad "migrate text: no diff on stdout"

# check --format json: the same, and "arch": {"name", "from"}
run c-env ARCH=arm "$S" check --no-config --format json --srctree "$tree" board_defconfig
run c-opt "$S" check --no-config --format json --srctree "$tree" --arch arm board_defconfig
run c-host "$S" check --no-config --format json --srctree "$tree" board_defconfig
run c-win ARCH=arm "$S" check --no-config --format json --srctree "$tree" --arch x86 board_defconfig
for n in c-env c-opt c-host c-win; do
	jq -e . "$n.out" >/dev/null 2>&1 || { bad "$n: stdout is not JSON"; head -c 300 "$n.out"; }
	jq -c '[.findings[] | [.line, .rule, .symbol]]' "$n.out" >"$n.v" 2>/dev/null
	jq -r '"\(.arch.name) \(.arch.from) \(.files[0].arch) \(.files[0].arch_from)"' "$n.out" >"$n.a" 2>/dev/null
	[ $n = c-win ] ||
		{ [ -s "$n.err" ] && { bad "$n: stderr not empty with --format json"; head -3 "$n.err"; }; }
	st=$(cat "$n.st")
	[ "$st" = 1 ] || bad "$n: check exit $st, want 1 (SLOB is a finding everywhere)"
done
cmp -s c-env.v c-opt.v || { bad "check: ARCH=arm findings differ from --arch arm"; cat c-env.v c-opt.v; }
cmp -s c-env.v c-win.v && bad "check: ARCH=arm findings are x86's (ARCH ignored)"
cmp -s c-host.v c-opt.v || { bad "check: the symbols' arm verdict is not --arch arm's"; cat c-host.v c-opt.v; }
[ "$(cat c-env.a)" = 'arm $ARCH arm $ARCH' ] || bad "check json: arch with ARCH=arm: $(cat c-env.a)"
[ "$(cat c-opt.a)" = 'arm --arch arm --arch' ] || bad "check json: arch with --arch arm: $(cat c-opt.a)"
[ "$(cat c-win.a)" = 'x86 --arch x86 --arch' ] || bad "check json: --arch x86 does not win over ARCH=arm: $(cat c-win.a)"
[ "$(cat c-win.err)" = 'slubtiny: check: warning: ARCH=arm from the environment contradicts ARCH=x86 from --arch; using x86' ] ||
	{ bad "c-win: --arch x86 over ARCH=arm is not one warning:"; cat c-win.err; }
# the top-level "arch" is the one every file was judged for
[ "$(cat c-host.a)" = 'arm symbols arm symbols' ] || bad "check json: arch without either: $(cat c-host.a)"
# text: the ARCH and where it came from are said on stderr, after the
# findings (diagnostics go to stderr, as gcc's)
run c-text ARCH=arm "$S" check --no-config --srctree "$tree" board_defconfig
[ "$(cat c-text.st)" = 1 ] || bad "check text: exit $(cat c-text.st), want 1"
[ "$(tail -1 c-text.err)" = 'slubtiny: check: checked 1 kernel config, ARCH=arm (from $ARCH)' ] &&
	[ "$(grep -c '^slubtiny: ' c-text.err)" = 1 ] ||
	{ bad "check text: stderr does not say ARCH=arm from \$ARCH:"; cat c-text.err; }
run c-sym "$S" check --no-config --srctree "$tree" board_defconfig
[ "$(tail -1 c-sym.err)" = 'slubtiny: check: checked 1 kernel config, ARCH=arm (from symbols: CONFIG_ARCH_MULTI_V5)' ] ||
	{ bad "check text: stderr does not say ARCH=arm from the symbols:"; cat c-sym.err; }

# An unknown ARCH: one line naming it, exit 2, nothing on stdout
for cmd in migrate check kernel footprint build report; do
	case $cmd in
	kernel) args="--srctree $tree" ;;
	footprint) args="--boot --srctree $tree" ;;
	build|report) args="--variant slub_tiny --builddir $t/bd" ;;
	*) args="--srctree $tree board_defconfig" ;;
	esac
	# (kernel, footprint, build and report would start builds for the host
	# if ARCH were ignored)
	ARCH=nope timeout 60 "$S" $cmd $args >bad.out 2>bad.err; st=$?
	[ $st = 2 ] || bad "ARCH=nope $cmd: exit $st, want 2"
	[ "$(wc -l <bad.err)" = 1 ] || { bad "ARCH=nope $cmd: not one line on stderr:"; head -5 bad.err; }
	grep -q "^slubtiny: \($cmd: \)\?unknown ARCH 'nope' (from the environment" bad.err ||
		{ bad "ARCH=nope $cmd: the error does not name the ARCH and its source:"; head -3 bad.err; }
	[ -s bad.out ] && { bad "ARCH=nope $cmd: stdout not empty"; head -3 bad.out; }
done

# build: ARCH=arm64 builds aarch64 only, and says so; --arch wins
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	ARCH=arm64 "$S" build --json --variant slub_tiny --builddir "$t/bd" >b.out 2>b.err; st=$?
	[ $st = 0 ] || { bad "ARCH=arm64 build: exit $st"; cat b.err; }
	[ "$(jq -r '[.units[].arch] | unique | join(",")' b.out 2>/dev/null)" = aarch64 ] ||
		{ bad "ARCH=arm64 build: not aarch64 only:"; head -c 400 b.out; }
	[ "$(cat b.err)" = 'slubtiny: build: ARCH=arm64 (from $ARCH): building aarch64 only' ] ||
		{ bad "ARCH=arm64 build: stderr does not say the arch:"; cat b.err; }
else
	echo "note: aarch64-linux-gnu-gcc missing: ARCH=arm64 build not tried"
fi
if [ "$(uname -m)" = x86_64 ]; then
	ARCH=arm64 "$S" build --json --arch x86_64 --variant slub_tiny --builddir "$t/bd" >b.out 2>b.err; st=$?
	[ $st = 0 ] || { bad "ARCH=arm64 build --arch x86_64: exit $st"; cat b.err; }
	[ "$(jq -r '[.units[].arch] | unique | join(",")' b.out 2>/dev/null)" = x86_64 ] ||
		{ bad "ARCH=arm64 build --arch x86_64: --arch does not win:"; head -c 400 b.out; }
	[ "$(cat b.err)" = 'slubtiny: build: warning: ARCH=arm64 from the environment contradicts ARCH=x86_64 from --arch; using x86_64' ] ||
		{ bad "ARCH=arm64 build --arch x86_64: not one warning:"; cat b.err; }
fi
# --arch wins: a bad $ARCH is no error then, only the one warning
"$S" migrate --no-verify --arch arm board_defconfig >/dev/null 2>err0; st0=$?
ARCH=nope "$S" migrate --no-verify --arch arm board_defconfig >/dev/null 2>err1; st1=$?
[ $st1 = $st0 ] || { bad "ARCH=nope with --arch arm: exit $st1, want $st0"; cat err1; }
{ echo "slubtiny: migrate: warning: ARCH=nope from the environment contradicts ARCH=arm from --arch; using arm"
  cat err0; } >err0w
cmp -s err0w err1 || { bad "ARCH=nope with --arch arm: stderr differs"; diff err0w err1; }
# an empty ARCH (ARCH= on a command line) is no ARCH
ARCH= "$S" check --no-config --format json board_defconfig >e.out 2>e.err; st=$?
[ $st = 1 ] || { bad "ARCH= check: exit $st, want 1"; cat e.err; }
[ "$(jq -r '.arch.from' e.out 2>/dev/null)" = symbols ] || bad "ARCH= check: arch.from is not symbols"
exit $fail
