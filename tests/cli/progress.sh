#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A run over many files that takes more than a second draws a progress line
# on stderr when it is a terminal (script(1) gives one), clears it before
# the findings, and draws nothing on a pipe, with -q or for a quick run.
# The long jobs (build, report, kernel steps, footprint) also write a line
# every SLUBTINY_PROGRESS_INTERVAL seconds when stderr is a file (a CI log),
# none with -q, and their stdout (and --json) is the same either way.
set -u
. "$(dirname "$0")/../lib.sh"
command -v script >/dev/null || { echo "skip: script missing"; exit 77; }
. "$(dirname "$0")/kernel-tree.sh"
st_tmpdir t
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

cd "$t" || exit 2
host=$(case $(uname -m) in i?86) echo i686 ;; armv7l) echo arm ;; *) uname -m ;; esac)
# only_lines FILE COMMAND: FILE holds nothing but COMMAND's progress lines.
only_lines() {
	grep -v "^slubtiny: $2: \[[0-9]*/[0-9]*\] .* ([0-9]*\.[0-9] s)\$" "$1" | grep -q . &&
		bad "$2: stderr is not only progress lines: $(grep -v "^slubtiny: $2: \[" "$1" | head -3)"
	grep -q "$cr" "$1" && bad "$2: a terminal line in a file"
}
export SLUBTINY_PROGRESS_INTERVAL=0.2

# build and report, cold (a fresh build directory each): lines in the log,
# none with -q, the same stdout.
if command -v cc >/dev/null; then
	build() { # dir args...
		d=$1
		shift
		"$SLUBTINY" build --builddir "$t/$d" --arch "$host" --variant slub_tiny "$@" \
			>"$t/$d.out" 2>"$t/$d.err"
		st=$?
		sed -i "s|$t/$d|BUILDDIR|g" "$t/$d.out"
	}
	build b1
	[ $st = 0 ] || bad "build: exit $st: $(tail -3 "$t/b1.err")"
	grep -q '^slubtiny: build: \[[0-9]*/[0-9]*\] ' "$t/b1.err" || bad "build: no progress line in a log"
	only_lines "$t/b1.err" build
	build b2 -q
	[ $st = 0 ] && [ ! -s "$t/b2.err" ] || bad "build -q: exit $st, stderr: $(head -3 "$t/b2.err")"
	cmp -s "$t/b1.out" "$t/b2.out" || bad "build: stdout differs with and without progress"
	report() { # dir args...
		d=$1
		shift
		"$SLUBTINY" report --builddir "$t/$d" --arch "$host" --variant slub \
			--variant slub_tiny --json "$@" >"$t/$d.out" 2>"$t/$d.err"
		st=$?
		sed -i "s|$t/$d|BUILDDIR|g" "$t/$d.out"
	}
	report r1
	[ $st = 0 ] || bad "report: exit $st: $(tail -3 "$t/r1.err")"
	grep -q '^slubtiny: report: \[[0-9]*/[0-9]*\] ' "$t/r1.err" || bad "report: no progress line in a log"
	only_lines "$t/r1.err" report
	report r2 -q
	[ $st = 0 ] && [ ! -s "$t/r2.err" ] || bad "report -q: exit $st, stderr: $(head -3 "$t/r2.err")"
	cmp -s "$t/r1.out" "$t/r2.out" || bad "report --json: stdout differs with and without progress"
	# A warm run (nothing to build) takes less than the interval: no line.
	SLUBTINY_PROGRESS_INTERVAL=5 "$SLUBTINY" build --builddir "$t/b1" --arch "$host" \
		--variant slub_tiny >/dev/null 2>"$t/warm.err"
	[ ! -s "$t/warm.err" ] || bad "warm build: stderr: $(head -3 "$t/warm.err")"
fi

# kernel: a step that runs for seconds (a fake make first in PATH) repeats
# its line while it runs; -q prints only the error; the JSON is the same.
mkdir -p "$t/bin"
printf '#!/bin/sh\nsleep 2; exit 1\n' >"$t/bin/make"
chmod +x "$t/bin/make"
kernel() { # name args...
	n=$1
	shift
	PATH=$t/bin:$PATH "$SLUBTINY" kernel --srctree "$tree" --defconfig tinyconfig \
		--arch x86_64 --variant slub --builddir "$t/kb" --json "$@" >"$t/$n.out" 2>"$t/$n.err"
	st=$?
}
kernel k1
[ $st = 2 ] || bad "kernel: exit $st, want 2: $(tail -3 "$t/k1.err")"
n=$(grep -c '^slubtiny: kernel: \[1/1\] linux-[0-9.]*/x86_64/slub: tinyconfig (' "$t/k1.err")
[ "$n" -ge 3 ] || bad "kernel: $n lines for a 2 s step at 0.2 s intervals: $(cat "$t/k1.err")"
grep -v '^slubtiny: kernel: \[' "$t/k1.err" | grep -q 'make tinyconfig failed' ||
	bad "kernel: no error line"
kernel k2 -q
[ $st = 2 ] || bad "kernel -q: exit $st"
grep -q '^slubtiny: kernel: \[' "$t/k2.err" && bad "kernel -q: progress lines"
[ "$(wc -l <"$t/k2.err")" = 1 ] || bad "kernel -q: stderr: $(cat "$t/k2.err")"
cmp -s "$t/k1.out" "$t/k2.out" || bad "kernel --json: stdout differs with and without progress"

# footprint: replaying traces that take seconds writes lines; -q none.
# (scale 20: about 3 s of replay, so that lines every 0.2 s come even on an
# idle machine, where the plain boot trace replays in 0.2 s)
"$SLUBTINY" footprint gen boot --scale 20 >"$t/boot.trace" 2>"$t/gen.err" || bad "footprint gen failed"
fp() { # name args...
	n=$1
	shift
	"$SLUBTINY" footprint --trace "$t/boot.trace" --variant slub --variant slub_tiny "$@" \
		>"$t/$n.out" 2>"$t/$n.err"
	st=$?
}
fp f1
[ $st = 0 ] || bad "footprint: exit $st: $(tail -3 "$t/f1.err")"
grep -q '^slubtiny: footprint: \[1/1\] .*boot.trace on slub' "$t/f1.err" ||
	bad "footprint: no progress line in a log: $(head -3 "$t/f1.err")"
only_lines "$t/f1.err" footprint
fp f2 -q
[ $st = 0 ] && [ ! -s "$t/f2.err" ] || bad "footprint -q: exit $st, stderr: $(head -3 "$t/f2.err")"
# (the timings differ from run to run; the rest of the table does not)
[ "$(head -1 "$t/f1.out")" = "$(head -1 "$t/f2.out")" ] &&
	[ "$(wc -l <"$t/f1.out")" = "$(wc -l <"$t/f2.out")" ] ||
	bad "footprint: stdout differs with and without progress"
exit $fail
