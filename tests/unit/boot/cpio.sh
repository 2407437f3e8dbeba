#!/bin/sh
# st_cpio_build() against the kernel's own usr/gen_init_cpio (Linux 6.12,
# from Debian's linux-source tarball): the same list, -t 0, the same bytes.
# Lists: the initramfs footprint --boot packs, and entries whose names and
# data sizes take every padding, hard links included.
set -u
tarball=/usr/src/linux-source-6.12.tar.xz
[ -r "$tarball" ] || { echo "SKIP: $tarball missing"; exit 77; }
for p in cc tar xz cmp; do
	command -v $p >/dev/null || { echo "SKIP: $p not installed"; exit 77; }
done
work=$ST_BUILDDIR/tests-kernel/cpio
rm -rf "$work"
mkdir -p "$work"
src=$ST_SRCDIR/build-cache/kernel-src/linux-source-6.12/usr/gen_init_cpio.c
if [ ! -r "$src" ]; then
	nice tar -C "$work" -xJf "$tarball" linux-source-6.12/usr/gen_init_cpio.c || exit 1
	src=$work/linux-source-6.12/usr/gen_init_cpio.c
fi
cc -O2 -o "$work/gen_init_cpio" "$src" || { echo "FAIL: cannot build gen_init_cpio"; exit 1; }
fail=0
printf '\177ELF fake init\n' >"$work/init"
: >"$work/empty"
printf 'a' >"$work/one"
printf 'abcdefg' >"$work/seven"
head -c 5000 /dev/urandom >"$work/big"
cat >"$work/boot.list" <<L
dir /dev 755 0 0
nod /dev/console 600 0 0 c 5 1
dir /proc 755 0 0
file /init $work/init 755 0 0
L
cat >"$work/pad.list" <<L
dir a 700 0 0
dir ab 755 0 0
dir abc 755 0 0
dir abcd 755 0 0
nod ab/null 666 0 0 c 1 3
nod ab/sda 660 0 0 b 8 0
file a/e $work/empty 644 0 0
file ab/one $work/one 600 0 0
file abc/seven $work/seven 755 0 0
file abcd/big $work/big 644 0 0
file x $work/seven 644 0 0
file bin/busybox $work/big 755 0 0 bin/ash /sbin/init usr/bin/awk
file hl $work/empty 600 0 0 hl2
slink bin/sh /bin/busybox 777 0 0
slink abcd/l ab 777 0 0
slink abc/ll abc/seven 777 0 0
L
for l in boot pad; do
	"$work/gen_init_cpio" -t 0 "$work/$l.list" >"$work/$l.ref" 2>"$work/$l.ref.err" ||
		{ echo "FAIL: gen_init_cpio $l"; cat "$work/$l.ref.err"; fail=1; continue; }
	"$CPIO_TOOL" "$work/$l.list" >"$work/$l.out" 2>"$work/$l.err"
	st=$?
	[ $st = 0 ] || { echo "FAIL: cpio-tool $l: exit $st"; fail=1; }
	[ ! -s "$work/$l.err" ] || { echo "FAIL: cpio-tool $l: stderr"; cat "$work/$l.err"; fail=1; }
	cmp "$work/$l.ref" "$work/$l.out" || { echo "FAIL: $l: differs from gen_init_cpio"; fail=1; }
done
exit $fail
