#!/bin/sh
# A CI gate pointed at the wrong place must not pass: check on a directory
# with no kernel config below it is an error (exit 2, one line naming the
# directory) unless --allow-empty; a path that does not exist is an error
# too. A directory with configs, and a shard that gets none of them, are not.
# A directory whose *_defconfig and *.config are no kernel configs (a BR2_
# defconfig, a UCI file) is as empty. migrate does the same.
set -u
. "$(dirname "$0")/../../lib.sh"
st_tmpdir t

expect() { # status description command...
	want=$1; shift; what=$1; shift
	"$@" >"$t/out" 2>"$t/err"; got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL: $what: exit $got, want $want"; cat "$t/out" "$t/err"; fail=1
	fi
}
err_is() { # description expected-stderr
	printf '%s\n' "$2" | cmp -s - "$t/err" ||
		{ echo "FAIL: $1: stderr is not '$2':"; cat "$t/err"; fail=1; }
}
out_empty() {
	[ -s "$t/out" ] && { echo "FAIL: $1: stdout not empty:"; cat "$t/out"; fail=1; }
	return 0
}

cd "$t" || exit 1
mkdir -p empty docs/sub arch/sh/configs
printf 'not a config\n' >docs/README
printf 'CONFIG_X=y\n' >docs/sub/notes.txt
printf 'CONFIG_SLUB=y\n' >arch/sh/configs/a_defconfig
mkdir -p br/configs uci
printf 'BR2_arm=y\nBR2_LINUX_KERNEL=y\n' >br/configs/acme_defconfig
printf "config defaults\n\toption input 'ACCEPT'\n" >uci/firewall.config

expect 2 "empty dir" "$SLUBTINY" check --no-config empty
err_is "empty dir" "slubtiny: check: no kernel configs found under empty"
out_empty "empty dir"
expect 2 "dir without configs" "$SLUBTINY" check --no-config docs/
err_is "dir without configs" "slubtiny: check: no kernel configs found under docs/"
expect 2 "one good dir, one empty" "$SLUBTINY" check --no-config arch empty
err_is "one good dir, one empty" "slubtiny: check: no kernel configs found under empty"
expect 2 "json" "$SLUBTINY" check --no-config --format json empty
grep -qx '{"version":"[0-9.]*","error":{"file":null,"message":"no kernel configs found under empty"}}' "$t/out" ||
	{ echo "FAIL: json: no error document:"; cat "$t/out"; fail=1; }

expect 2 "only a BR2_ defconfig" "$SLUBTINY" check --no-config br
err_is "only a BR2_ defconfig" "slubtiny: check: no kernel configs found under br"
expect 2 "only a UCI file" "$SLUBTINY" check --no-config uci
err_is "only a UCI file" "slubtiny: check: no kernel configs found under uci"
for d in empty docs br uci; do
	expect 2 "migrate $d" "$SLUBTINY" migrate --no-verify $d
	err_is "migrate $d" "slubtiny: migrate: no kernel configs found under $d"
	out_empty "migrate $d"
done
expect 0 "migrate --allow-empty" "$SLUBTINY" migrate --no-verify --allow-empty br uci
err_is "migrate --allow-empty" "slubtiny: migrate: checked 0 kernel configs (2 files looked at, 2 not kernel configs)"
expect 0 "--allow-empty" "$SLUBTINY" check --no-config --allow-empty empty docs br
out_empty "--allow-empty"
err_is "--allow-empty" "slubtiny: check: checked 0 kernel configs (1 file looked at, 1 not kernel configs)"

expect 2 "missing path" "$SLUBTINY" check --no-config nosuch/dir
err_is "missing path" "slubtiny: check: nosuch/dir: No such file or directory"
out_empty "missing path"
expect 2 "missing path, --allow-empty" "$SLUBTINY" check --no-config --allow-empty nosuch/dir
err_is "missing path, --allow-empty" "slubtiny: check: nosuch/dir: No such file or directory"

expect 0 "dir with a config" "$SLUBTINY" check --no-config arch
out_empty "dir with a config"
expect 0 "dir with a config, trailing slash" "$SLUBTINY" check --no-config arch/sh/
# one config, two shards: the second gets none, which is no error
expect 0 "empty shard" "$SLUBTINY" check --no-config --shard 2/2 arch
err_is "empty shard" "slubtiny: check: checked 0 kernel configs (1 file looked at, 0 not kernel configs)"
exit $fail
