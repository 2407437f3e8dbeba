#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# slubtiny report / build: usage errors exit 2 with one line on stderr;
# --objects on two objects compiled here reports what size(1) and the real
# bloat-o-meter say; a data dir whose lib/slab/slub.c does not compile, or a
# host compiler that fails, makes report exit 2 with the compiler's message.
set -u
. "$(dirname "$0")/lib.sh"
command -v cc >/dev/null || skip "no cc"
command -v size >/dev/null || skip "no size"
command -v nm >/dev/null || skip "no nm"
[ -r /usr/src/linux-source-6.12.tar.xz ] || skip "linux-source-6.12 missing (bloat-o-meter)"
out=$ST_BUILDDIR/tests-report/errors
rm -rf "$out"
mkdir -p "$out"

err() { # description, command...
	what=$1; shift
	"$@" >"$out/stdout" 2>"$out/stderr"; st=$?
	[ $st = 2 ] || bad "$what: exit $st, want 2"
	[ "$(wc -l <"$out/stderr")" = 1 ] || bad "$what: stderr is not one line: $(cat "$out/stderr")"
	grep -q '^slubtiny[ :]' "$out/stderr" || bad "$what: stderr lacks the prefix"
	[ -s "$out/stdout" ] && bad "$what: something on stdout"
}
err "unknown option" "$SLUBTINY" report --frobnicate
"$SLUBTINY" report --json --markdown >"$out/stdout" 2>"$out/stderr"; st=$?
# Under --json the error is also a document on stdout.
[ $st = 2 ] && [ "$(wc -l <"$out/stderr")" = 1 ] && grep -q '^{"version":".*","error":' "$out/stdout" ||
	bad "json and markdown: exit $st: $(cat "$out/stdout" "$out/stderr")"
err "unknown arch" "$SLUBTINY" report --builddir "$out/b" --arch vax
err "unknown variant" "$SLUBTINY" build --builddir "$out/b" --variant nosuch
err "bad -j" "$SLUBTINY" build --builddir "$out/b" -j -1
err "bad -j" "$SLUBTINY" build --builddir "$out/b" -j 1025
# -j 0 is all CPUs (as make and ninja take it): the error is about the variant.
err "-j 0" "$SLUBTINY" build --builddir "$out/b" -j 0 --variant nosuch
grep -q 'nosuch' "$out/stderr" || bad "-j 0: refused: $(cat "$out/stderr")"
err "stray argument" "$SLUBTINY" build --builddir "$out/b" foo
err "objects: one only" "$SLUBTINY" report --objects a="$out/x"
err "objects: missing file" "$SLUBTINY" report --objects a="$out/none.o" b="$out/none2.o"
err "objects with attribute" "$SLUBTINY" report --objects --attribute a=x b=y
err "unknown baseline" "$SLUBTINY" report --objects --baseline zz a=/bin/true b=/bin/true
err "no compiler" env CROSS_COMPILE=nosuch- "$SLUBTINY" report --builddir "$out/b"
err "no compiler (build)" env CROSS_COMPILE=nosuch- "$SLUBTINY" build --builddir "$out/b"
err "bad datadir" env SLUBTINY_DATADIR="$out" "$SLUBTINY" build --builddir "$out/b"

printf 'int a[10];\nint f(int i) { return a[i]; }\n' >"$out/old.c"
printf 'int a[20];\nconst int r[4] = { 1 };\nint f(int i) { return a[i] + r[i]; }\nint g(void) { return 2; }\n' >"$out/new.c"
cc -Os -c "$out/old.c" -o "$out/old.o" && cc -Os -c "$out/new.c" -o "$out/new.o" ||
	{ bad "cc failed"; exit 1; }
"$SLUBTINY" report --objects old="$out/old.o" new="$out/new.o" >"$out/o.txt" 2>"$out/stderr" ||
	bad "--objects failed"
[ -s "$out/stderr" ] && bad "--objects: stderr: $(head -3 "$out/stderr")"
for f in old new; do
	set -- $(size "$out/$f.o" | awk 'NR == 2 { print $1, $2, $3, $4 }')
	grep -Eq "^[a-z0-9_]+ +$f +$1 +$2 +$3 +$4 " "$out/o.txt" || bad "$f: size says $*"
done
get_bom || { bad "cannot extract bloat-o-meter"; exit 1; }
sum=$(${ST_PYTHON:-python3} "$bom" "$out/old.o" "$out/new.o" | head -1)
[ -n "$sum" ] || bad "bloat-o-meter printed nothing"
grep -qF "$sum" "$out/o.txt" || bad "bloat-o-meter's summary '$sum' not in the report"

# A total failure is an error, not a report with no results: a copy of the
# data dir whose slub.c does not compile.
data=$out/data
mkdir -p "$data/lib"
cp -r "$ST_SRCDIR/kconfig" "$ST_SRCDIR/defconfigs" "$data/" &&
	cp -r "$ST_SRCDIR/lib/slab" "$data/lib/" || { bad "cannot copy the data dir"; exit 1; }
echo 'int st_broken_by_the_test = ;' >>"$data/lib/slab/slub.c"
broken() { # description, command...
	what=$1; shift
	"$@" >"$out/stdout" 2>"$out/stderr"; st=$?
	[ $st = 2 ] || bad "$what: exit $st, want 2"
	# Under --json the error is a document on stdout; else stdout stays empty.
	case $* in
	*" --json"*) grep -q '^{"version":"[0-9.]*","error":' "$out/stdout" ||
		bad "$what: no JSON error document: $(head -3 "$out/stdout")" ;;
	*" report "*) [ -s "$out/stdout" ] && bad "$what: something on stdout: $(head -3 "$out/stdout")" ;;
	esac
	grep -q 'slub\.c:[0-9]*:[0-9]*: error: ' "$out/stderr" ||
		bad "$what: no compiler message on stderr: $(tail -3 "$out/stderr")"
	tail -1 "$out/stderr" | grep -q '^slubtiny: .*slub\.c: .* exited with status' ||
		bad "$what: last line is not the error: $(tail -1 "$out/stderr")"
	grep -qi 'skipped' "$out/stderr" && bad "$what: the failure is called skipped"
}
broken "report, slub.c broken" env SLUBTINY_DATADIR="$data" \
	"$SLUBTINY" report --builddir "$out/broken" --arch "$(host_arch)"
broken "report --json, slub.c broken" env SLUBTINY_DATADIR="$data" \
	"$SLUBTINY" report --builddir "$out/broken" --arch "$(host_arch)" --json
broken "build, slub.c broken" env SLUBTINY_DATADIR="$data" \
	"$SLUBTINY" build --builddir "$out/broken" --arch "$(host_arch)" --variant slub_tiny
# Its summary counts the failure instead of reading "0 jobs run" alone.
grep -Eq '^0 jobs run, [1-9][0-9]* failed or not started, ' "$out/stdout" ||
	bad "build, slub.c broken: summary does not count the failure: $(tail -1 "$out/stdout")"
# The host compiler fails (a cross arch would build): still an error.
echo '#error host compiler broken by the test' >"$out/broken.h"
CC="cc -include $out/broken.h" "$SLUBTINY" report --builddir "$out/b-host" \
	--arch "$(host_arch)" --variant slub >"$out/stdout" 2>"$out/stderr"
st=$?
[ $st = 2 ] || bad "host compiler broken: exit $st, want 2"
grep -q 'error: #error host compiler broken by the test' "$out/stderr" ||
	bad "host compiler broken: no compiler message: $(tail -3 "$out/stderr")"
exit $fail
