# SPDX-License-Identifier: GPL-2.0-only
# Sourced by tests that compare with the real scripts/bloat-o-meter of Linux
# 6.12: get_bom extracts it once per build directory from Debian's
# linux-source-6.12 tarball (mkdir is the lock between tests running in
# parallel) and sets $bom; it returns 1 when the reference cannot be had.
bom=$ST_BUILDDIR/tests/diff/sizes/ref/bloat-o-meter
get_bom() {
	tarball=/usr/src/linux-source-6.12.tar.xz
	refdir=$(dirname "$bom")
	[ -s "$bom" ] && return 0
	[ -r "$tarball" ] || return 1
	mkdir -p "$refdir"
	# a lock left by a test killed while extracting (timeout) is broken after 5 minutes
	[ -n "$(find "$refdir/lock" -maxdepth 0 -mmin +5 2>/dev/null)" ] && rm -rf "$refdir/lock"
	if mkdir "$refdir/lock" 2>/dev/null; then
		tmp=$refdir/tmp.$$
		mkdir -p "$tmp"
		tar -C "$tmp" -xJf "$tarball" --wildcards '*/scripts/bloat-o-meter' &&
			mv "$(find "$tmp" -name bloat-o-meter | head -1)" "$bom"
		rm -rf "$tmp" "$refdir/lock"
	else
		i=0
		while [ -d "$refdir/lock" ] && [ $i -lt 600 ]; do sleep 0.2; i=$((i + 1)); done
	fi
	[ -s "$bom" ]
}

# nm_warnings_match REF_ERR OUR_ERR CMD [MODE]: each "nm: NAME: MSG" line
# that bloat-o-meter's nm left in REF_ERR is "slubtiny: CMD: NAME: MSG" in
# OUR_ERR, in the same order, and OUR_ERR has no other line (nm names an
# archive member M, slubtiny ARCHIVE(M)). With MODE -c bloat-o-meter ran nm
# three times on each file (once a table), slubtiny warns once. Says what
# differs; 1 if anything.
nm_warnings_match() {
	${ST_PYTHON:-python3} - "$@" <<'PY'
import re, sys
ref, our, cmd = sys.argv[1:4]
runs = 3 if sys.argv[4:5] == ['-c'] else 1
lines = lambda p: [l.rstrip('\n') for l in open(p, encoding='utf-8', errors='replace')]
want = []
for l in lines(ref):
    m = re.match(r'^\S*nm: (.*): ([^:]+)$', l)
    if not m:
        sys.exit('bloat-o-meter: not an nm warning: %s' % l)
    want.append(m.groups())
if want != want[:len(want) // runs] * runs:
    sys.exit('bloat-o-meter: not %d runs of nm alike: %s' % (runs, want))
want = want[:len(want) // runs]
got = lines(our)
pre = 'slubtiny: %s: ' % cmd
for i in range(max(len(want), len(got))):
    w = want[i] if i < len(want) else None
    g = got[i] if i < len(got) else None
    ok = w and g and g.startswith(pre) and g.endswith(': ' + w[1])
    name = g[len(pre):-len(w[1]) - 2] if ok else None
    if not ok or not (name == w[0] or name.endswith('(%s)' % w[0])):
        sys.exit('stderr line %d: want nm\'s %s, got %s' % (i + 1, w and ': '.join(w), g))
PY
}
