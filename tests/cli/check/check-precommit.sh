#!/bin/sh
# The real pre-commit (Debian's 3.0.4) against this repository's
# .pre-commit-hooks.yaml with `pre-commit try-repo`: in a scratch git repo
# the hooks fail on a SLOB-era defconfig and pass after `slubtiny check --fix`.
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
mkdir -p "$HOME"

# try-repo against this repository (with its uncommitted changes, as
# try-repo does for a local path); a source tree that is not a git checkout
# gets a scratch repository with the hooks file.
hooks=$ST_SRCDIR
if ! git -C "$hooks" rev-parse --git-dir >/dev/null 2>&1; then
	hooks="$t/hooks"
	mkdir -p "$hooks"
	cp "$ST_SRCDIR/.pre-commit-hooks.yaml" "$hooks/"
	git -C "$hooks" init -q && git -C "$hooks" add .pre-commit-hooks.yaml &&
		git -C "$hooks" commit -q -m hooks || { echo "FAIL: cannot make the hooks repo"; exit 1; }
fi

# A repository without kernel configs: the hook gets no files, which must
# not fail (check on an empty DIR is an error; pre-commit passes files).
mkdir -p "$t/noconf"
(cd "$t/noconf" && git init -q && printf 'text\n' >README && git add README &&
	git commit -q -m start && pre-commit try-repo "$hooks" slubtiny-check --all-files) >"$t/out" 2>&1 ||
	{ echo "FAIL: the hook fails on a repository without kernel configs"; cat "$t/out"; fail=1; }

repo="$t/repo"
mkdir -p "$repo/arch/sh/configs" "$repo/arch/arm64/configs"
cd "$repo" && git init -q || exit 1
# An old board already on the default branch: on a branch off it, the hook
# (--baseline auto) compares each file with the merge base, so what the
# board has is not the change's and does not fail.
printf 'CONFIG_SLOB=y\nCONFIG_A=y\nCONFIG_A=y\n' >arch/sh/configs/old_defconfig
printf 'CONFIG_SLUB=y\n' >arch/sh/configs/clean_defconfig
printf 'not a defconfig, CONFIG_SLOB=y\n' >README
git add . && git commit -q -m start || exit 1
git checkout -q -b work && printf 'more\n' >>README && git commit -q -a -m readme || exit 1
pre-commit try-repo "$hooks" slubtiny-check --all-files >"$t/out" 2>&1 ||
	{ echo "FAIL: the hook fails on a committed, untouched board"; cat "$t/out"; fail=1; }
# ... until an edit brings a finding (staged: a commit in progress, against
# HEAD): only that one is reported.
printf 'CONFIG_SLOB=y\nCONFIG_A=y\nCONFIG_A=y\nCONFIG_B=y\nCONFIG_B=n\n' >arch/sh/configs/old_defconfig
git add -A
pre-commit try-repo "$hooks" slubtiny-check --all-files >"$t/out" 2>&1 &&
	{ echo "FAIL: the hook passes an edit that adds a conflict"; fail=1; }
grep -q 'old_defconfig:5:1: warning: .*CONFIG_B.*conflicting-assignment' "$t/out" ||
	{ echo "FAIL: the edit's finding is not reported"; cat "$t/out"; fail=1; }
grep -q 'old_defconfig:[13]:' "$t/out" &&
	{ echo "FAIL: findings the board had at HEAD are reported"; cat "$t/out"; fail=1; }
git checkout -q -- . 2>/dev/null; git reset -q --hard

# New files have no baseline: every finding counts.
printf 'CONFIG_EXPERT=y\nCONFIG_SLOB=y\nCONFIG_PRINTK=y\n' >arch/sh/configs/board_defconfig
printf 'CONFIG_SLAB=y\nCONFIG_PRINTK=y\n' >arch/arm64/configs/defconfig
git rm -q arch/sh/configs/old_defconfig
git add -A

run() { # want-status hook
	pre-commit try-repo "$hooks" "$2" --all-files >"$t/out" 2>&1
	got=$?
	if [ "$got" != "$1" ]; then
		echo "FAIL: hook $2: exit $got, want $1"; cat "$t/out"; fail=1
	fi
}

run 1 slubtiny-check
grep -q 'arch/sh/configs/board_defconfig:2:1: warning: CONFIG_SLOB=y.*\[removed-allocator\]' "$t/out" ||
	{ echo "FAIL: slubtiny-check did not report the SLOB line"; cat "$t/out"; fail=1; }
grep -q 'arch/arm64/configs/defconfig:1:1: warning: CONFIG_SLAB=y' "$t/out" ||
	{ echo "FAIL: slubtiny-check did not look at a plain defconfig"; fail=1; }
grep -q README "$t/out" && { echo "FAIL: the hook looked at README"; fail=1; }
run 1 slubtiny-migrate

"$SLUBTINY" check --fix arch/sh/configs/board_defconfig arch/arm64/configs/defconfig >"$t/fix.out" 2>&1
grep -q '^CONFIG_SLUB_TINY=y$' arch/sh/configs/board_defconfig ||
	{ echo "FAIL: --fix did not migrate:"; cat "$t/fix.out" arch/sh/configs/board_defconfig; fail=1; }
git add -A
run 0 slubtiny-check
run 0 slubtiny-migrate
exit $fail
