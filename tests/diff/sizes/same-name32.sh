#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# size-diff against the real bloat-o-meter on 32-bit objects where one name
# stands for many symbols: bloat-o-meter removes every ".NUMBER" from a
# name (re.sub(r'\.[0-9]+', '', name)) and sums the sizes of all symbols
# that then share it, whatever their nm letter. Built here for ELF32
# little-endian (i686-linux-gnu, and gcc -m32 when it works) and ELF32
# big-endian (mips-linux-gnu, powerpc-linux-gnu), each case old -> new and
# against a file with nothing in common (every name becomes one row):
#   - same-name statics, static locals (var.0), __func__.N, lockdep-style
#     __key.N, foo.constprop.0 from gcc across units, weak and common
#     symbols, in objects (.rel relocations on i386), an `ld -r` merge, an
#     archive, a thin archive and a kbuild-style built-in.a of thin archives;
#   - names written in assembler: foo.constprop.0.isra.0, a.0.b.1, x.1a,
#     ".1" (folds to the empty name), numbers past 64 bits, and symbols of
#     letters t, T, d, D, b, r (SHF_MERGE strings), V, W, C (SHN_COMMON),
#     zero-size;
#   - a static executable (.symtab and libc's own .NUMBER statics) and a
#     shared object with versioned names (also stripped: .dynsym only).
# Every run's exit status and stderr are checked.
set -u
. "$(dirname "$0")/../../lib.sh"
: "${SLUBTINY:?}" "${ST_BUILDDIR:?}" "${ST_SRCDIR:?}"
. "$ST_SRCDIR/tests/bom.sh"
python=${ST_PYTHON:-python3}
skip() { echo "SKIP: $*"; exit 77; }
get_bom || skip "cannot extract bloat-o-meter (Debian package linux-source-6.12)"
w=$ST_BUILDDIR/tests/diff/sizes/same-name32
rm -rf "$w"
mkdir -p "$w"
cd "$w" || exit 1
export LC_ALL=C
pass=0 nfail=0 tried=0
# bad() of lib.sh, counted for the summary line
bad_n() { nfail=$((nfail + 1)); bad "$@"; }

# cmp_bom PREFIX OLD NEW [MODE...]: each mode (default all), byte for byte,
# exit 0, on stderr nothing but the "no symbols" of bloat-o-meter's nm
cmp_bom() {
	_p=$1 _o=$2 _n=$3
	shift 3
	[ $# = 0 ] && set -- "" -c -d -t
	for m; do
		"$python" -S "$bom" $m -p "$_p" "$_o" "$_n" >ref.out 2>ref.err
		"$SLUBTINY" size-diff $m "$_o" "$_n" >our.out 2>our.err
		st=$?
		if [ $st != 0 ] || ! nm_warnings_match ref.err our.err size-diff $m; then
			bad_n "size-diff $m $_o $_n: exit $st: $(head -3 our.err)"
		elif ! cmp -s ref.out our.out; then
			bad_n "size-diff $m $_o $_n (${_p}nm): differs from bloat-o-meter"
			diff ref.out our.out | head -10
		else
			pass=$((pass + 1))
		fi
	done
}

cat >a.c <<'EOF'
struct lock_class_key { char x[8]; };
#define KEY() ({ static struct lock_class_key __key; (void *)&__key; })
extern void use(void *);
static int helper(int x)
{
	static int var;

	var += x;
	use((void *)__func__);
	return var * 3;
}
static __attribute__((noinline)) int cp(int x, int y) { use(KEY()); return x * y + 7; }
int __attribute__((weak)) wfn(int x) { return x + 1; }
#ifdef V2
int common_NAME __attribute__((common));
#else
int common_NAME;
#endif
static const char msg[] = "hello from NAME";
int NAME_entry(int x)
{
	use((void *)msg);
	use(KEY());
	return helper(x) + cp(x, 3) + cp(x, 3);
}
EOF

# names.s: every symbol twice (data and text), sizes scaled by $1
names() {
	for n in a.0.b.1 a.b x. x.1. .1 ..1 x.1a x.01 __key.12 __key.7 name.1.2.3 name \
		foo.constprop.0.isra.0 foo.constprop.1.isra.0 foo.constprop.isra \
		y.99999999999999999999999 y z.1 z.2 z.3 q.0 sym.12.34 sym; do
		sz=$((${#n} * $1 + 3))
		printf '\t.data\n\t.type "%s", %%object\n\t.size "%s", %d\n"%s":\t.fill %d,1,0\n' \
			"$n" "$n" $sz "$n" $sz
		printf '\t.text\n\t.type "%s.f", %%function\n\t.size "%s.f", %d\n"%s.f":\t.fill %d,1,0\n' \
			"$n" "$n" $sz "$n" $sz
	done
	for n in c.1 c.2 c w.1 w.2 bs.3 bs.4 ms.1 ms.2 zero.1; do
		sz=$((${#n} * $1 + 5))
		case $n in
		c*) printf '\t.comm "%s", %d, 4\n' "$n" $sz ;;
		w*) printf '\t.data\n\t.weak "%s"\n\t.type "%s", %%object\n\t.size "%s", %d\n"%s":\t.fill %d,1,0\n' \
			"$n" "$n" "$n" $sz "$n" $sz ;;
		bs*) printf '\t.bss\n\t.type "%s", %%object\n\t.size "%s", %d\n"%s":\t.zero %d\n' \
			"$n" "$n" $sz "$n" $sz ;;
		ms*) printf '\t.section .rodata.str1.1, "aMS", %%progbits, 1\n\t.type "%s", %%object\n\t.size "%s", %d\n"%s":\t.fill %d,1,65\n\t.byte 0\n' \
			"$n" "$n" $sz "$n" $sz ;;
		zero*) printf '\t.data\n\t.globl "%s"\n\t.type "%s", %%object\n\t.size "%s", 0\n"%s":\n' \
			"$n" "$n" "$n" "$n" ;;
		esac
		printf '\t.text\n\t.weak "%s.wf"\n\t.type "%s.wf", %%function\n\t.size "%s.wf", %d\n"%s.wf":\t.fill %d,1,0\n' \
			"$n" "$n" "$n" $sz "$n" $sz
	done
}
names 1 >names1.s
names 2 >names2.s

cat >v.c <<'EOF'
int foo_v1(int x) { return x + 1; }
int foo_v2(int x) { return x * K + 1; }
__asm__(".symver foo_v1,foo@VERS_1");
__asm__(".symver foo_v2,foo@@VERS_2");
static int bar(int x) { return x * 7; }
int call(int x) { return bar(x); }
EOF
printf 'VERS_1 { global: foo; call; local: *; };\nVERS_2 { global: foo; } VERS_1;\n' >vers.map

cat >main.c <<'EOF'
#include <stdio.h>
static int helper(int x)
{
	static int var;

	var += x * K;
	return var;
}
int main(int argc, char **argv) { printf("%d %s\n", helper(argc), __func__); return 0; }
EOF

# one toolchain: CC (may hold flags), binutils PREFIX for bloat-o-meter's nm
toolchain() {
	cc=$1 p=$2 d=$3
	command -v "${cc%% *}" >/dev/null 2>&1 && command -v "${p}nm" >/dev/null 2>&1 &&
		command -v "${p}ld" >/dev/null 2>&1 && command -v "${p}ar" >/dev/null 2>&1 || {
		echo "note: $cc or ${p}binutils missing: skipped"
		return
	}
	mkdir -p "$d" && cd "$d" || return
	for v in 1 2; do
		f="-O2 -fno-pic"
		[ $v = 2 ] && f="$f -DV2"
		ok=true
		for u in a b c; do
			sed "s/NAME/$u/g" ../a.c >$u.c
			[ $u = b ] && sed -i 's/var \* 3/var * 5 + 1/; s/x \* y + 7/x * y * y + 9/' $u.c
			$cc $f -c $u.c -o $u$v.o 2>cc.err || ok=false
		done
		$ok || { echo "note: $cc cannot compile: $(head -1 cc.err)"; cd ..; return; }
		${p}ld -r a$v.o b$v.o c$v.o -o r$v.o || bad_n "$d: ld -r"
		rm -f ar$v.a thin$v.a bi$v.a
		${p}ar rcs ar$v.a a$v.o b$v.o c$v.o
		${p}ar rcsT thin$v.a a$v.o b$v.o c$v.o
		mkdir -p sub$v
		cp a$v.o sub$v/x.o
		rm -f sub$v/built-in.a
		${p}ar rcsT sub$v/built-in.a sub$v/x.o
		${p}ar rcsT bi$v.a sub$v/built-in.a b$v.o c$v.o
		$cc -c ../names$v.s -o n$v.o || bad_n "$d: assembling names$v.s"
		$cc -O2 -fPIC -DK=$((v + 1)) -c ../v.c -o v$v.o &&
			$cc -shared -nostdlib -Wl,--version-script=../vers.map v$v.o -o v$v.so &&
			${p}strip v$v.so -o vs$v.so || bad_n "$d: shared object"
		$cc -O2 -static -DK=$((v + 1)) ../main.c -o e$v 2>/dev/null || rm -f e$v
	done
	tried=$((tried + 1))
	for k in a1.o:a2.o r1.o:r2.o ar1.a:ar2.a thin1.a:thin2.a bi1.a:bi2.a n1.o:n2.o \
		v1.so:v2.so vs1.so:vs2.so e1:e2; do
		old=${k%%:*} new=${k#*:}
		[ -f "$old" ] && [ -f "$new" ] || continue
		cmp_bom "$p" "$old" "$new"
		# against an object with nothing in common: every name is a row
		cmp_bom "$p" "$old" c1.o "" -c
	done
	cd ..
}

toolchain i686-linux-gnu-gcc i686-linux-gnu- i686
toolchain mips-linux-gnu-gcc mips-linux-gnu- mips
# Under the sanitizers (ST_SANITIZE) one little- and one big-endian
# toolchain: the other two make the same kinds of file for slubtiny's
# code, and most of this test's time is the toolchains' and bloat-o-meter's.
if [ "${ST_SANITIZE:-none}" = none ]; then
	toolchain "gcc -m32" i686-linux-gnu- m32
	toolchain powerpc-linux-gnu-gcc powerpc-linux-gnu- powerpc
else
	echo "note: sanitizer run: gcc -m32 and powerpc left to the plain run"
fi
[ $tried = 0 ] && skip "no 32-bit toolchain (gcc-i686-linux-gnu, gcc-mips-linux-gnu, gcc-powerpc-linux-gnu)"
echo "same-name32: $tried toolchains, $pass comparisons identical, $nfail failed"
exit $fail
