#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The bundled models of kernels without a Debian tree to diff against
# (6.13, 6.15, 7.0, 7.2), one case per upstream change they encode (see
# kconfig/models/README for the commits), and which model each --target
# picks. Each case resolves a small defconfig with kc-tool and looks at the
# resolved .config and the findings.
#   models.sh KC_TOOL
set -u
. "$(dirname "$0")/../../lib.sh"
kc_tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
py=${ST_PYTHON:-/usr/bin/python3}
[ -x "$py" ] || { echo "no $py: skipped"; exit 77; }
"$py" -c 'import kconfiglib' 2>/dev/null || { echo "no Kconfiglib: skipped"; exit 77; }
st_tmpdir tmp
export SLUBTINY_CACHE_DIR=$tmp/cache
n=0 fail=0
k=0

# resolve TARGET LINES...: the defconfig of LINES against the model of
# TARGET; $out holds the findings, $cfg the resolved .config, $st the exit.
resolve() {
	t=$1; shift
	k=$((k + 1))
	mkdir -p "$tmp/$k"
	printf '%s\n' "$@" >"$tmp/$k/d"
	(cd "$tmp/$k" && "$kc_tool" --target "$t" --arch x86_64 --config-dir . d \
		>out 2>err)
	st=$?
	out=$tmp/$k/out cfg=$tmp/$k/d.config
}

# ok DESCRIPTION COMMAND...: one TAP line
ok() {
	d=$1; shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $d"
	else
		echo "not ok $n - $d"
		sed 's/^/# /' "$out" "$tmp/$k/err" 2>/dev/null
		fail=1
	fi
}
has() { grep -q -- "$2" "$1"; }
hasnt() { ! grep -q -- "$2" "$1"; }
# stderr: only the line naming the model
quiet() { ! grep -qv '^kc-tool: using bundled slab-related Kconfig model' "$tmp/$k/err"; }
clean() { [ "$st" = 0 ] && [ ! -s "$out" ] && quiet; }
flagged() { [ "$st" = 1 ] && quiet && grep -q -- "$1" "$out"; }

# which model a target picks: the newest not newer than it
for tv in 6.12:6.12 6.14:6.13 6.15:6.15 6.18:6.15 6.19:6.15 7.0:7.0 7.1:7.0 7.2:7.2 7.3:7.2; do
	resolve "${tv%:*}" 'CONFIG_EXPERT=y'
	ok "--target ${tv%:*} picks model ${tv#*:}" sh -c "[ $st = 0 ] && [ ! -s '$out' ] &&
		grep -qx 'kc-tool: using bundled slab-related Kconfig model for linux ${tv#*:} (kconfig/models/${tv#*:})' '$tmp/$k/err'"
done

# 6.15 (6f110a5e4f99): SLUB_TINY depends on !COMPILE_TEST; 6.13/6.14 not
resolve 6.14 'CONFIG_EXPERT=y' 'CONFIG_COMPILE_TEST=y' 'CONFIG_SLUB_TINY=y'
ok "6.14: SLUB_TINY=y with COMPILE_TEST=y takes effect" sh -c "[ $st = 0 ] && grep -qx CONFIG_SLUB_TINY=y '$cfg'"
resolve 6.15 'CONFIG_EXPERT=y' 'CONFIG_COMPILE_TEST=y' 'CONFIG_SLUB_TINY=y'
ok "6.15: SLUB_TINY=y with COMPILE_TEST=y is dropped (depends)" \
	flagged "$(printf 'SLUB_TINY\tineffective\tdepends')"

# 7.0 (7b7d4ac53ee5): SLUB_CPU_PARTIAL is gone, no transitional name
resolve 6.15 'CONFIG_SMP=y' '# CONFIG_SLUB_CPU_PARTIAL is not set'
ok "6.15: SLUB_CPU_PARTIAL is a symbol" clean
resolve 7.0 'CONFIG_SMP=y' '# CONFIG_SLUB_CPU_PARTIAL is not set'
ok "7.0: '# CONFIG_SLUB_CPU_PARTIAL is not set' is an unknown symbol" \
	flagged "$(printf 'SLUB_CPU_PARTIAL\tunknown')"
resolve 7.0 'CONFIG_SMP=y' 'CONFIG_SLUB_CPU_PARTIAL=y'
ok "7.0: CONFIG_SLUB_CPU_PARTIAL=y is an unknown symbol" \
	flagged "$(printf 'SLUB_CPU_PARTIAL\tunknown')"
ok "7.0: nothing writes SLUB_CPU_PARTIAL" hasnt "$cfg" SLUB_CPU_PARTIAL
resolve 7.0 'CONFIG_RANDOM_KMALLOC_CACHES=y'
ok "7.0: RANDOM_KMALLOC_CACHES is still an option" sh -c "[ $st = 0 ] && grep -qx CONFIG_RANDOM_KMALLOC_CACHES=y '$cfg'"

# 7.2 (slab/for-7.2/alloc_token): RANDOM_KMALLOC_CACHES is transitional
resolve 7.2 'CONFIG_RANDOM_KMALLOC_CACHES=y'
ok "7.2: RANDOM_KMALLOC_CACHES=y is neither unknown nor ineffective" clean
ok "7.2: ... it sets KMALLOC_PARTITION_CACHES=y" has "$cfg" '^CONFIG_KMALLOC_PARTITION_CACHES=y$'
ok "7.2: ... random mode without alloc tokens" has "$cfg" '^CONFIG_KMALLOC_PARTITION_RANDOM=y$'
ok "7.2: ... and is never written" hasnt "$cfg" 'RANDOM_KMALLOC_CACHES'
resolve 7.2 '# CONFIG_RANDOM_KMALLOC_CACHES is not set'
ok "7.2: RANDOM_KMALLOC_CACHES off leaves KMALLOC_PARTITION_CACHES off" \
	sh -c "[ $st = 0 ] && grep -qx '# CONFIG_KMALLOC_PARTITION_CACHES is not set' '$cfg'"
resolve 7.2 'CONFIG_RANDOM_KMALLOC_CACHES=y' '# CONFIG_KMALLOC_PARTITION_CACHES is not set'
ok "7.2: a line setting KMALLOC_PARTITION_CACHES beats the old name's default" \
	sh -c "[ $st = 0 ] && grep -qx '# CONFIG_KMALLOC_PARTITION_CACHES is not set' '$cfg'"
resolve 7.2 'CONFIG_EXPERT=y' 'CONFIG_SLUB_TINY=y' 'CONFIG_RANDOM_KMALLOC_CACHES=y'
ok "7.2: beside SLUB_TINY, KMALLOC_PARTITION_CACHES stays off" \
	sh -c "grep -qx '# CONFIG_KMALLOC_PARTITION_CACHES is not set' '$cfg' || ! grep -q KMALLOC_PARTITION_CACHES=y '$cfg'"
resolve 7.2 'CONFIG_EXPERT=y' 'CONFIG_SLUB_TINY=y' 'CONFIG_KMALLOC_PARTITION_CACHES=y'
ok "7.2: KMALLOC_PARTITION_CACHES=y beside SLUB_TINY is dropped (depends)" \
	flagged "$(printf 'KMALLOC_PARTITION_CACHES\tineffective\tdepends')"
resolve 7.2 'CONFIG_CC_HAS_ALLOC_TOKEN=y' 'CONFIG_KMALLOC_PARTITION_CACHES=y'
ok "7.2: with alloc tokens the mode defaults to typed" has "$cfg" '^CONFIG_KMALLOC_PARTITION_TYPED=y$'
resolve 7.2 'CONFIG_KMALLOC_PARTITION_CACHES=y' 'CONFIG_KMALLOC_PARTITION_TYPED=y'
ok "7.2: typed mode without alloc tokens is dropped" \
	flagged "$(printf 'KMALLOC_PARTITION_TYPED\tineffective')"

# SLAB_BUCKETS (6.11) depends on !SLUB_TINY in every model that has it
for v in 6.12 6.13 6.15 7.0 7.2; do
	resolve "$v" 'CONFIG_EXPERT=y' 'CONFIG_SLUB_TINY=y' 'CONFIG_SLAB_BUCKETS=y'
	ok "$v: SLAB_BUCKETS=y beside SLUB_TINY is dropped (depends)" \
		flagged "$(printf 'SLAB_BUCKETS\tineffective\tdepends')"
done

echo "1..$n"
exit $fail
