#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The kernel build cache under concurrency, kill -9 and hostile neighbours:
# two runs with different configs on one --builddir, a make orphaned by a
# kill -9 of slubtiny, and the default cache directory without a home or
# made by someone else. A fake `make` first in PATH writes the .config and
# objects (no compiler runs; the tree is the Kconfig extraction of
# linux-source-6.12 the check tests share); ST_FAKE_SLEEP holds its build
# step open for the race, ST_FAKE_TAG marks the objects of one run; it
# keeps the CC= it was given in O/fake-cc.
set -u
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../kernel-tree.sh"
st_tmpdir t
kb=$t/kb
mkdir -p "$t/bin" "$t/tmp"
cat >"$t/bin/make" <<'EOS'
#!/bin/sh
for a; do case $a in O=*) o=${a#O=} ;; esac; done
rm -f "$o/fake-cc"
for a; do case $a in CC=*) echo "${a#CC=}" >"$o/fake-cc" ;; esac; done
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

# Compiler wrappers. The key sees the compiler behind a wrapper, so a
# distcc build and a plain one share their cache; make gets the wrapper in
# CC, in front of the CROSS_COMPILE compiler; the JSON says which CC and
# wrapper built each variant, a cached one keeps its builder's.
item() { echo "$kb"/linux-source-6.12-*/x86_64/slub; }
# wrapped NAME WANT-CC WANT-WRAPPER WANT-MAKE-CC [cached] ARGS...: one run.
wrapped() {
	name=$1 wcc=$2 ww=$3 wmake=$4
	shift 4
	cached=
	[ "${1:-}" = cached ] && { cached=1; shift; }
	kernel "$name" --defconfig tinyconfig --json "$@"
	[ $st = 0 ] || { bad "$name: exit $st: $(tail -3 "$t/$name.err")"; return; }
	got=$(jq -r '.results[0] | "\(.cc) \(.cc_wrapper)"' "$t/$name.out")
	[ "$got" = "$wcc $ww" ] || bad "$name: cc and cc_wrapper '$got', want '$wcc $ww'"
	if [ -n "$cached" ]; then
		grep -q ': cached (' "$t/$name.err" || bad "$name: not cached: $(cat "$t/$name.err")"
		return
	fi
	grep -q ': cached (' "$t/$name.err" && bad "$name: cached, want a build"
	got=$(cat "$(item)/fake-cc" 2>/dev/null || echo none)
	[ "$got" = "$wmake" ] || bad "$name: make got CC '$got', want '$wmake'"
}
rm -rf "$(item)"
wrapped plain gcc null none
wrapped plain-distcc gcc null none cached --cc-wrapper distcc
rm -f "$(item)/.slubtiny-stamp"
wrapped distcc "distcc gcc" distcc "distcc gcc" --cc-wrapper distcc
wrapped distcc-again "distcc gcc" distcc none cached --cc-wrapper distcc
wrapped distcc-plain "distcc gcc" distcc none cached
wrapped distcc-cc "distcc gcc" distcc none cached --cc-wrapper distcc
rm -f "$(item)/.slubtiny-stamp"
CC="distcc gcc" wrapped cc-env "distcc gcc" distcc "distcc gcc"
wrapped cross "distcc x86_64-linux-gnu-gcc" distcc "distcc x86_64-linux-gnu-gcc" \
	--cc-wrapper distcc --cross-compile x86_64-linux-gnu-
CC=/usr/bin/gcc wrapped cc-path "ccache /usr/bin/gcc" ccache "ccache /usr/bin/gcc" \
	--cc-wrapper ccache
# distcc's masquerade: gcc first in PATH is a link to distcc (here a
# stand-in that runs gcc): no CC= for make, and the JSON names distcc.
mkdir -p "$t/masq"
printf '#!/bin/sh\nexec /usr/bin/gcc "$@"\n' >"$t/masq/distcc"
chmod +x "$t/masq/distcc"
ln -s distcc "$t/masq/gcc"
rm -f "$(item)/.slubtiny-stamp"
PATH=$t/masq:$PATH wrapped masquerade gcc distcc none
PATH=$t/masq:$PATH wrapped masquerade-opt gcc distcc none cached --cc-wrapper distcc
# Wrong wrappers: one line, exit 2.
for w in gcc icecc; do
	kernel "wrapper-$w" --defconfig tinyconfig --cc-wrapper $w
	case $w in
	gcc) want="slubtiny: kernel: --cc-wrapper is distcc or ccache, not 'gcc'" ;;
	icecc) want="slubtiny: kernel: --cc-wrapper icecc is not offered: run with CC='icecc gcc' or PATH=/usr/lib/icecc/bin:\$PATH (see doc/kernel.md)" ;;
	esac
	[ $st = 2 ] && [ "$(cat "$t/wrapper-$w.err")" = "$want" ] ||
		bad "--cc-wrapper $w: exit $st: $(cat "$t/wrapper-$w.err")"
done
CC="ccache gcc" kernel two-wrappers --defconfig tinyconfig --cc-wrapper distcc
[ $st = 2 ] && [ "$(cat "$t/two-wrappers.err")" = "slubtiny: kernel: CC='ccache gcc' already runs through a compiler wrapper other than distcc" ] ||
	bad "two wrappers: exit $st: $(cat "$t/two-wrappers.err")"
[ ! -s "$t/two-wrappers.out" ] || bad "two wrappers: output on stdout"

# A variant never built starts as a copy of the finished sibling's
# directory (doc/kernel.md): the sibling's [.]slubtiny-* files left out,
# its own .config and log in, the absolute paths of tools/ command files
# made its own with their mtimes kept; a directory built before
# (include/generated/bounds.h) goes on from its own state. This make
# records like kbuild's objtool build: an absolute path in a .cmd file.
mkdir -p "$t/seedbin"
cat >"$t/seedbin/make" <<'EOS'
for a; do case $a in O=*) o=${a#O=} ;; esac; done
for a; do case $a in
olddefconfig) ;;
*config) printf 'CONFIG_SLUB=y\n' >"$o/.config" ;;
*.o)	mkdir -p "$o/${a%/*}" "$o/tools/objtool" "$o/include/generated"
	touch "$o/include/generated/bounds.h"
	c=$o/tools/objtool/.check.o.cmd
	[ -e "$c" ] || { echo "cmd_$o/tools/objtool/check.o := gcc -o $o/tools/objtool/check.o" >"$c"
		touch -d @1000000000 "$c"; }
	grep SLUB "$o/.config" >"$o/$a" ;;
esac; done
exit 0
EOS
chmod +x "$t/seedbin/make"
sk=$t/seed
seedrun() { # name variant...
	name=$1
	shift
	args=
	for v; do args="$args --variant $v"; done
	# shellcheck disable=SC2086
	PATH=$t/seedbin:$PATH "$SLUBTINY" kernel --srctree "$tree" --arch x86_64 \
		--defconfig tinyconfig --builddir "$sk" $args >"$t/$name.out" 2>"$t/$name.err"
	st=$?
}
seedrun seed1 slub slub_tiny
d1=$(echo "$sk"/linux-source-6.12-*/x86_64/slub)
d2=$(echo "$sk"/linux-source-6.12-*/x86_64/slub_tiny)
[ $st = 0 ] || bad "seed: exit $st: $(tail -3 "$t/seed1.err")"
grep -q "/slub_tiny: build from slub's objects" "$t/seed1.err" || bad "seed: slub_tiny not seeded: $(cat "$t/seed1.err")"
grep -q "/slub: build from" "$t/seed1.err" && bad "seed: slub, the first, was seeded"
[ "$(cat "$d2/tools/objtool/.check.o.cmd")" = "cmd_$d2/tools/objtool/check.o := gcc -o $d2/tools/objtool/check.o" ] ||
	bad "seed: tools command file not rebased: $(cat "$d2/tools/objtool/.check.o.cmd")"
[ "$(stat -c %Y "$d1/tools/objtool/.check.o.cmd")" = "$(stat -c %Y "$d2/tools/objtool/.check.o.cmd")" ] ||
	bad "seed: the rebased command file's mtime changed"
grep -qx 'CONFIG_SLUB_TINY=y' "$d2/.config" && ! grep -qx 'CONFIG_SLUB_TINY=y' "$d1/.config" ||
	bad "seed: .config not the variant's own"
grep -q '^# resolved .*SLUB_TINY=y' "$d2/.slubtiny-stamp" && ! grep -q 'SLUB_TINY=y' "$d1/.slubtiny-stamp" ||
	bad "seed: stamps mixed up"
[ ! -e "$d2.seed" ] && [ ! -e "$d2.old" ] || bad "seed: temporary directories left"
seedrun seed2 slub slub_tiny
[ $st = 0 ] && [ "$(grep -c ': cached (' "$t/seed2.err")" = 2 ] || bad "seed: second run not cached: $(cat "$t/seed2.err")"
# built before: its own state, no copy
rm -f "$d2/.slubtiny-stamp"
touch "$d2/include/generated/bounds.h" "$d2/mine"
seedrun seed3 slub slub_tiny
[ $st = 0 ] && [ -e "$d2/mine" ] && ! grep -q "build from" "$t/seed3.err" ||
	bad "seed: a built directory was replaced: $(cat "$t/seed3.err")"

[ $fail = 0 ] && echo "kernel-cache: ok"
exit $fail
