#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# size and size-diff on bad input: exit 2, nothing on stdout, exactly one
# line on stderr that names the file. Inputs: the fuzz-elf regression
# corpus (hand-made corruptions and every crash libFuzzer found), plus a
# missing file, a directory, a FIFO and a pipe.
set -u
: "${SLUBTINY:?}" "${ST_SRCDIR:?}"
corpus=$ST_SRCDIR/tests/fuzz/elf/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

# Files of the corpus that are valid input (everything else must be refused).
valid=" x86_64.o arm.o ppc32be.o arch.a empty.a ar-zeroed-names.a ar-name-slash.a "
# Bad symbol tables: binutils size reads sections only and prints them
# (nm refuses or warns), so size must work and size-diff must refuse.
symbad=" strtab-tiny.o sym-name-past.o sym-xindex.o "
# An archive with a member that is not ELF: size and nm warn about it and
# go on; size exits non-zero (slubtiny: 1), bloat-o-meter ignores it (0).
nonelf=" ar-non-elf.a ar-mixed.a "

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

ok=$corpus/x86_64.o
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
		bad "size --common $b" "$b" "$SLUBTINY" size --common "$f"
		bad "size-diff OLD=$b" "$b" "$SLUBTINY" size-diff "$f" "$ok"
		bad "size-diff NEW=$b" "$b" "$SLUBTINY" size-diff -c "$ok" "$f"
		continue ;;
	esac
	case $nonelf in
	*" $b "*)
		warned "size $b" 1 "$SLUBTINY" size "$f"
		warned "size -A $b" 1 "$SLUBTINY" size -A "$ok" "$f"
		warned "size-diff OLD=$b" 0 "$SLUBTINY" size-diff "$f" "$ok"
		warned "size-diff NEW=$b" 0 "$SLUBTINY" size-diff -c "$ok" "$f"
		continue ;;
	esac
	bad "size $b" "$b" "$SLUBTINY" size "$f"
	bad "size -A $b" "$b" "$SLUBTINY" size -A "$ok" "$f"
	bad "size --json $b" "$b" "$SLUBTINY" size --json "$f"
	bad "size-diff OLD=$b" "$b" "$SLUBTINY" size-diff "$f" "$ok"
	bad "size-diff NEW=$b" "$b" "$SLUBTINY" size-diff -c "$ok" "$f"
done

bad "missing file" "no-such-file" "$SLUBTINY" size "$tmp/no-such-file"
bad "directory" "$tmp" "$SLUBTINY" size-diff "$tmp" "$ok"
mkfifo "$tmp/fifo"
bad "fifo" "fifo" "$SLUBTINY" size "$tmp/fifo"
n=$((n + 1))
cat "$ok" | "$SLUBTINY" size-diff /dev/stdin "$ok" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc != 2 ] || [ -s "$tmp/out" ] || ! grep -q '^slubtiny: size-diff: /dev/stdin: ' "$tmp/err"; then
	echo "FAIL: pipe: exit $rc"; cat "$tmp/err"; fail=1
fi
bad "usage: one file" "size-diff" "$SLUBTINY" size-diff "$ok"
bad "usage: two modes" "size-diff" "$SLUBTINY" size-diff -c -d "$ok" "$ok"
echo "$n checks"
exit $fail
