#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A file with ten thousand findings (alternating CONFIG_SLOB=n/y): every one
# is reported, with the right lines, by migrate (text and JSON) and check. (tests/bench/findings-scale.sh
# measures how the time grows with the size.)
set -u
. "$(dirname "$0")/../lib.sh"
: "${SLUBTINY:?}"
st_tmpdir t
cd "$t" || exit 1
n=10000
awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) printf "CONFIG_SLOB=%s\n", i % 2 ? "y" : "n" }' >big_defconfig

"$SLUBTINY" migrate --arch x86 big_defconfig >out 2>err
st=$?
[ $st = 1 ] || bad "migrate: exit $st, want 1: $(tail -3 err)"
c=$(grep -c "^big_defconfig:[0-9]*:1: note: CONFIG_SLOB=y removed: overridden by CONFIG_SLOB=y on line $n (the last choice assignment wins) \[slab-choice-overridden\]$" err)
[ "$c" = $((n / 2 - 1)) ] || bad "migrate: $c overridden notes, want $((n / 2 - 1))"
grep -qxF "big_defconfig:$n:1: note: CONFIG_SLOB=y -> CONFIG_SLUB_TINY=y [slob-to-slub-tiny]" err ||
	bad "migrate: no slob-to-slub-tiny note on line $n"
grep -q "^big_defconfig:$((n - 2)):1: note: CONFIG_SLOB=y removed" err || bad "migrate: no note for line $((n - 2))"
grep -qxF "big_defconfig: note: $((n / 2)) pre-existing findings: the file had them before the migration (--all lists them)" err ||
	bad "migrate: no pre-existing count: $(tail -3 err)"
[ "$(tail -n 1 err)" = "slubtiny: migrate: checked 1 kernel config, ARCH=x86 (from --arch)" ] ||
	bad "migrate: last line: $(tail -n 1 err)"
[ "$(grep -c '^-CONFIG_SLOB=y$' out)" = $((n / 2)) ] || bad "migrate: diff does not drop $((n / 2)) lines"
grep -qx '+CONFIG_SLUB_TINY=y' out || bad "migrate: diff does not add CONFIG_SLUB_TINY=y"

"$SLUBTINY" migrate --json --arch x86 big_defconfig >json 2>err
st=$?
[ $st = 1 ] || bad "migrate --json: exit $st, want 1: $(cat err)"
[ -s err ] && bad "migrate --json: stderr: $(head -3 err)"
"${ST_PYTHON:-python3}" - json $n <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
f = d["files"][0]
errs = []
if len(f["findings"]) != n:
    errs.append("%d findings, want %d" % (len(f["findings"]), n))
if len(f["changes"]) != n // 2:
    errs.append("%d changes, want %d" % (len(f["changes"]), n // 2))
lines = sorted(c["line"] for c in f["changes"])
if lines != list(range(2, n + 1, 2)):
    errs.append("change lines %s ... %s" % (lines[:3], lines[-3:]))
for e in errs:
    print("FAIL: migrate --json: " + e)
sys.exit(1 if errs else 0)
PY

"$SLUBTINY" check --no-config --arch x86 big_defconfig >out 2>err
st=$?
[ $st = 1 ] || bad "check: exit $st, want 1: $(tail -3 err)"
[ "$(tail -n 1 err)" = "slubtiny: check: checked 1 kernel config, ARCH=x86 (from --arch)" ] ||
	bad "check: last line: $(tail -n 1 err)"
exit $fail
