#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The JSON schemas in doc/schema/ hold for what the commands really print.

Each command runs with --json on real inputs (objects compiled here, the
README's board, a built variant, a generated trace), in the cases that
fill the optional parts (findings, collateral, an unreadable file, -c
tables, a size_diff per result), and every error path prints the document
of doc/schema/error.json. The exit status and stderr are checked too.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

SRC = os.environ["ST_SRCDIR"]
S = os.environ["SLUBTINY"]
failures = []

try:
    import jsonschema
except ImportError:
    print("skip: python3-jsonschema missing")
    sys.exit(77)
if not shutil.which("cc"):
    print("skip: cc missing")
    sys.exit(77)


def schema(name):
    with open(os.path.join(SRC, "doc", "schema", name + ".json")) as f:
        s = json.load(f)
    jsonschema.Draft7Validator.check_schema(s)
    return s


def run(name, args, status, cwd, stdin=None, stderr_ok=True):
    r = subprocess.run([S] + args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, input=stdin)
    what = "slubtiny " + " ".join(args)
    if r.returncode != status:
        failures.append("%s: exit %d, want %d: %s" % (what, r.returncode, status, r.stderr))
        return
    if not stderr_ok and r.stderr:
        failures.append("%s: stderr: %s" % (what, r.stderr))
    if status == 2 and not r.stderr:
        failures.append("%s: an error with nothing on stderr" % what)
    try:
        doc = json.loads(r.stdout)
    except ValueError as e:
        failures.append("%s: not one JSON document (%s): %r" % (what, e, r.stdout[:200]))
        return
    try:
        jsonschema.validate(doc, schema(name))
    except jsonschema.ValidationError as e:
        failures.append("%s: does not follow doc/schema/%s.json: %s" % (what, name, e.message))
    return doc


def main():
    with tempfile.TemporaryDirectory() as t:
        board = os.path.join(t, "board")
        shutil.copytree(os.path.join(SRC, "fixtures", "readme"), board)
        cfg = "arch/arm/configs/board_defconfig"
        with open(os.path.join(board, "bad_defconfig"), "wb") as f:
            f.write(b"CONFIG_A=y\n\0\0\0ELF\n")
        for n, src in (("old", "int a[10]; int f(int i) { return a[i]; }\n"),
                       ("new", "int a[20]; const int r[4] = { 1 };\n"
                               "int f(int i) { return a[i] + r[i]; }\nint g(void) { return 2; }\n")):
            subprocess.run(["cc", "-Os", "-c", "-o", os.path.join(t, n + ".o"),
                            "-x", "c", "-"], input=src, text=True, check=True)
        old, new = os.path.join(t, "old.o"), os.path.join(t, "new.o")

        d = run("migrate", ["migrate", "--json", cfg], 1, board)
        if d and not d["files"][0]["findings"]:
            failures.append("migrate --json: the case has no findings")
        d = run("migrate", ["migrate", "--json", "--fix-deps", cfg, "bad_defconfig"], 2, board)
        if d and not (d["files"][0].get("collateral") and "error" in d["files"][1]):
            failures.append("migrate --json --fix-deps: no collateral or no error entry")
        run("migrate", ["migrate", "--json", "--arch", "arm", "-"], 1, board,
            stdin=open(os.path.join(board, cfg)).read())
        d = run("check", ["check", "--json", "arch"], 1, board, stderr_ok=False)
        if d and not d["findings"]:
            failures.append("check --json: the case has no findings")
        run("check", ["check", "--json", "--ignore", "removed-allocator,hardening-notice", "arch"], 0, board)
        fixed = os.path.join(t, "fixed")
        shutil.copytree(board, fixed)
        d = run("check", ["check", "--json", "--fix", "arch"], 0, fixed)
        if d and not (d.get("fixes") and d["fixes"][0]["side_effects"] and
                      d["fixes"][0]["side_effects_scope"] == "model" and
                      any(c["rule"] == "fix-deps" for c in d["fixes"][0]["changes"])):
            failures.append("check --json --fix: no fixes entry with its changes and side effects")
        run("size", ["size", "--json", old, new], 0, t, stderr_ok=False)
        d = run("size-diff", ["size-diff", "--json", old, new], 0, t, stderr_ok=False)
        if d and not d["tables"][0]["symbols"]:
            failures.append("size-diff --json: no symbols in the case")
        run("size-diff", ["size-diff", "--json", "-c", old, new], 0, t, stderr_ok=False)
        d = run("report", ["report", "--json", "--objects", "old=" + old, "new=" + new], 0, t,
                stderr_ok=False)
        if d and "size_diff" not in d["results"][1]:
            failures.append("report --json: no size_diff")
        run("build", ["build", "--json", "--arch", "x86_64", "--variant", "slub_tiny",
                      "--builddir", os.path.join(t, "b")], 0, t, stderr_ok=False)
        trace = os.path.join(t, "boot.trace")
        with open(trace, "w") as f:
            subprocess.run([S, "footprint", "gen", "boot"], stdout=f, check=True)
        run("footprint", ["footprint", "--json", "--time-ms", "1", "--trace", trace,
                          "--variant", "slub", "--variant", "slub_tiny"], 0, t, stderr_ok=False)

        none = os.path.join(t, "none")
        for args in (["migrate", "--json", none], ["migrate", "--json", "--frobnicate", cfg],
                     ["check", "--json", none], ["check", "--json", "bad_defconfig"],
                     ["size-diff", "--json", old, none],
                     ["report", "--json", "--objects", "a=" + none, "b=" + old],
                     ["build", "--json", "--variant", "nosuch", "--builddir", os.path.join(t, "b")],
                     ["footprint", "--json", "--trace", os.path.join(board, cfg)]):
            run("error", args, 2, board)
        # size exits as GNU size does when it cannot read a FILE (1), with the document
        run("error", ["size", "--json", none], 1, board)
        run("size", ["size", "--json", old, none], 1, board)
    for f in failures:
        print("FAIL: " + f)
    print("%d failures" % len(failures))
    return 1 if failures else 0


sys.exit(main())
