#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A run over many files that takes more than a second draws a progress line
# on stderr when it is a terminal (script(1) gives one), clears it before
# the findings, and draws nothing on a pipe, with -q or for a quick run.
set -u
command -v script >/dev/null || { echo "skip: script missing"; exit 77; }
. "$(dirname "$0")/kernel-tree.sh"
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cd "$tree" || exit 2
files="arch/sh/configs/se7206_defconfig arch/sh/configs/rsk7201_defconfig arch/sh/configs/rsk7203_defconfig arch/sh/configs/shmin_defconfig"
cr=$(printf '\r')

# On a terminal (stdout and stderr both go to the pty). The line appears
# once a run has taken a second; a fast machine checks these files in less,
# so the delay is 0 here (a quick run with the default is tested below).
SLUBTINY_PROGRESS_DELAY=0 script -qec "\"$SLUBTINY\" check --srctree . $files; echo \"[exit \$?]\"" /dev/null >"$t/tty"
grep -q '\[exit 1\]' "$t/tty" || bad "check on a terminal: $(tail -3 "$t/tty")"
grep -q "${cr}check: [0-9]/4 arch/" "$t/tty" || bad "no progress line on a terminal"
grep -q "${cr}check: 4/4 " "$t/tty" || bad "the progress line does not reach 4/4"
# The line is cleared (\r spaces \r) before the first finding.
first=$(grep -n 'warning:' "$t/tty" | head -1 | cut -d: -f1)
grep -n "${cr} *${cr}" "$t/tty" | head -1 | cut -d: -f1 >"$t/cleared"
[ -n "$first" ] && [ "$(cat "$t/cleared")" -le "$first" ] 2>/dev/null || bad "progress not cleared before the findings"
# -q: none.
SLUBTINY_PROGRESS_DELAY=0 script -qec "\"$SLUBTINY\" check -q --srctree . $files" /dev/null >"$t/tty"
grep -q "${cr}check:" "$t/tty" && bad "progress with -q"
# Not a terminal: none, and the findings are the same.
SLUBTINY_PROGRESS_DELAY=0 "$SLUBTINY" check --srctree . $files >"$t/out" 2>"$t/err"; st=$?
[ $st = 1 ] || bad "check: exit $st"
grep -q "$cr" "$t/err" && bad "progress on a pipe: $(cat -v "$t/err" | head -2)"
# A quick run (well under a second): none.
script -qec "\"$SLUBTINY\" check arch/sh/configs/se7206_defconfig" /dev/null >"$t/tty"
grep -q "${cr}check:" "$t/tty" && bad "progress on a quick run"
exit $fail
