#!/bin/sh
# slubtiny migrate: exit codes, bad input and safety (nothing lost), without
# Kconfig verification (see migrate-verify.sh for that).
set -u
. "$(dirname "$0")/../lib.sh"
st_tmpdir w
st_atexit 'chmod -R u+w "$w"'
cd "$w" || exit 1

run() { # expected-status description command...
	want=$1; shift; what=$1; shift
	"$@" >out 2>err; got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL: $what: exit $got, want $want"; cat err; fail=1
	fi
}
expect_err() { # regex description
	grep -q -- "$1" err || { echo "FAIL: $2: stderr lacks '$1'"; cat err; fail=1; }
}
same() { # file expected-content(printf format) description
	printf "$2" >expected
	cmp -s "$1" expected || { echo "FAIL: $3"; od -c "$1" | head -5; fail=1; }
}
m() { "$SLUBTINY" migrate --no-verify "$@"; }

# Options.
run 2 "no file" "$SLUBTINY" migrate
run 2 "unknown option" "$SLUBTINY" migrate --frobnicate x
run 2 "--in-place --check" m --in-place --check x
run 2 "bad --target" m --target banana x
expect_err "^slubtiny: migrate: invalid --target 'banana'" "bad target message"
run 2 "--fix-deps --no-verify" m --fix-deps x
run 2 "missing file" m does-not-exist_defconfig
expect_err "^slubtiny: migrate: does-not-exist_defconfig: " "missing file message"

# Clean file: exit 0, no output.
printf 'CONFIG_SLUB=y\nCONFIG_NET=y\n' >clean_defconfig
run 0 "clean file" m clean_defconfig
[ ! -s out ] || { echo "FAIL: output for a clean file"; fail=1; }
run 0 "clean file --check" m --check clean_defconfig

# A file to migrate: default prints a diff, writes nothing, exit 0.
printf 'CONFIG_A=y\nCONFIG_SLOB=y\n' >a_defconfig
chmod 640 a_defconfig
run 0 "diff only" m a_defconfig
grep -q '^+CONFIG_SLUB_TINY=y$' out || { echo "FAIL: no diff on stdout"; fail=1; }
same a_defconfig 'CONFIG_A=y\nCONFIG_SLOB=y\n' "default mode must not write"
run 1 "--check with a change" m --check a_defconfig
same a_defconfig 'CONFIG_A=y\nCONFIG_SLOB=y\n' "--check must not write"
run 0 "--in-place" m --in-place a_defconfig
same a_defconfig 'CONFIG_A=y\nCONFIG_SLUB_TINY=y\n' "--in-place result"
[ "$(stat -c %a a_defconfig)" = 640 ] || { echo "FAIL: mode not kept"; fail=1; }
[ "$(ls -A | grep -c '^\.a_defconfig')" = 0 ] || { echo "FAIL: temp file left"; fail=1; }
run 0 "--check after --in-place" m --check a_defconfig
# Nothing to migrate for 6.1: what the file has is pre-existing, not a failure.
run 0 "SLUB_TINY on a 6.1 target" m --check --target 6.1 a_defconfig
expect_err '^a_defconfig: note: 1 pre-existing finding' "pre-existing summed up"
run 0 "SLUB_TINY on a 6.1 target, --all" m --check --all --target 6.1 a_defconfig
expect_err '^a_defconfig:2:1: warning: CONFIG_SLUB_TINY: no such symbol in Linux 6.1.*\[unknown-symbol, pre-existing\]' "SLUB_TINY unknown to 6.1"

# CRLF and a missing final newline survive.
printf 'CONFIG_A=y\r\nCONFIG_SLOB=y\r\n# end' >crlf_defconfig
run 0 "CRLF" m --in-place crlf_defconfig
same crlf_defconfig 'CONFIG_A=y\r\nCONFIG_SLUB_TINY=y\r\n# end' "CRLF and no final newline kept"

# Binary garbage, NUL bytes, a 64 KiB+ line: FILE:LINE error, exit 2, untouched.
printf 'CONFIG_SLOB=y\n\001\002\003\n' >bin_defconfig
run 2 "binary" m --in-place bin_defconfig
expect_err '^bin_defconfig:2:1: error: control character' "binary message"
same bin_defconfig 'CONFIG_SLOB=y\n\001\002\003\n' "binary file untouched"
printf 'CONFIG_SLOB=y\nCONFIG_X="a\000b"\n' >nul_defconfig
run 2 "NUL" m --in-place nul_defconfig
expect_err '^slubtiny: migrate: nul_defconfig: not a defconfig (binary data on line 2); left unchanged$' "NUL message"
{ printf 'CONFIG_SLOB=y\n# '; head -c 70000 /dev/zero | tr '\0' x; printf '\n'; } >long_defconfig
cp long_defconfig long.orig
run 2 "long line" m --in-place long_defconfig
expect_err '^long_defconfig:2:1: error: line longer than 65536' "long line message"
cmp -s long_defconfig long.orig || { echo "FAIL: long line file changed"; fail=1; }

# Bad lines are warnings (FILE:LINE), kept verbatim; the rest is migrated.
printf 'CONFIG_SLOB=y\nCONFIG_A-B=y\nCONFIG_C=\nfoo bar\nCONFIG_D=y\nCONFIG_D=n\n' >warn_defconfig
# The input's own warnings are pre-existing: the file is written, exit 0.
run 0 "warnings" m --in-place --all warn_defconfig
expect_err '^warn_defconfig:2:1: warning: invalid symbol name' "invalid symbol"
expect_err "^warn_defconfig:3:1: warning: CONFIG_C: '=' without value" "= without value"
expect_err '^warn_defconfig:4:1: warning: unexpected line' "garbage line"
expect_err '^warn_defconfig:6:1: warning: CONFIG_D assigned again with another value.*\[conflicting-assignment, pre-existing\]' "conflict"
same warn_defconfig 'CONFIG_SLUB_TINY=y\nCONFIG_A-B=y\nCONFIG_C=\nfoo bar\nCONFIG_D=y\nCONFIG_D=n\n' "warnings: lines kept"

# Removed slab symbols are reported for the target.
printf '# CONFIG_SLAB is not set\n' >old_defconfig
run 0 "removed symbol" m --all --target 6.12 old_defconfig
expect_err '^old_defconfig:1:1: warning: CONFIG_SLAB: no such symbol in Linux 6.12' "unknown symbol"

# Directories: every *_defconfig, defconfig and *.config below, nothing else.
mkdir -p tree/arch/sh/configs tree/kernel/configs tree/other
printf 'CONFIG_SLOB=y\n' >tree/arch/sh/configs/x_defconfig
printf 'CONFIG_SLOB=y\n' >tree/kernel/configs/tiny.config
printf 'CONFIG_SLOB=y\n' >tree/other/README
printf 'CONFIG_SLOB=y\n' >tree/arch/sh/configs/defconfig
run 0 "directory" m --in-place tree
grep -q SLOB tree/arch/sh/configs/x_defconfig tree/arch/sh/configs/defconfig tree/kernel/configs/tiny.config &&
	{ echo "FAIL: directory files not migrated"; fail=1; }
grep -q SLOB tree/other/README || { echo "FAIL: README touched"; fail=1; }

# The default target is the tree's version (Makefile), else the newest known.
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' >tree/Makefile
printf 'CONFIG_SLOB=y\n' >tree/arch/sh/configs/x_defconfig
run 0 "target from the tree (6.1: SLOB still fine)" m --check --srctree tree tree/arch/sh/configs/x_defconfig
run 1 "no tree: newest target" m --check tree/arch/sh/configs/x_defconfig
# Paths are printed as given (editors and CI jump to them); --target and
# the tree's version differ: a warning says so.
run 0 "paths as given" m --srctree tree --target 6.2 tree/arch/sh/configs/x_defconfig
grep -q '^diff --git a/tree/arch/sh/configs/x_defconfig b/tree/arch/sh/configs/x_defconfig$' out ||
	{ echo "FAIL: diff path not as given"; cat out; fail=1; }
expect_err '^slubtiny: migrate: warning: target kernel 6.2 but tree is linux 6.1' "target and tree differ"
mkdir notree
run 2 "--srctree without Makefile" m --srctree notree a_defconfig
expect_err '^slubtiny: migrate: notree/Makefile: cannot read the kernel Makefile' "no Makefile message"

# Unwritable: the file stays as it was, exit 2, no temp file.
printf 'CONFIG_SLOB=y\n' >ro/x_defconfig 2>/dev/null || { mkdir ro; printf 'CONFIG_SLOB=y\n' >ro/x_defconfig; }
chmod 555 ro
as_user=
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null && as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
	chmod 755 "$w"
fi
if [ "$(id -u)" != 0 ] || [ -n "$as_user" ]; then
	run 2 "read-only directory" $as_user "$SLUBTINY" migrate --no-verify --in-place ro/x_defconfig
	expect_err '^slubtiny: migrate: ro/x_defconfig: ' "read-only message"
	same ro/x_defconfig 'CONFIG_SLOB=y\n' "read-only dir: file intact"
	[ "$(ls -A ro | wc -l)" = 1 ] || { echo "FAIL: temp file left in ro/"; fail=1; }
else
	echo "skip part: root without setpriv"
fi

# A full stdout is an error.
if [ -w /dev/full ]; then
	m a_defconfig crlf_defconfig tree >/dev/full 2>/dev/null
	printf 'CONFIG_SLOB=y\n' >full_defconfig
	m full_defconfig >/dev/full 2>/dev/null; [ $? = 2 ] || { echo "FAIL: /dev/full not reported"; fail=1; }
fi
exit $fail
