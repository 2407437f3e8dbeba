#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# slubtiny kernel through a real distributed engine: two distccd daemons on
# loopback ports (no other address, no local fallback) compile Linux 6.12
# x86_64 tinyconfig, variant slub_tiny, through --cc-wrapper distcc. Each
# daemon's log must count compile jobs, every size figure must equal the
# local build's (kernel-tinyconfig's, in build-cache/kernel/), the objects
# must be its bytes, and the JSON and text must say distcc built it.
# CC="distcc gcc" on the local build's cache must find it cached: a distcc
# build has the cache key of the local one.
#
# The distcc build is given the local build's resolved .config as its
# defconfig FILE (the same configuration, without a minute of make
# tinyconfig per run) and keeps its tree in build-cache/kernel-distcc/: the
# first run builds everything there (make prepare through the daemons),
# later runs delete the stamp and the two slab objects so that make
# compiles those again, through the daemons.
set -u
# the compiler is the one this test gives, not the caller's
unset CC LLVM CROSS_COMPILE
. "$(dirname "$0")/lib.sh"
for t in distcc distccd; do
	command -v $t >/dev/null || { echo "SKIP: $t not installed (apt-get install distcc)"; exit 77; }
done
tarball=/usr/src/linux-source-6.12.tar.xz
[ -r $tarball ] || { echo "SKIP: $tarball missing (apt-get install linux-source-6.12)"; exit 77; }
for p in make gcc flex bison bc ar size jq python3 xz perl flock; do
	command -v "$p" >/dev/null || { echo "SKIP: $p not installed"; exit 77; }
done
src=$(extract 6.12) || { err "cannot extract linux-source-6.12"; exit 1; }
work=$ST_BUILDDIR/tests-kernel/distcc
kd=$cache/kernel-distcc
tiny="--defconfig tinyconfig --arch x86_64 --variant slub_tiny"
rm -rf "$work"
mkdir -p "$work/distcc-dir" "$kd"

# The local build, the reference (cached by kernel-tinyconfig).
run local "$src" $tiny --builddir "$cache/kernel"
ld=$(dirname "$(jq -r '.results[0].object' "$work/local.out")")
[ "$(jq -r '.results[0].cc_wrapper' "$work/local.out")" = null ] &&
	[ "$(jq -r '.results[0].cc' "$work/local.out")" = gcc ] ||
	err "local build: cc $(jq -c '.results[0] | [.cc, .cc_wrapper]' "$work/local.out")"
cp "$ld/.config" "$work/tinyconfig.config" || { err "no .config in $ld"; exit 1; }
# CC="distcc gcc" finds the local build in the cache (no daemon needed):
# the same compiler, so the same key; the report says who built it.
export CC="distcc gcc"
run local-cc "$src" $tiny --builddir "$cache/kernel"
unset CC
grep -q ': cached (' "$work/local-cc.err" || err "CC='distcc gcc' missed the local build's cache"
cmp -s "$work/local.out" "$work/local-cc.out" || err "CC='distcc gcc' from the cache: other JSON"

# One distcc build at a time in build-cache (the plain and the sanitizer
# runs of the suite share it); the daemons do not hold the lock.
exec 8>"$cache/kernel-distcc.lock"
flock -w 1500 8 || { err "build-cache/kernel-distcc.lock stays locked"; exit 1; }

pids=
stop() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	pids=
}
st_atexit stop
# distccd started by root gives its privileges away (to --user) before it
# would open a --log-file, which nobody may not reach (a clone under
# /root, mode 700): it logs to stderr, a file this shell opened.
user=
[ "$(id -u)" = 0 ] && user="--user nobody"
# Two ports that were free a moment ago; a daemon that cannot bind says so
# in its log, and both start again on other ports.
ports() {
	python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])'
}
start() { # name port
	distccd --daemon --no-detach --listen 127.0.0.1 --allow 127.0.0.1 --port "$2" \
		--log-stderr --log-level info --nice 15 --jobs 1 $user \
		</dev/null >"$work/$1.log" 2>&1 8>&- &
	pids="$pids $!"
}
listening() { # name port: up to 10 s
	i=0
	while ! grep -q "listening on 127.0.0.1:$2" "$work/$1.log" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 100 ] || return 1
		sleep 0.1
	done
}
for attempt in 1 2 3; do
	set -- $(ports)
	p1=$1 p2=$2
	start a "$p1"
	start b "$p2"
	listening a "$p1" && listening b "$p2" && break
	stop
	[ $attempt = 3 ] && { err "distccd did not start: $(cat "$work"/a.log)"; exit 1; }
done
# No localhost in the host list (it would compile here, not in a daemon),
# no fallback to a local compile when a daemon fails, no local retry.
export DISTCC_HOSTS="127.0.0.1:$p1/1 127.0.0.1:$p2/1"
export DISTCC_FALLBACK=0 DISTCC_SKIP_LOCAL_RETRY=1 DISTCC_BACKOFF_PERIOD=0
export DISTCC_DIR="$work/distcc-dir"
unset DISTCC_VERBOSE DISTCC_LOG

njobs() { # daemon name: compile jobs it finished
	grep -c 'COMPILE_OK' "$work/$1.log" 2>/dev/null
}
# make compiles the two slab objects again (all a variant builds); the tree
# around them is kept. make -j2 starts both at once, and each daemon takes
# one job at a time (--jobs 1, host "/1"), so the second goes to the other
# daemon while the first compiles.
again() {
	for d in "$kd"/linux-source-6.12-*/x86_64/slub_tiny; do
		[ -d "$d" ] && rm -f "$d/.slubtiny-stamp" "$d/mm/slub.o" "$d/mm/slab_common.o"
	done
}
# run NAME...: the JSON of NAME against the local build, and the daemons'
# jobs since the last call.
checked_a=0 checked_b=0
check_distcc() { # name, CC
	j=$work/$1.out
	for f in text data bss total delta_total delta_text resolved; do
		l=$(jq -c ".results[0].$f" "$work/local.out")
		d=$(jq -c ".results[0].$f" "$j")
		[ "$l" = "$d" ] && [ "$l" != null ] || err "$1: $f: distcc $d, local $l"
	done
	[ "$(jq -r '.results[0].cc_wrapper' "$j")" = distcc ] ||
		err "$1: cc_wrapper $(jq -c '.results[0].cc_wrapper' "$j")"
	[ "$(jq -r '.results[0].cc' "$j")" = "$2" ] || err "$1: cc $(jq -c '.results[0].cc' "$j"), want $2"
	grep -q ': build (' "$work/$1.err" || err "$1: nothing built: $(cat "$work/$1.err")"
	# the same objects as the local build, byte for byte
	ld=$(dirname "$(jq -r '.results[0].object' "$work/local.out")")
	dd=$(dirname "$(jq -r '.results[0].object' "$j")")
	cmp -s "$ld/.config" "$dd/.config" || err "$1: .config differs from the local build's"
	for o in mm/slub.o mm/slab_common.o; do
		cmp -s "$ld/$o" "$dd/$o" || err "$1: $o differs from the local build's"
	done
	a=$(njobs a) b=$(njobs b)
	echo "kernel-distcc: $1: compile jobs: daemon a $((a - checked_a)), daemon b $((b - checked_b))" >&2
	[ "$a" -gt "$checked_a" ] || err "$1: no compile job ran in daemon a (port $p1)"
	[ "$b" -gt "$checked_b" ] || err "$1: no compile job ran in daemon b (port $p2)"
	[ $((a + b - checked_a - checked_b)) -ge 2 ] || err "$1: fewer than 2 compile jobs"
	checked_a=$a checked_b=$b
	! grep -E 'COMPILE_ERROR|ERROR' "$work"/a.log "$work"/b.log || err "$1: a daemon logged errors"
}

cfg="--defconfig $work/tinyconfig.config --arch x86_64 --variant slub_tiny"
again
run distcc "$src" $cfg --builddir "$kd" --cc-wrapper distcc
check_distcc distcc "distcc gcc"

# From the cache: the text names the wrapper once (beside the "Compilers:"
# line, and the "Measured:" line whose defconfig path lies under
# tests-kernel/distcc/).
"$SLUBTINY" kernel --srctree "$src" $cfg --builddir "$kd" >"$work/text.out" 2>"$work/text.err"
st=$?
[ $st = 0 ] || err "text run: exit $st: $(cat "$work/text.err")"
only_progress "$work/text.err"
[ "$(grep -v -e '^Compilers: ' -e '^Measured: ' "$work/text.out" | grep -c distcc)" = 1 ] &&
	grep -q '^Compilers: x86_64 distcc gcc$' "$work/text.out" ||
	{ err "text: distcc not named once, or not as the compiler:"; cat "$work/text.out"; }
grep -qx 'Built through distcc (CC=distcc gcc)' "$work/text.out" || err "text: no 'Built through distcc' line"
# The report's JSON schema holds for it.
# (python3-jsonschema is in .ci/deps test: without it the check fails)
python3 - "$ST_SRCDIR/doc/schema/report.json" "$work/distcc.out" "$work/local.out" <<'EOF' ||
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
for f in sys.argv[2:]:
    jsonschema.validate(json.load(open(f)), schema)
EOF
	err "the JSON does not hold doc/schema/report.json (python3-jsonschema)"

[ $fail = 0 ] && echo "kernel-distcc: ok"
exit $fail
