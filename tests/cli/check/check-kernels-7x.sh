#!/bin/sh
# Kernels after 6.12. Without a tree: `check --target 7.0` reports a
# '# CONFIG_SLUB_CPU_PARTIAL is not set' line and 6.12 does not, 7.2 names
# KMALLOC_PARTITION_CACHES on a CONFIG_RANDOM_KMALLOC_CACHES=y line, and
# --target 7.3 is accepted by check and migrate (whose default is the
# newest release, 7.3 or later).
# With a tree (fixtures/kconfig-7x, written for this test, which uses the
# Kconfig syntax added from 6.13 to 7.3): `transitional` and
# 'depends on X if Y' are read as conf reads them.
set -u
. "$(dirname "$0")/../../lib.sh"
st_tmpdir t
export SLUBTINY_CACHE_DIR=$t/cache

# run STATUS WHAT COMMAND...: exit status STATUS, stdout in $t/out, stderr in $t/err
run() {
	want=$1; shift; what=$1; shift
	"$@" >"$t/out" 2>"$t/err"; got=$?
	[ "$got" = "$want" ] || { bad "$what: exit $got, want $want"; cat "$t/out" "$t/err"; }
}
# rules FILE: "rule@line" of check's JSON for FILE, sorted, one line
rules() {
	jq -r --arg f "$1" '[.findings[] | select(.file | endswith($f)) |
		"\(.rule)@\(.line)"] | sort | join(",")' "$t/out"
}
no_stderr() { [ -s "$t/err" ] && { bad "$1: stderr:"; cat "$t/err"; }; return 0; }
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }

mkdir -p "$t/b/arch/arm/configs"
cd "$t/b" || exit 1
f=arch/arm/configs/board_defconfig
printf 'CONFIG_SMP=y\n# CONFIG_SLUB_CPU_PARTIAL is not set\nCONFIG_RANDOM_KMALLOC_CACHES=y\n' >$f

run 0 "check --target 6.12" "$SLUBTINY" check --no-config --json --target 6.12 $f
[ "$(rules $f)" = "" ] || bad "6.12: findings $(rules $f)"
no_stderr "check --target 6.12"
run 1 "check --target 7.0" "$SLUBTINY" check --no-config --json --target 7.0 $f
[ "$(rules $f)" = "removed-option@2" ] || bad "7.0: findings $(rules $f)"
jq -e '.findings[0].message | test("SLUB_CPU_PARTIAL was removed in Linux 7.0")' "$t/out" >/dev/null ||
	bad "7.0: message does not name the release: $(cat "$t/out")"
no_stderr "check --target 7.0"
run 1 "check --target 7.2" "$SLUBTINY" check --no-config --json --target 7.2 $f
[ "$(rules $f)" = "removed-option@2,removed-option@3" ] || bad "7.2: findings $(rules $f)"
jq -e '.findings[] | select(.line == 3) | (.message | test("KMALLOC_PARTITION_CACHES")) and
	.hint == "replace with CONFIG_KMALLOC_PARTITION_CACHES=y"' "$t/out" >/dev/null ||
	bad "7.2: line 3 does not name KMALLOC_PARTITION_CACHES: $(cat "$t/out")"
no_stderr "check --target 7.2"
run 1 "check --target 7.3" "$SLUBTINY" check --no-config --target 7.3 $f
grep -q "^$f:3:1: warning: .*KMALLOC_PARTITION_CACHES.*\[removed-option\]$" "$t/err" ||
	bad "7.3 text: $(cat "$t/out" "$t/err")"

run 0 "migrate --target 7.3" "$SLUBTINY" migrate --target 7.3 $f
grep -q '^-# CONFIG_SLUB_CPU_PARTIAL is not set$' "$t/out" &&
	grep -q '^+CONFIG_KMALLOC_PARTITION_CACHES=y$' "$t/out" || bad "migrate 7.3 diff: $(cat "$t/out")"
grep -q '^slubtiny: verified against bundled slab-related Kconfig model for linux 7.2 (kconfig/models/7.2)$' "$t/err" ||
	bad "migrate 7.3: not the 7.2 model: $(cat "$t/err")"
# the default is the newest release (lib/linux/kver.c, held to its list
# by test linux): 7.3 or later; the release after it is refused
run 0 "migrate, default target" "$SLUBTINY" migrate --json $f
newest=$(jq -r .target "$t/out")
printf '7.3\n%s\n' "$newest" | sort -V -C || bad "default target $newest is older than 7.3"
next=${newest%%.*}.$((${newest#*.} + 1))
run 2 "migrate --target $next" "$SLUBTINY" migrate --target $next $f
grep -q "newest kernel slubtiny knows ($newest)" "$t/err" || bad "$next refusal: $(cat "$t/err")"

# check --fix does what the notes say, for the kernel judged for
cp $f "$t/orig"
run 0 "check --fix --target 7.0" "$SLUBTINY" check --no-config --fix --target 7.0 $f
printf 'CONFIG_SMP=y\nCONFIG_RANDOM_KMALLOC_CACHES=y\n' | cmp -s - $f ||
	{ bad "check --fix 7.0 wrote:"; cat $f; }
cp "$t/orig" $f
run 0 "check --fix --target 7.2" "$SLUBTINY" check --no-config --fix --target 7.2 $f
printf 'CONFIG_SMP=y\nCONFIG_KMALLOC_PARTITION_CACHES=y\n' | cmp -s - $f ||
	{ bad "check --fix 7.2 wrote:"; cat $f; }

# The fixture tree: a 7.2-style Kconfig, checked with --srctree.
cp -r "$ST_SRCDIR/fixtures/kconfig-7x" "$t/tree"
tree=$t/tree
run 1 "check --srctree" "$SLUBTINY" check --no-config --json --srctree "$tree" "$tree/arch"
no_stderr "check --srctree"
# RANDOM_KMALLOC_CACHES=y: transitional, so neither unknown nor ineffective
[ "$(rules renamed_defconfig)" = "removed-option@2" ] ||
	bad "renamed: findings $(rules renamed_defconfig)"
# the tree has no SLUB_CPU_PARTIAL: one finding for the line, the specific one
[ "$(rules arm/configs/tiny_defconfig)" = "hardening-notice@2,removed-option@3,removed-option@4,slub-tiny-disables@5" ] ||
	bad "tiny: findings $(rules arm/configs/tiny_defconfig)"
# depends on SLUB_STATS if SYSFS: SYSFS n (arm) keeps it, SYSFS y (x86) does not
[ "$(rules arm/configs/cond_defconfig)" = "" ] || bad "cond arm: findings $(rules arm/configs/cond_defconfig)"
[ "$(rules x86/configs/cond_defconfig)" = "ineffective-option@1" ] ||
	bad "cond x86: findings $(rules x86/configs/cond_defconfig)"
jq -e '.findings[] | select(.file | endswith("x86/configs/cond_defconfig")) |
	.message | test("SLUB_STATS")' "$t/out" >/dev/null || bad "cond x86: cause is not SLUB_STATS: $(cat "$t/out")"

# migrate with the tree: the rename, verified by the tree's Kconfig
run 0 "migrate --srctree" "$SLUBTINY" migrate --srctree "$tree" "$tree/arch/arm/configs/renamed_defconfig"
grep -q '^+CONFIG_KMALLOC_PARTITION_CACHES=y$' "$t/out" || bad "migrate --srctree diff: $(cat "$t/out")"
grep -q "verified against linux 7.2.0 tree" "$t/err" || bad "migrate --srctree: $(cat "$t/err")"
exit $fail
