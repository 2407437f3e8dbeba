#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The compiler `slubtiny kernel` gives make for each ARCH: the Debian cross
# compiler `build` and `report` find (it used to give none, so make ran the
# host's gcc and died on -mabi=aapcs-linux for arm), the user's
# CROSS_COMPILE when given, and one stderr line naming the choice. A fake
# `make` first in PATH keeps the CROSS_COMPILE= it was given in O/fake-cross
# (no compiler runs for the build; the tree is the Kconfig extraction of
# linux-source-6.12 the check tests share). The expected prefix is the one
# of the gcc the arch's Debian package installs (dpkg -L).
set -u
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../kernel-tree.sh"
for p in dpkg jq; do
	command -v $p >/dev/null || { echo "skip: $p missing"; exit 77; }
done
st_tmpdir t
kb=$t/kb
mkdir -p "$t/bin" "$t/cross"
# The fake objects: one small ELF file (the report reads them, whatever the arch).
echo 'int st_fake_object;' | cc -c -x c -o "$t/fake.o" - || { bad "cc cannot make an object"; exit 1; }
export ST_FAKE_OBJECT="$t/fake.o"
cat >"$t/bin/make" <<'EOS'
#!/bin/sh
for a; do case $a in O=*) o=${a#O=} ;; esac; done
: >"$o/fake-cross"
for a; do case $a in CROSS_COMPILE=*) echo "${a#CROSS_COMPILE=}" >"$o/fake-cross" ;; esac; done
for a; do case $a in
olddefconfig) ;;
*config) printf 'CONFIG_SLUB=y\n' >"$o/.config" ;;
*.o)	mkdir -p "$o/${a%/*}"; cp "$ST_FAKE_OBJECT" "$o/$a" ;;
vmlinux) cp "$ST_FAKE_OBJECT" "$o/vmlinux" ;;
esac; done
exit 0
EOS
chmod +x "$t/bin/make"

# kernel NAME ARCH ARGS...: one run, $st, $t/NAME.{out,err}, $cross (what make got).
kernel() {
	name=$1 arch=$2
	shift 2
	PATH=$t/bin:$PATH "$SLUBTINY" kernel --srctree "$tree" --arch "$arch" --variant slub \
		--defconfig tinyconfig --builddir "$kb" "$@" >"$t/$name.out" 2>"$t/$name.err"
	st=$?
	cross=$(cat "$kb"/linux-source-6.12-*/"$arch"/slub/fake-cross 2>/dev/null)
	rm -rf "$kb"/linux-source-6.12-*/"$arch"/slub
}
# Stderr holds the compiler line $2 and otherwise only progress lines.
stderr_is() { # name line
	grep -qxF "$2" "$t/$1.err" || bad "$1: no line '$2' on stderr: $(cat "$t/$1.err")"
	if grep -vxF "$2" "$t/$1.err" | grep -v '^slubtiny: kernel: \[[0-9]*/[0-9]*\] ' |
	   grep -q .; then
		bad "$1: unexpected stderr: $(cat "$t/$1.err")"
	fi
}

# The gcc prefix Debian's package installs for a make ARCH.
prefix_of() { # package
	dpkg -L "$1" 2>/dev/null | sed -n 's|^/usr/bin/\(.*-\)gcc$|\1|p' | head -1
}
n=0
for pair in arm:gcc-arm-linux-gnueabi arm64:gcc-aarch64-linux-gnu \
	    riscv:gcc-riscv64-linux-gnu sh:gcc-sh4-linux-gnu; do
	arch=${pair%%:*} pkg=${pair#*:}
	want=$(prefix_of "$pkg")
	[ -n "$want" ] || { echo "# $pkg not installed: $arch not tried"; continue; }
	n=$((n + 1))
	kernel "found-$arch" "$arch"
	[ $st = 0 ] || bad "$arch: exit $st: $(tail -3 "$t/found-$arch.err")"
	[ "$cross" = "$want" ] || bad "$arch: make got CROSS_COMPILE='$cross', $pkg is '$want'"
	stderr_is "found-$arch" "slubtiny: kernel: $arch: using ${want}gcc (CROSS_COMPILE=$want)"
	[ -s "$t/found-$arch.out" ] || bad "$arch: no report on stdout"
done
[ $n -gt 0 ] || { echo "skip: no cross compiler of .ci/deps installed"; exit 77; }

# The report says what it measured: which objects of which tree, the
# defconfig and the compiler (text, Markdown, JSON).
tree_name=linux-$(sed -n 's/^VERSION = //p' "$tree/Makefile").$(sed -n 's/^PATCHLEVEL = //p' "$tree/Makefile").$(sed -n 's/^SUBLEVEL = //p' "$tree/Makefile")
objs="mm/slab_common.o and the variant's allocator (mm/slub.o, mm/slab.o or mm/slob.o)"
measured="the slab objects of kernel tree $tree_name ($objs), defconfig tinyconfig, built by the tree's make"
arm=$(prefix_of gcc-arm-linux-gnueabi)
if [ -n "$arm" ]; then
	[ "$(sed -n 1p "$t/found-arm.out")" = "Measured: $measured" ] ||
		bad "report: line 1: $(sed -n 1p "$t/found-arm.out")"
	[ "$(sed -n 2p "$t/found-arm.out")" = "Compilers: arm ${arm}gcc" ] ||
		bad "report: line 2: $(sed -n 2p "$t/found-arm.out")"
	kernel md arm --markdown
	[ $st = 0 ] || bad "--markdown: exit $st: $(tail -3 "$t/md.err")"
	stderr_is md "slubtiny: kernel: arm: using ${arm}gcc (CROSS_COMPILE=$arm)"
	[ "$(sed -n 3p "$t/md.out")" = "- **Measured:** $measured" ] ||
		bad "--markdown: line 3: $(sed -n 3p "$t/md.out")"
	[ "$(sed -n 4p "$t/md.out")" = "- **Compilers:** arm ${arm}gcc" ] ||
		bad "--markdown: line 4: $(sed -n 4p "$t/md.out")"
	kernel json arm --json
	[ $st = 0 ] || bad "--json: exit $st: $(tail -3 "$t/json.err")"
	[ "$(jq -r '.measured | "\(.subject)|\(.defconfig)|\(.compilers.arm)|\(.objects)"' "$t/json.out")" = \
	  "kernel|tinyconfig|${arm}gcc|$objs" ] || bad "--json: measured $(jq -c .measured "$t/json.out")"
	[ "$(jq -r .measured.summary "$t/json.out")" = "$measured" ] ||
		bad "--json: summary $(jq -r .measured.summary "$t/json.out")"
	kernel vmlinux arm --json --vmlinux --defconfig allnoconfig
	[ $st = 0 ] || bad "--vmlinux: exit $st: $(tail -3 "$t/vmlinux.err")"
	[ "$(jq -r '.measured | "\(.defconfig)|\(.objects)"' "$t/vmlinux.out")" = "allnoconfig|vmlinux" ] ||
		bad "--vmlinux: measured $(jq -c .measured "$t/vmlinux.out")"
fi

# The user's CROSS_COMPILE wins, as an option and from the environment: a
# prefix of links to the arm compiler under another name.
if [ -n "$arm" ]; then
	for tool in /usr/bin/"$arm"*; do
		ln -s "$tool" "$t/cross/my-${tool#/usr/bin/"$arm"}"
	done
	kernel given arm --cross-compile "arm=$t/cross/my-"
	[ $st = 0 ] || bad "--cross-compile: exit $st: $(tail -3 "$t/given.err")"
	[ "$cross" = "$t/cross/my-" ] || bad "--cross-compile: make got CROSS_COMPILE='$cross'"
	stderr_is given "slubtiny: kernel: arm: using $t/cross/my-gcc (CROSS_COMPILE=$t/cross/my-, as given)"
	CROSS_COMPILE=$t/cross/my- kernel env arm
	[ $st = 0 ] || bad "\$CROSS_COMPILE: exit $st: $(tail -3 "$t/env.err")"
	[ "$cross" = "$t/cross/my-" ] || bad "\$CROSS_COMPILE: make got CROSS_COMPILE='$cross'"
	stderr_is env "slubtiny: kernel: arm: using $t/cross/my-gcc (CROSS_COMPILE=$t/cross/my-, as given)"
	# -q: no line
	kernel quiet arm -q
	[ $st = 0 ] && [ ! -s "$t/quiet.err" ] || bad "-q: exit $st, stderr: $(cat "$t/quiet.err")"
fi

# The host's own arch: no CROSS_COMPILE, the host's gcc.
case $(uname -m) in
x86_64) host=x86_64 ;;
aarch64) host=arm64 ;;
*) host= ;;
esac
if [ -n "$host" ]; then
	kernel host "$host"
	[ $st = 0 ] || bad "host: exit $st: $(tail -3 "$t/host.err")"
	[ -z "$cross" ] || bad "host: make got CROSS_COMPILE='$cross'"
	stderr_is host "slubtiny: kernel: $host: using gcc (the host's arch: no CROSS_COMPILE)"
fi

# An arch no finder knows and no CROSS_COMPILE: one error before any make.
kernel m68k m68k
[ $st = 2 ] || bad "m68k: exit $st, want 2"
[ "$(cat "$t/m68k.err")" = "slubtiny: kernel: ARCH=m68k: no cross compiler known for it; set CROSS_COMPILE" ] ||
	bad "m68k: stderr: $(cat "$t/m68k.err")"
[ ! -s "$t/m68k.out" ] || bad "m68k: output on stdout"
exit $fail
