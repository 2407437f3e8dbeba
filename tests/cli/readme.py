#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run the command blocks of README.md, so that the guide stays true.

- ```console blocks: each "$ CMD" line runs in one shell, in a scratch git
  repository holding fixtures/readme (a board tree), with `slubtiny` on PATH
  and ~/linux a kernel tree (the Kconfig part of linux-source-6.12). The
  lines shown after a command must be what it printed (stdout, then stderr
  as a terminal shows them); a "..." line skips any number of lines. A
  command that exits non-zero must be followed by "$ echo $?" showing it.
  This checks the documentation against the tool, not the tool: its output
  is checked against the reference tools by the other tests.
- ```sh blocks: each line runs there too and must exit 0 with nothing on
  stderr. The quick-start blocks are the suite's own entry points: the test
  checks that .ci/run runs the second verbatim and that .ci/deps finds
  everything installed; `slubtiny report` itself is run by report-numbers.
- the pre-commit block is the .pre-commit-config.yaml of a scratch repository
  on which the real pre-commit must fail (a SLOB-era defconfig), then pass
  after `slubtiny check --fix`; the GitHub Actions step's `run:` line runs
  like a ```sh line (exit 1 here: the board has findings).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SRC = os.environ["ST_SRCDIR"]
BUILD = os.environ["ST_BUILDDIR"]
SLUBTINY = os.environ["SLUBTINY"]
TARBALL = "/usr/src/linux-source-6.12.tar.xz"
# ST_README_DUMP=DIR: also keep each command's output there, with the
# scratch directory's name replaced, for tests/same-output.sh.
DUMP = os.environ.get("ST_README_DUMP")
failures = []
scratch = None


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def blocks(text):
    """(marker, info, lines) of each fenced block; marker from a preceding comment."""
    out, marker, lines, info = [], None, None, None
    for line in text.split("\n"):
        if lines is None:
            m = re.match(r"<!-- readme-test: ([a-z-]+) -->$", line)
            if m:
                marker = m.group(1)
            elif line.startswith("```"):
                info, lines = line[3:].strip(), []
            elif line.strip():
                marker = None
        elif line.startswith("```"):
            out.append((marker, info, lines))
            marker, lines = None, None
        else:
            lines.append(line)
    return out


def prerequisites():
    for tool in ("git", "cc", "xz", "tar", "pre-commit", "flock"):
        if not shutil.which(tool):
            print("skip: %s missing" % tool)
            sys.exit(77)
    if not os.access(TARBALL, os.R_OK):
        print("skip: %s not installed" % TARBALL)
        sys.exit(77)


def kernel_tree():
    """The extraction check-tree.sh makes (tests/cli/kernel-tree.sh)."""
    helper = os.path.join(SRC, "tests", "cli", "kernel-tree.sh")
    r = subprocess.run(["sh", "-c", '. "$1" && printf "%s" "$tree"', "sh", helper],
                       stdout=subprocess.PIPE, text=True)
    if r.returncode == 77:
        sys.exit(77)
    if r.returncode:
        fail("cannot extract " + TARBALL)
        sys.exit(1)
    return r.stdout


# A fresh machine has no git identity (the suite runs with none, see
# tests/meson.build): every commit here names its own.
IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}


def git(work, *args):
    subprocess.run(["git", "-C", work] + list(args), check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=dict(os.environ, **IDENTITY))


def setup(tmp, tree):
    work = os.path.join(tmp, "board")
    shutil.copytree(os.path.join(SRC, "fixtures", "readme"), work)
    home = os.path.join(tmp, "home")
    bindir = os.path.join(tmp, "bin")
    os.makedirs(home)
    os.makedirs(bindir)
    os.symlink(tree, os.path.join(home, "linux"))
    os.symlink(SLUBTINY, os.path.join(bindir, "slubtiny"))
    env = dict(os.environ, HOME=home, PATH=bindir + ":" + os.environ["PATH"], **IDENTITY,
               PRE_COMMIT_HOME=os.path.join(tmp, "pre-commit-cache"), LC_ALL="C.UTF-8")
    for k in ("COLUMNS", "NO_COLOR"):
        env.pop(k, None)
    git(work, "init", "-q")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "board")
    # Two builds of a program for the size-diff example.
    for d, src in (("old", "int a[10]; int main(void) { return a[1]; }\n"),
                   ("new", "int a[20]; const int r[4] = { 1 };\n"
                           "int main(void) { return a[1] + r[2]; }\n")):
        os.makedirs(os.path.join(work, d))
        with open(os.path.join(work, d, "prog.c"), "w") as f:
            f.write(src)
        subprocess.run(["cc", "-Os", "-o", os.path.join(work, d, "vmlinux"),
                        os.path.join(work, d, "prog.c")], check=True)
    return work, env


def dump(what, text):
    if not DUMP:
        return
    name = re.sub(r"[^A-Za-z0-9.-]+", "_", what)[:100]
    with open(os.path.join(DUMP, name), "w") as f:
        f.write(text.replace(scratch, "$SCRATCH") if scratch else text)


def matches(want, got):
    """Do the lines @got match @want, where "..." in @want skips lines?"""
    if "..." not in want:
        return want == got
    pos = 0
    skipping = False
    for w in want:
        if w == "...":
            skipping = True
            continue
        while pos < len(got) and got[pos] != w:
            if not skipping:
                return False
            pos += 1
        if pos == len(got):
            return False
        pos += 1
        skipping = False
    return skipping or pos == len(got)


def run_console(lines, work, env, n):
    cmds = []
    for line in lines:
        if line.startswith("$ "):
            cmds.append((line[2:], []))
        elif cmds:
            cmds[-1][1].append(line)
        else:
            fail("console block %d: output before a command" % n)
    mark = "\x1e@readme@"
    script = "st=0\n"
    for i, (cmd, _) in enumerate(cmds):
        nxt = cmds[i + 1][0] if i + 1 < len(cmds) else ""
        # The marker, then $? back to the previous command's for "echo $?".
        script += "printf '%s\\n'\n(exit $st)\n%s\nst=$?\n" % (mark, cmd)
        if nxt != "echo $?":
            script += "[ $st = 0 ] || echo \"[exit $st]\"\n"
    r = subprocess.run(["sh", "-c", script], cwd=work, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    outs = r.stdout.split(mark + "\n")[1:]
    if len(outs) != len(cmds):
        fail("console block %d: ran %d of %d commands:\n%s" % (n, len(outs), len(cmds), r.stdout))
        return
    for i, ((cmd, want), got) in enumerate(zip(cmds, outs)):
        dump("console-%d-%d %s" % (n, i, cmd), got)
        got = got.split("\n")[:-1]
        if not matches(want, got):
            fail("console block %d: '%s' printed:\n%s\n--- README shows:\n%s"
                 % (n, cmd, "\n".join(got), "\n".join(want)))


def run_sh(lines, work, env, what, want_status=0):
    for cmd in lines:
        if not cmd.strip() or cmd.lstrip().startswith("#"):
            continue
        r = subprocess.run(["sh", "-c", cmd], cwd=work, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        dump("%s %s" % (what, cmd), "%s[stderr]\n%s[exit %d]\n" % (r.stdout, r.stderr, r.returncode))
        if r.returncode != want_status:
            fail("%s: '%s' exits %d, want %d:\n%s" % (what, cmd, r.returncode, want_status, r.stderr))
        elif r.stderr and want_status == 0:
            fail("%s: '%s' wrote to stderr:\n%s" % (what, cmd, r.stderr))


def quickstart(found):
    if len(found) != 2:
        fail("README has %d quick-start blocks, want 2" % len(found))
        return
    main, test = found[0][2], found[1][2]
    with open(os.path.join(SRC, ".ci", "run")) as f:
        ci = f.read()
    if len(test) != 1 or test[0] not in ci.split("\n"):
        fail("the test quick start '%s' is not what .ci/run runs" % " ".join(test))
    if main != ["sh .ci/deps && sh .ci/build && build/cli/slubtiny report"]:
        fail("main quick start changed: %s" % main)
    for what in ("main", "test"):
        r = subprocess.run(["sh", os.path.join(SRC, ".ci", "deps"), what], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if r.returncode:
            fail(".ci/deps %s exits %d: %s" % (what, r.returncode, r.stdout))
    for f in (".ci/build", "tests/run"):
        if not os.path.exists(os.path.join(SRC, f)):
            fail("quick start names a missing " + f)


def pre_commit(yaml, work, env):
    with open(os.path.join(work, ".pre-commit-config.yaml"), "w") as f:
        f.write("\n".join(yaml) + "\n")
    git(work, "add", ".pre-commit-config.yaml")

    def run():
        return subprocess.run(["pre-commit", "run", "--all-files"], cwd=work, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    r = run()
    if r.returncode != 1 or "removed-allocator" not in r.stdout:
        fail("pre-commit on a SLOB board: exit %d, want 1 with the finding:\n%s"
             % (r.returncode, r.stdout))
    subprocess.run(["slubtiny", "check", "--fix", "arch/arm/configs"], cwd=work, env=env,
                   stdout=subprocess.DEVNULL)
    git(work, "add", "-A")
    r = run()
    if r.returncode != 0 or "Passed" not in r.stdout:
        fail("pre-commit after check --fix: exit %d:\n%s" % (r.returncode, r.stdout))


def main():
    prerequisites()
    with open(os.path.join(SRC, "README.md")) as f:
        text = f.read()
    nlines = text.count("\n")
    if nlines > 260:
        fail("README.md has %d lines; the guide keeps to about 250" % nlines)
    first = "\n".join(text.split("\n")[:60])
    if "slubtiny migrate" not in first:
        fail("how to migrate a defconfig is not in the first screen of README.md")
    tree = kernel_tree()
    found = blocks(text)
    ran = 0
    global scratch
    with tempfile.TemporaryDirectory() as tmp:
        scratch = tmp
        work, env = setup(tmp, tree)
        quickstart([b for b in found if b[0] == "quickstart"])
        for marker, info, lines in found:
            ran += 1
            if marker == "quickstart":
                continue
            if marker == "pre-commit":
                pre_commit(lines, work, env)
            elif marker == "actions":
                runs = [re.sub(r"^\s*run:\s*", "", l) for l in lines if re.match(r"^\s*run:", l)]
                if not runs:
                    fail("actions block has no run: line")
                git(work, "checkout", "-q", "HEAD", "--", "arch")
                run_sh(runs, work, env, "actions", want_status=1)
            elif info == "console":
                run_console(lines, work, env, ran)
            elif info == "sh":
                run_sh(lines, work, env, "sh block %d" % ran)
            else:
                fail("block %d (%s) is neither run nor marked" % (ran, info or "no info"))
    print("%d blocks of README.md run, %d failures" % (ran, len(failures)))
    return 1 if failures else 0


sys.exit(main())
