#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# How check's and migrate's time and memory grow with the number of
# findings, doubling the input from 20k to 160k lines: check on alternating
# CONFIG_SLAB=y/CONFIG_SLOB=y (every line from the third on assigns a symbol
# again), migrate --no-verify on repeated CONFIG_SLOB=y (every line but the
# last is overridden). Prints, per size, the seconds, the ratio to the half
# size (2.0 is linear, 4.0 quadratic), the peak resident set and what it
# costs per line over the smallest run. Not a test: timings flake on a
# loaded machine; tests/cli/findings-100k.sh holds the memory bound.
#   meson test -C build --benchmark findings-scale --verbose
#   SLUBTINY=build/cli/slubtiny sh tests/bench/findings-scale.sh
# SIZES="..." picks other sizes, CMDS="check" one command.
set -u
. "$(dirname "$0")/../lib.sh"
: "${SLUBTINY:?}"
st_tmpdir t
sizes=${SIZES:-20000 40000 80000 160000}

for cmd in ${CMDS:-check migrate}; do
	prev= first_n= first_kb=
	for n in $sizes; do
		f=$t/scale$n
		case $cmd in
		check)
			awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "CONFIG_%s=y\n", i % 2 ? "SLOB" : "SLAB" }' >"$f"
			set -- check --no-config --arch x86 "$f" ;;
		migrate)
			awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) print "CONFIG_SLOB=y" }' >"$f"
			set -- migrate --no-verify --arch x86 "$f" ;;
		esac
		s=$(date +%s.%N)
		st_peak_rss "$t/rss" "$SLUBTINY" "$@" >/dev/null 2>&1
		st=$?
		e=$(date +%s.%N)
		kb=$(cat "$t/rss")
		secs=$(echo "$s $e" | awk '{ printf "%.2f", $2 - $1 }')
		[ $st -le 1 ] || echo "$cmd $n lines: exit $st"
		line="$cmd $n lines: ${secs}s"
		[ -n "$prev" ] &&
			line="$line (x$(echo "$secs $prev" | awk '{ printf "%.2f", ($2 > 0) ? ($1 / $2) : 0 }'))"
		line="$line, peak RSS $kb kB"
		if [ -n "$first_n" ]; then
			line="$line ($(echo "$kb $first_kb $n $first_n" |
				awk '{ printf "%.0f", ($1 - $2) * 1024 / ($3 - $4) }') B a line over ${first_n})"
		else
			first_n=$n first_kb=$kb
		fi
		echo "$line"
		prev=$secs
	done
done
