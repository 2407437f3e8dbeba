#!/bin/sh
# Each allocator variant against SLUB_TINY on footprint's traces, on one
# and two threads (net, and net-1t: the same trace on one thread): peak
# and final pages, ops/s and ops per CPU-second, and the 2-thread/1-thread
# scaling, each over SLUB_TINY's, from one `slubtiny footprint` run, with
# the load average before and after. It asserts nothing about speed: the
# measured claim is how the variants compare, with no target
# (doc/allocator.md); speed moves with the load, so read the load average.
# It fails when footprint does: a non-zero exit (1 is a page expectation
# that does not hold), anything on stderr, or a comparison missing.
#
#	TIME_MS=N	timed replay per trace and variant (default 1000)
#
# meson test -C BUILD --benchmark footprint-compare --verbose
set -u
. "$(dirname "$0")/../lib.sh"
st_tmpdir tmp
before=$(cut -d' ' -f1-3 /proc/loadavg)
"$SLUBTINY" footprint -q --time-ms "${TIME_MS:-1000}" --json >"$tmp/out" 2>"$tmp/err"
st=$?
after=$(cut -d' ' -f1-3 /proc/loadavg)
echo "slubtiny footprint --time-ms ${TIME_MS:-1000}: exit $st"
echo "load average before: $before; after: $after; $(nproc) CPUs"
if [ -s "$tmp/err" ]; then
	echo "stderr:"
	cat "$tmp/err"
fi
[ $st = 0 ] && [ ! -s "$tmp/err" ] || exit 1
"${ST_PYTHON:-python3}" - "$tmp/out" <<'PY'
import json, sys

d = json.load(open(sys.argv[1]))
base = "slub_tiny"
ratio = {(x["trace"], x["what"], x["num"]): x["value"]
         for x in d["ratios"] if x["den"] == base}
whats = ("peak_pages", "final_pages", "ops_per_s", "ops_per_cpu_s", "scaling")


def fmt(v, f):
    return "-" if v is None else f % v


print("right of |: the figure over %s's on the same trace" % base)
print("%-7s %3s %-13s %7s %7s %7s %8s | %7s %7s %7s %7s %7s" %
      ("trace", "thr", "variant", "peak pg", "final", "Mops/s", "Mops/cpu",
       "peak", "final", "ops/s", "ops/cpu", "scaling"))
missing = []
for run in d["runs"]:
    t, v = run["trace"], run["variant"]
    r = [None if v == base else ratio.get((t, w, v)) for w in whats]
    if v != base and any(x is None for x in r[:4]):
        missing.append((t, v))
    print("%-7s %3d %-13s %7d %7d %7.2f %8.2f | %7s %7s %7s %7s %7s" %
          (t, run["threads"], v + ("*" if run["pages_source"] == "rss" else ""),
           run["peak_pages"], run["final_pages"], run["ops_per_s"] / 1e6,
           run["ops_per_cpu_s"] / 1e6, fmt(r[0], "%.3f"), fmt(r[1], "%.2f"),
           fmt(r[2], "%.2f"), fmt(r[3], "%.2f"), fmt(r[4], "%.2f")))
print("* pages: RSS growth (glibc), not the allocator's counters")
print("page expectations hold: %s" % d["expectations_hold"])
# net on two threads and on one: the SLUBs each time
for v in ("slub", "slub_sheaves"):
    for t in ("net", "net-1t"):
        if not any(x["trace"] == t and x["variant"] == v for x in d["runs"]):
            missing.append((t, v))
if missing:
    print("missing against %s: %s" % (base, missing))
sys.exit(1 if missing else 0)
PY
