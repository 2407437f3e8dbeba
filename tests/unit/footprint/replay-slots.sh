#!/bin/sh
# The timed passes replay from a compact copy of the trace in which a
# thread's next allocation reuses the slot of an object it freed
# (lib/footprint/replay/replay.c). A trace made to stress that: two threads,
# objects freed by the other thread, krealloc chains, kzalloc, cache
# objects and objects left live at the end. On slub_debug (red zones,
# poisoning, free checks) and slub, every timed pass must free exactly
# what the trace frees: no report, no page kept.
set -u
. "$(dirname "$0")/tap.sh"

# Rounds of: each thread allocates 12 objects; thread 0 frees its first
# six, thread 1 frees thread 0's last six (after their allocations, so
# the trace is consistent), reallocs one of its own twice and frees its
# own but two, which stay live until the end.
awk 'BEGIN {
	print "slubtrace 1"
	print "cache st_obj 200 0 HWCACHE_ALIGN"
	id = 0
	for (r = 0; r < 150; r++) {
		for (th = 0; th < 2; th++)
			for (i = 0; i < 12; i++) {
				o[th, i] = id
				if (i % 3 == 0)
					printf "@%d alloc %d st_obj\n", th, id++
				else if (i % 3 == 1)
					printf "@%d kzalloc %d %d\n", th, id++, 16 + (r * 37 + i * 11) % 700
				else
					printf "@%d kmalloc %d %d\n", th, id++, 8 + (r * 53 + i * 29) % 3000
			}
		for (i = 0; i < 6; i++)
			printf "@0 free %d\n", o[0, i]
		for (i = 6; i < 12; i++)
			printf "@1 free %d\n", o[0, i]
		printf "@1 krealloc %d %d\n", o[1, 2], 4000
		printf "@1 krealloc %d %d\n", o[1, 2], 40
		for (i = 0; i < 12; i++)
			if (r % 50 || i > 1)
				printf "@1 free %d\n", o[1, i]
	}
}' >"$tmp/slots.trace"

for v in slub_debug slub; do
	"$SLUBTINY" footprint --variant $v --trace "$tmp/slots.trace" --threads 2 \
		--time-ms 100 --json >"$tmp/$v.json" 2>"$tmp/$v.err"
	st=$?
	t "$v, 2 threads: exit 0, nothing on stderr" $([ $st = 0 ] && [ ! -s "$tmp/$v.err" ]; echo $?)
	t "$v: timed" $(grep -q '"wall_ns":[1-9]' "$tmp/$v.json"; echo $?)
	t "$v: no allocator report" $(grep -q '"slab_reports":0[,}]' "$tmp/$v.json"; echo $?)
	t "$v: no page kept" $(grep -q '"leak_pages":0[,}]' "$tmp/$v.json"; echo $?)
done
echo "1..$n"
exit $fail
