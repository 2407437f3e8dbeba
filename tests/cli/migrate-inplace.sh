#!/bin/sh
# migrate --in-place and check --fix under faults: an edit made while the
# tool works is not overwritten, hard links and anything but a regular file
# are refused, every signal that kills leaves no temp file, and a write past
# `ulimit -f` is an error naming the file. The window before
# the rename is held open with the test-only ST_TEST_STOP_BEFORE_RENAME hook
# (the writer stops itself there; see doc/testing.md).
set -u
. "$(dirname "$0")/../lib.sh"
st_tmpdir w
pid=
st_atexit '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null'
cd "$w" || exit 1

check_run() { # got want description
	[ "$1" = "$2" ] || { echo "FAIL: $3: exit $1, want $2"; cat err; fail=1; }
}
expect_err() { # regex description
	grep -q -- "$1" err || { echo "FAIL: $2: stderr lacks '$1'"; cat err; fail=1; }
}
same() { # file expected-content(printf format) description
	printf "$2" >expected
	cmp -s "$1" expected || { echo "FAIL: $3:"; cat "$1"; fail=1; }
}
no_temp() { # description
	! ls -A | grep -q '^\.[a-z_]*defconfig\.' ||
		{ echo "FAIL: $1: temp file left:"; ls -A; fail=1; }
}
# Wait until $pid has stopped itself at the hook (state T); 1 if it ended.
stopped() {
	i=0
	while [ $i -lt 600 ]; do
		s=$(sed 's/.*) //' /proc/$pid/stat 2>/dev/null | cut -c1)
		[ "$s" = T ] && return 0
		[ -z "$s" ] || [ "$s" = Z ] && return 1
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}
m() { "$SLUBTINY" migrate --no-verify "$@"; }
orig='CONFIG_A=y\nCONFIG_SLOB=y\n'

# 1. Lost update: an edit between the first check and the rename.
printf "$orig" >a_defconfig
ST_TEST_STOP_BEFORE_RENAME=1 "$SLUBTINY" migrate --no-verify --in-place a_defconfig \
	>out 2>err &
pid=$!
stopped || { echo "FAIL: migrate did not stop before the rename"; fail=1; }
printf 'CONFIG_MINE=y\n' >>a_defconfig
kill -CONT $pid
wait $pid
check_run $? 2 "edit before the rename"
pid=
expect_err '^slubtiny: migrate: a_defconfig: changed while slubtiny was working$' \
	"edit before the rename message"
same a_defconfig "${orig}CONFIG_MINE=y\n" "the other edit must be kept"
no_temp "edit before the rename"

# The same size and mtime, other content: only the bytes tell.
printf "$orig" >a_defconfig
ST_TEST_STOP_BEFORE_RENAME=1 "$SLUBTINY" migrate --no-verify --in-place a_defconfig \
	>out 2>err &
pid=$!
stopped || { echo "FAIL: migrate did not stop (same size)"; fail=1; }
touch -r a_defconfig ref
printf 'CONFIG_B=y\nCONFIG_SLOB=y\n' | dd of=a_defconfig conv=notrunc status=none
touch -r ref a_defconfig
kill -CONT $pid
wait $pid
check_run $? 2 "same-size edit before the rename"
pid=
expect_err 'a_defconfig: changed while slubtiny was working$' "same-size edit message"
same a_defconfig 'CONFIG_B=y\nCONFIG_SLOB=y\n' "the same-size edit must be kept"
no_temp "same-size edit"

# The file replaced by another editor's rename.
printf "$orig" >a_defconfig
ST_TEST_STOP_BEFORE_RENAME=1 "$SLUBTINY" migrate --no-verify --in-place a_defconfig \
	>out 2>err &
pid=$!
stopped || { echo "FAIL: migrate did not stop (rename)"; fail=1; }
printf 'CONFIG_EDITOR=y\n' >new && mv new a_defconfig
kill -CONT $pid
wait $pid
check_run $? 2 "replaced before the rename"
pid=
same a_defconfig 'CONFIG_EDITOR=y\n' "the editor's file must be kept"
no_temp "replaced before the rename"

# check --fix goes through the same writer.
mkdir -p arch/sh/configs
printf '# CONFIG_SWAP is not set\nCONFIG_SLOB=y\n' >arch/sh/configs/f_defconfig
ST_TEST_STOP_BEFORE_RENAME=1 "$SLUBTINY" check --no-config --fix \
	arch/sh/configs/f_defconfig >out 2>err &
pid=$!
stopped || { echo "FAIL: check --fix did not stop before the rename"; fail=1; }
printf 'CONFIG_MINE=y\n' >>arch/sh/configs/f_defconfig
kill -CONT $pid
wait $pid
check_run $? 2 "check --fix: edit before the rename"
pid=
expect_err 'arch/sh/configs/f_defconfig: changed while slubtiny was working$' \
	"check --fix message"
same arch/sh/configs/f_defconfig '# CONFIG_SWAP is not set\nCONFIG_SLOB=y\nCONFIG_MINE=y\n' \
	"check --fix: the other edit must be kept"
[ -z "$(ls -A arch/sh/configs | grep -v '^f_defconfig$')" ] ||
	{ echo "FAIL: check --fix: temp file left"; fail=1; }

# Nothing in the way: the hook only pauses.
printf "$orig" >a_defconfig
ST_TEST_STOP_BEFORE_RENAME=1 "$SLUBTINY" migrate --no-verify --in-place a_defconfig \
	>out 2>err &
pid=$!
stopped || { echo "FAIL: migrate did not stop (clean)"; fail=1; }
kill -CONT $pid
wait $pid
check_run $? 0 "no edit before the rename"
pid=
same a_defconfig 'CONFIG_A=y\nCONFIG_SLUB_TINY=y\n' "migrated"
no_temp "no edit"

# Another writer holding an fcntl lock (a second slubtiny): refused at once.
printf "$orig" >a_defconfig
"${ST_PYTHON:-python3}" -c 'import fcntl, sys, time
f = open(sys.argv[1], "r+")
fcntl.lockf(f, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(60)' a_defconfig >locked &
pid=$!
i=0
until grep -qs locked locked || [ $i -gt 200 ]; do sleep 0.05; i=$((i + 1)); done
m --in-place a_defconfig >out 2>err
check_run $? 2 "locked by another writer"
kill $pid
wait $pid 2>/dev/null
pid=
expect_err '^slubtiny: migrate: a_defconfig: cannot lock: another process is writing it$' \
	"locked message"
same a_defconfig "$orig" "locked: file untouched"
no_temp "locked"

# 2. Signals while the temp file exists: it goes, the file stays as it was.
# Every signal whose default action kills (SIGQUIT and SIGALRM... used to
# leave the temp file); no core file for SIGQUIT.
ulimit -c 0 2>/dev/null
for sig in INT:2 TERM:15 HUP:1 QUIT:3 USR1:10 USR2:12 PIPE:13 ALRM:14 VTALRM:26 RTMIN:34; do
	nr=${sig#*:}
	sig=${sig%:*}
	printf "$orig" >a_defconfig
	ST_TEST_STOP_BEFORE_RENAME=1 env --default-signal=$sig \
		"$SLUBTINY" migrate --no-verify --in-place a_defconfig >out 2>err &
	pid=$!
	stopped || { echo "FAIL: SIG$sig: migrate did not stop"; fail=1; }
	ls -A | grep -q '^\.a_defconfig\.' ||
		{ echo "FAIL: SIG$sig: no temp file while stopped"; fail=1; }
	kill -$nr $pid
	kill -CONT $pid
	wait $pid
	st=$?
	pid=
	[ $st = $((128 + nr)) ] ||
		{ echo "FAIL: SIG$sig: exit $st, want death by the signal"; fail=1; }
	same a_defconfig "$orig" "SIG$sig: the file must be untouched"
	no_temp "SIG$sig"
done

# 2b. A file size limit: SIGXFSZ used to kill the writer without a word
# and leave the temp file. Now write() fails: one error naming the file
# (beside the finding's note), exit 2, the file as it was, no temp file.
awk 'BEGIN { print "CONFIG_SLOB=y"; for (i = 0; i < 4000; i++) print "CONFIG_FILLER_" i "=y" }' \
	>a_defconfig
cp a_defconfig big.orig
(ulimit -f 40 && exec env --default-signal=XFSZ "$SLUBTINY" migrate --no-verify \
	--in-place a_defconfig) >out 2>err
check_run $? 2 "ulimit -f"
[ "$(grep -c '^slubtiny:' err)" = 1 ] || { echo "FAIL: ulimit -f: want one error:"; cat err; fail=1; }
expect_err '^slubtiny: migrate: a_defconfig: write error: File too large$' "ulimit -f message"
cmp -s a_defconfig big.orig || { echo "FAIL: ulimit -f: the file changed"; fail=1; }
no_temp "ulimit -f"
rm big.orig

# 3. Hard links: refused, every name keeps the same text.
printf "$orig" >a_defconfig
ln a_defconfig b_defconfig
m --in-place a_defconfig >out 2>err
check_run $? 2 "hard link"
expect_err '^slubtiny: migrate: a_defconfig: has 2 hard links: not writing' "hard link message"
same a_defconfig "$orig" "hard link: file untouched"
same b_defconfig "$orig" "hard link: other name untouched"
no_temp "hard link"
rm b_defconfig

# 4. Only regular files. /dev/stdin names standard input, not the file the
# shell opened for it.
m --in-place /dev/stdin <a_defconfig >out 2>err
check_run $? 2 "/dev/stdin"
expect_err '^slubtiny: migrate: /dev/stdin: names an open file descriptor' "/dev/stdin message"
same a_defconfig "$orig" "/dev/stdin: the redirected file untouched"
m --in-place /dev/fd/3 3<a_defconfig >out 2>err
check_run $? 2 "/dev/fd/3"
same a_defconfig "$orig" "/dev/fd/3: the file untouched"
ln -s /dev/null null_defconfig
m --in-place null_defconfig >out 2>err
check_run $? 2 "symlink to /dev/null"
expect_err 'null_defconfig: .*not a regular file' "symlink to a device message"
mkdir dir_defconfig
m --in-place dir_defconfig >out 2>err
check_run $? 2 "a directory"
expect_err 'dir_defconfig' "a directory message"
# A symlink to a regular file is written through (like an editor): link kept.
ln -s a_defconfig l_defconfig
m --in-place l_defconfig >out 2>err
check_run $? 0 "symlink to a regular file"
[ -L l_defconfig ] || { echo "FAIL: symlink replaced"; fail=1; }
same a_defconfig 'CONFIG_A=y\nCONFIG_SLUB_TINY=y\n' "symlink: target migrated"
no_temp "symlinks"

exit $fail
