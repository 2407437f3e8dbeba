#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Fuzz one libFuzzer target for SECONDS from its regression corpus (suite
# fuzz-run of a -Dfuzz=true build). New inputs go to a scratch directory,
# never into the source tree; a crash is kept in the build directory and
# named on stderr, to be copied into the target's corpus/ as a regression
# case. Prints libFuzzer's first and last coverage lines ("INITED cov:",
# "DONE cov:"), the figures doc/testing.md quotes, and fails when the
# corpus shows so few edges that only the harness can be instrumented.
set -u
exe=$1 corpus=$2 secs=$3
name=$(basename "$exe" -libfuzzer)
work=$(dirname "$exe")/$name.run
rm -rf "$work"
mkdir -p "$work/new" "$work/crashes" || exit 2
"$exe" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$work/crashes/" "$work/new" "$corpus" >"$work/log" 2>&1
st=$?
grep -m1 'INITED cov:' "$work/log"
grep 'DONE \|cov:' "$work/log" | tail -1
# A harness alone has a few dozen edges at most; every target reaches
# more than that in the library once the library is instrumented.
cov=$(sed -n 's/.*INITED cov: \([0-9]*\).*/\1/p' "$work/log" | head -1)
if [ "${cov:-0}" -lt "${ST_FUZZ_MIN_EDGES:-40}" ]; then
	echo "$name: libFuzzer sees ${cov:-no} edges on the corpus: is the library built with -fsanitize=fuzzer-no-link?" >&2
	st=1
fi
if [ $st != 0 ]; then
	tail -40 "$work/log" >&2
	for f in "$work"/crashes/*; do
		[ -e "$f" ] && echo "$name: crash kept in $f: add it to $corpus/" >&2
	done
	exit 1
fi
