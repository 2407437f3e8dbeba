#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# How long the replay waits between threads: a trace of OPS cross-thread
# ops (an object kmalloc'd on one thread and freed by the next one, round
# the THREADS threads) replayed by each st-replay-VARIANT given, with a
# short timing budget so that the figure is mostly the waiting. Prints the
# wall time of each run. LOAD=N runs N busy loops meanwhile, as a busy CI
# machine would: waiting by yielding the CPU suffers most from them.
#   replay-threads.sh ST_REPLAY... (OPS=1500 THREADS=64 ROUNDS=3 LOAD=0)
set -eu
. "$(dirname "$0")/../lib.sh"
ops=${OPS:-1500}
threads=${THREADS:-64}
rounds=${ROUNDS:-3}
load=${LOAD:-0}
# (registered before st_tmpdir: run after $tmp is removed, as before)
busy=
st_atexit '[ -z "$busy" ] || kill $busy'
st_tmpdir tmp
while [ "$load" -gt 0 ]; do
	sh -c 'while :; do :; done' &
	busy="$busy $!"
	load=$((load - 1))
done
awk -v ops="$ops" -v th="$threads" 'BEGIN {
	print "slubtrace 1"
	for (i = 0; i < ops / 2; i++) {
		t = i % th
		printf "@%d kmalloc %d 64\n", t, i
		printf "@%d free %d\n", (t + 1) % th, i
	}
}' >"$tmp/trace"
for exe in "$@"; do
	r=0
	while [ $r -lt "$rounds" ]; do
		t0=$(date +%s%N)
		"$exe" --threads "$threads" --time-ms 1 "$tmp/trace" >"$tmp/out"
		t1=$(date +%s%N)
		printf '%s: %d ops, %d threads, %d busy loops: %d ms wall\n' \
			"$(basename "$exe")" "$ops" "$threads" "${LOAD:-0}" \
			$(((t1 - t0) / 1000000))
		r=$((r + 1))
	done
done
