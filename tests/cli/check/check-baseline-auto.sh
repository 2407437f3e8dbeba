#!/bin/sh
# check --baseline auto in scratch git repositories: pre-commit's from-ref
# when it is set, HEAD for uncommitted changes (a commit in progress), else the
# merge base with the default branch, or no baseline at all; one line on
# stderr says which. The repository's default branch is main; a board on
# main has CONFIG_SLOB=y, a feature branch adds a second one.
set -u
. "$(dirname "$0")/../../lib.sh"
command -v git >/dev/null 2>&1 || { echo "skip: git not installed"; exit 77; }
st_tmpdir t
st_git_author
unset PRE_COMMIT_FROM_REF PRE_COMMIT_TO_REF

# description ERE: the one baseline line of stderr matches
said() {
	n=$(grep -c '^slubtiny: check: baseline: ' "$t/err")
	[ "$n" = 1 ] || { bad "$1: $n baseline lines on stderr, want 1:"; cat "$t/err"; }
	grep -Eq "^slubtiny: check: baseline: $2" "$t/err" ||
		{ bad "$1: stderr does not say '$2':"; cat "$t/err"; }
}
# description file...: which boards have findings on stderr
reported() {
	what=$1; shift
	got=$(grep -o '[a-z]*_defconfig:[0-9]*:[0-9]*: warning' "$t/err" | sed 's/:.*//' | sort -u | tr '\n' ' ')
	[ "$got" = "$*${*:+ }" ] || { bad "$what: findings in '$got', want '$*'"; cat "$t/err"; }
}
chk() { "$SLUBTINY" check --no-config --baseline auto "$@" arch/sh/configs; }

d=arch/sh/configs
mkdir -p "$t/repo/$d"
cd "$t/repo" || exit 1

# Not a commit yet: nothing to compare with.
git init -q -b main || exit 1
printf 'CONFIG_SLOB=y\n' >$d/old_defconfig
st_expect 1 "no commit" chk
said "no commit" 'none, every finding counts \(auto: no commit yet\)'
reported "no commit" old_defconfig

git add . && git commit -q -m start || { echo "FAIL: cannot commit"; exit 1; }
main=$(git rev-parse HEAD)

# On the default branch itself (CI on a push to main): every finding.
st_expect 1 "on main" chk
said "on main" 'none, every finding counts \(auto: HEAD is on the default branch main\)'
reported "on main" old_defconfig

# A branch with a commit: the merge base with main.
git checkout -q -b feature
printf 'CONFIG_SLOB=y\n' >$d/new_defconfig
git add . && git commit -q -m new || exit 1
st_expect 1 "feature" chk
said "feature" "${main%"${main#????????????}"}, the merge base of HEAD and main \(auto\)"
reported "feature" new_defconfig
grep -q '^slubtiny: check: 1 finding not shown: the files had it at the merge base of HEAD and main' "$t/err" ||
	{ bad "feature: no word about the finding not shown"; cat "$t/err"; }
[ -s "$t/out" ] && { bad "feature: stdout not empty"; cat "$t/out"; }
# the baseline line is said with --format json too, on stderr only
st_expect 1 "feature json" chk --format json
said "feature json" "${main%"${main#????????????}"}, the merge base"
grep -q baseline "$t/out" && { bad "feature json: the baseline line is on stdout"; cat "$t/out"; }
# -q leaves it out
st_expect 1 "feature -q" chk -q
grep -q 'baseline:' "$t/err" && { bad "feature -q: the baseline line is said"; cat "$t/err"; }

# origin/HEAD comes before a local main: here it names the feature branch
# (as a clone of a repository whose default branch it is would).
git update-ref refs/remotes/origin/feature HEAD
git symbolic-ref refs/remotes/origin/HEAD refs/remotes/origin/feature
st_expect 1 "origin/HEAD" chk
said "origin/HEAD" 'none, every finding counts \(auto: HEAD is on the default branch origin/feature\)'
git symbolic-ref --delete refs/remotes/origin/HEAD
git update-ref -d refs/remotes/origin/feature

# Staged changes: a commit in progress, against HEAD.
printf 'CONFIG_SLOB=y\nCONFIG_A=y\nCONFIG_A=y\n' >$d/new_defconfig
git add $d/new_defconfig
st_expect 1 "staged" chk
said "staged" 'HEAD \(auto: uncommitted changes, a commit in progress\)'
reported "staged" new_defconfig
grep -q 'new_defconfig:3:1: warning: .*duplicate' "$t/err" ||
	{ bad "staged: the new duplicate is not reported"; cat "$t/err"; }
grep -q 'new_defconfig:1:' "$t/err" && { bad "staged: HEAD's finding is reported"; cat "$t/err"; }
git reset -q --hard
# An edit not staged (a local run before `git add`): against HEAD too.
printf 'CONFIG_SLOB=y\nCONFIG_A=y\nCONFIG_A=y\n' >$d/new_defconfig
st_expect 1 "unstaged" chk
said "unstaged" 'HEAD \(auto: uncommitted changes, a commit in progress\)'
grep -q 'new_defconfig:3:1: warning: .*duplicate' "$t/err" ||
	{ bad "unstaged: the new duplicate is not reported"; cat "$t/err"; }
grep -q 'new_defconfig:1:' "$t/err" && { bad "unstaged: HEAD's finding is reported"; cat "$t/err"; }
git checkout -q -- $d

# pre-commit's ref range: the from-ref (its merge base with the to-ref,
# as pre-commit's own diff FROM...TO).
st_expect 0 "from-ref HEAD" env PRE_COMMIT_FROM_REF=HEAD PRE_COMMIT_TO_REF=HEAD "$SLUBTINY" \
	check --no-config --baseline auto $d
said "from-ref HEAD" "[0-9a-f]{12}, pre-commit's from-ref HEAD \(auto\)"
st_expect 1 "from-ref main" env PRE_COMMIT_FROM_REF=main PRE_COMMIT_TO_REF=feature "$SLUBTINY" \
	check --no-config --baseline auto $d
said "from-ref main" "${main%"${main#????????????}"}, pre-commit's from-ref main \(auto\)"
reported "from-ref main" new_defconfig
# main moves on: the merge base of from-ref and to-ref, not main's tip
git checkout -q main
printf 'CONFIG_SLUB=y\n' >$d/main_defconfig
git add . && git commit -q -m main2 || exit 1
git checkout -q feature
st_expect 1 "from-ref diverged" env PRE_COMMIT_FROM_REF=main PRE_COMMIT_TO_REF=feature "$SLUBTINY" \
	check --no-config --baseline auto $d
said "from-ref diverged" "${main%"${main#????????????}"}, the merge base of pre-commit's from-ref main and to-ref feature \(auto\)"
reported "from-ref diverged" new_defconfig
st_expect 2 "from-ref unknown" env PRE_COMMIT_FROM_REF=nosuchrev PRE_COMMIT_TO_REF=HEAD "$SLUBTINY" \
	check --no-config --baseline auto $d
[ "$(cat "$t/err")" = "slubtiny: check: baseline auto: pre-commit's from-ref nosuchrev: not a git revision here" ] ||
	{ bad "from-ref unknown: wrong error:"; cat "$t/err"; }

# No default branch: every finding, and said why.
git branch -q -m main trunk
st_expect 1 "no default branch" chk
said "no default branch" 'none, every finding counts \(auto: no default branch: no origin/HEAD, origin/main, origin/master, main or master\)'
reported "no default branch" new_defconfig old_defconfig
git branch -q -m trunk master
st_expect 1 "master" chk
said "master" "${main%"${main#????????????}"}, the merge base of HEAD and master \(auto\)"

# A branch that shares no history with the default one: none.
git checkout -q --orphan lone && git commit -q -m lone || exit 1
st_expect 1 "no history" chk
said "no history" 'none, every finding counts \(auto: HEAD shares no history with master\)'
reported "no history" new_defconfig old_defconfig
git checkout -q feature

# Outside a git work tree: none.
mkdir -p "$t/plain/$d"
printf 'CONFIG_SLOB=y\n' >"$t/plain/$d/x_defconfig"
st_expect 1 "no git" "$SLUBTINY" check --no-config --baseline auto "$t/plain/$d"
said "no git" 'none, every finding counts \(auto: not in a git work tree\)'

# Explicit revisions keep working as before, with no baseline line.
st_expect 1 "explicit" "$SLUBTINY" check --no-config --baseline master $d
grep -q 'baseline:' "$t/err" && { bad "explicit: a baseline line"; cat "$t/err"; }
reported "explicit" new_defconfig
exit $fail
