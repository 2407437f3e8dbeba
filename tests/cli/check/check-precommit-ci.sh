#!/bin/sh
# The published slubtiny-check hook through the real pre-commit (`pre-commit
# try-repo`) in the forms CI runs it, where the change is already committed:
# `--from-ref BASE --to-ref HEAD` and `--all-files`; and as a commit in
# progress (staged files, no ref range). A committed CONFIG_SLOB=y board must
# fail each; a clean change must pass.
set -u
. "$(dirname "$0")/../../lib.sh"
command -v pre-commit >/dev/null 2>&1 || { echo "skip: pre-commit not installed"; exit 77; }
command -v git >/dev/null 2>&1 || { echo "skip: git not installed"; exit 77; }
st_tmpdir t

# language: system hooks run the slubtiny on PATH: the one just built.
PATH=$(dirname "$SLUBTINY"):$PATH
export PATH
export PRE_COMMIT_HOME="$t/cache" HOME="$t/home" GIT_CONFIG_NOSYSTEM=1
st_git_author
unset PRE_COMMIT_FROM_REF PRE_COMMIT_TO_REF
mkdir -p "$HOME"

# The hooks file as this tree has it, in a repository of its own.
hooks="$t/hooks"
mkdir -p "$hooks"
cp "$ST_SRCDIR/.pre-commit-hooks.yaml" "$hooks/" &&
	git -C "$hooks" init -q && git -C "$hooks" add .pre-commit-hooks.yaml &&
	git -C "$hooks" commit -q -m hooks || { echo "FAIL: cannot make the hooks repo"; exit 1; }

# want-status description pre-commit-args...: the output into $t/out
hook() {
	want=$1; shift; what=$1; shift
	pre-commit try-repo "$hooks" slubtiny-check --verbose "$@" >"$t/out" 2>&1
	got=$?
	[ "$got" = "$want" ] || { bad "$what: exit $got, want $want"; cat "$t/out"; }
}
# description ERE: the hook said this baseline
said() {
	grep -Eq "slubtiny: check: baseline: $2" "$t/out" ||
		{ bad "$1: the hook does not say '$2':"; cat "$t/out"; }
}

d=arch/sh/configs
repo="$t/repo"
mkdir -p "$repo/$d"
cd "$repo" && git init -q -b main || exit 1
printf 'CONFIG_SLUB=y\n' >$d/clean_defconfig
git add . && git commit -q -m start || exit 1
base=$(git rev-parse HEAD)

# A change that commits a SLOB-era board.
git checkout -q -b slob
printf 'CONFIG_EXPERT=y\nCONFIG_SLOB=y\n' >$d/board_defconfig
git add . && git commit -q -m board || exit 1
hook 1 "slob --from-ref" --from-ref "$base" --to-ref HEAD
grep -q "$d/board_defconfig:2:1: warning: CONFIG_SLOB=y.*\[removed-allocator\]" "$t/out" ||
	{ bad "slob --from-ref: the SLOB line is not reported"; cat "$t/out"; }
said "slob --from-ref" "[0-9a-f]{12}, pre-commit's from-ref $base \(auto\)"
hook 1 "slob --all-files" --all-files
grep -q "$d/board_defconfig:2:1: warning: CONFIG_SLOB=y" "$t/out" ||
	{ bad "slob --all-files: the SLOB line is not reported"; cat "$t/out"; }
said "slob --all-files" "[0-9a-f]{12}, the merge base of HEAD and main \(auto\)"
# merged into main (CI on the push): every finding counts there
git checkout -q main && git merge -q --ff-only slob || exit 1
hook 1 "main --all-files" --all-files
grep -q "$d/board_defconfig:2:1: warning: CONFIG_SLOB=y" "$t/out" ||
	{ bad "main --all-files: the SLOB line is not reported"; cat "$t/out"; }
said "main --all-files" "none, every finding counts \(auto: HEAD is on the default branch main\)"
git reset -q --hard "$base"

# A clean change passes, beside a board main already has: only what the
# change brings counts.
printf 'CONFIG_SLOB=y\n' >$d/old_defconfig
git add . && git commit -q -m old || exit 1
old=$(git rev-parse HEAD)
git checkout -q -b clean
printf 'CONFIG_SLUB=y\nCONFIG_PRINTK=y\n' >$d/clean_defconfig
git add . && git commit -q -m clean || exit 1
hook 0 "clean --from-ref" --from-ref "$old" --to-ref HEAD
hook 0 "clean --all-files" --all-files
said "clean --all-files" "[0-9a-f]{12}, the merge base of HEAD and main \(auto\)"

# A commit in progress: the staged files, against HEAD.
printf 'CONFIG_SLOB=y\n' >$d/staged_defconfig
git add $d/staged_defconfig
hook 1 "staged slob"
grep -q "$d/staged_defconfig:1:1: warning: CONFIG_SLOB=y" "$t/out" ||
	{ bad "staged slob: the SLOB line is not reported"; cat "$t/out"; }
said "staged slob" "HEAD \(auto: uncommitted changes, a commit in progress\)"
git rm -q -f $d/staged_defconfig
printf 'CONFIG_SLOB=y\nCONFIG_PRINTK=y\n' >$d/old_defconfig
git add $d/old_defconfig
hook 0 "staged clean edit"
exit $fail
