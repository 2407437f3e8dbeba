#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# size-diff and size against bloat-o-meter and binutils size on inputs made
# here with gcc, ld, ar (and clang when present) that the fixture corpus
# lacks:
#   1. same-name symbols inside one object (two static helpers after
#      ld -r, also with .constprop/.isra suffixes): bloat-o-meter sums them
#      into one row;
#   2. archives with members that are not ELF (a text file, LLVM bitcode):
#      the references skip them; slubtiny warns naming ARCHIVE(MEMBER),
#      size exits 3 as GNU size does, size-diff 0;
#   3. an archive whose // name table is zeroed: the member is listed under
#      an empty name, as GNU size lists it;
#   4. objects that binutils refuses ("file format not recognized"):
#      slubtiny prints nothing and one line naming the file; size exits
#      with binutils size's status (3), size-diff 2;
#   5. stripped files (an object, a shared object, an archive member): nm
#      says "FILE: no symbols" and bloat-o-meter passes it through;
#      size-diff warns the same, stdout and status as bloat-o-meter's;
#   6. names with whitespace at either end ("dup_name ", a tab, U+00A0,
#      a leading blank), written in assembler: bloat-o-meter's split()
#      drops it and sums them with "dup_name".
# Every slubtiny run's exit status and stderr are checked.
set -u
. "$(dirname "$0")/../../lib.sh"
: "${SLUBTINY:?}" "${ST_BUILDDIR:?}" "${ST_SRCDIR:?}"
. "$ST_SRCDIR/tests/bom.sh"
python=${ST_PYTHON:-python3}
skip() { echo "SKIP: $*"; exit 77; }
get_bom || skip "cannot extract bloat-o-meter (Debian package linux-source-6.12)"
for t in gcc ld ar nm size; do
	command -v $t >/dev/null 2>&1 || skip "$t missing"
done
w=$ST_BUILDDIR/tests/diff/sizes/edge
rm -rf "$w"
mkdir -p "$w"
cd "$w" || exit 1
export LC_ALL=C
pass=0 nfail=0
# bad() of lib.sh, counted for the summary line
bad_n() { nfail=$((nfail + 1)); bad "$@"; }

# run slubtiny ARGS...: stdout in our.out, stderr in our.err, status in $st
run() { "$SLUBTINY" "$@" >our.out 2>our.err; st=$?; }
# want STATUS WHAT: the status, and stdout equal to ref.out
want() {
	if [ "$st" != "$1" ]; then
		bad_n "$2: exit $st, expected $1; stderr: $(head -3 our.err)"
	elif ! cmp -s ref.out our.out; then
		bad_n "$2: output differs"
		diff ref.out our.out | head -10
	else
		pass=$((pass + 1))
	fi
}
quiet() { [ -s our.err ] && bad_n "$1: stderr: $(head -3 our.err)"; }

cc() { gcc -O2 -fno-inline -fno-asynchronous-unwind-tables -c "$@"; }

# --- 1. same-name symbols in one object
cat >a.c <<'SRC'
static int helper(int x) { return x * 3 + 1; }
static int table[4] = { 1, 2, 3, 4 };
int fa(int x) { return helper(x) + table[x & 3]; }
SRC
for v in 1 2; do
	cat >b$v.c <<SRC
static int helper(int x) { volatile int y = x; return y * $((v + 6)) + x * 5 + 2 $( [ $v = 2 ] && echo "+ y * y"); }
static int table[$((v * 8))] = { $v };
static __attribute__((noinline)) int scale(int x, int k) { return x * k + table[x & 7]; }
int fb(int x) { return helper(x) + scale(x, 3) + scale(x, 5); }
SRC
	cc a.c -o a.o && cc b$v.c -o b$v.o && ld -r a.o b$v.o -o dup-v$v.o || { bad_n "building dup-v$v.o"; exit 1; }
done
# the case exists only if some name is listed twice in one object
nm --size-sort dup-v1.o | awk '{ print $3 }' | sort | uniq -d | grep -q . ||
	bad_n "dup-v1.o has no repeated symbol name"
for m in "" -c -d -t; do
	for pair in "dup-v1.o dup-v2.o" "dup-v2.o dup-v1.o"; do
		"$python" -S "$bom" $m $pair >ref.out 2>/dev/null
		run size-diff $m $pair
		want 0 "size-diff $m $pair"
		quiet "size-diff $m $pair"
	done
done

# --- 2. members that are not ELF
printf 'not an object, just text\n' >notes.txt
ar rcS mixed-v1.a a.o notes.txt b1.o
ar rcS mixed-v2.a a.o notes.txt b2.o
members="notes.txt"
if command -v clang >/dev/null 2>&1; then
	printf 'int bc_fn(int x) { return x * 2 + 7; }\n' >bc.c
	clang -O2 -c -emit-llvm bc.c -o bitcode.o && ar rcS mixed-v2.a bitcode.o && members="$members bitcode.o"
fi
warns() { # what archive member...
	what=$1 a=$2; shift 2
	for mb; do
		grep -qx "slubtiny: [a-z-]*: $a($mb): file format not recognized" our.err ||
			bad_n "$what: no warning for $a($mb): $(head -3 our.err)"
	done
	n=$(grep -vc "file format not recognized" our.err)
	[ "$n" = 0 ] || bad_n "$what: other stderr: $(head -3 our.err)"
}
for o in "" -A -t "-G -x"; do
	size $o mixed-v2.a >ref.out 2>/dev/null
	ref=$?
	[ $ref = 0 ] && bad_n "size $o mixed-v2.a exits 0"
	run size $o mixed-v2.a
	want $ref "size $o mixed-v2.a"
	warns "size $o" mixed-v2.a $members
done
for m in "" -c -d -t; do
	"$python" -S "$bom" $m mixed-v1.a mixed-v2.a >ref.out 2>/dev/null
	run size-diff $m mixed-v1.a mixed-v2.a
	want 0 "size-diff $m mixed-v1.a mixed-v2.a"
	warns "size-diff $m" mixed-v1.a notes.txt
	warns "size-diff $m" mixed-v2.a $members
done

# --- 3. a zeroed // name table: one member gets an empty name
cp a.o this_is_a_long_member_name.o
ar rcS zeroed.a b1.o this_is_a_long_member_name.o
"$python" - zeroed.a <<'PY' || bad_n "cannot zero the name table"
import sys
p = sys.argv[1]
d = bytearray(open(p, 'rb').read())
off, done = 8, False
while off + 60 <= len(d):
    size = int(d[off + 48:off + 58])
    if d[off:off + 3] == b'// ':
        d[off + 60:off + 60 + size] = bytes(size)
        done = True
    off += 60 + size + (size & 1)
open(p, 'wb').write(d)
sys.exit(0 if done else 1)
PY
for o in "" -t -A "-G -t"; do
	size $o zeroed.a >ref.out 2>/dev/null || bad_n "size $o zeroed.a fails"
	run size $o zeroed.a
	want 0 "size $o zeroed.a"
	quiet "size $o zeroed.a"
done
"$python" -S "$bom" zeroed.a dup-v1.o >ref.out 2>/dev/null
run size-diff zeroed.a dup-v1.o
want 0 "size-diff zeroed.a dup-v1.o"
quiet "size-diff zeroed.a dup-v1.o"

# --- 4. what binutils refuses
gcc -O2 -fPIC -shared -nostdlib b1.c -o b1.so || bad_n "building b1.so"
"$python" - a.o b1.so <<'PY' || bad_n "cannot make the refused objects"
import struct, sys
obj, so = (bytearray(open(p, 'rb').read()) for p in sys.argv[1:3])
def shdrs(d):
    off, n = struct.unpack_from('<Q', d, 0x28)[0], struct.unpack_from('<H', d, 0x3c)[0]
    return [(off + i * 64, struct.unpack_from('<I', d, off + i * 64 + 4)[0]) for i in range(n)]
def out(name, d, patch):
    d = bytearray(d)
    patch(d)
    open(name, 'wb').write(d)
out('bad-phnum.o', obj, lambda d: struct.pack_into('<H', d, 0x38, 0xffff))
out('bad-class.o', obj, lambda d: d.__setitem__(4, 1))
rela = [o for o, t in shdrs(obj) if t == 4][0]
out('bad-rela-link.o', obj, lambda d: struct.pack_into('<I', d, rela + 40, 200))
out('bad-rela-info.o', obj, lambda d: struct.pack_into('<I', d, rela + 44, 200))
out('bad-rela-entsize.o', obj, lambda d: struct.pack_into('<Q', d, rela + 56, 16))
dynsym = [o for o, t in shdrs(so) if t == 11][0]
out('bad-dynsym-entsize.so', so, lambda d: struct.pack_into('<Q', d, dynsym + 56, 0))
symtab = [o for o, t in shdrs(obj) if t == 2][0]
out('bad-symtab-info.o', obj, lambda d: struct.pack_into('<I', d, symtab + 44, 100000))
PY
for f in bad-*; do
	size "$f" >ref.out 2>ref.err
	ref=$?
	[ $ref = 0 ] && bad_n "binutils size accepts $f"
	grep -q "file format not recognized" ref.err || bad_n "size $f: $(cat ref.err)"
	: >ref.out
	for cmd in "size" "size -A" "size-diff a.o" "size-diff -c a.o"; do
		run $cmd "$f"
		# size exits as binutils size does, size-diff 2
		case $cmd in size-diff*) want 2 "$cmd $f" ;; *) want $ref "$cmd $f" ;; esac
		[ "$(wc -l <our.err)" = 1 ] && grep -q "^slubtiny: [a-z-]*: $f: file format not recognized" our.err ||
			bad_n "$cmd $f: stderr: $(cat our.err)"
	done
done

# --- 5. stripped files: nm's "no symbols", passed through by bloat-o-meter
command -v strip >/dev/null 2>&1 || skip "strip missing"
strip a.o -o stripped.o && strip b1.so -o stripped.so && ar rcS strip-mix.a b1.o stripped.o ||
	bad_n "cannot strip"
for pair in "stripped.o a.o" "a.o stripped.o" "b1.so stripped.so" "stripped.so stripped.o" \
	"dup-v1.o strip-mix.a" "strip-mix.a mixed-v1.a"; do
	for m in "" -c; do
		"$python" -S "$bom" $m $pair >ref.out 2>ref.err
		ref=$?
		run size-diff $m $pair
		want $ref "size-diff $m $pair"
		nm_warnings_match ref.err our.err size-diff $m || bad_n "size-diff $m $pair: stderr"
	done
done
grep -q 'no symbols' ref.err || bad_n "nm says nothing about stripped files"

# --- 6. names with whitespace at either end, folded by split()
nbsp=$(printf '\302\240')
tab=$(printf '\t')
for v in 1 2; do
	{
		printf '\t.data\n'
		# name size: the second file grows some and adds the blank ones
		for s in "dup_name:8" "keep:16" "$([ $v = 2 ] && echo "dup_name :4")" \
			"$([ $v = 2 ] && echo "dup_name$tab:2")" "$([ $v = 2 ] && echo "dup_name$nbsp:1")" \
			"$([ $v = 2 ] && echo " keep:$v")"; do
			[ -n "$s" ] || continue
			n=${s%:*} z=${s##*:}
			printf '\t.globl "%s"\n\t.type "%s", @object\n\t.size "%s", %d\n"%s":\n\t.zero %d\n' \
				"$n" "$n" "$n" "$z" "$n" "$z"
		done
	} >blank$v.s
	gcc -c blank$v.s -o blank$v.o || bad_n "assembling blank$v.s"
done
nm --size-sort blank2.o | grep -q "dup_name $" || bad_n "blank2.o has no 'dup_name ' symbol"
for m in "" -c -d -t; do
	for pair in "blank1.o blank2.o" "blank2.o blank1.o" "blank2.o blank2.o"; do
		"$python" -S "$bom" $m $pair >ref.out 2>ref.err
		ref=$?
		[ $ref = 0 ] || bad_n "bloat-o-meter $m $pair: exit $ref: $(tail -1 ref.err)"
		run size-diff $m $pair
		want $ref "size-diff $m $pair"
		quiet "size-diff $m $pair"
	done
done
# Whitespace inside a name, or only whitespace: more or fewer than three
# fields, bloat-o-meter stops with a ValueError. slubtiny keeps "in side"
# (trimmed) and skips the blank name (doc/size-diff.md).
printf '\t.data\n\t.globl "%s"\n\t.size "%s", 4\n"%s":\n\t.zero 4\n' \
	" in side " " in side " " in side " "  " "  " "  " >inside.s
gcc -c inside.s -o inside.o || bad_n "assembling inside.s"
"$python" -S "$bom" blank1.o inside.o >ref.out 2>ref.err
[ $? != 0 ] && grep -q ValueError ref.err || bad_n "bloat-o-meter reads inside.o: $(tail -1 ref.err)"
run size-diff blank1.o inside.o
[ $st = 0 ] || bad_n "size-diff blank1.o inside.o: exit $st"
quiet "size-diff blank1.o inside.o"
grep -q '^in side  *- *4 *+4$' our.out || bad_n "size-diff blank1.o inside.o: no 'in side' row: $(cat our.out)"
[ "$(grep -c '^ *- *4 *+4$' our.out)" = 0 ] || bad_n "size-diff blank1.o inside.o: a row for the blank name"

echo "edge: $pass comparisons identical, $nfail failed"
exit $fail
