#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 100,000 findings in one file, in linear time and in little memory: check
# on alternating CONFIG_SLAB=y/CONFIG_SLOB=y (every line from the third on
# assigns a symbol again) and migrate --no-verify on repeated CONFIG_SLOB=y
# (every line but the last is overridden). The results are counted in JSON;
# the peak resident set must stay under 1 kB a line over a fixed base (they
# took quadratic time and 1.8 kB, then 5.7 kB a line). The growth itself is
# measured by the benchmark findings-scale.
set -u
. "$(dirname "$0")/../lib.sh"
: "${SLUBTINY:?}"
st_tmpdir t
cd "$t" || exit 1
n=100000
base_kb=40960
awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) printf "CONFIG_%s=y\n", i % 2 ? "SLOB" : "SLAB" }' >alt_defconfig
awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) print "CONFIG_SLOB=y" }' >slob_defconfig

# ASan's shadow memory makes the resident set no measure of ours
check_rss=
[ -z "${ST_SANITIZE:-}" ] || [ "$ST_SANITIZE" = none ] && check_rss=1
rss_below() { # what
	[ -n "$check_rss" ] || return 0
	[ "$(cat rss)" -lt $((base_kb + n)) ] ||
		bad "$1: peak RSS $(cat rss) kB, want under $((base_kb + n)) kB ($base_kb + 1 kB a line)"
}
count() { # JSON-file python-expression
	"${ST_PYTHON:-python3}" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$1" "$2"
}

st_peak_rss rss "$SLUBTINY" check --no-config --arch x86 alt_defconfig >out 2>err
st=$?
[ $st = 1 ] || bad "check: exit $st, want 1: $(tail -3 err)"
rss_below check
[ "$(grep -c '\[duplicate-assignment\]$' err)" = $((n - 2)) ] ||
	bad "check: $(grep -c '\[duplicate-assignment\]$' err) duplicate-assignment lines, want $((n - 2))"
grep -q "^alt_defconfig:$n:1: warning: CONFIG_SLOB assigned again (same value as line $((n - 2))) \[duplicate-assignment\]$" err ||
	bad "check: no duplicate on line $n"
[ "$(tail -n 1 err)" = "slubtiny: check: checked 1 kernel config, ARCH=x86 (from --arch)" ] ||
	bad "check: last line: $(tail -n 1 err)"

st_peak_rss rss "$SLUBTINY" check --json --no-config --arch x86 alt_defconfig >json 2>err
st=$?
[ $st = 1 ] || bad "check --json: exit $st, want 1: $(tail -3 err)"
[ -s err ] && bad "check --json: stderr: $(head -3 err)"
rss_below "check --json"
c=$(count json 'sum(f["rule"] == "duplicate-assignment" for f in d["findings"])')
[ "$c" = $((n - 2)) ] || bad "check --json: $c duplicate-assignment findings, want $((n - 2))"
c=$(count json '[f["line"] for f in d["findings"] if f["rule"] == "removed-allocator"]')
[ "$c" = "[$((n - 1)), $n]" ] || bad "check --json: removed-allocator on lines $c, want [$((n - 1)), $n]"

st_peak_rss rss "$SLUBTINY" migrate --no-verify --arch x86 slob_defconfig >out 2>err
st=$?
[ $st = 0 ] || bad "migrate: exit $st, want 0: $(tail -3 err)"
rss_below migrate
c=$(grep -c "^slob_defconfig:[0-9]*:1: note: CONFIG_SLOB=y removed: overridden by CONFIG_SLOB=y on line $n (the last choice assignment wins) \[slab-choice-overridden\]$" err)
[ "$c" = $((n - 1)) ] || bad "migrate: $c overridden notes, want $((n - 1))"
grep -qxF "slob_defconfig:$n:1: note: CONFIG_SLOB=y -> CONFIG_SLUB_TINY=y [slob-to-slub-tiny]" err ||
	bad "migrate: no slob-to-slub-tiny note on line $n"
[ "$(tail -n 1 err)" = "slubtiny: migrate: checked 1 kernel config, ARCH=x86 (from --arch)" ] ||
	bad "migrate: last line: $(tail -n 1 err)"
[ "$(grep -c '^-CONFIG_SLOB=y$' out)" = $n ] || bad "migrate: diff does not drop $n lines"

st_peak_rss rss "$SLUBTINY" migrate --json --no-verify --arch x86 slob_defconfig >json 2>err
st=$?
[ $st = 0 ] || bad "migrate --json: exit $st, want 0: $(tail -3 err)"
[ -s err ] && bad "migrate --json: stderr: $(head -3 err)"
rss_below "migrate --json"
c=$(count json '(len(d["files"][0]["changes"]), len(d["files"][0]["findings"]))')
[ "$c" = "($n, 0)" ] || bad "migrate --json: (changes, findings) $c, want ($n, 0)"
exit $fail
