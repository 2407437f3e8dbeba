#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# migrate --fix-deps pins what EXPERT=y would change, judged by the
# kernel's own conf on linux-source-6.12:
#
#   pin-diff.sh SLUBTINY {quick|all}
#
# 1. A cut-down SLOB-era board of our own (EMBEDDED=y, SLOB=y, '# CONFIG_
#    SLAB_MERGE_DEFAULT is not set' and EXPERT-only 'is not set' lines):
#    EMBEDDED -> EXPERT and the SLAB_MERGE_DEFAULT line goes, SLUB_TINY=y
#    takes effect under conf, the EXPERT-only lines take effect again, and
#    the option on the line right after CONFIG_EXPERT=y is listed.
# 2. The 17 SLOB boards of linux-source-6.1 (quick: three of them, one per
#    arch that has SLOB boards with tens of side effects or few), migrated in one run: under
#    conf SLUB_TINY=y takes effect on all, and the options the tool lists
#    as still changing are exactly those conf's .config files (original
#    and migrated) differ in, but for the lines the migration wrote.
# conf's results are cached in $ST_SRCDIR/build-cache/conf-boards/.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib.sh"
. "$here/common.sh"
case $1 in /*) slubtiny=$1 ;; *) slubtiny=$PWD/$1 ;; esac
mode=${2:-all}
work=${ST_BUILDDIR:-/tmp}/kconfig-diff
export SLUBTINY_CACHE_DIR=${SLUBTINY_CACHE_DIR:-$work/cache}
command -v python3 >/dev/null || { echo "skip: python3 missing"; exit 77; }
t61=$(st_shared_tree 6.1)
rc=$?
[ $rc = 77 ] && { echo "skip: linux-source-6.1 or make/flex/bison/xz missing"; exit 77; }
[ $rc = 0 ] || { echo "FAIL: cannot extract linux-source-6.1"; exit 1; }
t612=$(st_shared_tree 6.12)
rc=$?
[ $rc = 77 ] && { echo "skip: linux-source-6.12 missing"; exit 77; }
[ $rc = 0 ] || { echo "FAIL: cannot extract linux-source-6.12"; exit 1; }
run=$work/pin.$$
rm -rf "$run" && mkdir -p "$run" || exit 1
st_atexit 'rm -rf "$run"'

# the "is not set" lines of $1 that the .config $2 does not honour
ineffective() {
	sed -n 's/^# CONFIG_\([A-Za-z0-9_]*\) is not set$/\1/p' "$1" | while read -r s; do
		grep -q "^CONFIG_$s=" "$2" && echo "$s"
	done
}

# 1. the cut-down board
rel=arch/arm/configs/emb_defconfig
d=$run/emb
mkdir -p "$d/arch/arm/configs" || exit 1
cat >"$d/$rel" <<'EOB'
CONFIG_SYSVIPC=y
CONFIG_LOG_BUF_SHIFT=14
CONFIG_BLK_DEV_INITRD=y
CONFIG_CC_OPTIMIZE_FOR_SIZE=y
CONFIG_EMBEDDED=y
# CONFIG_AIO is not set
# CONFIG_FUTEX is not set
# CONFIG_EPOLL is not set
# CONFIG_SIGNALFD is not set
# CONFIG_TIMERFD is not set
# CONFIG_EVENTFD is not set
# CONFIG_SHMEM is not set
# CONFIG_VM_EVENT_COUNTERS is not set
CONFIG_SLOB=y
# CONFIG_SLAB_MERGE_DEFAULT is not set
CONFIG_ARCH_VERSATILE=y
# CONFIG_BLOCK is not set
CONFIG_NET=y
CONFIG_UNIX=y
CONFIG_INET=y
# CONFIG_HID is not set
EOB
cp "$d/$rel" "$d/orig" || exit 1
(cd "$d" && "$slubtiny" migrate --srctree "$t612" --fix-deps --in-place "$rel") \
	>"$d/out" 2>"$d/err"
st=$?
[ $st = 0 ] || { bad "$rel: migrate exit $st"; cat "$d/err"; }
for r in embedded-to-expert slob-to-slub-tiny slab-merge-default-not-set; do
	grep -q "^$rel:[0-9]*:1: note: .*\[$r\]\$" "$d/err" || bad "$rel: no [$r] fix"
done
grep -q 'not adding\|add CONFIG_EXPERT' "$d/err" && bad "$rel: EXPERT refused or advised:" &&
	cat "$d/err"
grep -q '^CONFIG_EXPERT=y$' "$d/$rel" || bad "$rel: no CONFIG_EXPERT=y written"
grep -q 'SLAB_MERGE_DEFAULT' "$d/$rel" && bad "$rel: the SLAB_MERGE_DEFAULT line stayed"
# the option right after the line of CONFIG_EXPERT=y is a side effect too
n=$(grep -n '^CONFIG_EXPERT=y$' "$d/$rel" | cut -d: -f1)
next=$(sed -n "$((n + 1))s/^# CONFIG_\([A-Za-z0-9_]*\) is not set\$/\1/p" "$d/$rel")
[ -n "$next" ] || bad "$rel: no 'is not set' line after CONFIG_EXPERT=y"
grep -q "^ $next y -> n\$" "$d/err" || bad "$rel: $next (line $((n + 1)), after EXPERT) not listed"
before=$(st_conf_cached "$t612" arm "$rel" "$d/orig" "$d/scratch") &&
	after=$(st_conf_cached "$t612" arm "$rel" "$d/$rel" "$d/scratch") ||
	{ bad "$rel: conf failed"; exit 1; }
grep -q '^CONFIG_SLUB_TINY=y$' "$after" || bad "$rel: conf drops SLUB_TINY=y"
nb=$(ineffective "$d/orig" "$before" | wc -l)
na=$(ineffective "$d/$rel" "$after" | wc -l)
[ "$na" = 0 ] && [ "$nb" -ge 9 ] || bad "$rel: ineffective 'is not set' lines: $nb before, $na after (want >= 9, 0)"
echo "$rel: 'is not set' lines without effect under conf: $nb before, $na after the migration"

# 2. the former SLOB boards of 6.1, one run
d=$run/boards
mkdir -p "$d" || exit 1
list=$(cd "$t61" && grep -l '^CONFIG_SLOB=y' arch/*/configs/*_defconfig)
[ "$(echo "$list" | wc -l)" = 17 ] || bad "want 17 SLOB boards in 6.1, found $(echo "$list" | wc -l)"
if [ "$mode" = quick ]; then
	quick="arch/arm/configs/collie_defconfig arch/riscv/configs/nommu_virt_defconfig
arch/sh/configs/rsk7203_defconfig"
	for rel in $quick; do
		echo "$list" | grep -qx "$rel" || bad "$rel: not a SLOB board of 6.1"
	done
	list=$quick
fi
for rel in $list; do
	mkdir -p "$d/$(dirname "$rel")" "$d/orig/$(dirname "$rel")" &&
		cp "$t61/$rel" "$d/$rel" && cp "$t61/$rel" "$d/orig/$rel" || exit 1
done
(cd "$d" && "$slubtiny" migrate --srctree "$t612" --fix-deps --in-place -q $list) \
	>"$d/out" 2>"$d/err"
st=$?
[ $st = 0 ] || { bad "boards: migrate exit $st"; head -20 "$d/err"; }
for rel in $list; do
	a=${rel#arch/}; a=${a%%/*}
	b=$(basename "$rel")
	before=$(st_conf_cached "$t612" "$a" "$rel" "$d/orig/$rel" "$d/scratch") &&
		after=$(st_conf_cached "$t612" "$a" "$rel" "$d/$rel" "$d/scratch") ||
		{ bad "$rel: conf failed"; continue; }
	grep -q '^CONFIG_SLUB_TINY=y$' "$after" || bad "$rel: conf drops SLUB_TINY=y"
	python3 "$t612/scripts/diffconfig" "$before" "$after" >"$d/$b.diffconfig" ||
		{ bad "$rel: scripts/diffconfig failed"; continue; }
	{ echo SLUB; diff "$d/orig/$rel" "$d/$rel" |
		sed -n 's/^[<>] \(# \)\{0,1\}CONFIG_\([A-Za-z0-9_]*\)[= ].*/\2/p'; } | sort -u >"$d/$b.direct"
	awk 'NR == FNR { direct[$1] = 1; next }
		{ s = substr($1, 1, 1) == "-" || substr($1, 1, 1) == "+" ? substr($1, 2) : $1 }
		s in direct { next }
		/^[-+]/ && $2 == "n" && NF == 2 { next }
		{ print }' "$d/$b.direct" "$d/$b.diffconfig" >"$d/$b.want"
	hdr=$(grep -n "^$rel: note: [0-9]* options\{0,1\} changes\{0,1\} as a side effect\( ([^)]*)\)\{0,1\}:\$" "$d/err")
	if [ -z "$hdr" ]; then
		: >"$d/$b.got"
	else
		sed -n "$((${hdr%%:*} + 1)),\$p" "$d/err" |
			awk '!/^[-+ ][A-Za-z0-9_]+ / { exit } { print }' >"$d/$b.got"
	fi
	cmp -s "$d/$b.want" "$d/$b.got" || { bad "$rel: the list differs from conf's (< conf, > slubtiny):"
		diff "$d/$b.want" "$d/$b.got" | head -10; }
	# of those, the board's own lines that take effect again (EXPERT)
	own=$(sed -n 's/^ \([A-Za-z0-9_]*\) .*/\1/p' "$d/$b.got" | while read -r s; do
		grep -q "^CONFIG_$s=\|^# CONFIG_$s is not set" "$d/orig/$rel" && echo "$s"
	done | wc -l)
	echo "$rel: $(wc -l <"$d/$b.got") options still change ($own of them the" \
		"board's own lines taking effect again)," \
		"$(grep -c . "$d/$b.direct") set by the migration's lines, SLUB_TINY=y under conf"
done
exit $fail
