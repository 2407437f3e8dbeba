#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Differential test for one fixture architecture:
#   sizes.sh ARCH TOOLPREFIX FIXTUREDIR
# Runs the real scripts/bloat-o-meter of Linux 6.12 (extracted from the
# Debian linux-source-6.12 tarball into the build dir), the real nm and the
# real size on every fixture pair/file and compares their stdout byte for
# byte with slubtiny size-diff / size and the st-nm helper; slubtiny must
# also exit 0 and print nothing on stderr (a sanitizer report at exit is a
# failure) but, from size-diff, the "no symbols" warnings of the nm that
# bloat-o-meter ran (stripped files). size runs with every layout, radix, --common and -t. Prints
# one line per mismatch and a count; comparisons where both sides are empty
# (stripped files, LTO IR: no symbols to compare) are counted apart, not as
# agreement. Exit 77 when a reference is missing.
set -u
arch=$1 pre=$2 dir=$3
: "${SLUBTINY:?}" "${ST_BUILDDIR:?}"
stnm=$ST_BUILDDIR/tests/diff/sizes/st-nm
tarball=/usr/src/linux-source-6.12.tar.xz
. "$ST_SRCDIR/tests/bom.sh"
python=${ST_PYTHON:-python3}

skip() { echo "SKIP: $*"; exit 77; }

get_bom || skip "cannot extract bloat-o-meter from $tarball (Debian package linux-source-6.12)"
[ -s "$dir/pairs" ] || skip "fixtures for $arch were not built (compiler missing)"

# bloat-o-meter runs plain "nm": point it at the binutils for this arch.
bin=$ST_BUILDDIR/tests/diff/sizes/bin-$arch
mkdir -p "$bin"
for t in nm size; do
	real=$(command -v "${pre}$t" || true)
	[ -n "$real" ] || skip "${pre}$t missing"
	ln -sf "$real" "$bin/$t"
done
PATH=$bin:$PATH
export PATH LC_ALL=C

cd "$dir" || exit 1
pass=0 fail=0 empty=0
out=$ST_BUILDDIR/tests/diff/sizes/out-$arch
mkdir -p "$out"

# The reference says nothing to compare: nm lists no symbol, or every
# bloat-o-meter table is "Total: Before=0, After=0".
is_empty() { # ref-file
	[ ! -s "$1" ] && return 0
	grep -q '^Total: ' "$1" || return 1
	! grep '^Total: ' "$1" | grep -qv '^Total: Before=0, After=0,'
}

cmp_out() { # what ref-file our-file; slubtiny's exit status in $st, stderr in $out/err
	if [ "$st" != 0 ] || { [ -s "$out/err" ] && [ ! -f "$out/referr" ]; } ||
		{ [ -f "$out/referr" ] && ! nm_warnings_match "$out/referr" "$out/err" $cmd; }; then
		fail=$((fail + 1))
		echo "FAIL [$arch] $1: slubtiny exit $st, stderr: $(head -3 "$out/err")"
	elif ! cmp -s "$2" "$3"; then
		fail=$((fail + 1))
		echo "MISMATCH [$arch] $1"
		diff "$2" "$3" | head -10
	elif is_empty "$2"; then
		empty=$((empty + 1))
	else
		pass=$((pass + 1))
	fi
}

while read -r old new; do
	for m in "" -c -d -t; do
		"$python" -S "$bom" $m "$old" "$new" >"$out/ref" 2>"$out/referr"
		"$SLUBTINY" size-diff $m "$old" "$new" >"$out/our" 2>"$out/err"
		st=$?
		cmd="size-diff $m"
		cmp_out "size-diff $m $old $new" "$out/ref" "$out/our"
	done
done <pairs
rm -f "$out/referr"

while read -r f; do
	for o in "" -A; do
		size $o "$f" >"$out/ref" 2>/dev/null
		"$SLUBTINY" size $o "$f" >"$out/our" 2>"$out/err"
		st=$?
		cmp_out "size $o $f" "$out/ref" "$out/our"
	done
	nm --size-sort "$f" >"$out/ref" 2>/dev/null
	"$stnm" --size-sort "$f" >"$out/our" 2>"$out/err"
	st=$?
	cmp_out "nm --size-sort $f" "$out/ref" "$out/our"
	case $f in lto-*) continue ;; esac
	# every symbol plain nm lists, with its letter
	nm "$f" 2>/dev/null | sed -n 's/^[0-9a-f ]\{8,16\} \(. .*\)/\1/p' | sort >"$out/ref"
	"$stnm" "$f" >"$out/raw" 2>"$out/err"
	st=$?
	grep -v '^$' "$out/raw" | grep -v ':$' | sort >"$out/our"
	cmp_out "nm $f" "$out/ref" "$out/our"
done <files

# every file of the arch at once (one header, -t totals, -A ignores -t),
# in every layout, radix, with --common; the last -d/-o/-x wins
set -- $(cat files)
for o in -t "-A -t" -B -G --format=gnu --format=SysV --format=berkeley -d -o -x \
	--radix=8 --radix=16 "-A -x" "-A -o" "-G -x" "-G -o" "-x -t" "-o -t" "-G -o -t" \
	--common "-A --common" "-G --common -t" "-A -x --common" "-o -d -x" -f; do
	size $o "$@" >"$out/ref" 2>/dev/null
	"$SLUBTINY" size $o "$@" >"$out/our" 2>"$out/err"
	st=$?
	cmp_out "size $o (all files)" "$out/ref" "$out/our"
done

echo "$arch: $pass comparisons identical, $fail different ($empty more compare nothing with nothing: not counted)"
[ $fail = 0 ]
