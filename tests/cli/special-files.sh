#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Every reader refuses what is not a regular file at once: a FIFO nobody
# writes to (a blocking open() would wait forever), a device, a directory.
# Each is one line on stderr naming the file, exit 2, nothing on stdout.
# timeout turns a hang into a failure instead of a stuck test.
set -u
. "$(dirname "$0")/../lib.sh"
: "${SLUBTINY:?}"
st_tmpdir t
cd "$t" || exit 1
mkfifo fifo
mkdir dir
printf 'CONFIG_SLOB=y\n' >a_defconfig

# try FILE KIND COMMAND...: KIND as the message names it
try() {
	file=$1; kind=$2; shift 2
	timeout 10 "$SLUBTINY" "$@" >out 2>err
	got=$?
	cmd=$1
	want="slubtiny: $cmd: $file: is a $kind, not a regular file"
	if [ "$got" != 2 ]; then
		echo "FAIL: $*: exit $got, want 2 (124: it hung)"; cat err; fail=1
	elif [ "$(cat err)" != "$want" ]; then
		echo "FAIL: $*: stderr is not '$want':"; cat err; fail=1
	elif [ -s out ]; then
		echo "FAIL: $*: stdout not empty:"; cat out; fail=1
	fi
}

for f in fifo:FIFO /dev/null:device; do
	file=${f%%:*} kind=${f#*:}
	try "$file" "$kind" check "$file"
	try "$file" "$kind" migrate "$file"
	try "$file" "$kind" check --budget "$file" a_defconfig
	try "$file" "$kind" check --config "$file" a_defconfig
	try "$file" "$kind" report --merge "$file"
	try "$file" "$kind" footprint --trace "$file"
done
try dir directory check --budget dir a_defconfig
try dir directory check --config dir a_defconfig
try dir directory report --merge dir
try dir directory footprint --trace dir
exit $fail
