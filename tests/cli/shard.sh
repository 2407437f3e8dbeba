#!/bin/sh
# --shard K/N on check and migrate: over every defconfig of Debian's
# linux-source-6.1, the N shards (N = 2, 3) together give exactly the
# findings (check --json) and the per-file results (migrate --json) of the
# unsharded run, each file in one shard only, in shards whose sizes differ
# by at most one; the partition does not depend on the order of the
# operands; bad K/N values are one error line and exit 2.
set -u
. "$(dirname "$0")/../lib.sh"
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
k61=$(sh "$ST_SRCDIR/tests/unit/defconfig/extract-configs.sh" 6.1) || exit $?
st_tmpdir t
cd "$k61" || exit 1

# run NAME WANT-STATUSES command...: stdout to $t/NAME, stderr must be empty
run() {
	name=$1; want=$2; shift 2
	"$@" >"$t/$name" 2>"$t/$name.err"; st=$?
	case " $want " in
	*" $st "*) ;;
	*) echo "FAIL: $name: exit $st, want one of $want"; head -5 "$t/$name.err"; fail=1 ;;
	esac
	if [ -s "$t/$name.err" ]; then
		echo "FAIL: $name: stderr not empty:"; head -5 "$t/$name.err"; fail=1
	fi
}

run check.all 1 "$SLUBTINY" check --no-config --json arch kernel/configs
run migrate.all 1 "$SLUBTINY" migrate --json arch kernel/configs
jq -c '.findings[]' "$t/check.all" | sort >"$t/check.want"
jq -c '.files[]' "$t/migrate.all" | sort >"$t/migrate.want"
total=$(wc -l <"$t/migrate.want")
[ "$total" -gt 400 ] || { echo "FAIL: only $total files migrated"; fail=1; }
[ -s "$t/check.want" ] || { echo "FAIL: the unsharded check found nothing"; fail=1; }

for n in 2 3; do
	: >"$t/check.got"
	: >"$t/migrate.got"
	k=1
	while [ $k -le $n ]; do
		run "check.$k" "0 1" "$SLUBTINY" check --no-config --json --shard "$k/$n" arch kernel/configs
		run "migrate.$k" "0 1" "$SLUBTINY" migrate --json --shard "$k/$n" arch kernel/configs
		jq -c '.findings[]' "$t/check.$k" >>"$t/check.got"
		jq -c '.files[]' "$t/migrate.$k" >>"$t/migrate.got"
		size=$(jq '.files | length' "$t/migrate.$k")
		lo=$((total / n)); hi=$(((total + n - 1) / n))
		[ "$size" -ge $lo ] && [ "$size" -le $hi ] ||
			{ echo "FAIL: shard $k/$n has $size of $total files"; fail=1; }
		# the same shard with the operands the other way round
		run "check.rev" "0 1" "$SLUBTINY" check --no-config --json --shard "$k/$n" kernel/configs arch
		jq -c '.findings[]' "$t/check.rev" | sort >"$t/rev.sorted"
		jq -c '.findings[]' "$t/check.$k" | sort | cmp -s - "$t/rev.sorted" ||
			{ echo "FAIL: shard $k/$n depends on the order of the operands"; fail=1; }
		k=$((k + 1))
	done
	for c in check migrate; do
		sort "$t/$c.got" | cmp -s - "$t/$c.want" ||
			{ echo "FAIL: $c: the $n shards together differ from the unsharded run:"
			  sort "$t/$c.got" | diff "$t/$c.want" - | head -5; fail=1; }
	done
done

for cmd in check migrate kernel; do
	case $cmd in
	kernel) set -- --srctree "$t" ;;
	*) set -- arch/arm/configs ;;
	esac
	for bad in 0/2 3/2 x/y 1/0 1/ /2 -1/2 "1/2x"; do
		"$SLUBTINY" $cmd --shard "$bad" "$@" >"$t/out" 2>"$t/err"; st=$?
		[ $st = 2 ] || { echo "FAIL: $cmd --shard '$bad': exit $st, want 2"; fail=1; }
		[ ! -s "$t/out" ] || { echo "FAIL: $cmd --shard '$bad': stdout not empty"; fail=1; }
		[ "$(wc -l <"$t/err")" = 1 ] && grep -q "^slubtiny: $cmd: --shard '$bad': " "$t/err" ||
			{ echo "FAIL: $cmd --shard '$bad': want one error line, got:"; cat "$t/err"; fail=1; }
	done
done
exit $fail
