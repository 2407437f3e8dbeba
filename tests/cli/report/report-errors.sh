#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# slubtiny report / build: usage errors exit 2 with one line on stderr;
# --objects on two objects compiled here reports what size(1) says.
set -u
. "$(dirname "$0")/lib.sh"
out=$ST_BUILDDIR/tests-report/errors
rm -rf "$out"
mkdir -p "$out"

err() { # description, command...
	what=$1; shift
	"$@" >"$out/stdout" 2>"$out/stderr"; st=$?
	[ $st = 2 ] || bad "$what: exit $st, want 2"
	[ "$(wc -l <"$out/stderr")" = 1 ] || bad "$what: stderr is not one line: $(cat "$out/stderr")"
	grep -q '^slubtiny: ' "$out/stderr" || bad "$what: stderr lacks the prefix"
	[ -s "$out/stdout" ] && bad "$what: something on stdout"
}
err "unknown option" "$SLUBTINY" report --frobnicate
err "json and markdown" "$SLUBTINY" report --json --markdown
err "unknown arch" "$SLUBTINY" report --builddir "$out/b" --arch vax
err "unknown variant" "$SLUBTINY" build --builddir "$out/b" --variant nosuch
err "bad -j" "$SLUBTINY" build --builddir "$out/b" -j 0
err "stray argument" "$SLUBTINY" build --builddir "$out/b" foo
err "objects: one only" "$SLUBTINY" report --objects a="$out/x"
err "objects: missing file" "$SLUBTINY" report --objects a="$out/none.o" b="$out/none2.o"
err "objects with attribute" "$SLUBTINY" report --objects --attribute a=x b=y
err "unknown baseline" "$SLUBTINY" report --objects --baseline zz a=/bin/true b=/bin/true
err "no compiler" env CROSS_COMPILE=nosuch- "$SLUBTINY" report --builddir "$out/b"
err "no compiler (build)" env CROSS_COMPILE=nosuch- "$SLUBTINY" build --builddir "$out/b"
err "bad datadir" env SLUBTINY_DATADIR="$out" "$SLUBTINY" build --builddir "$out/b"

command -v cc >/dev/null || skip "no cc"
command -v size >/dev/null || skip "no size"
printf 'int a[10];\nint f(int i) { return a[i]; }\n' >"$out/old.c"
printf 'int a[20];\nconst int r[4] = { 1 };\nint f(int i) { return a[i] + r[i]; }\nint g(void) { return 2; }\n' >"$out/new.c"
cc -Os -c "$out/old.c" -o "$out/old.o" && cc -Os -c "$out/new.c" -o "$out/new.o" || skip "cc failed"
"$SLUBTINY" report --objects old="$out/old.o" new="$out/new.o" >"$out/o.txt" || bad "--objects failed"
for f in old new; do
	set -- $(size "$out/$f.o" | awk 'NR == 2 { print $1, $2, $3, $4 }')
	grep -Eq "^[a-z0-9_]+ +$f +$1 +$2 +$3 +$4 " "$out/o.txt" || bad "$f: size says $*"
done
sum=$("$SLUBTINY" size-diff "$out/old.o" "$out/new.o" | head -1)
grep -qF "$sum" "$out/o.txt" || bad "size-diff summary '$sum' not in the report"
exit $fail
