#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Inputs over 64 MiB are refused before they are read whole: a sparse
# 100 MiB file (fstat says so) and 100 MiB on standard input (read stops at
# the limit), by check and migrate. Exit 2, one line naming the file, and
# little memory (a 100 MiB file was read whole, then copied by the parser).
set -u
. "$(dirname "$0")/../lib.sh"
: "${SLUBTINY:?}"
st_tmpdir t
cd "$t" || exit 1
truncate -s 100M huge_defconfig || { echo "truncate failed"; exit 77; }

# ASan's shadow memory makes the resident set no measure of ours
limit_kb=
[ -z "${ST_SANITIZE:-}" ] || [ "$ST_SANITIZE" = none ] && limit_kb=1

one_line() { # what want-status status name
	[ "$3" = "$2" ] || bad "$1: exit $3, want $2: $(head -c 300 err)"
	[ "$(wc -l <err)" = 1 ] || bad "$1: $(wc -l <err) lines on stderr, want 1: $(head -c 300 err)"
	grep -q "^slubtiny: [a-z]*: $4: larger than 64 MiB" err ||
		bad "$1: stderr does not name $4 and the limit: $(head -c 300 err)"
	[ -s out ] && bad "$1: stdout: $(head -c 200 out)"
}
rss_below() { # what kB
	[ -n "$limit_kb" ] || return 0
	[ "$(cat rss)" -lt "$2" ] || bad "$1: peak RSS $(cat rss) kB, want under $2 kB"
}

st_peak_rss rss "$SLUBTINY" check --no-config --arch x86 huge_defconfig >out 2>err
one_line "check FILE" 2 $? huge_defconfig
rss_below "check FILE" 16384
st_peak_rss rss "$SLUBTINY" migrate --no-verify --arch x86 huge_defconfig >out 2>err
one_line "migrate FILE" 2 $? huge_defconfig
rss_below "migrate FILE" 16384

# standard input: read to the limit and no further (the writer gets EPIPE)
head -c 100M /dev/zero | st_peak_rss rss "$SLUBTINY" check --no-config --arch x86 - >out 2>err
one_line "check -" 2 $? -
rss_below "check -" 98304
head -c 100M /dev/zero | st_peak_rss rss "$SLUBTINY" migrate --no-verify --arch x86 - >out 2>err
one_line "migrate -" 2 $? -
rss_below "migrate -" 98304

# just under the limit is read: a config of comments, no finding
awk 'BEGIN { s = sprintf("%0127d", 0); gsub(/0/, "#", s); n = 64 * 1024 * 1024 / 128 - 1; for (i = 0; i < n; i++) print s }' >big_defconfig
"$SLUBTINY" check --no-config --arch x86 big_defconfig >out 2>err
st=$?
[ $st = 0 ] || bad "a 64 MiB - 128 B file: exit $st, want 0: $(head -c 300 err)"
exit $fail
