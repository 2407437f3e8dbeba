#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The build cache of build/report (and report) as the kernel cache has it:
# made 0700; an existing one that is group/world writable, someone else's
# or a symlink is not used (a note, and a fresh 0700 mkdtemp directory
# under $TMPDIR for the run); temporary files never go through a name
# planted in advance. Before: the cache was made 0755, a 0777 or symlinked
# one was used in silence, and symlinks planted at <file>.tmp.<pid>
# made the run overwrite their targets (the toolchain cache, the stamps,
# the objects).
set -u
. "$(dirname "$0")/lib.sh"
command -v cc >/dev/null || skip "no cc"
st_tmpdir t
mkdir -p "$t/tmp"
arch=$(host_arch)
# build NAME XDG ARGS...: one variant for the host, $st, $t/NAME.{out,err}
build() {
	name=$1 xdg=$2
	shift 2
	env -u SLUBTINY_BUILDDIR XDG_CACHE_HOME="$xdg" TMPDIR="$t/tmp" "$SLUBTINY" build \
		--variant slub --arch "$arch" -j2 "$@" >"$t/$name.out" 2>"$t/$name.err"
	st=$?
	[ $st = 0 ] || bad "$name: exit $st: $(tail -3 "$t/$name.err")"
}
mode() { stat -c %a "$1"; }
notes() { grep -v ': \[[0-9]*/[0-9]*\] ' "$1"; }

# A new cache: 0700, no note.
build fresh "$t/x1"
[ "$(mode "$t/x1/slubtiny")" = 700 ] || bad "new cache: mode $(mode "$t/x1/slubtiny"), want 700"
[ -f "$t/x1/slubtiny/$arch/slub.o" ] || bad "new cache: no $arch/slub.o in it"
[ -z "$(notes "$t/fresh.err")" ] || bad "new cache: stderr: $(notes "$t/fresh.err")"

# refused NAME CACHE: not used, one note naming it, the run in a new 0700
# directory under $TMPDIR.
refused() {
	ls -A "$2" >"$t/$1.before" 2>/dev/null
	build "$1" "${2%/slubtiny}"
	n=$(notes "$t/$1.err")
	case $n in
	"slubtiny: build: $2: cache directory is not private (want a directory of owner $(id -u), mode 0700): using $t/tmp/slubtiny-"??????" for this run")
		d=${n##*using }
		d=${d% for this run}
		[ "$(mode "$d")" = 700 ] || bad "$1: $d is mode $(mode "$d")"
		[ -f "$d/$arch/slub.o" ] || bad "$1: no $arch/slub.o in $d" ;;
	*) bad "$1: stderr: $n" ;;
	esac
	ls -A "$2" >"$t/$1.after" 2>/dev/null
	cmp -s "$t/$1.before" "$t/$1.after" || bad "$1: $2 was written: $(cat "$t/$1.after")"
}
mkdir -p "$t/x2/slubtiny"
chmod 777 "$t/x2/slubtiny"
refused world-writable "$t/x2/slubtiny"
[ "$(mode "$t/x2/slubtiny")" = 777 ] || bad "world-writable: mode changed"
mkdir -p "$t/x3" "$t/elsewhere"
chmod 700 "$t/elsewhere"
ln -s ../elsewhere "$t/x3/slubtiny"
refused symlink "$t/x3/slubtiny"
[ -z "$(ls -A "$t/elsewhere")" ] || bad "symlink: its target was written: $(ls -A "$t/elsewhere")"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	mkdir -p "$t/x4/slubtiny"
	chmod 700 "$t/x4/slubtiny"
	chown nobody "$t/x4/slubtiny"
	refused foreign "$t/x4/slubtiny"
else
	echo "note: not root: the cache of another owner is not tried"
fi

# Symlinks planted at every <file>.tmp.<pid> of a build dir others can
# write (the names the fresh build made, the pid the one the shell execs
# into): no target is written, the build is whole.
bd=$t/shared
mkdir -p "$bd"
chmod 777 "$bd"
(cd "$t/x1/slubtiny" && find . -type f | sed 's|^\./||') >"$t/names"
[ -s "$t/names" ] || bad "no files in the first build"
XDG_CACHE_HOME=$t/x1 TMPDIR=$t/tmp bd=$bd t=$t arch=$arch SLUBTINY=$SLUBTINY sh -c '
	n=0
	while read -r f; do
		n=$((n + 1))
		mkdir -p "$(dirname "$bd/$f")"
		echo victim >"$t/victim.$n"
		ln -s "$t/victim.$n" "$bd/$f.tmp.$$"
	done <"$t/names"
	exec "$SLUBTINY" build --variant slub --arch "$arch" -j2 --builddir "$bd"' \
	>"$t/planted.out" 2>"$t/planted.err"
st=$?
[ $st = 0 ] || bad "planted symlinks: exit $st: $(tail -3 "$t/planted.err")"
hit=0
total=0
for v in "$t"/victim.*; do
	total=$((total + 1))
	[ "$(cat "$v")" = victim ] || hit=$((hit + 1))
done
[ $hit = 0 ] || bad "planted symlinks: $hit of $total targets overwritten"
[ -f "$bd/$arch/slub.o" ] && [ ! -L "$bd/$arch/slub.o" ] || bad "planted symlinks: no $arch/slub.o"
[ -z "$(find "$bd" -name '.tmp.*' -type d)" ] || bad "planted symlinks: a temporary directory left"
exit $fail
