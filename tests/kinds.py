#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Every registered test has one kind, and the unit tests need no kernel.

The kinds are suites: unit (one module alone, fast, no kernel tree), diff
(against a reference tool or tree), fuzz (a parser's corpus), cli (the
command end to end); `slow` marks, beside its kind, a test that builds or
boots a kernel or runs the kernel's conf for minutes. `meson test --suite
unit` is then the developer's quick loop, and this checks it stays one: a
unit test that is also slow, or whose script reads a kernel tree (Debian's
linux-source tarballs or the shared extraction), fails here. So does a cli
test that reads a tree outside suite `tree` (nor slow, nor diff): those
three are what `tests/run --quick` leaves out.

Reads the build directory's meson-info (ST_BUILDDIR).
"""
import json
import os
import re
import sys

KINDS = {"unit", "diff", "fuzz", "cli"}
# What reading a kernel tree looks like in a test script.
TREE = re.compile(r"linux-source|/usr/src/|st_shared_tree|ST_SRCTREE")
SOURCED = re.compile(r'^\s*\.\s+"?\$ST_SRCDIR/([^"\s]+)"?', re.M)


def suites(t):
    return {s.split(":")[-1] for s in t["suite"]}


def scripts(cmd, src):
    """The test's own script files under tests/, and those they source."""
    todo = [a for a in cmd if a.startswith(os.path.join(src, "tests", ""))
            and a.endswith((".sh", ".py"))]
    seen = []
    while todo:
        p = todo.pop()
        if p in seen or not os.path.isfile(p):
            continue
        seen.append(p)
        with open(p, encoding="utf-8", errors="replace") as f:
            text = f.read()
        todo += [os.path.join(src, m) for m in SOURCED.findall(text)]
    return seen


def main():
    build = os.environ["ST_BUILDDIR"]
    src = os.path.realpath(os.environ["ST_SRCDIR"])
    path = os.path.join(build, "meson-info", "intro-tests.json")
    try:
        with open(path, encoding="utf-8") as f:
            tests = json.load(f)
    except (OSError, ValueError) as e:
        print(f"kinds: {path}: {e}", file=sys.stderr)
        return 2
    bad, nunit = [], 0
    for t in tests:
        s = suites(t)
        if "fuzz-run" in s:
            continue	# the fuzz build's own runs, not a kind of this one
        k = s & KINDS
        if len(k) != 1:
            bad.append(f"{t['name']}: kinds {sorted(k) or 'none'}, want one of "
                       + ", ".join(sorted(KINDS)))
            continue
        unit = "unit" in k
        nunit += unit
        if unit and "slow" in s:
            bad.append(f"{t['name']}: a unit test cannot be slow")
        # slow and diff tests may read trees: tests/run --quick skips them
        if not unit and s & {"slow", "diff", "tree"}:
            continue
        cmd = [os.path.realpath(a) if a.startswith("/") else a for a in t["cmd"]]
        for p in scripts(cmd, src):
            if os.path.samefile(p, __file__):
                continue	# its own patterns
            with open(p, encoding="utf-8", errors="replace") as f:
                m = TREE.search(f.read())
            if m and unit:
                bad.append(f"{t['name']}: unit test reads a kernel tree "
                           f"({os.path.relpath(p, src)}: '{m.group(0)}')")
            elif m:
                bad.append(f"{t['name']}: reads a kernel tree "
                           f"({os.path.relpath(p, src)}: '{m.group(0)}') "
                           "and is not in suite tree (tests/run --quick would run it)")
    for b in bad:
        print("FAIL: " + b)
    print(f"kinds: {len(tests)} tests, {nunit} unit, {len(bad)} wrong")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
