#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# How migrate's and check's time grows with the number of findings: files of
# 20k, 40k and 80k lines that each give a finding (alternating
# CONFIG_SLOB=n/y: every assignment but the last is overridden). Prints the
# seconds and the ratio to the previous size; linear growth is about 2.0,
# quadratic 4.0. Not a test (timing flakes on a loaded machine):
#   SLUBTINY=build/cli/slubtiny sh tests/bench/findings-scale.sh
set -u
. "$(dirname "$0")/../lib.sh"
: "${SLUBTINY:?}"
st_tmpdir t
sizes=${SIZES:-20000 40000 80000}

secs() { # command...: wall seconds, as a decimal
	s=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	e=$(date +%s.%N)
	echo "$s $e" | awk '{ printf "%.2f", $2 - $1 }'
}

for cmd in migrate check; do
	prev=
	for n in $sizes; do
		f=$t/scale$n
		awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "CONFIG_SLOB=%s\n", i % 2 ? "y" : "n" }' >"$f"
		case $cmd in
		migrate) s=$(secs "$SLUBTINY" migrate --arch x86 "$f") ;;
		check) s=$(secs "$SLUBTINY" check --no-config --arch x86 "$f") ;;
		esac
		if [ -n "$prev" ]; then
			r=$(echo "$s $prev" | awk '{ printf "%.2f", ($2 > 0) ? ($1 / $2) : 0 }')
			echo "$cmd $n lines: ${s}s (x$r)"
		else
			echo "$cmd $n lines: ${s}s"
		fi
		prev=$s
	done
done
