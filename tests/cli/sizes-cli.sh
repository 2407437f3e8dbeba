#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# size-diff / size options beyond the byte-for-byte differential tests:
# --json is one valid JSON value agreeing with the text, --exit-code,
# -p accepted without effect, and names the reference cannot parse.
set -u
. "$(dirname "$0")/../lib.sh"
: "${SLUBTINY:?}" "${ST_BUILDDIR:?}" "${ST_SRCDIR:?}"
py=${ST_PYTHON:-python3}
fx=$(ls -d "$ST_BUILDDIR"/fixtures/elf/*/ 2>/dev/null | head -1)
[ -n "$fx" ] && [ -f "$fx/base-v1-O2.o" ] || { echo "SKIP: no ELF fixtures built"; exit 77; }
st_tmpdir tmp
old=$fx/base-v1-O2.o new=$fx/base-v2-O2.o

ck() { # description expected-status command...
	what=$1 want=$2; shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = "$want" ] || { echo "FAIL: $what: exit $rc, want $want"; cat "$tmp/err"; fail=1; }
}

ck "identical files, --exit-code" 0 "$SLUBTINY" size-diff --exit-code "$old" "$old"
ck "different files, --exit-code" 1 "$SLUBTINY" size-diff --exit-code "$old" "$new"
ck "different files" 0 "$SLUBTINY" size-diff "$old" "$new"
cp "$tmp/out" "$tmp/text"
ck "-p accepted" 0 "$SLUBTINY" size-diff -p arm-linux-gnueabi- "$old" "$new"
cmp -s "$tmp/out" "$tmp/text" || { echo "FAIL: -p changed the output"; fail=1; }

for m in "" -c -d -t; do
	ck "json $m" 0 "$SLUBTINY" size-diff $m --json "$old" "$new"
	if ! "$py" -m json.tool "$tmp/out" >/dev/null; then
		echo "FAIL: size-diff $m --json is not JSON"; fail=1
	fi
	"$SLUBTINY" size-diff $m "$old" "$new" >"$tmp/text"
	# every table's summary agrees with the text summary lines
	"$py" - "$tmp/out" "$tmp/text" <<'PY' || { echo "FAIL: json $m disagrees with text"; fail=1; }
import json, sys
j = json.load(open(sys.argv[1]))
text = [l for l in open(sys.argv[2]) if l.startswith("add/remove:")]
assert len(j["tables"]) == len(text)
for t, l in zip(j["tables"], text):
    want = "add/remove: %d/%d grow/shrink: %d/%d up/down: %d/%d (%d)\n" % (
        t["add"], t["remove"], t["grow"], t["shrink"], t["up"], t["down"], t["net"])
    assert l == want, (l, want)
    assert sum(s["delta"] for s in t["symbols"]) == t["total"]["after"] - t["total"]["before"]
PY
done

ck "size --json" 0 "$SLUBTINY" size --json "$old" "$fx/lib-v1.a"
"$py" -m json.tool "$tmp/out" >/dev/null || { echo "FAIL: size --json is not JSON"; fail=1; }

# A name with a blank makes bloat-o-meter crash (ValueError on split);
# slubtiny keeps the symbol under its full name.
if command -v gcc >/dev/null; then
	for v in 4 8; do
		printf '\t.data\n\t.globl "with space"\n\t.type "with space",@object\n\t.size "with space",%s\n"with space":\t.fill %s,1,0\n\t.section .note.GNU-stack,"",@progbits\n' $v $v >"$tmp/s$v.s"
		gcc -c "$tmp/s$v.s" -o "$tmp/s$v.o" 2>/dev/null
	done
	if [ -f "$tmp/s8.o" ]; then
		ck "name with a blank" 0 "$SLUBTINY" size-diff "$tmp/s4.o" "$tmp/s8.o"
		grep -q '^with space  *4  *8  *+4$' "$tmp/out" || { echo "FAIL: name with a blank"; cat "$tmp/out"; fail=1; }
	fi
fi
# GNU size's -V/--version and --target=BFDNAME: the version on stdout,
# nothing on stderr; an ELF target is taken and changes nothing (BFD finds
# an ELF file's format whatever ELF target is named), one that is not ELF
# is an error for each FILE (exit 1), as GNU size has it for an unknown one.
for o in -V --version "-V $old"; do
	ck "size $o" 0 "$SLUBTINY" size $o
	grep -qx "slubtiny [0-9][0-9.]*" "$tmp/out" && [ ! -s "$tmp/err" ] ||
		{ echo "FAIL: size $o: $(cat "$tmp/out" "$tmp/err")"; fail=1; }
done
arm=$ST_SRCDIR/tests/fuzz/elf/corpus/arm.o be=$ST_SRCDIR/tests/fuzz/elf/corpus/ppc32be.o
for t in elf32-i386 elf64-x86-64 elf32-littlearm elf32-big "elf64-little -A" "bogus -t"; do
	set -- --target=$t "$old" "$arm" "$be"
	"$SLUBTINY" size "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	nerr=$(wc -l <"$tmp/err")
	case $t in
	elf*)	want=0 wantnerr=0 ;;
	*)	want=1 wantnerr=3 ;;
	esac
	if command -v size >/dev/null 2>&1; then
		size "$@" >"$tmp/ref" 2>/dev/null
		want=$?
		cmp -s "$tmp/ref" "$tmp/out" || { echo "FAIL: size --target=$t: stdout differs from GNU size's"; diff "$tmp/ref" "$tmp/out" | head; fail=1; }
	fi
	[ $rc = "$want" ] && [ "$nerr" = "$wantnerr" ] ||
		{ echo "FAIL: size --target=$t: exit $rc (want $want), stderr:"; cat "$tmp/err"; fail=1; }
done
exit $fail
