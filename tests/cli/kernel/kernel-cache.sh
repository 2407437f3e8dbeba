#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The kernel build cache under concurrency, kill -9 and hostile neighbours:
# two runs with different configs on one --builddir, a make orphaned by a
# kill -9 of slubtiny, and the default cache directory without a home or
# made by someone else. A fake `make` first in PATH writes the .config and
# objects (no compiler runs; the tree is the Kconfig extraction of
# linux-source-6.12 the check tests share); ST_FAKE_SLEEP holds its build
# step open for the race, ST_FAKE_TAG marks the objects of one run.
set -u
. "$(dirname "$0")/../kernel-tree.sh"
t=$(mktemp -d) || exit 2
trap '[ -n "${KEEP:-}" ] || rm -rf "$t"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
kb=$t/kb
mkdir -p "$t/bin" "$t/tmp"
cat >"$t/bin/make" <<'EOS'
#!/bin/sh
for a; do case $a in O=*) o=${a#O=} ;; esac; done
for a; do case $a in
olddefconfig) ;;
*config) printf 'CONFIG_SLUB=y\nCONFIG_LOCALVERSION="-%s"\n' "$a" >"$o/.config" ;;
*.o)	mkdir -p "$o/${a%/*}"
	sleep "${ST_FAKE_SLEEP:-0}"
	line=$(grep LOCALVERSION "$o/.config")
	echo "$line ${ST_FAKE_TAG:-}" >"$o/$a" ;;
esac; done
exit 0
EOS
chmod +x "$t/bin/make"
obj() { cat "$kb"/linux-source-6.12-*/x86_64/slub/mm/slub.o 2>/dev/null; }
# kernel NAME ARGS...: one run in the foreground, $st, $t/NAME.{out,err}.
kernel() {
	name=$1
	shift
	PATH=$t/bin:$PATH "$SLUBTINY" kernel --srctree "$tree" --arch x86_64 --variant slub \
		--builddir "$kb" "$@" >"$t/$name.out" 2>"$t/$name.err"
	st=$?
}
# Wait (up to 60 s) until run NAME's make is in its build step.
building() {
	i=0
	while ! grep -q ': build (' "$t/$1.err" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 600 ] || { bad "$1 never reached the build step: $(cat "$t/$1.err")"; return; }
		sleep 0.1
	done
}
busy="slubtiny: kernel: $kb: build directory in use by another slubtiny kernel run (or a build left running by one)"
# Warm up the Kconfig probe of the tree (kept under $kb for all runs).
kernel warm --defconfig tinyconfig
[ $st = 0 ] || bad "warm-up: exit $st: $(tail -3 "$t/warm.err")"

# Run B with another config starts while run A builds: B must not touch
# A's directory (it reported and stamped A's objects as its own, and A's
# later cached runs reported B's). B refuses at once, A's result stays A's.
rm -rf "$kb"/linux-source-6.12-*/x86_64/slub
PATH=$t/bin:$PATH ST_FAKE_SLEEP=3 "$SLUBTINY" kernel --srctree "$tree" --arch x86_64 \
	--variant slub --builddir "$kb" --defconfig tinyconfig >"$t/a.out" 2>"$t/a.err" &
apid=$!
building a
kernel b --defconfig allnoconfig
wait $apid
ast=$?
[ $ast = 0 ] || bad "run A: exit $ast: $(tail -3 "$t/a.err")"
[ $st = 2 ] || bad "run B during run A: exit $st, want 2 (objects '$(obj)')"
[ "$(cat "$t/b.err")" = "$busy" ] || bad "run B during run A: stderr: $(cat "$t/b.err")"
[ ! -s "$t/b.out" ] || bad "run B during run A: output on stdout"
[ "$(obj)" = 'CONFIG_LOCALVERSION="-tinyconfig" ' ] || bad "run A built '$(obj)'"
# A's stamp names A's build: a rerun of A is cached and still A's objects.
kernel a2 --defconfig tinyconfig
[ $st = 0 ] || bad "rerun of A: exit $st: $(tail -3 "$t/a2.err")"
grep -q ': cached (' "$t/a2.err" || bad "rerun of A not cached: $(cat "$t/a2.err")"
[ "$(obj)" = 'CONFIG_LOCALVERSION="-tinyconfig" ' ] ||
	bad "rerun of A from the cache reports '$(obj)'"

# kill -9 of slubtiny in the build step: its make must not outlive it and
# rewrite objects after a rerun stamped its own (the orphan wrote them 3 s
# later). While anything of the killed build runs, a rerun refuses.
rm -rf "$kb"/linux-source-6.12-*/x86_64/slub
PATH=$t/bin:$PATH ST_FAKE_SLEEP=3 ST_FAKE_TAG=orphan "$SLUBTINY" kernel --srctree "$tree" \
	--arch x86_64 --variant slub --builddir "$kb" --defconfig tinyconfig \
	>"$t/k.out" 2>"$t/k.err" &
kpid=$!
building k
kill -9 $kpid
wait $kpid
ST_FAKE_TAG=rerun kernel rerun --defconfig tinyconfig
case $st in
0) ;;
2) [ "$(cat "$t/rerun.err")" = "$busy" ] || bad "rerun after kill -9: $(cat "$t/rerun.err")" ;;
*) bad "rerun after kill -9: exit $st: $(tail -3 "$t/rerun.err")" ;;
esac
sleep 4
ST_FAKE_TAG=late kernel late --defconfig tinyconfig
[ $st = 0 ] || bad "run after the orphan's time: exit $st: $(tail -3 "$t/late.err")"
sleep 1
case $(obj) in
*orphan) bad "the killed run's make rewrote the objects after the rerun" ;;
*rerun | *late) ;;
*) bad "objects after kill -9 and rerun: '$(obj)'" ;;
esac

# The compiler's version is part of the key: after an upgrade of the same
# CC name, make runs again (before, the old compiler's objects were taken).
printf '#!/bin/sh\ncat "%s/cc-version"\n' "$t" >"$t/bin/fakecc"
chmod +x "$t/bin/fakecc"
echo "fakecc 1.0" >"$t/cc-version"
CC=fakecc kernel cc1 --defconfig tinyconfig
[ $st = 0 ] || bad "CC version 1.0: exit $st: $(tail -3 "$t/cc1.err")"
CC=fakecc kernel cc1again --defconfig tinyconfig
grep -q ': cached (' "$t/cc1again.err" || bad "same CC version not cached: $(cat "$t/cc1again.err")"
echo "fakecc 2.0" >"$t/cc-version"
CC=fakecc kernel cc2 --defconfig tinyconfig
[ $st = 0 ] || bad "CC version 2.0: exit $st: $(tail -3 "$t/cc2.err")"
grep -q ': cached (' "$t/cc2.err" && bad "CC upgraded from 1.0 to 2.0: old objects taken from the cache"

# No home: the cache is a fresh private directory under $TMPDIR, never
# /tmp/slubtiny-UID that another user can create first. (A missing
# --defconfig file stops the run right after the cache is chosen.)
guess=/tmp/slubtiny-$(id -u)
had=; [ -e "$guess" ] && had=1
(cd "$t" && env -u HOME -u XDG_CACHE_HOME TMPDIR=$t/tmp "$SLUBTINY" kernel --srctree "$tree" \
	--arch x86_64 --variant slub --defconfig ./missing) >"$t/nohome.out" 2>"$t/nohome.err"
st=$?
[ $st = 2 ] || bad "no home: exit $st: $(cat "$t/nohome.err")"
[ "$(cat "$t/nohome.err")" = "slubtiny: kernel: ./missing: cannot read: No such file or directory" ] ||
	bad "no home: stderr: $(cat "$t/nohome.err")"
[ -z "$had" ] && [ -e "$guess" ] && { bad "no home: cache made at $guess"; rm -rf "$guess"; }
set -- "$t"/tmp/slubtiny-*
[ -d "$1/kernel" ] || bad "no home: no private cache under \$TMPDIR"
[ "$(stat -c %a "$1")" = 700 ] || bad "no home: cache $1 is mode $(stat -c %a "$1")"

# A cache directory someone else could write (here: mode 0775) is refused
# with one error naming it, before anything is built in it.
mkdir -p "$t/xdg/slubtiny"
chmod 775 "$t/xdg/slubtiny"
(cd "$t" && XDG_CACHE_HOME=$t/xdg "$SLUBTINY" kernel --srctree "$tree" --arch x86_64 \
	--variant slub --defconfig ./missing) >"$t/open.out" 2>"$t/open.err"
st=$?
[ $st = 2 ] || bad "cache mode 0775: exit $st, want 2"
[ "$(cat "$t/open.err")" = "slubtiny: kernel: $t/xdg/slubtiny: cache directory is not private (want owner $(id -u), mode 0700): not used" ] ||
	bad "cache mode 0775: stderr: $(cat "$t/open.err")"
[ ! -e "$t/xdg/slubtiny/kernel" ] || bad "cache mode 0775: used anyway"
# The same directory made private is taken.
chmod 700 "$t/xdg/slubtiny"
(cd "$t" && XDG_CACHE_HOME=$t/xdg "$SLUBTINY" kernel --srctree "$tree" --arch x86_64 \
	--variant slub --defconfig ./missing) >"$t/priv.out" 2>"$t/priv.err"
st=$?
[ $st = 2 ] && [ "$(cat "$t/priv.err")" = "slubtiny: kernel: ./missing: cannot read: No such file or directory" ] ||
	bad "cache mode 0700: exit $st: $(cat "$t/priv.err")"
[ -d "$t/xdg/slubtiny/kernel" ] || bad "cache mode 0700: not used"
# One an older slubtiny made 0755 (ours, nobody else can write) is closed
# to 0700 and taken.
mkdir -p "$t/old/slubtiny" && chmod 755 "$t/old/slubtiny" || exit 2
(cd "$t" && XDG_CACHE_HOME=$t/old "$SLUBTINY" kernel --srctree "$tree" --arch x86_64 \
	--variant slub --defconfig ./missing) >"$t/old.out" 2>"$t/old.err"
st=$?
[ $st = 2 ] && [ "$(cat "$t/old.err")" = "slubtiny: kernel: ./missing: cannot read: No such file or directory" ] ||
	bad "cache mode 0755: exit $st: $(cat "$t/old.err")"
[ "$(stat -c %a "$t/old/slubtiny")" = 700 ] || bad "cache mode 0755: not closed to 0700"

[ $fail = 0 ] && echo "kernel-cache: ok"
exit $fail
