#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kconfig/st_kconfig.py on its own: autoconf output, the syntax shim
# ('modules', 'transitional' read as conf reads it, 'depends on X if Y'),
# the make-like environment, a protocol that
# survives bad requests and chatty Kconfig files, and the one-line errors.
#   helper.sh KC_TOOL
set -u
. "$(dirname "$0")/../../lib.sh"
kc_tool=$1
py=${ST_PYTHON:-/usr/bin/python3}
helper=$ST_SRCDIR/kconfig/st_kconfig.py
[ -x "$py" ] || { echo "no $py: skipped"; exit 77; }
"$py" -c 'import kconfiglib' 2>/dev/null || { echo "no Kconfiglib: skipped"; exit 77; }
st_tmpdir tmp
export SLUBTINY_CACHE_DIR=$tmp/cache
n=0 fail=0
check() { # description, then a command that must succeed
	d=$1; shift
	n=$((n + 1))
	if "$@"; then echo "ok $n - $d"; else echo "not ok $n - $d"; fail=1; fi
}
has() { grep -q -- "$2" "$1"; }
hasnt() { ! grep -q -- "$2" "$1"; }

# A fake kernel tree with the syntax Kconfiglib 14.1 cannot parse.
t=$tmp/tree
mkdir -p "$t/arch/x86" "$t/arch/sh"
cat >"$t/Makefile" <<'MK'
VERSION = 6
PATCHLEVEL = 18
SUBLEVEL = 0
EXTRAVERSION = -rc1
MK
cat >"$t/Kconfig" <<'KC'
mainmenu "fake $(KERNELVERSION)"
$(info,this line goes to stderr and not into the protocol)
$(warning-if,y,a Kconfig warning)
cc-is-gcc := $(shell,echo "$(CC_VERSION_TEXT)" | grep -q gcc && echo y || echo n)
config CC_IS_GCC
	def_bool $(cc-is-gcc)
config KVER
	string
	default "$(KERNELVERSION)"
config MODULES
	bool "modules"
	modules
	default y
config OLD_EXPERT
	bool
	transitional	# the 6.18 name
	help
	  Read from a config, never written.
config EXPERT
	bool "expert"
	default OLD_EXPERT
config SLUB_TINY
	bool "tiny"
	depends on EXPERT
config DRV
	tristate "a driver"
config COND
	bool "needs DRV, but only with EXPERT"
	depends on DRV if EXPERT
config COND_EXPR
	tristate "needs SLUB_TINY when DRV or not X86"
	depends on SLUB_TINY if (DRV || !X86)	# with DRV=m: n, as conf reads it
config DRV2
	tristate "another driver"
	depends on DRV || !DRV # if DRV=m, this one is m at most
config HEXV
	hex "a hex"
	default 0x10
config INTV
	int "an int"
	range 1 8
	default 4
config STR
	string "a string"
	default "a\"b"
source "arch/$(SRCARCH)/Kconfig"
KC
cat >"$t/arch/x86/Kconfig" <<'KC'
config X86
	def_bool y
config ARCH_IS
	string
	default "$(ARCH)"
KC
cp "$t/arch/x86/Kconfig" "$t/arch/sh/Kconfig"
cp "$t/Kconfig" "$tmp/Kconfig.orig"

# serve: load, verify, bad requests, quit
cat >"$tmp/req" <<REQ
{"id":1,"op":"load","srctree":"$t","arch":"i386"}
{"id":2,"op":"verify","mode":"defconfig","config":true,"assign":[{"sym":"SLUB_TINY","val":"y","line":1},{"sym":"DRV","val":"m","line":2},{"sym":"INTV","val":"9","line":3},{"sym":"NOPE","val":"y","line":4},{"sym":"COND","val":"y","line":5},{"sym":"COND_EXPR","val":"m","line":6}]}
{"id":3,"op":"verify","mode":"defconfig","config":true,"assign":[{"sym":"SLUB_TINY","val":"y","line":1},{"sym":"OLD_EXPERT","val":"y","line":2},{"sym":"COND","val":"y","line":3}]}
this is not json
{"id":4,"op":"frobnicate"}
{"id":5,"op":"verify","assign":[{"sym":"bad name","val":"y"}]}
{"id":6,"op":"fix_deps","mode":"defconfig","assign":[{"sym":"SLUB_TINY","val":"y","line":1}]}
{"op":"quit"}
{"id":7,"op":"verify","assign":[]}
REQ
(cd "$tmp" && "$py" "$helper" serve <"$tmp/req" >"$tmp/out" 2>"$tmp/err")
check "serve exits 0" test $? = 0
check "one reply per request before quit" test "$(wc -l <"$tmp/out")" = 7
check "every reply is one JSON object" sh -c "! grep -qv '^{.*}\$' '$tmp/out'"
check "Kconfig \$(info) output goes to stderr" has "$tmp/err" "this line goes to stderr"
check "load: i386 -> SRCARCH x86, KERNELVERSION from the Makefile" \
	has "$tmp/out" '"SRCARCH":"x86".*"KERNELVERSION":"6.18.0-rc1"'
check "load: CC_VERSION_TEXT from the compiler" has "$tmp/out" '"CC_VERSION_TEXT":"[^"]'
check "shim: modules and transitional parsed (load ok)" has "$tmp/out" '"id":1,"ok":true'
check "SLUB_TINY=y without EXPERT: depends, with fix" \
	has "$tmp/out" '"symbol":"SLUB_TINY","kind":"ineffective","cause":"depends".*"fix":"CONFIG_EXPERT=y"'
check "DRV=m with MODULES=y stays m" hasnt "$tmp/out" '"symbol":"DRV"'
check "INTV=9 out of range 1..8" has "$tmp/out" '"symbol":"INTV","kind":"ineffective","cause":"range"'
check "unknown symbol" has "$tmp/out" '"symbol":"NOPE","kind":"unknown"'
grep '"id":2,' "$tmp/out" >"$tmp/out-2"
grep '"id":3,' "$tmp/out" >"$tmp/out-3"
check "depends on X if Y: Y n, X n: COND=y kept" hasnt "$tmp/out-2" '"symbol":"COND"'
check "depends on X if (Y || !Z): Y m, X n: COND_EXPR=m dropped, as conf's (Y = n && Z != n)" \
	has "$tmp/out-2" '"symbol":"COND_EXPR","kind":"ineffective","cause":"depends"'
check "transitional: its value sets the new symbol's default (EXPERT=y)" has "$tmp/out-3" '\["EXPERT","y",'
check "transitional: SLUB_TINY then takes effect" hasnt "$tmp/out-3" '"symbol":"SLUB_TINY"'
check "transitional: its own line is neither unknown nor ineffective" hasnt "$tmp/out-3" '"symbol":"OLD_EXPERT"'
check "transitional symbol is never written" hasnt "$tmp/out-3" '\["OLD_EXPERT",'
check "depends on X if Y: Y y, X n: COND=y dropped, depends" \
	has "$tmp/out-3" '"symbol":"COND","kind":"ineffective","cause":"depends"'
check "config holds the arch string" has "$tmp/out" '\["ARCH_IS","i386","s"\]'
check "bad JSON -> error reply" has "$tmp/out" '"id":null,"ok":false,"error":"bad request'
check "unknown op -> error reply" has "$tmp/out" '"id":4,"ok":false'
check "bad symbol name -> error reply" has "$tmp/out" '"id":5,"ok":false'
check "fix_deps adds EXPERT" has "$tmp/out" '"id":6.*\|"fixes":\[{"sym":"EXPERT"'
check "nothing after quit" hasnt "$tmp/out" '"id":7'
check "the tree was not modified" cmp -s "$t/Kconfig" "$tmp/Kconfig.orig"

# errors of load
printf '{"id":1,"op":"load","srctree":"%s","arch":"nosucharch"}\n{"id":2,"op":"load","srctree":"%s/nope"}\n' "$t" "$t" |
	"$py" "$helper" serve >"$tmp/out2" 2>/dev/null
check "unknown arch" has "$tmp/out2" '"id":1,"ok":false,"error":"unknown arch'
check "tree without Kconfig" has "$tmp/out2" '"id":2,"ok":false,"error":".*no Kconfig'

# conf refuses a transitional symbol with anything but a type and help
t2=$tmp/tree2
mkdir -p "$t2/arch/x86"
cp "$t/Makefile" "$t/arch/x86/Kconfig" "$t2/" && cp "$t/arch/x86/Kconfig" "$t2/arch/x86/"
printf 'config NEW\n\tbool "new"\n\tdefault OLD\nconfig OLD\n\tbool\n\tdefault y\n\ttransitional\n' >"$t2/Kconfig"
printf '{"id":1,"op":"load","srctree":"%s","arch":"x86_64"}\n' "$t2" |
	"$py" "$helper" serve >"$tmp/out2b" 2>/dev/null
check "transitional with a default: load fails as conf's parse does, at the default's line" \
	has "$tmp/out2b" '"id":1,"ok":false,"error":".*Kconfig:6: transitional symbols can only have help sections'

# A relative srctree is the caller's: the server works in a scratch directory.
printf '{"id":1,"op":"load","srctree":"tree","arch":"x86_64"}\n' >"$tmp/req3"
(cd "$tmp" && "$py" "$helper" serve <"$tmp/req3" >"$tmp/out3" 2>/dev/null)
check "relative srctree resolved from the caller's directory" has "$tmp/out3" '"id":1,"ok":true'

# autoconf
printf 'CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\nCONFIG_DRV=m\nCONFIG_STR="x\\"y"\n' >"$tmp/d"
(cd "$tmp" && srctree=$t ARCH=x86 SRCARCH=x86 KERNELVERSION=6.18 CC_VERSION_TEXT=gcc \
	"$py" "$helper" autoconf --kconfig "$t/Kconfig" --defconfig "$tmp/d" \
	--header "$tmp/h" --config "$tmp/c" 2>"$tmp/aerr")
check "autoconf exits 0" test $? = 0
check "autoconf: y" has "$tmp/h" '^#define CONFIG_SLUB_TINY 1$'
check "autoconf: m" has "$tmp/h" '^#define CONFIG_DRV_MODULE 1$'
check "autoconf: hex" has "$tmp/h" '^#define CONFIG_HEXV 0x10$'
check "autoconf: int" has "$tmp/h" '^#define CONFIG_INTV 4$'
check "autoconf: string" has "$tmp/h" '^#define CONFIG_STR "x\\"y"$'
check "autoconf: n is absent" hasnt "$tmp/h" 'OLD_EXPERT'
check "autoconf: full .config" has "$tmp/c" '^CONFIG_DRV=m$'

# missing pieces: one line, exit 2, no traceback
printf '#!/bin/sh\nexec %s -S "$@"\n' "$py" >"$tmp/nokc" && chmod +x "$tmp/nokc"
"$tmp/nokc" "$helper" autoconf --kconfig "$t/Kconfig" --defconfig "$tmp/d" \
	--header "$tmp/h2" --config "$tmp/c2" 2>"$tmp/e2"
check "no Kconfiglib: exit 2" test $? = 2
check "no Kconfiglib: one line, no traceback" sh -c "test \$(wc -l <'$tmp/e2') = 1 && ! grep -q Traceback '$tmp/e2' && grep -q 'Kconfiglib not found' '$tmp/e2'"
"$py" "$helper" autoconf --kconfig "$tmp/missing" --defconfig "$tmp/d" \
	--header "$tmp/h2" --config "$tmp/c2" 2>"$tmp/e3"
check "missing Kconfig: exit 2, one line" sh -c "test \$? = 0 && test \$(wc -l <'$tmp/e3') = 1 && ! grep -q Traceback '$tmp/e3'"
SLUBTINY_PYTHON=/nonexistent/python3 "$kc_tool" --target 6.12 "$tmp/d" 2>"$tmp/e4"
check "kc-tool: missing interpreter is exit 2 with SLUBTINY_PYTHON hint" sh -c "test $? = 2 && grep -q SLUBTINY_PYTHON '$tmp/e4'"
SLUBTINY_PYTHON=$tmp/nokc "$kc_tool" --target 6.12 "$tmp/d" 2>"$tmp/e5"
check "kc-tool: missing Kconfiglib is exit 2, one line" sh -c "test $? = 2 && grep -q 'Kconfiglib not found' '$tmp/e5' && test \$(wc -l <'$tmp/e5') = 1"

# kc-tool on the fake tree: arch mapping and tinyconfig mode
printf 'CONFIG_SLUB_TINY=y\n' >"$tmp/tiny.config"
mkdir -p "$t/kernel/configs"; printf 'CONFIG_EXPERT=y\n' >"$t/kernel/configs/tiny-base.config"
"$kc_tool" --srctree "$t" --arch x86_64 --tiny --config-dir "$tmp" "$tmp/tiny.config" >"$tmp/o6" 2>/dev/null
check "tinyconfig: tiny-base.config's EXPERT lets SLUB_TINY through" sh -c "test $? = 0 && grep -q '^CONFIG_SLUB_TINY=y' '$tmp/'*tiny.config.config && grep -q '^# CONFIG_DRV is not set' '$tmp/'*tiny.config.config"
echo "1..$n"
exit $fail
