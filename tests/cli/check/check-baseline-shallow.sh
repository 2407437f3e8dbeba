#!/bin/sh
# check --baseline in a real shallow clone (git clone --depth 1): a
# revision the clone does not have is one error line in slubtiny's words,
# naming the revision and how to get it (git fetch --unshallow), exit 2,
# nothing of git's own stderr; the same for --baseline auto when pre-commit's
# from-ref or the merge base with the default branch is cut off.
set -u
. "$(dirname "$0")/../../lib.sh"
command -v git >/dev/null 2>&1 || { echo "skip: git not installed"; exit 77; }
st_tmpdir t
st_git_author
unset PRE_COMMIT_FROM_REF PRE_COMMIT_TO_REF

# description want-line: stderr is exactly this one line
one_line() {
	[ "$(cat "$t/err")" = "$2" ] || { bad "$1: stderr is not the one line '$2':"; cat "$t/err"; }
}

d=arch/sh/configs
src="$t/src"
mkdir -p "$src/$d"
git -C "$src" init -q -b main || exit 1
printf 'CONFIG_A=y\n' >"$src/$d/board_defconfig"
git -C "$src" add . && git -C "$src" commit -q -m one || { echo "FAIL: cannot commit"; exit 1; }
first=$(git -C "$src" rev-parse HEAD)
printf 'CONFIG_A=y\nCONFIG_SLOB=y\n' >"$src/$d/board_defconfig"
git -C "$src" commit -q -a -m two || exit 1
# a feature branch off the first commit, main one commit further
git -C "$src" checkout -q -b feature "$first"
printf 'CONFIG_SLAB=y\n' >"$src/$d/new_defconfig"
git -C "$src" add . && git -C "$src" commit -q -m feature || exit 1
git -C "$src" checkout -q main

git clone -q --depth 1 "file://$src" "$t/sh" 2>"$t/clone.err" ||
	{ echo "FAIL: git clone --depth 1:"; cat "$t/clone.err"; exit 1; }
cd "$t/sh" || exit 1
[ "$(git rev-parse --is-shallow-repository)" = true ] || { echo "FAIL: the clone is not shallow"; exit 1; }

hint="not in this shallow clone; fetch more history (git fetch --unshallow) or give another revision"
st_expect 2 "HEAD~1" "$SLUBTINY" check --no-config --baseline HEAD~1 $d/board_defconfig
one_line "HEAD~1" "slubtiny: check: $d/board_defconfig: baseline HEAD~1: $hint"
[ -s "$t/out" ] && { bad "HEAD~1: stdout not empty:"; cat "$t/out"; }
st_expect 2 "a hash" "$SLUBTINY" check --no-config --baseline "$first" $d/board_defconfig
one_line "a hash" "slubtiny: check: $d/board_defconfig: baseline $first: $hint"
st_expect 2 "json" "$SLUBTINY" check --no-config --baseline HEAD~1 --format json $d
grep -q '"message":"baseline HEAD~1: not in this shallow clone' "$t/out" ||
	{ bad "json: no error document:"; cat "$t/out"; }
# what the clone has still works
st_expect 0 "HEAD" "$SLUBTINY" check --no-config --baseline HEAD $d/board_defconfig

# auto: pre-commit's from-ref cut off
st_expect 2 "auto from-ref" env PRE_COMMIT_FROM_REF="$first" PRE_COMMIT_TO_REF=HEAD \
	"$SLUBTINY" check --no-config --baseline auto $d
one_line "auto from-ref" "slubtiny: check: baseline auto: pre-commit's from-ref $first: $hint"
[ -s "$t/out" ] && { bad "auto from-ref: stdout not empty:"; cat "$t/out"; }
st_expect 2 "auto from-ref json" env PRE_COMMIT_FROM_REF="$first" PRE_COMMIT_TO_REF=HEAD \
	"$SLUBTINY" check --no-config --baseline auto --format json $d
grep -q '"error"' "$t/out" || { bad "auto from-ref json: no error document:"; cat "$t/out"; }

# auto on the feature branch, cloned one deep with main beside it: the
# merge base is not in the clone
cd "$t" && git clone -q --depth 1 --no-single-branch --branch feature "file://$src" fb 2>"$t/clone.err" ||
	{ echo "FAIL: git clone --depth 1 --branch feature:"; cat "$t/clone.err"; exit 1; }
cd "$t/fb" || exit 1
st_expect 2 "auto merge base" "$SLUBTINY" check --no-config --baseline auto $d
one_line "auto merge base" "slubtiny: check: baseline auto: no merge base of HEAD and origin/main in this shallow clone; fetch more history (git fetch --unshallow) or give --baseline REV"
# ... and after git fetch --unshallow it is found
git fetch -q --unshallow 2>"$t/fetch.err" || { echo "FAIL: git fetch --unshallow:"; cat "$t/fetch.err"; exit 1; }
st_expect 1 "unshallowed" "$SLUBTINY" check --no-config --baseline auto $d
grep -q "^slubtiny: check: baseline: ${first%"${first#????????????}"}, the merge base of HEAD and origin/main (auto)" "$t/err" ||
	{ bad "unshallowed: not the merge base:"; cat "$t/err"; }
grep -q 'new_defconfig:1:1: warning: CONFIG_SLAB=y' "$t/err" ||
	{ bad "unshallowed: the branch's finding is missing:"; cat "$t/err"; }
exit $fail
