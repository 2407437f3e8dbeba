# SPDX-License-Identifier: GPL-2.0-only
# Shared by the kconfig differential scripts (sourced, POSIX sh).
#
# The reference is the kernel's own conf, run as `make O=OBJ ARCH=A
# NAME_defconfig` on the part of a Debian linux-source tarball that Kconfig
# needs, extracted at test time into a scratch directory (never committed,
# never a tree outside the scratch directory).

# st_tarball VERSION: print the path of linux-source-VERSION.tar.xz: the
# installed package's (/usr/src), or for a kernel after 6.12, which Debian
# 12 does not package, the one tests/fetch-linux-source.sh fetched into
# build-cache/ (fetched on the first call). Returns 77 when there is none.
st_tarball() {
	if [ -r "/usr/src/linux-source-$1.tar.xz" ]; then
		echo "/usr/src/linux-source-$1.tar.xz"
		return 0
	fi
	case $1 in
	[0-5].* | 6.[0-9] | 6.1[0-2]) return 77 ;;
	esac
	sh "${ST_SRCDIR:?}/tests/fetch-linux-source.sh" "$1"
}

# st_tree VERSION WORKDIR: print the path of the extracted tree; extract the
# Kconfig-relevant subset of linux-source-VERSION.tar.xz (st_tarball) once
# (tests running at the same time wait for each other).
st_tree() {
	command -v xz >/dev/null && command -v make >/dev/null &&
		command -v flex >/dev/null && command -v bison >/dev/null &&
		command -v flock >/dev/null || return 77
	_tb=$(st_tarball "$1") || return $?
	_dst=$2/linux-source-$1
	mkdir -p "$2" || return 1
	(
		flock 9 || exit 1
		st_tree_locked "$@"
	) 9>"$2/.lock-tree-$1" || return 1
	echo "$_dst"
}

# st_shared_tree VERSION: st_tree in $ST_SRCDIR/build-cache/trees, keyed by
# the tarball's content: one extraction for the plain and the sanitizer
# build directories (which run one after the other).
st_shared_tree() {
	_stb=$(st_tarball "$1") || return $?
	st_tree "$1" "${ST_SRCDIR:-${ST_BUILDDIR:-/tmp}}/build-cache/trees/$(sha256sum \
		<"$_stb" | cut -c1-16)"
}

st_tree_locked() {
	if [ ! -f "$_dst/.st-extracted" ]; then
		rm -rf "$_dst" "$2/ref-$1" || return 1
		xz -T1 -dc "$_tb" | tar -x -C "$2" --wildcards \
			'*Kconfig*' '*Makefile*' '*Kbuild*' '*.config' \
			"linux-source-$1/scripts/*" \
			"linux-source-$1/arch/*/configs/*" \
			"linux-source-$1/arch/*/tools/*" \
			2>/dev/null
		# (tar complains about members of the list that a version lacks)
		[ -f "$_dst/Kconfig" ] && [ -f "$_dst/scripts/kconfig/conf.c" ] ||
			return 1
		: >"$_dst/.st-extracted"
	fi
}

# st_tree_key VERSION: what every conf result on that tree depends on: the
# tarball's content and the host tools its Makefiles run and probe.
st_tree_key() {
	_ktb=$(st_tarball "$1") || return $?
	{
		sha256sum <"$_ktb"
		gcc --version 2>&1 | head -1
		make --version 2>&1 | head -1
	} | sha256sum | cut -c1-32
}

# st_ref_cached TREE ARCH REL TARGET OBJDIR OUT TREEKEY: st_ref, through a
# cache that the plain and the sanitizer build directories share:
# $ST_SRCDIR/build-cache/conf-ref/HASH.config, HASH over TREEKEY, the arch,
# the make target and the file's bytes; written atomically. conf's output
# only, never the output of the tool under test.
st_ref_cached() {
	_key=$( { echo "$7 $2 $4"; cat "$1/$3"; } | sha256sum | cut -c1-40)
	_cache=${ST_SRCDIR:-${ST_BUILDDIR:-/tmp}}/build-cache/conf-ref/$_key.config
	if [ ! -s "$_cache" ]; then
		mkdir -p "$(dirname "$_cache")" || return 1
		st_ref "$1" "$2" "$4" "$5" "$_cache.tmp.$$" &&
			mv "$_cache.tmp.$$" "$_cache" ||
			{ rm -f "$_cache.tmp.$$"; return 1; }
	fi
	cp "$_cache" "$6"
}

# st_make ARGS...: make, with the compiler conf's Kconfig probes run
# through memo-cc (ST_MEMO_CC, tests/meson.build): its answers kept in
# $ST_SRCDIR/build-cache/cc-memo/, one directory per toolchain (gcc, as and
# ld's versions); ST_MEMO=0 runs the compiler itself (the kconfig-memo test
# compares the two).
st_make() {
	if [ -z "${ST_MEMO_CC:-}" ] || [ ! -x "$ST_MEMO_CC" ] || [ "${ST_MEMO:-1}" = 0 ]; then
		make "$@"
		return
	fi
	if [ -z "${ST_MEMO_DIR:-}" ]; then
		_mid=$( { gcc --version; as --version; ld --version; } 2>&1 | sha256sum | cut -c1-16)
		ST_MEMO_DIR=${ST_SRCDIR:-${ST_BUILDDIR:-/tmp}}/build-cache/cc-memo/$_mid
		mkdir -p "$ST_MEMO_DIR" || return 1
		[ -s "$ST_MEMO_DIR/.id" ] ||
			{ { gcc --version; as --version; ld --version; } >"$ST_MEMO_DIR/.id.$$" 2>&1 &&
			  mv "$ST_MEMO_DIR/.id.$$" "$ST_MEMO_DIR/.id"; } || return 1
		export ST_MEMO_DIR
	fi
	ST_MEMO_REAL=gcc make CC="$ST_MEMO_CC" "$@"
}

# st_ref TREE ARCH TARGET OBJDIR OUT: run conf for one make target
# (NAME_defconfig or tinyconfig) and copy the resulting .config to OUT.
st_ref() {
	mkdir -p "$4" || return 1
	# A file named just "defconfig" has no make target of its own
	# (`make defconfig` means the arch's KBUILD_DEFCONFIG).
	if [ "$(basename "$3")" = defconfig ] ||
	   ! st_make -s -C "$1" O="$4" ARCH="$2" "$3" >"$4/make.log" 2>&1; then
		# An arch Makefile may own the target (mips generic_defconfig is
		# only a base for generated targets): run the plain conf rule on
		# a copy under another name, in our scratch tree.
		case $3 in
		*_defconfig | defconfig) ;;
		*) st_ref_failed "$@"; return 1 ;;
		esac
		_d=$(dirname "$3") _b=$(basename "$3")
		[ "$_b" = defconfig ] && _b=plain_defconfig
		_c=arch/$2/configs/$_d/st_ref_$_b
		[ "$_d" = . ] && _c=arch/$2/configs/st_ref_$_b
		[ -d "$1/arch/$2" ] || { st_ref_failed "$@"; return 1; }
		cp "$1/arch/$2/configs/$3" "$1/$_c" || return 1
		: >"$4/make.log"
		st_make -s -C "$1" O="$4" ARCH="$2" "${_c#arch/$2/configs/}" >"$4/make.log" 2>&1
		_rc=$?
		rm -f "$1/$_c"
		[ $_rc = 0 ] || { st_ref_failed "$@"; return 1; }
	fi
	cp "$4/.config" "$5"
}

st_ref_failed() {
	echo "conf-ref: make ARCH=$2 $3 failed:" >&2
	tail -5 "$4/make.log" >&2
}

# st_defconfigs TREE: every arch/*/configs/**/*_defconfig (and plain
# defconfig) as "ARCH REL
# TARGET" lines (REL relative to TREE, TARGET the make target).
st_defconfigs() {
	(cd "$1" && find arch/*/configs \( -name '*_defconfig' -o -name defconfig \) \
		-type f | LC_ALL=C sort) |
	while read -r rel; do
		a=${rel#arch/}; a=${a%%/*}
		t=${rel#arch/$a/configs/}
		echo "$a $rel $t"
	done
}

# st_conf_cached TREE ARCH REL FILE SCRATCH: conf's .config for FILE taken as
# the defconfig REL of ARCH (kernel/configs/tiny.config: make tinyconfig)
# in TREE; prints the path of the cached result. Cached under
# $ST_SRCDIR/build-cache/conf-boards/ by a hash of the tree's version, the
# arch, REL and the file's bytes, shared by every build directory (plain and
# sanitizer runs). SCRATCH is a directory the caller owns (a hard-linked
# copy of TREE is made in it, so that TREE is never written).
st_conf_cached() {
	_cache=${ST_SRCDIR:?}/build-cache/conf-boards
	_v=$(sed -n 's/^\(VERSION\|PATCHLEVEL\) = //p' "$1/Makefile" | tr '\n' .)
	_key=$( (echo "$_v $2 $3"; cat "$4") | sha256sum | cut -c1-32)
	if [ ! -s "$_cache/$_key.config" ]; then
		mkdir -p "$_cache" "$5" || return 1
		[ -d "$5/tree" ] || cp -al "$1" "$5/tree" || return 1
		if [ "$3" = kernel/configs/tiny.config ]; then
			rm -f "$5/tree/$3" && cp "$4" "$5/tree/$3" || return 1
			st_ref "$5/tree" "$2" tinyconfig "$5/obj" "$_cache/$_key.tmp$$" || return 1
		else
			cp "$4" "$5/tree/arch/$2/configs/st_c_${_key}_defconfig" || return 1
			st_ref "$5/tree" "$2" "st_c_${_key}_defconfig" "$5/obj" \
				"$_cache/$_key.tmp$$" || return 1
			rm -f "$5/tree/arch/$2/configs/st_c_${_key}_defconfig"
		fi
		mv "$_cache/$_key.tmp$$" "$_cache/$_key.config" || return 1
	fi
	echo "$_cache/$_key.config"
}

# st_save_cached TREE ARCH CONFIG SCRATCH: conf's savedefconfig of the
# .config CONFIG (a path st_conf_cached printed); prints the cached path.
st_save_cached() {
	_save=${3%.config}.save
	if [ ! -s "$_save" ]; then
		mkdir -p "$4/sobj" || return 1
		[ -d "$4/tree" ] || cp -al "$1" "$4/tree" || return 1
		cp "$3" "$4/sobj/.config" &&
			st_make -s -C "$4/tree" O="$4/sobj" ARCH="$2" savedefconfig \
				>"$4/sobj/make.log" 2>&1 &&
			cp "$4/sobj/defconfig" "$_save.tmp$$" && mv "$_save.tmp$$" "$_save" ||
			{ st_ref_failed "$1" "$2" savedefconfig "$4/sobj"; return 1; }
	fi
	echo "$_save"
}

# st_without_found_lines DIR: print the path of a wrapper of $SLUBTINY made
# in DIR that leaves out of stderr the closing "checked N kernel configs,
# ARCH=..." lines (tests of other output; check-distros and
# check-arch-symbols test those), with the tool's exit status kept.
st_without_found_lines() {
	cat >"$1/st" <<EOF || return 1
#!/bin/sh
"$SLUBTINY" "\$@" 2>"$1/st.err"
rc=\$?
grep -v '^slubtiny: [a-z]*: \\(checked [0-9]\\|ARCH=\\)' "$1/st.err" >&2
exit \$rc
EOF
	chmod +x "$1/st" && echo "$1/st"
}
