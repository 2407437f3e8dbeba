#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Regenerate the seed corpus of fuzz-elf: tiny valid objects and archives
# and hand-made corruptions of them (truncation, offsets out of range,
# sh_entsize 0, names past the string table, huge e_shnum, SHN_XINDEX
# without its table, corrupt archive members). Run by hand; the output is
# committed as regression inputs. Crashes found by libFuzzer are added as
# crash-* files next to them.
set -eu
out=$(cd "$(dirname "$0")" && pwd)/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
mkdir -p "$out"

cat >t.c <<'SRC'
int d = 1; const int r = 2; int b; static int sb;
__attribute__((weak)) int w(void) { return 3; }
int f(int x) { static int n; return x + d + r + b + sb++ + ++n; }
SRC
cflags="-Os -fno-asynchronous-unwind-tables -fno-ident -c"
gcc $cflags t.c -o x86_64.o
powerpc-linux-gnu-gcc $cflags t.c -o ppc32be.o
arm-linux-gnueabi-gcc $cflags t.c -o arm.o
for f in x86_64.o ppc32be.o arm.o; do objcopy -R .note.GNU-stack -R .comment "$f" 2>/dev/null || true; done
ar rcS arch.a x86_64.o arm.o
cp x86_64.o arm.o arch.a ppc32be.o "$out/"

le16() { printf "\\$(printf %o $(($1 & 255)))\\$(printf %o $((($1 >> 8) & 255)))"; }
le32() { le16 $(($1 & 65535)); le16 $((($1 >> 16) & 65535)); }
le64() { le32 $(($1 & 4294967295)); le32 $((($1 >> 32) & 4294967295)); }
put() { # file offset bytes-producing-command...
	f=$1 off=$2; shift 2
	"$@" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}
variant() { cp x86_64.o "$out/$1"; put "$out/$1" "$2" "$3" "$4"; }

shoff=$(od -An -tu8 -j40 -N8 x86_64.o | tr -d ' ')
shnum=$(od -An -tu2 -j60 -N2 x86_64.o | tr -d ' ')
symtab=$(readelf -SW x86_64.o | sed -n 's/^ *\[ *\([0-9]*\)\] \.symtab .*/\1/p')
strtab=$(readelf -SW x86_64.o | sed -n 's/^ *\[ *\([0-9]*\)\] \.strtab .*/\1/p')
sym=$((shoff + symtab * 64)) str=$((shoff + strtab * 64))
symoff=$(od -An -tu8 -j$((sym + 24)) -N8 x86_64.o | tr -d ' ')

size=$(wc -c <x86_64.o)
head -c $((size / 2)) x86_64.o >"$out/trunc-half.o"
head -c 63 x86_64.o >"$out/trunc-ehdr.o"
head -c $((shoff + 100)) x86_64.o >"$out/trunc-shdrs.o"
variant huge-shnum.o 60 le16 65535
variant shoff-past-eof.o 40 le64 1099511627776
variant shstrndx-bad.o 62 le16 $((shnum + 5))
variant symtab-entsize0.o $((sym + 56)) le64 0
variant symtab-offset-past-eof.o $((sym + 24)) le64 $((size * 4))
variant symtab-link0.o $((sym + 40)) le32 0
variant strtab-tiny.o $((str + 32)) le64 1
variant sym-xindex.o $((symoff + 24 + 6)) le16 65535
variant sym-name-past.o $((symoff + 24)) le32 1000000
variant shname-past.o $((shoff + 64)) le32 1000000
printf 'hello, not an ELF file\n' >"$out/not-elf"
: >"$out/empty"
printf '!<arch>\n' >"$out/empty.a"
cp arch.a "$out/ar-bad-size.a"
put "$out/ar-bad-size.a" 56 printf 'xx'
cp arch.a "$out/ar-bad-fmag.a"
put "$out/ar-bad-fmag.a" 66 printf 'zz'
{ printf '!<arch>\n%-16s%-12s%-6s%-6s%-8s%-10s`\n' 'junk.o/' 0 0 0 644 12; printf 'not an ELF!\n'; } >"$out/ar-non-elf.a"
head -c $(( $(wc -c <arch.a) - 200 )) arch.a >"$out/ar-truncated.a"
{ printf '!<thin>\n%-16s%-12s%-6s%-6s%-8s%-10s`\n' 'missing.o/' 0 0 0 644 100; } >"$out/thin-missing.a"
# what binutils calls "file format not recognized" (lib/elf refuses it too)
rela=$(readelf -SW x86_64.o | sed -n 's/^ *\[ *\([0-9]*\)\] \.rela\.text .*/\1/p')
rel=$((shoff + rela * 64))
variant bfd-phnum.o 56 le16 65535
variant bfd-class32.o 4 printf '\001'
variant bfd-rela-link.o $((rel + 40)) le32 200
variant bfd-rela-info.o $((rel + 44)) le32 200
variant bfd-rela-entsize.o $((rel + 56)) le64 16
variant bfd-symtab-info.o $((sym + 44)) le32 100000
# archives: a zeroed name table (the member gets an empty name), a long
# name whose field ends in '/' (GNU ar's thin archives, 15-character
# paths), a non-ELF member next to ELF ones, a BSD name longer than 4 KiB
cp x86_64.o a_long_member_name_x.o
ar rcS longnames.a arm.o a_long_member_name_x.o
python3 - longnames.a "$out/ar-zeroed-names.a" "$out/ar-name-slash.a" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
z, s = bytearray(d), bytearray(d)
off = 8
while off + 60 <= len(d):
    size = int(d[off + 48:off + 58])
    if d[off:off + 3] == b'// ':
        z[off + 60:off + 60 + size] = bytes(size)
    elif d[off:off + 2] == b'/0':
        s[off + 15:off + 16] = b'/'
    off += 60 + size + (size & 1)
open(sys.argv[2], 'wb').write(z)
open(sys.argv[3], 'wb').write(s)
PY
{ cat arch.a; printf '%-16s%-12s%-6s%-6s%-8s%-10s`\n' 'notes.txt/' 0 0 0 644 6; printf 'notes\n'; } >"$out/ar-mixed.a"
{ printf '!<arch>\n%-16s%-12s%-6s%-6s%-8s%-10s`\n' '#1/5000' 0 0 0 644 5004; head -c 5004 /dev/zero; } >"$out/ar-bsd-long.a"
echo "corpus: $(ls "$out" | wc -l) files in $out"
