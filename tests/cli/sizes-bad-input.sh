#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# size and size-diff on bad input. Inputs: the fuzz-elf regression corpus
# (hand-made corruptions and every crash libFuzzer found), plus a missing
# file, a directory, an empty file, a text file, a FIFO and a pipe.
#
# size-diff: exit 2, nothing on stdout, exactly one line on stderr that
# names the file. size does as GNU size does: it reports the bad FILE,
# prints the others and exits 1 (cannot read it), 2 (malformed archive) or
# 3 (format not recognized), the status of the last bad FILE; each bad FILE
# is one line on stderr naming it. Its stdout and exit status are compared
# with GNU size's (binutils) in the same run.
set -u
. "$(dirname "$0")/../lib.sh"
: "${SLUBTINY:?}" "${ST_SRCDIR:?}"
corpus=$ST_SRCDIR/tests/fuzz/elf/corpus
st_tmpdir tmp
fail=0 n=0
gnu=
command -v size >/dev/null 2>&1 && gnu=size

# Files of the corpus that are valid input (everything else must be refused).
valid=" x86_64.o arm.o ppc32be.o arch.a empty.a ar-zeroed-names.a ar-name-slash.a "
# Bad symbol tables: binutils size reads sections only and prints them
# (nm refuses or warns), so size must work and size-diff must refuse.
symbad=" strtab-tiny.o sym-name-past.o sym-xindex.o symtab-link0.o "
# An archive with a member that is not ELF: size and nm warn about it and
# go on; size exits 3, bloat-o-meter ignores it (0).
nonelf=" ar-non-elf.a ar-mixed.a "
# GNU size prints these with a warning and exits 0; slubtiny refuses them
# (exit 3): a section past the end of the file, a bad section name index.
stricter=" shstrndx-bad.o symtab-offset-past-eof.o "

bad() { # description file command...
	what=$1 file=$2; shift 2
	n=$((n + 1))
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	lines=$(wc -l <"$tmp/err")
	# Under --json the error is a document on stdout; else stdout stays empty.
	case " $* " in
	*" --json "*)
		if grep -q '^{"version":"[0-9.]*","error":{"file":' "$tmp/out"; then
			: >"$tmp/out"
		else
			echo "no JSON error document" >>"$tmp/out"
		fi ;;
	esac
	if [ $rc != 2 ] || [ -s "$tmp/out" ] || [ "$lines" != 1 ] ||
	   ! grep -q "^slubtiny: .*$file" "$tmp/err"; then
		echo "FAIL: $what: exit $rc, stdout $(wc -c <"$tmp/out") bytes, stderr:"
		cat "$tmp/err"
		fail=1
	fi
}

# slubtiny size ARGS against GNU size ARGS: the same stdout and exit status
# (without GNU size: a status of 1, 2 or 3), one line on stderr naming @file.
badsize() { # description file args...
	what=$1 file=$2; shift 2
	n=$((n + 1))
	"$SLUBTINY" size "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ -n "$gnu" ]; then
		"$gnu" "$@" >"$tmp/gout" 2>/dev/null </dev/null
		want=$?
	else
		cp "$tmp/out" "$tmp/gout"
		want=$rc
		case $rc in 1|2|3) ;; *) want="1, 2 or 3" ;; esac
	fi
	if [ "$rc" != "$want" ] || ! cmp -s "$tmp/out" "$tmp/gout" ||
	   [ "$(wc -l <"$tmp/err")" != 1 ] || ! grep -q "^slubtiny: .*$file" "$tmp/err"; then
		echo "FAIL: size $what: exit $rc, GNU size $want, stderr:"
		cat "$tmp/err"
		diff "$tmp/gout" "$tmp/out" | head -20
		fail=1
	fi
}

# size --json: the status of plain size; the error document when plain size
# prints nothing, else the objects it could read.
jsonbad() { # description file args...
	what=$1 file=$2; shift 2
	n=$((n + 1))
	"$SLUBTINY" size "$@" >"$tmp/text" 2>/dev/null </dev/null
	want=$?
	"$SLUBTINY" size --json "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	doc='^{"version":"[0-9.]*","objects":\['
	[ -s "$tmp/text" ] || doc='^{"version":"[0-9.]*","error":{"file":'
	if [ $rc != "$want" ] || [ "$(wc -l <"$tmp/err")" != 1 ] ||
	   ! grep -q "$doc" "$tmp/out" || ! grep -q "^slubtiny: .*$file" "$tmp/err"; then
		echo "FAIL: size --json $what: exit $rc, want $want, stdout and stderr:"
		cat "$tmp/out" "$tmp/err"
		fail=1
	fi
}

# exit status @rc, a warning naming ARCHIVE(MEMBER) on stderr
warned() { # description rc command...
	what=$1 want=$2; shift 2
	n=$((n + 1))
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ $rc != "$want" ] || [ "$(wc -l <"$tmp/err")" != 1 ] ||
	   ! grep -q "^slubtiny: .*/$b([a-z.]*): file format not recognized\$" "$tmp/err"; then
		echo "FAIL: $what: exit $rc, stderr:"
		cat "$tmp/err"
		fail=1
	fi
}
good() { # description command...
	what=$1; shift
	n=$((n + 1))
	if ! "$@" >"$tmp/out" 2>"$tmp/err"; then
		echo "FAIL: $what: exit $?"; cat "$tmp/err"; fail=1
	fi
}

ok=$corpus/x86_64.o arm=$corpus/arm.o
for f in "$corpus"/*; do
	b=${f##*/}
	case $valid in
	*" $b "*)
		good "size $b" "$SLUBTINY" size "$f"
		good "size-diff $b" "$SLUBTINY" size-diff "$f" "$ok"
		continue ;;
	esac
	case $symbad in
	*" $b "*)
		good "size $b" "$SLUBTINY" size "$f"
		good "size -A $b" "$SLUBTINY" size -A "$f"
		bad "size-diff OLD=$b" "$b" "$SLUBTINY" size-diff "$f" "$ok"
		bad "size-diff NEW=$b" "$b" "$SLUBTINY" size-diff -c "$ok" "$f"
		continue ;;
	esac
	case $nonelf in
	*" $b "*)
		warned "size $b" 3 "$SLUBTINY" size "$f"
		warned "size -A $b" 3 "$SLUBTINY" size -A "$ok" "$f"
		warned "size-diff OLD=$b" 0 "$SLUBTINY" size-diff "$f" "$ok"
		warned "size-diff NEW=$b" 0 "$SLUBTINY" size-diff -c "$ok" "$f"
		badsize "$b among good files" "$b" -t "$ok" "$f" "$arm"
		continue ;;
	esac
	case $stricter in
	*" $b "*)
		n=$((n + 1))
		"$SLUBTINY" size "$ok" "$f" "$arm" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		"$SLUBTINY" size "$ok" "$arm" >"$tmp/want"
		if [ $rc != 3 ] || ! cmp -s "$tmp/out" "$tmp/want" ||
		   [ "$(wc -l <"$tmp/err")" != 1 ] || ! grep -q "^slubtiny: .*$b" "$tmp/err"; then
			echo "FAIL: size $b: exit $rc, stderr:"; cat "$tmp/err"; fail=1
		fi ;;
	*)
		badsize "$b" "$b" "$f"
		badsize "-A $b" "$b" -A "$ok" "$f"
		badsize "-t $b among good files" "$b" -t "$ok" "$f" "$arm"
		badsize "-G -t $b first" "$b" -G -t "$f" "$ok" ;;
	esac
	jsonbad "$b" "$b" "$f"
	bad "size-diff OLD=$b" "$b" "$SLUBTINY" size-diff "$f" "$ok"
	bad "size-diff NEW=$b" "$b" "$SLUBTINY" size-diff -c "$ok" "$f"
done

: >"$tmp/empty"
echo hello >"$tmp/text"
head -c 300 "$ok" >"$tmp/truncated"
mkfifo "$tmp/fifo"
for f in no-such-file empty text truncated fifo; do
	badsize "$f among good files" "$f" -t "$ok" "$tmp/$f" "$arm"
	badsize "-A $f" "$f" -A "$tmp/$f" "$ok"
	bad "size-diff $f" "$f" "$SLUBTINY" size-diff "$tmp/$f" "$ok"
done
badsize "directory" "$tmp" "$ok" "$tmp" "$arm"
jsonbad "missing file" "no-such-file" "$tmp/no-such-file"
jsonbad "text file" "text" "$tmp/text"
bad "directory" "$tmp" "$SLUBTINY" size-diff "$tmp" "$ok"
# a truncated ELF member: GNU size prints the members before it
{ ar rc "$tmp/trunc.a" "$ok" "$tmp/truncated" "$arm"; } >/dev/null 2>&1 &&
	badsize "archive with a truncated member" "truncated" "$tmp/trunc.a" "$ok"
# several bad files: the last one's status
for order in "text no-such" "no-such text"; do
	set -- $order
	n=$((n + 1))
	"$SLUBTINY" size "$tmp/$1" "$ok" "$tmp/$2" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	want=1
	[ "$2" = text ] && want=3
	if [ -n "$gnu" ]; then
		"$gnu" "$tmp/$1" "$ok" "$tmp/$2" >"$tmp/gout" 2>/dev/null
		want=$?
		cmp -s "$tmp/out" "$tmp/gout" || { echo "FAIL: $order: stdout differs"; fail=1; }
	fi
	[ $rc = "$want" ] && [ "$(wc -l <"$tmp/err")" = 2 ] ||
		{ echo "FAIL: $order: exit $rc, want $want"; cat "$tmp/err"; fail=1; }
done
n=$((n + 1))
cat "$ok" | "$SLUBTINY" size-diff /dev/stdin "$ok" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc != 2 ] || [ -s "$tmp/out" ] || ! grep -q '^slubtiny: size-diff: /dev/stdin: ' "$tmp/err"; then
	echo "FAIL: pipe: exit $rc"; cat "$tmp/err"; fail=1
fi
n=$((n + 1))
cat "$ok" | "$SLUBTINY" size /dev/stdin "$ok" >"$tmp/out" 2>"$tmp/err"
rc=$?
"$SLUBTINY" size "$ok" >"$tmp/want"
if [ $rc != 1 ] || ! cmp -s "$tmp/out" "$tmp/want" || ! grep -q '^slubtiny: size: /dev/stdin: ' "$tmp/err"; then
	echo "FAIL: size pipe: exit $rc"; cat "$tmp/err"; fail=1
fi
bad "usage: one file" "size-diff" "$SLUBTINY" size-diff "$ok"
bad "usage: two modes" "size-diff" "$SLUBTINY" size-diff -c -d "$ok" "$ok"
[ -n "$gnu" ] || echo "note: no GNU size: size statuses checked without it"
echo "$n checks"
exit $fail
