#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Where SLUB's time goes on the net trace replayed on one thread, the
# trace on which SLUB loses to SLUB_TINY: the
# replay built against SLUB as it is, against SLUB with parts of its cost
# taken away, and against SLUB_TINY, in the same run, each against
# SLUB_TINY. What is taken away, one at a time:
#   no-atomics   every LOCK-prefixed instruction of the allocator (the
#                slab cmpxchg16b, the spin locks) made a plain load and
#                store: an upper bound on what any cheaper synchronisation
#                could give (correct on one thread only, which is all it
#                runs);
#   no-partial   CONFIG_SLUB_CPU_PARTIAL off;
#   no-hardened  CONFIG_SLAB_FREELIST_HARDENED and _RANDOM off;
#   none-of-them the three at once.
# If even no-atomics stays near SLUB_TINY, the gap is the kernel's algorithm
# (how often this trace leaves the fast path), not this model's locking.
#   slub-bound.sh        (from meson: ST_SRCDIR, ST_BUILDDIR;
#                         ROUNDS=interleaved runs, median kept)
set -eu
. "$(dirname "$0")/../lib.sh"
src=${ST_SRCDIR:?}
bld=${ST_BUILDDIR:?}
rounds=${ROUNDS:-7}
cc=${CC:-cc}
command -v "$cc" >/dev/null || { echo "SKIP: no $cc"; exit 77; }
st_tmpdir tmp

# the allocator with every atomic made plain (a copy; the tree is untouched)
mkdir "$tmp/plain"
cp "$src"/lib/slab/*.c "$src"/lib/slab/*.h "$tmp/plain/"
awk '
/return __sync_bool_compare_and_swap\(&p->full, o.full, n.full\);/ {
	print "\tif (p->full != o.full)\n\t\treturn false;\n\tp->full = n.full;\n\treturn true;"
	n++; next }
/while \(__atomic_test_and_set\(&l->v, __ATOMIC_ACQUIRE\)\) \{/ {
	print "\tl->v = 1;\n\t(void)spins;\n\treturn;"; n++ }
{ print }
END { if (n != 2) { print "slub-bound.sh: slab_priv.h changed: update the patch" > "/dev/stderr"; exit 1 } }
' "$src/lib/slab/slab_priv.h" >"$tmp/plain/slab_priv.h"
grep -v CONFIG_SLUB_CPU_PARTIAL "$bld/defconfigs/config-slub.h" >"$tmp/config-nopartial.h"
grep -v CONFIG_SLAB_FREELIST_ "$bld/defconfigs/config-slub.h" >"$tmp/config-nohardened.h"
grep -v CONFIG_SLAB_FREELIST_ "$tmp/config-nopartial.h" >"$tmp/config-none.h"

build() { # name slab-dir config-header
	$cc -O2 -g -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -pthread -mcx16 \
		-I"$2" -I"$src/lib" -I"$bld/lib" -I"$bld" -I"$bld/defconfigs" \
		-I"$(dirname "$3")" -I/usr/include/cjson \
		-DST_SLAB_CONFIG="\"$(basename "$3")\"" -DST_SLAB_VARIANT="\"$1\"" \
		"$src"/lib/footprint/replay/replay.c "$src"/lib/footprint/replay/main.c \
		"$src"/lib/footprint/replay/backend_slab.c "$2"/*.c \
		"$bld/lib/libst-footprint.a" "$bld/lib/libst-common.a" -lcjson -lelf -lm -o "$tmp/replay-$1"
}
build slub "$src/lib/slab" "$bld/defconfigs/config-slub.h"
build no-atomics "$tmp/plain" "$bld/defconfigs/config-slub.h"
build no-partial "$src/lib/slab" "$tmp/config-nopartial.h"
build no-hardened "$src/lib/slab" "$tmp/config-nohardened.h"
build none-of-them "$tmp/plain" "$tmp/config-none.h"
build slub_tiny "$src/lib/slab" "$bld/defconfigs/config-slub_tiny.h"
"$bld/cli/slubtiny" footprint gen net --binary >"$tmp/net.sltb"

names="slub no-atomics no-partial no-hardened none-of-them slub_tiny"
r=0
while [ $r -lt "$rounds" ]; do
	for v in $names; do
		"$tmp/replay-$v" --threads 1 --time-ms 300 "$tmp/net.sltb" |
			grep -o '"ops_per_s":[0-9.e+]*' | cut -d: -f2 >>"$tmp/$v.ops"
	done
	r=$((r + 1))
done
median() {
	sort -g "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
tiny=$(median "$tmp/slub_tiny.ops")
printf '%-12s %10s %14s\n' build Mops/s /slub_tiny
for v in $names; do
	m=$(median "$tmp/$v.ops")
	echo "$v $m $tiny" | awk '{ printf "%-12s %10.1f %14.2f\n", $1, $2 / 1e6, $2 / $3 }'
done
echo "net trace on 1 thread, median of $rounds interleaved runs;" \
	"load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
