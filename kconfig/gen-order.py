#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""gen-order.py - record a kernel tree's Kconfig menu order for a model.

  gen-order.py --srctree DIR --model VERSION [--window N] [ARCH ...]

Writes kconfig/models/VERSION/order (see kconfig/models/README): for every
arch of the tree (or the ARCHes given), the order in which `make
savedefconfig` writes symbols (Kconfiglib's node order, first definition of
each symbol), restricted to the symbols that have a prompt (the only ones
savedefconfig writes) within N places before and after each symbol of the
model that has a prompt in the tree. Overlapping windows make one segment;
every segment is a complete run of that order, so a line placed next to a
symbol of its segment is placed exactly.

The arches share most of it (only arch/$(SRCARCH)/ and symbols an arch
defines first differ): x86 is written in full, every other arch as the
edit of x86's list that gives its own.
"""

import argparse
import difflib
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import st_kconfig as st     # noqa: E402  (the syntax shims, make_env)

BASE = "x86"


def model_symbols(path):
    with open(path, encoding="utf-8") as f:
        return [m.group(1) for m in
                (re.match(r"^(?:menu)?config\s+([A-Za-z0-9_]+)", line)
                 for line in f) if m]


def arch_tokens(srctree, arch, anchors, window):
    """The segments of @arch as one token list, segments split by '|'."""
    env = st.make_env(srctree, arch, "", {"RUSTC_VERSION_TEXT": ""})
    os.environ.update(env)
    kconf = st.load_kconfig_cached(os.path.join(srctree, "Kconfig"), env)
    prompted = [s.name for s in kconf.unique_defined_syms
                if any(n.prompt for n in s.nodes) and
                s.name not in st.TRANSITIONAL]
    where = {n: i for i, n in enumerate(prompted)}
    keep = [False] * len(prompted)
    for name in anchors:
        i = where.get(name)
        if i is None:
            continue
        for j in range(max(0, i - window), min(len(prompted), i + window + 1)):
            keep[j] = True
    toks = []
    for i, name in enumerate(prompted):
        if keep[i]:
            toks.append(name)
        elif toks and toks[-1] != "|":
            toks.append("|")
    while toks and toks[-1] == "|":
        toks.pop()
    return toks


def edit(base, toks):
    """@toks as ops on @base: =N keep, -N skip, names inserted."""
    ops = []
    sm = difflib.SequenceMatcher(None, base, toks, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            ops.append("=%d" % (i2 - i1))
            continue
        if i2 > i1:
            ops.append("-%d" % (i2 - i1))
        ops.extend(toks[j1:j2])
    return ops


def wrap(words, width=78):
    lines, cur = [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = cur + " " + w if cur else w
    if cur:
        lines.append(cur)
    return lines


def main():
    ap = argparse.ArgumentParser(prog="gen-order.py")
    ap.add_argument("--srctree", required=True)
    ap.add_argument("--model", required=True,
                    help="model version (kconfig/models/VERSION)")
    ap.add_argument("--window", type=int, default=128)
    ap.add_argument("-o", "--output",
                    help="default: kconfig/models/VERSION/order")
    ap.add_argument("arches", nargs="*")
    args = ap.parse_args()
    srctree = os.path.abspath(args.srctree)
    mdir = os.path.join(st.MODELS_DIR, args.model)
    anchors = model_symbols(os.path.join(mdir, "Kconfig"))
    arches = args.arches or sorted(
        a for a in os.listdir(os.path.join(srctree, "arch"))
        if os.path.isfile(os.path.join(srctree, "arch", a, "Kconfig")))
    if BASE not in arches:
        arches.insert(0, BASE)
    sys.stdout = sys.stderr     # $(info,...) of a Kconfig file
    try:
        toks = {a: arch_tokens(srctree, a, anchors, args.window)
                for a in arches}
    except st.HelperError as e:
        st.die(str(e))
    out = ["# Kconfig menu order (savedefconfig's) of linux %s, around the "
           "symbols" % st.tree_version(srctree),
           "# of this model; generated, do not edit: kconfig/gen-order.py "
           "--srctree DIR",
           "# --model %s --window %d (see ../README). 'arch A' starts an "
           "arch; '|' ends" % (args.model, args.window),
           "# a segment; after the first arch: =N keeps N of its tokens, "
           "-N skips N,",
           "# a name is inserted."]
    for a in [BASE] + [x for x in arches if x != BASE]:
        out.append("arch %s" % a)
        out.extend(wrap(toks[a] if a == BASE else edit(toks[BASE], toks[a])))
    path = args.output or os.path.join(mdir, "order")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    os.replace(path + ".tmp", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
