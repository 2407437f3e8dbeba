#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The hand-built images of test-elf, read by the real binutils: the 64-bit
# LE image by size and nm, the 32-bit BE one by powerpc-linux-gnu-size and
# -nm (so the fixture the unit test asserts on is one binutils accepts),
# and the BE image with an ELF64-sized RELA entry (24) that binutils
# refuses, which slubtiny must refuse too.
#   images.sh TEST-ELF
set -u
. "$(dirname "$0")/../../lib.sh"
: "${SLUBTINY:?}" "${ST_BUILDDIR:?}"
testelf=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
skip() { echo "SKIP: $*"; exit 77; }
for t in size nm powerpc-linux-gnu-size powerpc-linux-gnu-nm; do
	command -v $t >/dev/null 2>&1 || skip "$t missing"
done
stnm=$ST_BUILDDIR/tests/diff/sizes/st-nm
[ -x "$stnm" ] || { echo "FAIL: $stnm not built"; exit 1; }
dir=$ST_BUILDDIR/tests/diff/sizes/images
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir" || exit 1
"$testelf" --write . || { echo "FAIL: test-elf --write"; exit 1; }
export LC_ALL=C

# same stdout, exit 0 and nothing on stderr from slubtiny
same() { # what ref-command... -- our-command...
	what=$1; shift
	ref= ; while [ "$1" != -- ]; do ref="$ref $1"; shift; done; shift
	$ref >ref.out 2>ref.err; rs=$?
	"$@" >our.out 2>our.err; os=$?
	[ $rs = 0 ] || bad "$what: reference exits $rs: $(cat ref.err)"
	[ $os = 0 ] || bad "$what: slubtiny exits $os"
	[ -s our.err ] && bad "$what: slubtiny stderr: $(cat our.err)"
	cmp -s ref.out our.out || { bad "$what: output differs"; diff ref.out our.out | head; }
}
letters() { sed -n 's/^[0-9a-f ]\{8,16\} \(. .*\)/\1/p' | sort; }

for pair in le64.o: be32.o:powerpc-linux-gnu-; do
	f=${pair%%:*} pre=${pair#*:}
	same "size $f" ${pre}size "$f" -- "$SLUBTINY" size "$f"
	same "size -A $f" ${pre}size -A "$f" -- "$SLUBTINY" size -A "$f"
	${pre}nm "$f" 2>nm.err | letters >ref.out
	[ -s nm.err ] && bad "${pre}nm $f: $(cat nm.err)"
	"$stnm" "$f" 2>our.err | grep -v '^$' | grep -v ':$' | sort >our.out
	cmp -s ref.out our.out || { bad "nm letters of $f differ"; diff ref.out our.out | head; }
done

# refused by binutils, so refused by slubtiny: one line naming the file,
# binutils size's exit status (3: file format not recognized)
f=be32-rela24.o
powerpc-linux-gnu-size "$f" >ref.out 2>ref.err; ref=$?
[ $ref = 0 ] && bad "powerpc-linux-gnu-size accepts $f"
grep -q "file format not recognized" ref.err || bad "powerpc-linux-gnu-size: $(cat ref.err)"
"$SLUBTINY" size "$f" >our.out 2>our.err; st=$?
[ $st = $ref ] || bad "slubtiny size $f exits $st, expected $ref"
[ -s our.out ] && bad "slubtiny size $f printed: $(cat our.out)"
[ "$(wc -l <our.err)" = 1 ] && grep -q "^slubtiny: size: $f: file format not recognized" our.err ||
	bad "slubtiny size $f stderr: $(cat our.err)"
[ $fail = 0 ] && echo "images: binutils and slubtiny agree on 3 images"
exit $fail
