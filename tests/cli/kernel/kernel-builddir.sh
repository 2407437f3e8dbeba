#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kernel --builddir inside the source tree is refused before anything is
# made: no directory, no lock file appear in the tree (they used to: the
# refusal came after mkdir -p and the lock). Only the tree's Makefile is
# read before the refusal, so a two-line Makefile is the whole tree.
set -u
. "$(dirname "$0")/../../lib.sh"
st_tmpdir t
mkdir -p "$t/src/mm" "$t/other"
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 1\n' >"$t/src/Makefile"
ln -s ../src "$t/other/link"
(cd "$t" && find src other missing 2>/dev/null | sort) >"$t/before"

# refused NAME BUILDDIR [CWD]: exit 2, one line, nothing new in the tree
# (nor beside it: a directory mkdir -p would make on the way).
refused() {
	(cd "${3:-$t}" && "$SLUBTINY" kernel --srctree "$t/src" --arch x86_64 --variant slub \
		--builddir "$2") >"$t/$1.out" 2>"$t/$1.err"
	st=$?
	[ $st = 2 ] || bad "$1: exit $st, want 2: $(cat "$t/$1.err")"
	[ "$(wc -l <"$t/$1.err")" = 1 ] &&
		grep -q "^slubtiny: kernel: .*: build directory is inside the kernel tree $t/src\$" \
			"$t/$1.err" || bad "$1: stderr: $(cat "$t/$1.err")"
	[ ! -s "$t/$1.out" ] || bad "$1: output on stdout"
	(cd "$t" && find src other missing 2>/dev/null | sort) >"$t/after"
	cmp -s "$t/before" "$t/after" ||
		bad "$1: the tree changed: $(diff "$t/before" "$t/after" | grep '^>' | tr '\n' ' ')"
	rm -rf "$t/src/out" "$t/src/mm/out" "$t/src/.slubtiny-lock" "$t/src/mm/.slubtiny-lock" \
		"$t/other/missing" "$t/missing"
}
refused new "$t/src/out/kernel"
refused top "$t/src"
refused existing "$t/src/mm"
refused symlink "$t/other/link/out"
refused dotdot "$t/other/../src/out"
refused relative out/x "$t/src/mm"
# through a directory mkdir -p would make, then ".." into the tree
refused made-dotdot "$t/other/missing/../link/out"
refused made-dotdot2 "$t/missing/../src/out"
exit $fail
