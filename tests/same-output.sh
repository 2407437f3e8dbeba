#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The README's commands, their output byte for byte, from two revisions: a
# change that only moves code (a clean-up) must leave every one identical.
#
#   sh tests/same-output.sh BASE [BUILDDIR]
#
# BASE (a commit) is built in a temporary git worktree (the command and the
# replay programs); BUILDDIR (default: build) is this tree's build.
# tests/cli/readme.py of this tree runs its blocks twice with each binary
# and keeps each command's stdout, stderr and exit status (ST_README_DUMP);
# what differs between two runs of one binary is named and left out, the
# rest compared byte for byte. Exit 0 identical, 1 different, 2 error, 77
# when readme.py lacks what it needs (linux-source-6.12, pre-commit, ...).
# Not part of the suite: it needs the history.
set -u
base=${1:?usage: same-output.sh BASE [BUILDDIR]}
top=$(cd "$(dirname "$0")/.." && pwd)
bld=$(cd "${2:-$top/build}" 2>/dev/null && pwd) || { echo "same-output: no build directory ${2:-build}" >&2; exit 2; }
[ -x "$bld/cli/slubtiny" ] || { echo "same-output: $bld/cli/slubtiny not built" >&2; exit 2; }
rev=$(git -C "$top" rev-parse --verify -q "$base^{commit}") || { echo "same-output: $base: not a commit" >&2; exit 2; }

t=$(mktemp -d "${TMPDIR:-/tmp}/st-same.XXXXXX") || exit 2
cleanup() {
	git -C "$top" worktree remove --force "$t/base" 2>/dev/null
	rm -rf "$t"
}
trap cleanup EXIT INT TERM

git -C "$top" worktree add -q --detach "$t/base" "$rev" || exit 2
# the command and the replay programs `footprint` runs
meson setup "$t/base/build" "$t/base" >"$t/setup.log" 2>&1 &&
	ninja -C "$t/base/build" cli/slubtiny $(ninja -C "$t/base/build" -t targets all |
		sed -n 's|^\(lib/footprint/replay/st-replay-[a-z_]*\): .*|\1|p') >"$t/build.log" 2>&1 ||
	{ tail -20 "$t/setup.log" "$t/build.log" >&2; echo "same-output: cannot build $base" >&2; exit 2; }

# run NAME BINARY: the README blocks with BINARY, outputs into $t/out-NAME
# (no progress lines: how many a command prints depends on the machine)
run() {
	mkdir "$t/out-$1"
	ST_README_DUMP=$t/out-$1 SLUBTINY=$2 ST_SRCDIR=$top ST_BUILDDIR=$bld \
		SLUBTINY_PROGRESS_INTERVAL=3600 \
		python3 "$top/tests/cli/readme.py" >"$t/$1.log" 2>&1
	st=$?
	[ $st = 77 ] && { cat "$t/$1.log"; exit 77; }
	# A README that no longer matches one of the two is a finding too, but
	# the comparison below says more: keep going.
	[ $st = 0 ] || { echo "same-output: README check with $1: exit $st"; grep -A5 '^FAIL' "$t/$1.log"; }
}
run base "$t/base/build/cli/slubtiny"
run base2 "$t/base/build/cli/slubtiny"
run new "$bld/cli/slubtiny"
run new2 "$bld/cli/slubtiny"

# What differs between two runs of the same binary (SLUB's pages follow the
# CPUs a replay ran on, speeds move with the load) cannot be compared byte
# for byte: said, and left out of both sides.
for f in "$t"/out-base/*; do
	b=$(basename "$f")
	cmp -s "$f" "$t/out-base2/$b" && cmp -s "$t/out-new/$b" "$t/out-new2/$b" && continue
	echo "same-output: varies from run to run, not compared: $b"
	rm -f "$f" "$t/out-new/$b"
done
n=$(ls "$t/out-base" | wc -l)
[ "$n" -gt 0 ] || { echo "same-output: no command output kept" >&2; exit 2; }
if diff -r "$t/out-base" "$t/out-new"; then
	echo "same-output: $n README commands, identical output from $(git -C "$top" rev-parse --short "$rev") and $bld"
	exit 0
fi
echo "same-output: outputs differ (above: < $base, > this build)"
exit 1
