#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# footprint --boot and the QEMU it starts: QEMU must not outlive slubtiny
# (SIGTERM, SIGINT, SIGKILL of slubtiny during the boot: QEMU has a process
# group of its own and used to run on), and the time limit is slubtiny's own
# (a QEMU that closed its console and lives on used to be waited for
# forever). No kernel is built or booted: a fake `make` writes the .config
# and a bzImage, a fake qemu-system-x86_64 first in PATH records its pid and
# its child's, then sleeps (the tree is the Kconfig extraction of
# linux-source-6.12 the check tests share).
set -u
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../kernel-tree.sh"
command -v cc >/dev/null || { echo "skip: no cc for the boot init"; exit 77; }
st_tmpdir t
mkdir -p "$t/bin"
# The kernel cache (the Kconfig probe of the tree: half a minute on a busy
# machine) is kept between runs of the test.
kb=$ST_BUILDDIR/boot-kill.kb
cat >"$t/bin/make" <<'EOS'
#!/bin/sh
for a; do case $a in O=*) o=${a#O=} ;; esac; done
for a; do case $a in
olddefconfig) ;;
*config) printf 'CONFIG_SLUB=y\n' >"$o/.config" ;;
bzImage) mkdir -p "$o/arch/x86/boot" && echo image >"$o/arch/x86/boot/bzImage" ;;
esac; done
exit 0
EOS
cat >"$t/bin/qemu-system-x86_64" <<'EOS'
#!/bin/sh
[ "$1" = --version ] && { echo "QEMU emulator version 9.9.9"; exit 0; }
sleep 600 </dev/null >/dev/null 2>&1 &
echo "$$ $!" >"$ST_FAKE_QEMU_PIDS.new" && mv "$ST_FAKE_QEMU_PIDS.new" "$ST_FAKE_QEMU_PIDS"
[ "${ST_FAKE_QEMU_CLOSE:-}" ] && exec >&- 2>&-
exec sleep 600
EOS
chmod +x "$t/bin/make" "$t/bin/qemu-system-x86_64"
pids=$t/qemu.pids
st_atexit '[ -s "$pids" ] && kill -9 $(cat "$pids") 2>/dev/null'

# alive PID: running (a zombie nobody reaps is gone for us)
alive() {
	s=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)
	[ -n "$s" ] && [ "$s" != Z ]
}
# boot NAME ARGS...: footprint --boot in the background ($bpid), --timeout 2
boot() {
	name=$1
	shift
	rm -f "$pids"
	PATH=$t/bin:$PATH ST_FAKE_QEMU_PIDS=$pids "$@" "$SLUBTINY" footprint --boot \
		--srctree "$tree" --arch x86_64 --variant slub --defconfig tinyconfig \
		--builddir "$kb" --accel tcg --timeout 2 >"$t/$name.out" 2>"$t/$name.err" &
	bpid=$!
}
# Wait (up to 10 min: the first run probes the tree's Kconfig, slowly in
# the ASan build) for the fake QEMU.
started() {
	i=0
	while [ ! -s "$pids" ]; do
		i=$((i + 1))
		[ $i -lt 6000 ] && alive $bpid ||
			{ bad "$1: QEMU never started: $(tail -3 "$t/$1.err")"; return 1; }
		sleep 0.1
	done
}
# gone NAME WHAT PID: PID ends within 2 s
gone() {
	i=0
	while alive "$3"; do
		i=$((i + 1))
		[ $i -lt 20 ] || { bad "$1: $2 $3 still running 2 s after slubtiny ended"; return; }
		sleep 0.1
	done
}
fmsg="slubtiny: footprint: linux-6\.12\.[0-9]*/x86_64/slub: the boot did not reach the end marker within 2 s (qemu-system-x86_64 killed); console log .*slubtiny-console\.log (no output), last lines:"

# The time limit: a QEMU that never prints is killed at 2 s, one error.
boot quiet timeout 900
started quiet
wait $bpid
st=$?
[ $st = 2 ] || bad "quiet QEMU: exit $st, want 2: $(tail -3 "$t/quiet.err")"
grep -q "^$fmsg\$" "$t/quiet.err" || bad "quiet QEMU: stderr: $(cat "$t/quiet.err")"
gone "quiet QEMU" QEMU "$(cut -d' ' -f1 "$pids")"

# ... and one that closes its console and lives on: not waited for.
boot closed env ST_FAKE_QEMU_CLOSE=1 timeout 120
started closed
t0=$(date +%s)
wait $bpid
st=$?
[ $st = 2 ] || bad "QEMU with its console closed: exit $st, want 2 (124: slubtiny waited)"
[ $(($(date +%s) - t0)) -lt 20 ] || bad "QEMU with its console closed: not ended at 2 s"
grep -q "^$fmsg\$" "$t/closed.err" || bad "QEMU with its console closed: stderr: $(cat "$t/closed.err")"
gone "closed console" QEMU "$(cut -d' ' -f1 "$pids")"

# slubtiny killed during the boot: QEMU and its group go with it.
for sig in TERM:15 INT:2 KILL:9; do
	nr=${sig#*:}
	sig=${sig%:*}
	boot "$sig" env --default-signal=INT
	started "$sig" || continue
	kill -$nr $bpid
	wait $bpid
	st=$?
	[ $st = $((128 + nr)) ] || bad "SIG$sig: exit $st, want death by the signal"
	gone "SIG$sig" QEMU "$(cut -d' ' -f1 "$pids")"
	# SIGKILL gives no chance to kill the group: only QEMU itself is sure to go
	[ $sig = KILL ] || gone "SIG$sig" "QEMU's child" "$(cut -d' ' -f2 "$pids")"
	kill -9 $(cat "$pids") 2>/dev/null
done
exit $fail
