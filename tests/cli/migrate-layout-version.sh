#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# migrate takes each file's kernel from its build system, as check does
# (issue 43: it wrote a 7.2 symbol into an OpenWrt config-6.6 and judged a
# 6.1 recipe's fragment for the newest kernel). Without --target and
# --srctree an OpenWrt config-X.Y is migrated and verified for X.Y where a
# bundled model covers it; --target still wins; check and migrate --check
# report the same ineffective-option for a 6.1 CONFIG_SLOB=y without EXPERT.
set -u
. "$(dirname "$0")/../lib.sh"
: "${SLUBTINY:?}"
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
st_tmpdir t
unset ARCH
cp -r "$ST_SRCDIR/fixtures/distros/openwrt" "$t/openwrt"
cd "$t/openwrt" || exit 1
d=target/linux/ramips/mt76x8
# the fixture's config-6.1, and the same board on 6.6 with a line 7.2 renamed
printf 'CONFIG_EXPERT=y\nCONFIG_SLOB=y\nCONFIG_RANDOM_KMALLOC_CACHES=y\n' >$d/config-6.6

st_expect 0 "config-6.6" "$SLUBTINY" migrate --json --no-config $d/config-6.6
grep -q . "$t/err" && { bad "config-6.6: stderr:"; cat "$t/err"; }
jq -e '.files[0].diff | test("KMALLOC_PARTITION") | not' "$t/out" >/dev/null ||
	bad "config-6.6: a 7.2 symbol written into a 6.6 config: $(jq -r '.files[0].diff' "$t/out")"
jq -e '.files[0].diff | test("\\+CONFIG_SLUB_TINY=y")' "$t/out" >/dev/null ||
	bad "config-6.6: SLOB not migrated"
jq -e '.files[0].verified_with | test("linux 6\\.[2-6] ")' "$t/out" >/dev/null ||
	bad "config-6.6: not verified for 6.6: $(jq -r '.files[0].verified_with' "$t/out")"
jq -e '.files[0].target == "6.6"' "$t/out" >/dev/null ||
	bad "config-6.6: the file's target is not 6.6: $(jq -c '.files[0].target' "$t/out")"
jq -e '.files[0].stack.version | .name == "6.6" and .used' "$t/out" >/dev/null ||
	bad "config-6.6: the stack's version is not said used: $(jq -c '.files[0].stack.version' "$t/out")"

# --target wins over the build system's
st_expect 0 "--target 7.3" "$SLUBTINY" migrate --json --no-config --target 7.3 $d/config-6.6
jq -e '[.files[0].changes[].rule] | index("random-kmalloc-to-partition")' "$t/out" >/dev/null ||
	bad "--target 7.3: the rule for 7.2's rename did not run"
jq -e '.files[0].target == "7.3"' "$t/out" >/dev/null || bad "--target 7.3: the file's target"

# 6.1: nothing to migrate, and SLOB without EXPERT is ineffective at both doors
# (exit 0: a finding the input already had does not fail migrate --check)
st_expect 0 "config-6.1 migrate" "$SLUBTINY" migrate --check --all --json --no-config $d/config-6.1
jq -r '.files[0].findings[] | "\(.line) \(.rule) \(.symbol)"' "$t/out" >"$t/m"
jq -e '.files[0].changed | not' "$t/out" >/dev/null || bad "config-6.1: migrated for a newer kernel"
st_expect 1 "config-6.1 check" "$SLUBTINY" check --json --no-config $d/config-6.1
jq -r '.findings[] | "\(.line) \(.rule) \(.symbol)"' "$t/out" >"$t/c"
[ "$(cat "$t/m")" = "1 ineffective-option SLOB" ] ||
	{ bad "config-6.1: migrate's findings:"; cat "$t/m"; }
cmp -s "$t/m" "$t/c" || { bad "config-6.1: check and migrate differ:"; diff "$t/c" "$t/m"; }
exit $fail
