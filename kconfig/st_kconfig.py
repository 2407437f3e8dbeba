#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""st_kconfig.py - slubtiny's Kconfiglib helper (the project's only Python).

Modes:
  autoconf --kconfig K --defconfig D --header H --config C
      Resolve D over the defaults of K like `make olddefconfig` and write an
      autoconf.h-style header H and the full .config C.
  serve
      Long-lived JSON-lines server, one process per (tree, arch). See
      PROTOCOL below and lib/kconfig/kconfig.h.

Errors are one line on stderr and exit status 2; never a traceback.
"""

import io
import os
import re
import sys


def die(msg):
    sys.stderr.write("st_kconfig: %s\n" % msg)
    sys.exit(2)


def no_kconfiglib():
    """Without Kconfiglib: one-line error; in serve mode, as every reply."""
    import json
    msg = "Kconfiglib not found for %s (install python3-kconfiglib or set " \
        "SLUBTINY_PYTHON)" % (sys.executable or "python3")
    if sys.argv[1:2] != ["serve"]:
        die(msg)
    for line in sys.stdin:
        try:
            rid = json.loads(line).get("id")
        except (ValueError, AttributeError):
            rid = None
        sys.stdout.write(json.dumps({"id": rid, "ok": False, "error": msg})
                         + "\n")
        sys.stdout.flush()
    sys.exit(2)


try:
    import kconfiglib
except ImportError:
    no_kconfiglib()


#
# Syntax shim. Kconfiglib 14.1 predates some Kconfig syntax of newer kernels.
# Every Kconfig file goes through rewrite_kconfig() when Kconfiglib opens it,
# so the tree is never modified. One row per construct: (name, regex,
# replacement, why). Rows must keep the line count (finding locations are
# file:line).
#
SYNTAX_SHIMS = [
    # Linux 5.13 ("kconfig: change "modules" from sub-option to first-level
    # attribute"): a bare `modules` line inside `config MODULES`.
    ("modules", re.compile(r"^([ \t]+)modules[ \t]*(#.*)?$", re.M),
     r"\1option modules", "Linux >= 5.13 'modules' attribute"),
    # Linux 6.18 (f9afce4f32e9, "kconfig: Add transitional symbol attribute
    # for migration support"): `transitional` marks an old symbol name that
    # is read from .config but never written. Kconfiglib has no such thing:
    # the keyword is dropped here, the symbol remembered in TRANSITIONAL and
    # given conf's semantics after parsing (Kconfig._st_transitional()).
    ("transitional", re.compile(r"^([ \t]+)transitional[ \t]*(#.*)?$", re.M),
     r"\1# transitional (slubtiny shim)", "Linux >= 6.18 'transitional'"),
    # Linux 7.0 (76df6815dab7, "kconfig: Support conditional deps using
    # "depends on X if Y""): conf reads it as X || (Y = n); see cond_dep().
    ("depends", re.compile(r"^([ \t]+depends[ \t]+on[ \t]+)([^#\n]*?[^#\s])[ \t]+if[ \t]+"
                           r"([^#\n]*?[^#\s])([ \t]*(?:#.*)?)$", re.M),
     lambda m: cond_dep(m), "Linux >= 7.0 'depends on X if Y'"),
]
SHIM_KEYWORDS = tuple(row[0] for row in SYNTAX_SHIMS)


def cond_dep(m):
    """
    "depends on X if Y" as Kconfiglib can read it: X || (Y is n), with
    (Y is n) spelt out as conf's expr_trans_compare(Y, E_EQUAL, n) does,
    down to comparisons of symbols (see is_n()). !(Y) would not do: with
    Y = m it is m, where conf's (Y = n) is n.
    """
    dep, cond = m.group(2), m.group(3)
    try:
        off = is_n(CondParser(cond).parse())
    except ValueError:
        off = "!(%s)" % cond
    return "%s(%s) || (%s)%s" % (m.group(1), dep, off, m.group(4))


COND_TOKEN = re.compile(r"""\s*(\|\||&&|!=|<=|>=|[!=<>()]|[A-Za-z0-9_.+-]+
                               |"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')""", re.X)
COMPARE = ("=", "!=", "<", "<=", ">", ">=")


class CondParser:
    """
    A Kconfig expression as parser.y reads it: || below &&, ! on a
    primary, comparisons between two symbols. Anything else (a macro, an
    odd token) raises ValueError.
    """

    def __init__(self, text):
        self.toks, pos = [], 0
        text = text.rstrip()
        while pos < len(text):
            m = COND_TOKEN.match(text, pos)
            if not m:
                raise ValueError(text)
            self.toks.append(m.group(1))
            pos = m.end()
        self.i = 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self):
        tok = self.peek()
        if tok is None:
            raise ValueError("end of expression")
        self.i += 1
        return tok

    def parse(self):
        e = self.expr_or()
        if self.peek() is not None:
            raise ValueError(self.peek())
        return e

    def chain(self, op, kind, operand):
        """operand (op operand)*, left-associative, as (kind, left, right)."""
        e = operand()
        while self.peek() == op:
            self.take()
            e = (kind, e, operand())
        return e

    def expr_or(self):
        return self.chain("||", "or", self.expr_and)

    def expr_and(self):
        return self.chain("&&", "and", self.unary)

    def unary(self):
        if self.peek() == "!":
            self.take()
            return ("not", self.unary())
        if self.peek() == "(":
            self.take()
            e = self.expr_or()
            if self.take() != ")":
                raise ValueError("no )")
            return e
        sym = self.symbol()
        if self.peek() in COMPARE:
            op = self.take()
            return ("cmp", "%s %s %s" % (sym, op, self.symbol()))
        return ("sym", sym)

    def symbol(self):
        tok = self.take()
        if tok in COMPARE or tok in ("||", "&&", "!", "(", ")"):
            raise ValueError(tok)
        return tok


def is_n(e):
    """conf's expr_trans_compare(e, E_EQUAL, &symbol_no), as text."""
    kind = e[0]
    if kind == "sym":
        return "%s = n" % e[1]
    if kind == "cmp":
        return "!(%s)" % e[1]
    if kind == "not":
        return not_n(e[1])
    if kind == "and":
        return "(%s) || (%s)" % (is_n(e[1]), is_n(e[2]))
    return "(%s) && (%s)" % (is_n(e[1]), is_n(e[2]))


def not_n(e):
    """conf's expr_trans_compare(e, E_UNEQUAL, &symbol_no), as text."""
    kind = e[0]
    if kind == "sym":
        return "%s != n" % e[1]
    if kind == "cmp":
        return e[1]
    if kind == "not":
        return is_n(e[1])
    return "!(%s)" % is_n(e)


# Symbols marked `transitional` in the Kconfig parsed last: conf never
# writes them to .config, so neither do we (see written()).
TRANSITIONAL = set()


def note_transitional(text):
    name = None
    for line in text.splitlines():
        m = re.match(r"^\s*(?:menu)?config\s+([A-Za-z0-9_]+)", line)
        if m:
            name = m.group(1)
        elif name and re.match(r"^\s*transitional\s*(#.*)?$", line):
            TRANSITIONAL.add(name)


def rewrite_kconfig(text):
    if "transitional" in text:
        note_transitional(text)
    for word, regex, repl, _ in SYNTAX_SHIMS:
        if word in text:
            text = regex.sub(repl, text)
    return text


class Kconfig(kconfiglib.Kconfig):
    """Kconfiglib with the syntax shim on every file it reads for parsing."""

    def _open(self, filename, mode):
        f = super()._open(filename, mode)
        # Only Kconfig sources are shimmed: .config files are loaded through
        # _open_config() after parsing, when self._parsing is False.
        if mode != "r" or not getattr(self, "_st_parsing", False):
            return f
        with f:
            text = f.read()
        return io.StringIO(rewrite_kconfig(text))

    def _open_config(self, filename):
        # verify hands the assignments over as text, not as a file.
        if hasattr(filename, "text"):
            return io.StringIO(filename.text)
        return super()._open_config(filename)

    def _init(self, *args, **kwargs):
        TRANSITIONAL.clear()
        self._st_parsing = True
        try:
            super()._init(*args, **kwargs)
        finally:
            self._st_parsing = False
        self._st_transitional()

    def _st_transitional(self):
        """
        Read transitional symbols as conf does (6.18): one has nothing but
        a type and help (else conf refuses the tree), and a value the
        config gives it counts whatever its menu (conf calls it "usable"),
        so it feeds the defaults that name it. Kconfiglib uses a user
        value only through a visible prompt: give each an always-visible
        one. It still is never written (written(), header_contents()).
        """
        for name in sorted(TRANSITIONAL):
            sym = self.syms.get(name)
            if sym is None or not sym.nodes:
                continue
            node = sym.nodes[0]
            if sym.defaults or sym.selects or sym.implies or sym.ranges or \
               any(n.prompt for n in sym.nodes):
                raise kconfiglib.KconfigError(
                    "%s: transitional symbols can only have help sections"
                    % transitional_offender(node))
            for n in sym.nodes:
                n.prompt = ("%s (transitional)" % name, self.y)
            sym.direct_dep = self.y
        if TRANSITIONAL:
            self._invalidate_all()

    def _load_config(self, filename, replace):
        # Since 6.11 conf ranks a choice's members by the order the file
        # assigns them (see choice_ranking()): number each assignment.
        if replace or not hasattr(self, "_st_seq"):
            self._st_seq = {}
        self._st_loading = True
        try:
            super()._load_config(filename, replace)
        finally:
            self._st_loading = False


_kconfiglib_set_value = kconfiglib.Symbol.set_value


def _set_value_ranked(self, value):
    ok = _kconfiglib_set_value(self, value)
    kconf = self.kconfig
    if ok and self.choice is not None and getattr(kconf, "_st_loading", 0):
        kconf._st_count = getattr(kconf, "_st_count", 0) + 1
        kconf._st_seq[self] = kconf._st_count
    return ok


kconfiglib.Symbol.set_value = _set_value_ranked



#
# imply as conf does it. Kconfiglib raises a tristate to y when it resolves
# to m and an imply of y applies; conf (scripts/kconfig/symbol.c, Linux 6.1
# and 6.12 alike) only turns m into y for bool symbols, and a user's value
# of a visible symbol never goes through the imply at all. So a visible
# tristate the file sets to m, implied by a y symbol, stays m: undo that one
# promotion.
#

_kconfiglib_tri_value = kconfiglib.Symbol.tri_value.fget


def _conf_tri_value(self):
    val = _kconfiglib_tri_value(self)
    # (cheap tests first: self.type would recurse through MODULES)
    if val != 2 or self.orig_type is not kconfiglib.TRISTATE or \
       self.choice is not None or self.user_value is None:
        return val
    vis = self.visibility
    if not vis:
        return val
    own = max(min(self.user_value, vis), kconfiglib.expr_value(self.rev_dep))
    if own == 1 and self.kconfig.modules.tri_value:
        self._cached_tri_val = 1
        return 1
    return val


kconfiglib.Symbol.tri_value = property(_conf_tri_value)

#
# $(shell ...) cache. The kernel's Kconfig probes the compiler ~90 times
# (cc-option, as-instr, ...), which is most of a parse and the same for
# every arch built with the same compiler. Results are kept per
# fingerprint of the tools (path, size, mtime of CC, LD, ...; PATH; the
# make-like variables but the arch), so another compiler or tree is
# another cache.
# SLUBTINY_NO_CACHE=1 turns it off.
#

class ShellCache(object):
    TOOLS = ("CC", "LD", "AR", "NM", "OBJCOPY", "HOSTCC", "HOSTCXX", "RUSTC",
             "BINDGEN", "PAHOLE")

    def __init__(self, env):
        import hashlib
        import json
        self.path = None
        self.data = {}
        self.dirty = False
        if os.environ.get("SLUBTINY_NO_CACHE") == "1":
            return
        base = os.environ.get("SLUBTINY_CACHE_DIR") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or
            os.path.join(os.path.expanduser("~"), ".cache"), "slubtiny")
        fp = [os.environ.get("PATH", "")]
        # Not ARCH/SRCARCH: the probes get the arch in their command text
        # (e.g. -march=...) when it matters, and sharing them across
        # arches is the point. Everything else the commands could read
        # from their environment is part of the key.
        for k in sorted(env):
            if k not in ("ARCH", "SRCARCH", "HEADER_ARCH"):
                fp.append("%s=%s" % (k, env[k]))
        for tool in self.TOOLS:
            prog = (env.get(tool) or "").split(" ")[0]
            p = which(prog) if prog else None
            if p:
                st = os.stat(p)
                fp.append("%s:%s:%d:%d" % (tool, os.path.realpath(p),
                                           st.st_size, st.st_mtime_ns))
        key = hashlib.sha256("\0".join(fp).encode()).hexdigest()[:24]
        self.path = os.path.join(base, "kconfig-shell-%s.json" % key)
        try:
            with open(self.path, encoding="utf-8") as f:
                self.data = json.load(f)
            if not isinstance(self.data, dict):
                self.data = {}
        except (EnvironmentError, ValueError):
            self.data = {}

    def wrap(self, real):
        def shell_fn(kconf, name, command):
            hit = self.data.get(command)
            if isinstance(hit, str):
                return hit
            out = real(kconf, name, command)
            self.data[command] = out
            self.dirty = True
            return out
        return shell_fn

    def save(self):
        import json
        import tempfile
        if not self.path or not self.dirty:
            return
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(self.path))
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(self.data, f)
            os.replace(tmp, self.path)
        except EnvironmentError:
            pass    # a cache that cannot be written is only slower


def load_kconfig_cached(path, env):
    """load_kconfig() with $(shell ...) results cached for @env."""
    cache = ShellCache(env)
    real = kconfiglib._shell_fn
    kconfiglib._shell_fn = cache.wrap(real)
    try:
        kconf = load_kconfig(path)
    finally:
        kconfiglib._shell_fn = real
    cache.save()
    return kconf


def load_kconfig(path):
    """Parse @path quietly; warnings stay in kconf.warnings."""
    try:
        return Kconfig(path, warn=True, warn_to_stderr=False)
    except kconfiglib.KconfigError as e:
        raise HelperError(str(e).strip().replace("\n", " "))
    except EnvironmentError as e:
        raise HelperError("%s: %s" % (getattr(e, "filename", None) or path,
                                      e.strerror or e))


class HelperError(Exception):
    def __init__(self, msg, code=None):
        super().__init__(msg)
        self.code = code        # errno name for the client, e.g. "EINVAL"


#
# autoconf mode
#

def header_contents(kconf):
    out = ["/* Generated by slubtiny kconfig/st_kconfig.py; do not edit. */\n"]
    for sym in kconf.unique_defined_syms:
        val = sym.str_value
        if not sym._write_to_conf or sym.name in TRANSITIONAL:
            continue
        name = kconf.config_prefix + sym.name
        if sym.orig_type in (kconfiglib.BOOL, kconfiglib.TRISTATE):
            if val == "y":
                out.append("#define %s 1\n" % name)
            elif val == "m":
                out.append("#define %s_MODULE 1\n" % name)
        elif sym.orig_type == kconfiglib.STRING:
            out.append('#define %s "%s"\n' % (name, kconfiglib.escape(val)))
        elif sym.orig_type == kconfiglib.HEX:
            if not val.lower().startswith("0x"):
                val = "0x" + val
            out.append("#define %s %s\n" % (name, val))
        elif sym.orig_type == kconfiglib.INT:
            out.append("#define %s %s\n" % (name, val))
    return "".join(out)


def write_file(path, text):
    # Always rewrite (never "if changed"): build tools compare mtimes.
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def cmd_autoconf(argv):
    import argparse

    ap = argparse.ArgumentParser(prog="st_kconfig.py autoconf")
    ap.add_argument("--kconfig", required=True)
    ap.add_argument("--defconfig", required=True)
    ap.add_argument("--header", required=True)
    ap.add_argument("--config", required=True)
    args = ap.parse_args(argv)
    # $(info,...) in a Kconfig file prints; keep stdout for results only.
    sys.stdout = sys.stderr
    try:
        kconf = load_kconfig(os.path.abspath(args.kconfig))
        if not os.path.isfile(args.defconfig):
            raise HelperError("%s: no such file" % args.defconfig)
        kconf.load_config(args.defconfig, replace=True)
        write_file(args.header, header_contents(kconf))
        write_file(args.config, kconf._config_contents(""))
    except HelperError as e:
        die(str(e))
    except EnvironmentError as e:
        die("%s: %s" % (e.filename or args.defconfig, e.strerror or e))
    return 0


#
# The make-like environment (what the kernel's Makefile exports to conf)
#

# ARCH -> SRCARCH, as in the top-level Makefile. slubtiny sends both
# SRCARCH and SUBARCH from its one registry (lib/linux/arch.c); these are
# only for running the helper alone (gen-order.py).
SRCARCH_MAP = {
    "i386": "x86", "x86_64": "x86",
    "sparc32": "sparc", "sparc64": "sparc",
    "parisc64": "parisc",
    "sh64": "sh",
    "tilepro": "tile", "tilegx": "tile",
}

# `uname -m` -> SUBARCH, as in the top-level Makefile's sed script.
SUBARCH_RULES = [
    (r"i.86", "x86"), (r"x86_64", "x86"), (r"sun4u", "sparc64"),
    (r"arm.*", "arm"), (r"sa110", "arm"), (r"s390x", "s390"),
    (r"parisc64", "parisc"), (r"ppc.*", "powerpc"), (r"mips.*", "mips"),
    (r"sh[234].*", "sh"), (r"aarch64.*", "arm64"), (r"riscv.*", "riscv"),
    (r"loongarch.*", "loongarch"),
]


def host_subarch():
    m = os.uname().machine
    for pat, arch in SUBARCH_RULES:
        if re.fullmatch(pat, m):
            return arch
    return m


def tree_version(srctree):
    """VERSION.PATCHLEVEL.SUBLEVEL+EXTRAVERSION from the tree's Makefile."""
    vals = {}
    try:
        with open(os.path.join(srctree, "Makefile"), encoding="utf-8",
                  errors="replace") as f:
            for line in f:
                m = re.match(r"^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)"
                             r"\s*=\s*(.*?)\s*$", line)
                if m and m.group(1) not in vals:
                    vals[m.group(1)] = m.group(2)
                if len(vals) == 4:
                    break
    except EnvironmentError as e:
        raise HelperError("%s/Makefile: %s" % (srctree, e.strerror or e))
    if not vals.get("VERSION"):
        raise HelperError("%s/Makefile: no VERSION (not a kernel tree?)"
                          % srctree)
    v = vals["VERSION"]
    if vals.get("PATCHLEVEL"):
        v += "." + vals["PATCHLEVEL"]
        if vals.get("SUBLEVEL"):
            v += "." + vals["SUBLEVEL"]
    return v + vals.get("EXTRAVERSION", "")


def which(prog):
    for d in os.environ.get("PATH", "").split(os.pathsep):
        p = os.path.join(d or ".", prog)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


def arch_cross_prefix(srctree, srcarch, arch, subarch):
    """
    The CROSS_COMPILE the arch Makefile picks when none is given: several
    of them call $(cc-cross-prefix, ...) when ARCH is not the host's. Let
    make itself evaluate that Makefile (it may build the list from other
    variables), with a stub that only prints the result.
    """
    if arch == subarch or not which("make"):
        return ""
    amk = os.path.join(srctree, "arch", srcarch, "Makefile")
    try:
        with open(amk, encoding="utf-8", errors="replace") as f:
            if "cc-cross-prefix" not in f.read():
                return ""
    except EnvironmentError:
        return ""
    stub = ("srctree := %s\nARCH := %s\nSRCARCH := %s\nSUBARCH := %s\n"
            "CROSS_COMPILE :=\nCC = $(CROSS_COMPILE)gcc\n"
            "include $(srctree)/scripts/Kbuild.include\n"
            "-include $(srctree)/scripts/Makefile.compiler\n"
            "-include $(srctree)/arch/$(SRCARCH)/Makefile\n"
            "st-print-cross:\n\t@echo 'ST:$(CROSS_COMPILE)'\n"
            % (srctree, arch, srcarch, subarch))
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory(prefix="st_kconfig.") as tmp:
        mk = os.path.join(tmp, "stub.mk")
        with open(mk, "w") as f:
            f.write(stub)
        try:
            out = subprocess.run(["make", "-s", "-f", mk, "st-print-cross"],
                                 cwd=tmp, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL,
                                 timeout=30).stdout.decode(errors="replace")
        except (OSError, subprocess.SubprocessError):
            return ""
    for line in out.splitlines():
        if line.startswith("ST:"):
            return line[3:].strip()
    return ""


def shell_out(cmd):
    import subprocess
    try:
        r = subprocess.run(cmd, shell=True, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           env=dict(os.environ, LC_ALL="C"))
        return r.stdout.decode(errors="replace")
    except OSError:
        return ""


def make_env(srctree, arch, cross_compile, overrides, srcarch=None,
             subarch=None):
    """The variables the kernel's Makefile exports to Kconfig."""
    subarch = subarch or host_subarch()
    arch = arch or subarch
    srcarch = srcarch or SRCARCH_MAP.get(arch, arch)
    if arch == "um":
        srcarch = "um"
    if not os.path.isfile(os.path.join(srctree, "arch", srcarch, "Kconfig")):
        raise HelperError("unknown arch '%s' (no arch/%s/Kconfig in %s)"
                          % (arch, srcarch, srctree), "EINVAL")
    if cross_compile is None:
        cross_compile = arch_cross_prefix(srctree, srcarch, arch, subarch)
    env = {
        "srctree": srctree,
        "ARCH": arch,
        "SRCARCH": srcarch,
        "SUBARCH": subarch,
        "KERNELVERSION": tree_version(srctree),
        "CROSS_COMPILE": cross_compile,
        "CC": cross_compile + "gcc",
        "LD": cross_compile + "ld",
        "AR": cross_compile + "ar",
        "NM": cross_compile + "nm",
        "OBJCOPY": cross_compile + "objcopy",
        "HOSTCC": "gcc",
        "HOSTCXX": "g++",
        "RUSTC": "rustc",
        "BINDGEN": "bindgen",
        "PAHOLE": "pahole",
        "CONFIG_SHELL": "sh",
    }
    if arch == "um":
        env["HEADER_ARCH"] = SRCARCH_MAP.get(subarch, subarch)
    env.update(overrides or {})
    if "CC_VERSION_TEXT" not in (overrides or {}):
        # As the Makefile: first line of --version, '#' removed.
        text = shell_out("%s --version 2>/dev/null | head -n 1" % env["CC"])
        env["CC_VERSION_TEXT"] = text.strip().replace("#", "")
    if "RUSTC_VERSION_TEXT" not in (overrides or {}):
        text = shell_out("%s --version 2>/dev/null" % env["RUSTC"])
        env["RUSTC_VERSION_TEXT"] = text.strip().replace("#", "")
    return env


#
# Bundled models (kconfig/models/<version>/Kconfig)
#

MODELS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "models")


def version_key(v):
    parts = re.findall(r"\d+", v)[:3]
    return tuple(int(p) for p in parts) + (0,) * (3 - len(parts))


def pick_model(target):
    try:
        names = [n for n in os.listdir(MODELS_DIR)
                 if os.path.isfile(os.path.join(MODELS_DIR, n, "Kconfig"))]
    except EnvironmentError:
        names = []
    if not names:
        raise HelperError("%s: no bundled Kconfig models" % MODELS_DIR)
    names.sort(key=version_key)
    if not target:
        return names[-1]
    want = version_key(target)
    ok = [n for n in names if version_key(n) <= want]
    if not ok:
        raise HelperError("no bundled Kconfig model for linux %s (oldest "
                          "is %s)" % (target, names[0]))
    return ok[-1]


#
# Resolution
#

class ConfigText(object):
    """A .config given as text instead of a file name."""

    def __init__(self, text):
        self.text = text


def read_order(path, srcarch):
    """
    The menu order of @srcarch from a model's order file (written by
    kconfig/gen-order.py): {name: (position, segment)}, or None when there
    is no such file or arch. Within a segment the order is complete: every
    symbol with a prompt between two of its names is in it.
    """
    arches = {}
    cur = None
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("#"):
                    continue
                words = line.split()
                if len(words) == 2 and words[0] == "arch":
                    cur = arches.setdefault(words[1], [])
                elif cur is not None:
                    cur.extend(words)
    except EnvironmentError:
        return None
    if srcarch not in arches:
        return None
    base = next(iter(arches.values()))
    toks = base
    if arches[srcarch] is not base:
        # =N keeps N tokens of the first arch, -N skips N, a name is added
        toks = []
        i = 0
        for op in arches[srcarch]:
            if op[0] == "=":
                toks.extend(base[i:i + int(op[1:])])
                i += int(op[1:])
            elif op[0] == "-":
                i += int(op[1:])
            else:
                toks.append(op)
    out = {}
    seg = 0
    for pos, name in enumerate(toks):
        if name == "|":
            seg += 1
        elif name not in out:
            out[name] = (pos, seg)
    return out


class Tree(object):
    def __init__(self, kconf, describe, version, env, model=None,
                 srcarch=None):
        self.model = model
        self.kconf = kconf
        self.describe = describe
        self.version = version
        self.env = env
        self.allno = None
        self.new_choice = False
        if not model and version_key(version) >= (6, 11, 0):
            new_choice_semantics(kconf)
            self.new_choice = True
        # Bundled models list the symbols their version dropped.
        self.removed = set()
        if model:
            with open(model, encoding="utf-8") as f:
                for line in f:
                    m = re.match(r"^#\s*slubtiny-removed:(.*)$", line)
                    if m:
                        self.removed.update(m.group(1).split())
        # Position of each symbol in menu order (savedefconfig's order).
        self.order = {}
        for i, node in enumerate(kconf.node_iter()):
            item = node.item
            if isinstance(item, kconfiglib.Symbol) and \
               item.name not in self.order:
                self.order[item.name] = i
        # A model's own order is not the tree's: the real tree's, recorded
        # for the arch in the model's order file, replaces it. Then
        # self.segment gives each recorded name its segment (see
        # read_order()); None: the order is complete (a real tree).
        self.segment = None
        real = read_order(os.path.join(os.path.dirname(model), "order"),
                          srcarch) if model else None
        if real:
            self.order_from(real)

    def order_from(self, real):
        """
        Take @real (read_order()) as the order. A model symbol it does not
        have (no prompt in the tree, or not in it) sorts right after the
        model symbol before it that it has, and places no line.
        """
        model = sorted(self.order, key=self.order.get)
        self.order = {n: p for n, (p, _) in real.items()}
        self.segment = {n: s for n, (_, s) in real.items()}
        prev = -1.0
        for n in model:
            if n in self.order:
                prev = self.order[n]
            else:
                prev += 1e-3
                self.order[n] = prev

    def after_line(self, assigns, name):
        """
        The line a new assignment to @name goes after (0: before the
        first): after the last assignment whose symbol comes before @name
        in menu order, as savedefconfig puts it. With a recorded order
        that one must be in @name's segment (so that no line between is
        of an unknown symbol); else the line goes before the next
        assignment of @name's segment that comes after it.
        """
        order = self.order.get(name, -1)
        segs = self.segment
        seg = segs.get(name) if segs is not None else None
        known = [a for a in assigns if a["sym"] in self.order and
                 (segs is None or a["sym"] in segs)]
        before = None
        for k, a in enumerate(known):
            if self.order[a["sym"]] < order:
                before = k
        if before is not None and (seg is None or
                                   segs[known[before]["sym"]] == seg):
            return known[before].get("line", 0)
        for a in known[0 if before is None else before + 1:]:
            if seg is not None and segs[a["sym"]] == seg and \
               self.order[a["sym"]] > order:
                return a.get("line", 0) - 1
        return known[before].get("line", 0) if before is not None else 0

    def load_text(self, text, replace=True):
        self.kconf.load_config(ConfigText(text), replace=replace)

    def allnoconfig_text(self):
        """`make allnoconfig` with KCONFIG_ALLCONFIG=tiny-base.config."""
        if self.allno is not None:
            return self.allno
        kconf = self.kconf
        kconf.load_config(ConfigText(""), replace=True)
        for sym in kconf.unique_defined_syms:
            # Since 6.11 conf leaves choice members alone: their choice
            # takes its default.
            if self.new_choice and sym.choice is not None:
                continue
            sym.set_value(2 if sym.is_allnoconfig_y else 0)
        base = os.path.join(kconf.srctree, "kernel/configs/tiny-base.config")
        if os.path.isfile(base):
            kconf.load_config(base, replace=False)
        self.allno = kconf._config_contents("")
        return self.allno


def assign_line(prefix, a):
    if a.get("val") is None:
        return "# %s%s is not set" % (prefix, a["sym"])
    return "%s%s=%s" % (prefix, a["sym"], a["val"])


def merge_fragment(base, frag_lines, prefix):
    """merge_config.sh -m: drop the fragment's symbols from @base, append."""
    names = set()
    for line in frag_lines:
        m = re.match(r"^(?:# )?%s([A-Za-z0-9_]+)[= ]" % prefix, line)
        if m:
            names.add(m.group(1))
    out = []
    for line in base.splitlines():
        m = re.match(r"^(?:# )?%s([A-Za-z0-9_]+)[= ]" % prefix, line)
        if m and m.group(1) in names:
            continue
        out.append(line)
    return "\n".join(out + list(frag_lines)) + "\n"


def resolve(tree, assigns, mode):
    kconf = tree.kconf
    del kconf.warnings[:]
    prefix = kconf.config_prefix
    lines = [assign_line(prefix, a) for a in assigns]
    if mode == "defconfig":
        tree.load_text("\n".join(lines) + "\n")
    elif mode == "tinyconfig":
        text = tree.allnoconfig_text()
        text = merge_fragment(text, lines, prefix)
        arch_tiny = os.path.join(kconf.srctree, "arch", tree.env["SRCARCH"],
                                 "configs", "tiny.config")
        if os.path.isfile(arch_tiny):
            with open(arch_tiny, encoding="utf-8", errors="replace") as f:
                text = merge_fragment(text, f.read().splitlines(), prefix)
        tree.load_text(text)
    else:
        raise HelperError("unknown mode '%s'" % mode)
    clamp_ranges(kconf)
    if tree.new_choice:
        kconf._invalidate_all()


def clamp_ranges(kconf):
    """
    conf keeps an out-of-range int/hex user value clamped to the bound it
    crosses; Kconfiglib falls back to the default instead. Do as conf.
    """
    for sym in kconf.unique_defined_syms:
        if sym.orig_type not in (kconfiglib.INT, kconfiglib.HEX) or \
           sym.user_value is None or not sym.visibility:
            continue
        base = 16 if sym.orig_type is kconfiglib.HEX else 10
        for low, high, cond in sym.ranges:
            if not kconfiglib.expr_value(cond):
                continue
            try:
                val = int(sym.user_value, base)
            except ValueError:
                break
            lo = int(low.str_value, base) if \
                kconfiglib._is_base_n(low.str_value, base) else 0
            hi = int(high.str_value, base) if \
                kconfiglib._is_base_n(high.str_value, base) else 0
            if val < lo:
                sym.set_value(low.str_value)
            elif val > hi:
                sym.set_value(high.str_value)
            break


#
# Choices as Linux >= 6.11 resolves them ("kconfig: refactor choice value
# calculation", scripts/kconfig/symbol.c sym_calc_choice()): a member's
# visibility no longer includes the choice's prompt condition (a choice
# whose prompt is hidden still takes its default), and the selection is
# made over the members ranked by the file, the one assigned last first
# (members the file does not mention follow in menu order):
#   1. the first visible member of that ranking set to y;
#   2. else the default (the first active default whose member is visible,
#      else the first visible member) unless the file sets it to n;
#   3. else the first visible member the file does not mention;
#   4. else the last visible member of the ranking: the visible member
#      whose line comes first in the file, when the file sets them all n.
# Before 6.11 (symbol.c of 6.1, as Kconfiglib does it) an n is never looked
# at: the last member set to y if visible, else the default.
#

def new_choice_semantics(kconf):
    """Rewire member dependencies on the choice to the choice's own deps."""
    def subst(expr, choice, repl):
        if expr is choice:
            return repl
        if isinstance(expr, tuple):
            if expr[0] is kconfiglib.NOT:
                return (expr[0], subst(expr[1], choice, repl))
            if expr[0] in (kconfiglib.AND, kconfiglib.OR):
                return (expr[0], subst(expr[1], choice, repl),
                        subst(expr[2], choice, repl))
        return expr

    for choice in kconf.unique_choices:
        for cnode in choice.nodes:
            node = cnode.list
            while node:
                sym = node.item
                if isinstance(sym, kconfiglib.Symbol) and sym.choice is choice:
                    node.dep = subst(node.dep, choice, cnode.dep)
                    if node.prompt:
                        node.prompt = (node.prompt[0], subst(
                            node.prompt[1], choice, cnode.dep))
                        kconfiglib._depend_on(sym, node.prompt[1])
                        kconfiglib._depend_on(choice, node.prompt[1])
                node = node.next
    kconfiglib.Choice._selection = _new_choice_selection


def choice_ranking(choice):
    """@choice's members in conf's priority order (see above)."""
    seq = getattr(choice.kconfig, "_st_seq", {})
    told = [m for m in choice.syms if m in seq]
    told.sort(key=lambda m: -seq[m])
    # (a user value from elsewhere than a file ranks as the oldest line)
    old = [m for m in choice.syms if m not in seq and m.user_value is not None]
    return told + old + [m for m in choice.syms if m.user_value is None and
                         m not in seq]


def choice_default(choice):
    """conf's sym_choice_default(): the default member, visible, or None."""
    for sym, cond in choice.defaults:
        if kconfiglib.expr_value(cond) and sym.visibility:
            return sym
    for sym in choice.syms:
        if sym.visibility:
            return sym
    return None


def _new_choice_selection(self):
    """The member Linux >= 6.11 selects (steps 1-4 above), or None."""
    ranked = choice_ranking(self)
    for sym in ranked:
        if sym.visibility and sym.user_value == 2:
            return sym
    sym = choice_default(self)
    if sym is not None and sym.user_value != 0:
        return sym
    for sym in self.syms:
        if sym.visibility and sym.user_value is None:
            return sym
    for sym in reversed(ranked):
        if sym.visibility:
            return sym
    return None


#
# Explaining: why an assignment did not take effect
#

TRI = {"n": 0, "m": 1, "y": 2}
TRI_STR = ("n", "m", "y")
STR_TRI = {"n": 0, "m": 1, "y": 2}
MAX_DEPTH = 8


def loc(node):
    return "%s:%d" % (node.filename, node.linenr)


def sym_type(sym):
    return {kconfiglib.BOOL: "b", kconfiglib.TRISTATE: "t",
            kconfiglib.INT: "i", kconfiglib.HEX: "h",
            kconfiglib.STRING: "s"}.get(sym.orig_type, "?")


def actual_value(sym):
    """The value .config gets: None when it is not written at all."""
    if not sym.config_string:
        return "n" if sym.orig_type in (kconfiglib.BOOL,
                                        kconfiglib.TRISTATE) else None
    return conf_value(sym)


def parse_requested(sym, raw):
    """
    What conf would store for @raw (None: "is not set"), or (None, why)
    when the assignment is ignored.
    """
    t = sym.orig_type
    if t in (kconfiglib.BOOL, kconfiglib.TRISTATE):
        if raw is None:
            return "n", None
        # conf only looks at the first character.
        c = raw[:1]
        if c in ("y", "n") or (c == "m" and t is kconfiglib.TRISTATE):
            return c, None
        return None, "'%s' is not a valid %s value" % (
            raw, kconfiglib.TYPE_TO_STR[t])
    if raw is None:
        # conf ignores "is not set" for non-bool symbols.
        return None, None
    if t is kconfiglib.STRING:
        m = re.match(r'^"((?:[^\\"]|\\.)*)"$', raw)
        if not m:
            return None, "malformed string literal"
        return kconfiglib.unescape(m.group(1)), None
    base = 16 if t is kconfiglib.HEX else 10
    if not kconfiglib._is_base_n(raw, base):
        return None, "'%s' is not a valid %s value" % (
            raw, kconfiglib.TYPE_TO_STR[t])
    return raw, None


def has_prompt(sym):
    return any(node.prompt for node in sym.nodes)


def prompt_nodes(sc):
    return [node for node in sc.nodes if node.prompt]


def show_val(sc):
    # An undefined symbol's value is its own name: "SUPERH=SUPERH" says
    # nothing. It is n, and why.
    if isinstance(sc, kconfiglib.Symbol) and not sc.nodes and \
       not sc.is_constant:
        return "n (not defined for this arch)"
    if isinstance(sc, kconfiglib.Symbol) and \
       sc.orig_type not in (kconfiglib.BOOL, kconfiglib.TRISTATE):
        return '"%s"' % sc.str_value if sc.orig_type is kconfiglib.STRING \
            else sc.str_value or '""'
    return TRI_STR[sc.tri_value]


def entry_line(node, pat, end):
    """file:line of the first line of @node's entry matching @pat (the
    entry ends at a line matching @end), else of the entry itself."""
    path = node.filename
    if not os.path.isabs(path):
        path = os.path.join(node.kconfig.srctree, path)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except EnvironmentError:
        return loc(node)
    for i in range(node.linenr, min(len(lines), node.linenr + 200)):
        if end.match(lines[i]):
            break
        if pat.match(lines[i]):
            return "%s:%d" % (node.filename, i + 1)
    return loc(node)


def transitional_offender(node):
    """file:line of the first property of @node's entry but its type and
    help (conf names that line), else of the entry."""
    prop = re.compile(r"^\s*(default|def_bool|def_tristate|select|imply|range|"
                      r"prompt|depends|visible|(bool|tristate|string|int|hex)"
                      r"\s+[^\s#])")
    end = re.compile(r"^\s*(config|menuconfig|choice|endchoice|menu|endmenu"
                     r"|if|endif|source|comment|help|---help---)\b")
    return entry_line(node, prop, end)


def find_prop_line(node, keyword, target):
    """The file:line of `keyword target` in @node's entry, else the entry."""
    pat = re.compile(r"^\s*%s\s+%s\b" % (keyword, re.escape(target)))
    end = re.compile(r"^\s*(config|menuconfig|choice|endchoice|menu|endmenu"
                     r"|if|endif|source|comment)\b")
    return entry_line(node, pat, end)


def selectors(sym, kind):
    """[(selector symbol, its value, file:line)] of active select/imply."""
    out = []
    expr = sym.rev_dep if kind == "select" else sym.weak_rev_dep
    for term in kconfiglib.split_expr(expr, kconfiglib.OR):
        if not kconfiglib.expr_value(term):
            continue
        parts = kconfiglib.split_expr(term, kconfiglib.AND)
        src = parts[0]
        if not isinstance(src, kconfiglib.Symbol):
            continue
        where = None
        for node in src.nodes:
            props = node.selects if kind == "select" else node.implies
            for target, cond in props:
                if target is sym:
                    where = find_prop_line(node, kind, sym.name)
                    break
            if where:
                break
        out.append((src, TRI_STR[src.tri_value],
                    where or (loc(src.nodes[0]) if src.nodes else "?")))
    return out


def expr_symbols(expr):
    """
    The symbols of @expr in the order they are written, each once.
    (kconfiglib.expr_items() is a set: its order changes with the hash
    seed of each process, and so would the text of a finding.)
    """
    out = []

    def walk(e):
        if isinstance(e, tuple):
            for sub in e[1:]:
                walk(sub)
        elif e not in out:
            out.append(e)
    walk(expr)
    return out


class Explainer(object):
    """Builds findings for one resolved file."""

    def __init__(self, tree, assigned):
        self.tree = tree
        self.kconf = tree.kconf
        self.prefix = tree.kconf.config_prefix
        # name -> (raw value or None, line) of the last assignment
        self.assigned = assigned
        self.fixes = []

    def add_fix(self, sym, val, line, reason):
        self.fixes.append({"sym": sym.name, "val": val, "replace_line": line,
                           "reason": reason})

    def fix_text(self, name, val):
        if val == "n":
            return "# %s%s is not set" % (self.prefix, name)
        return "%s%s=%s" % (self.prefix, name, val)

    def term_failures(self, expr, need):
        return [t for t in kconfiglib.split_expr(expr, kconfiglib.AND)
                if kconfiglib.expr_value(t) < need]

    def explain_term(self, term, need, depth, seen, out, indent):
        """One failing term of a dependency, followed to its root."""
        pad = "  " * indent
        val = TRI_STR[kconfiglib.expr_value(term)]
        text = kconfiglib.expr_str(term)
        if isinstance(term, kconfiglib.Symbol):
            out.append("%s%s, which is %s: %s" % (
                pad, text, val, self.why_low(term, need, depth, seen, out,
                                             indent)))
            return
        if isinstance(term, tuple) and term[0] is kconfiglib.NOT and \
           isinstance(term[1], kconfiglib.Symbol):
            out.append("%s%s, which is %s: %s" % (
                pad, text, val, self.why_high(term[1], depth)))
            return
        syms = [s for s in expr_symbols(term)
                if isinstance(s, kconfiglib.Symbol) and not s.is_constant]
        vals = ", ".join("%s=%s" % (s.name, show_val(s)) for s in syms)
        out.append("%s%s, which is %s%s" % (pad, text, val,
                                            " (%s)" % vals if vals else ""))

    def why_high(self, sym, depth):
        """Why @sym is not n (for a failing `!sym` term)."""
        a = self.assigned.get(sym.name)
        if a and a[0] is not None:
            # A line no fix may turn off (COMPILE_TEST): offered all the
            # same, so that --fix-deps refuses it and says why, where it
            # said nothing; never shown as the finding's fix.
            if has_prompt(sym) and sym.visibility and \
               fix_refusal(self.tree, sym.name):
                self.add_fix(sym, "n", a[1], "turns off %s" % sym.name)
            return "%s=%s in this file (line %d)" % (sym.name, a[0], a[1])
        sel = selectors(sym, "select")
        if sel:
            return "%s is selected by %s" % (sym.name, ", ".join(
                "%s=%s (%s)" % s_ for s_ in
                ((s[0].name, s[1], s[2]) for s in sel)))
        if has_prompt(sym) and sym.visibility:
            # Only a default; the file could turn it off.
            self.add_fix(sym, "n", a[1] if a else 0,
                         "turns off %s" % sym.name)
            return "%s is %s by default and is not set to n in this file" \
                % (sym.name, show_val(sym))
        return "%s is %s by default (no prompt)" % (sym.name, show_val(sym))

    def why_low(self, sym, need, depth, seen, out, indent):
        """Why bool/tristate @sym is below @need; appends sub-causes."""
        name = sym.name
        if not sym.nodes:
            return "%s is not defined in this tree for this arch" % name
        a = self.assigned.get(name)
        want = "y" if need == 2 or sym.orig_type is kconfiglib.BOOL else "m"
        if depth >= MAX_DEPTH or name in seen:
            return "%s is below %s" % (name, want)
        seen = seen | {name}
        if a and a[0] is None or a and a[0][:1] == "n":
            if has_prompt(sym) and sym.visibility >= need:
                self.add_fix(sym, want, a[1], "enables %s" % name)
                return "%s is not set in this file (line %d); set %s" % (
                    name, a[1], self.fix_text(name, want))
            reason = self.hidden_reason(sym, need, depth, seen, out,
                                        indent + 1)
            return "%s is not set in this file (line %d), and %s" % (
                name, a[1], reason)
        if a:
            reason = self.hidden_reason(sym, need, depth, seen, out,
                                        indent + 1)
            return "%s=%s in this file (line %d) has no effect: %s" % (
                name, a[0], a[1], reason)
        if has_prompt(sym) and sym.visibility >= need:
            self.add_fix(sym, want, 0, "enables %s" % name)
            return "%s is not set in this file; add %s" % (
                name, self.fix_text(name, want))
        reason = self.hidden_reason(sym, need, depth, seen, out, indent + 1)
        return "%s is not set in this file, and %s" % (name, reason)

    def hidden_reason(self, sym, need, depth, seen, out, indent):
        """Why the file cannot raise @sym to @need (prompt or no prompt)."""
        if not has_prompt(sym):
            # Each select with its condition: "DRM && DRM_FBDEV_EMULATION
            # (n)" says more than the selector's own value.
            cands = [t for t in kconfiglib.split_expr(sym.rev_dep,
                                                      kconfiglib.OR)
                     if t is not self.kconf.n]
            text = "%s has no prompt (only select or default can set it)" % \
                sym.name
            if cands:
                text += "; selected if %s%s" % (" or ".join(
                    "%s (%s)" % (kconfiglib.expr_str(t),
                                 TRI_STR[kconfiglib.expr_value(t)])
                    for t in cands[:4]),
                    " or %d more" % (len(cands) - 4) if len(cands) > 4
                    else "")
            return text
        if sym.choice is not None and sym.visibility >= need:
            return "%s is a choice member and another one is selected" % \
                sym.name
        node = prompt_nodes(sym)[0]
        fails = self.term_failures(node.prompt[1], need)
        if not fails:
            return "its prompt is hidden"
        for t in fails:
            self.explain_term(t, need, depth + 1, seen, out, indent)
        return "it depends on %s" % " && ".join(
            "%s (%s)" % (kconfiglib.expr_str(t),
                         TRI_STR[kconfiglib.expr_value(t)]) for t in fails)

    def finding(self, a, sym, requested, actual, cause, msg, detail):
        fix = None
        return {"line": a["line"], "symbol": a["sym"],
                "kind": "unknown" if cause == "unknown" else "ineffective",
                "cause": cause, "requested": requested, "actual": actual,
                "message": msg, "detail": "\n".join(detail), "fix": fix}

    def explain(self, a):
        """A finding for assignment @a, or None when it took effect."""
        name, raw = a["sym"], a.get("val")
        shown = self.fix_text(name, raw if raw is not None else "n")
        sym = self.kconf.syms.get(name)
        if (sym is None or not sym.nodes) and self.tree.model and \
           name not in self.tree.removed:
            return None     # outside the bundled model's scope
        if sym is None or not sym.nodes:
            return self.finding(a, None, raw if raw is not None else "n",
                                None, "unknown",
                                "%s: unknown symbol (%s); the line has no "
                                "effect" % (shown, "linux %s no longer has it"
                                            % self.tree.version
                                            if self.tree.model else
                                            "not in this tree for this "
                                            "arch"), [])
        requested, invalid = parse_requested(sym, raw)
        actual = actual_value(sym)
        if invalid:
            return self.finding(a, sym, raw, actual, "invalid",
                                "%s has no effect: %s" % (shown, invalid),
                                ["conf ignores the assignment"])
        if requested is None or requested == actual:
            return None
        if requested == "n" and actual is None:
            return None
        self.fixes = []
        detail = []
        cause, why = self.cause(sym, requested, actual, detail)
        f = self.finding(a, sym, requested, actual if actual is not None
                         else "", cause,
                         "%s has no effect: %s" % (shown, why), detail)
        f["actual_shown"] = actual
        f["_fixes"] = list(self.fixes)
        fx = [x for x in self.fixes if not fix_refusal(self.tree, x["sym"])]
        if fx:
            f["fix"] = self.fix_text(fx[0]["sym"], fx[0]["val"])
        return f

    def cause(self, sym, requested, actual, detail):
        """(cause, one-line reason) for a defined symbol; fills @detail."""
        is_tri = sym.orig_type in (kconfiglib.BOOL, kconfiglib.TRISTATE)
        shown_actual = actual if actual is not None else "not written"
        if not has_prompt(sym):
            src = self.value_source(sym)
            detail.append("%s has no prompt: only select, imply or its "
                          "defaults set it, never a defconfig" % sym.name)
            if src:
                detail.append(src)
            return "no_prompt", "%s has no prompt, it is %s%s" % (
                sym.name, shown_actual, " (%s)" % src if src else "")
        req = TRI.get(requested, 2) if is_tri else 2
        if is_tri:
            act = TRI[actual]
            sel = selectors(sym, "select")
            if act > req and sym.rev_dep is not None and \
               kconfiglib.expr_value(sym.rev_dep) > req:
                for s, v, where in sel:
                    detail.append("selected by %s=%s (%s)" % (s.name, v,
                                                              where))
                    a = self.assigned.get(s.name)
                    if a:
                        detail.append("  %s is set on line %d of this file"
                                      % (s.name, a[1]))
                s, v, where = sel[0]
                return "select", "forced to %s by select from %s=%s (%s)" % (
                    actual, s.name, v, where)
            if sym.choice is not None:
                c = self.choice_cause(sym, requested, actual, detail)
                if c:
                    return c
            if requested == "m" and actual == "y":
                mod = self.kconf.modules
                if sym.type is kconfiglib.BOOL and mod is not None and \
                   not mod.tri_value:
                    detail.append("%s is n, so tristate m becomes y" %
                                  mod.name)
                    a = self.assigned.get(mod.name)
                    if not a:
                        detail.append("  %s is not set in this file" %
                                      mod.name)
                    elif a[0] is None or a[0][:1] == "n":
                        detail.append("  %s is not set in this file (line "
                                      "%d)" % (mod.name, a[1]))
                    return "modules", "m needs %s, which is n" % mod.name
                imp = selectors(sym, "imply")
                if imp and kconfiglib.expr_value(sym.weak_rev_dep) == 2:
                    s, v, where = imp[0]
                    detail.append("implied by %s=%s (%s)" % (s.name, v, where))
                    return "imply", "raised to y by imply from %s=%s (%s)" % (
                        s.name, v, where)
            vis = sym.visibility
            need = max(req, 1)
            if vis < need:
                return "depends", self.depends_reason(sym, need, actual,
                                                      detail)
            if act > req and sym.weak_rev_dep is not None and \
               kconfiglib.expr_value(sym.weak_rev_dep) > req:
                imp = selectors(sym, "imply")
                if imp:
                    s, v, where = imp[0]
                    detail.append("implied by %s=%s (%s)" % (s.name, v, where))
                    return "imply", "raised to %s by imply from %s=%s (%s)" % (
                        actual, s.name, v, where)
            return "other", "resolved to %s" % actual
        # int, hex, string
        if not sym.visibility:
            return "depends", self.depends_reason(sym, 1, shown_actual,
                                                  detail)
        if sym.orig_type in (kconfiglib.INT, kconfiglib.HEX):
            rng = self.active_range(sym)
            if rng:
                lo, hi, where = rng
                detail.append("range %s %s (%s)" % (lo, hi, where))
                return "range", "%s is outside the range [%s, %s], so %s" \
                    " is used" % (requested, lo, hi, shown_actual)
        return "other", "resolved to %s" % shown_actual

    def depends_reason(self, sym, need, actual, detail):
        node = prompt_nodes(sym)[0]
        fails = self.term_failures(node.prompt[1], need)
        if not fails:
            return "its prompt is hidden, it is %s" % actual
        for t in fails:
            self.explain_term(t, need, 0, {sym.name}, detail, 0)
        head = fails[0]
        text = "depends on %s, which is %s" % (
            kconfiglib.expr_str(head), TRI_STR[kconfiglib.expr_value(head)])
        if len(fails) > 1:
            text += " (and %d more unmet)" % (len(fails) - 1)
        return text

    def choice_cause(self, sym, requested, actual, detail):
        choice = sym.choice
        cnode = choice.nodes[0]
        title = cnode.prompt[0] if cnode.prompt else "choice"
        if choice.visibility == 0 or sym.visibility == 0:
            return None     # dependency, explained by the caller
        sel = choice.selection
        if requested == "y" and sel is not None and sel is not sym:
            a = self.assigned.get(sel.name)
            if a and a[0] is not None and a[0][:1] == "y":
                why = "%s=y on line %d of this file" % (sel.name, a[1])
            elif choice.user_selection is not None and \
                    choice.user_selection is not sel:
                why = "%s is hidden, %s is the default" % (
                    choice.user_selection.name, sel.name)
            else:
                why = "%s is the choice's default" % sel.name
            detail.append('choice "%s" (%s) selected %s: %s' % (
                title, loc(cnode), sel.name, why))
            return "choice", 'choice "%s" selected %s instead (%s)' % (
                title, sel.name, why)
        if requested == "n" and sel is sym and self.tree.new_choice:
            # (step 4 of _new_choice_selection(): the other steps never
            # pick a member the file sets to n)
            detail.append('choice "%s" (%s) always has one member set; '
                          'since Linux 6.11, when a file sets every visible '
                          'member to n, conf takes the one whose line comes '
                          'first' % (title, loc(cnode)))
            return "choice", 'a choice cannot be empty: every visible ' \
                'member of "%s" is set to n, and conf takes the one set ' \
                'first' % title
        if requested == "n" and sel is sym:
            detail.append('choice "%s" (%s) always has one member set; '
                          'no other member is set to y, so its default %s '
                          'is' % (title, loc(cnode), sym.name))
            return "choice", 'a choice cannot be empty: "%s" defaults to ' \
                '%s' % (title, sym.name)
        return None

    def value_source(self, sym):
        sel = selectors(sym, "select")
        if sel:
            return "selected by " + ", ".join(
                "%s=%s (%s)" % (s.name, v, w) for s, v, w in sel)
        for node in sym.nodes:
            for val, cond in node.defaults:
                if kconfiglib.expr_value(cond):
                    return "default %s (%s)" % (kconfiglib.expr_str(val),
                                                loc(node))
        return ""

    def active_range(self, sym):
        for node in sym.nodes:
            for lo, hi, cond in node.ranges:
                if kconfiglib.expr_value(cond):
                    return lo.str_value, hi.str_value, loc(node)
        return None


def last_assignments(assigns):
    """name -> (raw value or None, line), last one wins (as in conf)."""
    out = {}
    for a in assigns:
        out[a["sym"]] = (a.get("val"), a.get("line", 0))
    return out


def verify(tree, assigns, mode):
    resolve(tree, assigns, mode)
    assigned = last_assignments(assigns)
    ex = Explainer(tree, assigned)
    findings = []
    last = {}
    for i, a in enumerate(assigns):
        last[a["sym"]] = i
    for i, a in enumerate(assigns):
        if last[a["sym"]] != i:
            continue
        f = ex.explain(a)
        if f:
            findings.append(f)
    findings.sort(key=lambda f: f["line"])
    return findings


def conf_value(sym):
    """The value conf gives @sym (it has "0"/"0x0" where Kconfiglib has "")."""
    if sym.orig_type in (kconfiglib.BOOL, kconfiglib.TRISTATE):
        return TRI_STR[sym.tri_value]
    val = sym.str_value
    if not val and sym.orig_type is kconfiglib.INT:
        return "0"
    if not val and sym.orig_type is kconfiglib.HEX:
        return "0x0"
    return val


def written(sym):
    """
    Does conf write @sym to .config? As Kconfiglib, except that conf also
    writes "is not set" for a symbol with an active imply whose own
    dependencies are unmet (it flags SYMBOL_WRITE before applying them).
    """
    if sym.name in TRANSITIONAL:
        return False
    if sym.config_string:
        return True
    return sym.orig_type in (kconfiglib.BOOL, kconfiglib.TRISTATE) and \
        sym.choice is None and sym.env_var is None and \
        kconfiglib.expr_value(sym.weak_rev_dep) > 0


def config_list(kconf):
    out = []
    for sym in kconf.unique_defined_syms:
        if not written(sym):
            continue
        out.append([sym.name, conf_value(sym), sym_type(sym)])
    return out


# Fixes that would change what the board is rather than make an option
# take effect: test-build-only symbols and the platform (arch, SoC, SMP).
NEVER_FIX = re.compile(r"^(COMPILE_TEST|SMP|(ARCH|MACH|SOC|PLAT|CPU|BOARD)_"
                       r"[A-Za-z0-9_]+)$")


def fix_refusal(tree, name):
    """Why @name must never be written by a fix, or None."""
    if name == "COMPILE_TEST":
        return "COMPILE_TEST only exists for test builds"
    if name in TRANSITIONAL:
        return "%s is an old name that conf reads but never writes" % name
    if NEVER_FIX.match(name):
        return "%s chooses the board's platform" % name
    sym = tree.kconf.syms.get(name)
    if sym is not None and sym.choice is not None and \
       any(n.filename.startswith("arch/") for n in sym.nodes):
        return "%s is a platform choice of arch/" % name
    return None


def with_fixes(assigns, fixes):
    """@assigns with @fixes ({name: val}) replacing or appended."""
    work = [dict(a) for a in assigns]
    for name, v in fixes.items():
        val = None if v == "n" else v
        hit = False
        for a in work:
            if a["sym"] == name:
                a["val"] = val
                hit = True
        if not hit:
            work.append({"sym": name, "val": val, "line": 0})
    return work


def bad_lines(findings):
    return {f["line"] for f in findings}


def grow_fixes(tree, assigns, mode, scoped, scope, added, refused):
    """Add to @added what the findings on @scope lines suggest; rounds."""
    iterations = 0
    for iterations in range(1, 11):
        findings = verify(tree, with_fixes(assigns, {
            n: fx["val"] for n, fx in added.items()}), mode)
        new = {}
        for f in findings:
            if scoped and f["line"] not in scope:
                continue
            # Also "is not set" lines: a hidden prompt falls back to its
            # default, and the fix is what makes the prompt visible.
            what = "%s (line %d)" % (Explainer(tree, {}).fix_text(
                f["symbol"], f["requested"]), f["line"])
            for fx in f.get("_fixes", []):
                why = fix_refusal(tree, fx["sym"])
                if why:
                    msg = "not adding %s for %s: %s" % (
                        Explainer(tree, {}).fix_text(fx["sym"], fx["val"]),
                        what, why)
                    if msg not in refused:
                        refused.append(msg)
                    continue
                cur = added.get(fx["sym"])
                if cur and cur["val"] == fx["val"]:
                    if what not in cur["for"]:
                        cur["for"].append(what)
                    continue
                if fx["sym"] in new:
                    new[fx["sym"]]["for"].append(what)
                    continue
                fx = dict(fx)
                fx["for"] = [what]
                new[fx["sym"]] = fx
        if not new:
            break
        for fx in new.values():
            added[fx["sym"]] = fx
    return iterations


def minimal_fixes(tree, assigns, mode, scoped, scope, effective, orig_lines,
                  added):
    """
    The fewest of @added that keep every target they make effective: drop
    each fix whose removal loses nothing (a line already selected or
    implied by another goes here too: savedefconfig would drop it).
    Returns (names, findings, lines that took effect and no longer do).
    """
    def outcome(names):
        fl = verify(tree, with_fixes(assigns, {
            n: added[n]["val"] for n in names}), mode)
        return fl, bad_lines(fl)

    names = sorted(added, key=lambda n: tree.order.get(n, -1))
    findings, bad = outcome(names)
    goal = scope - bad
    for n in reversed(list(names)):
        trial = [x for x in names if x != n]
        _, tb = outcome(trial)
        if not (goal & tb) and not ((effective & tb) - bad):
            names = trial
    findings, bad = outcome(names)
    # a line a fix rewrites is the fix's own
    rewritten = {orig_lines[n] for n in names if n in orig_lines}
    return names, findings, (effective - rewritten) & bad


def fix_deps(tree, assigns, mode):
    """
    Add what the findings suggest until nothing more helps. Assignments
    marked "fix" are the targets (all of them when none is marked). A fix
    is kept only if it is needed (the fewest lines that make the targets
    take effect), sets no symbol fix_refusal() rejects, and no line of the
    file that took effect before stops taking effect.
    """
    scoped = any(a.get("fix") for a in assigns)
    targets = {a.get("line", 0) for a in assigns if a.get("fix")}
    orig_lines = {a["sym"]: a.get("line", 0) for a in assigns}
    last = {}
    for a in assigns:
        last[a["sym"]] = a.get("line", 0)
    base = bad_lines(verify(tree, assigns, mode))
    effective = set(last.values()) - base
    added = {}          # name -> fix dict (last value wins)
    refused = []
    iterations = 0
    scope = set(targets) if scoped else set(last.values())
    # A line a fix would switch off joins the targets (EXPERT=y hides an
    # "if !EXPERT" select, the line then needs its own enabling option);
    # what is still lost after that refuses the whole fix.
    for _ in range(3):
        iterations += grow_fixes(tree, assigns, mode, scoped, scope, added,
                                 refused)
        names, findings, lost = minimal_fixes(tree, assigns, mode, scoped,
                                              scope, effective, orig_lines,
                                              added)
        if not lost or not scoped or lost <= scope:
            break
        scope |= lost
    if lost and names:
        by_line = {a.get("line", 0): a for a in assigns}
        refused.append("not adding %s: %s would stop taking effect" % (
            ", ".join(Explainer(tree, {}).fix_text(n, added[n]["val"])
                      for n in names),
            ", ".join("line %d (%s)" % (ln, assign_line(
                tree.kconf.config_prefix, by_line[ln])) for ln in
                sorted(lost)[:4] if ln in by_line)))
        texts = [Explainer(tree, {}).fix_text(n, added[n]["val"])
                 for n in names]
        names = []
        findings = verify(tree, assigns, mode)
        # never advise what was just refused: say why it was not done
        for f in findings:
            for t in texts:
                if f.get("fix") == t:
                    f["fix"] = None
                if t in (f.get("detail") or ""):
                    f["detail"] = f["detail"].replace(
                        "add " + t, "--fix-deps did not add %s: %s" % (
                            t, refused[-1].split(": ", 1)[-1]))
    fixes = []
    for name in names:
        fx = added[name]
        order = tree.order.get(name, -1)
        # where savedefconfig puts it among the lines of the file
        after = tree.after_line(assigns, name)
        replace = orig_lines.get(name, 0)
        reason = "%s for %s" % (fx["reason"], ", ".join(fx["for"][:4]))
        if len(fx["for"]) > 4:
            reason += " and %d more" % (len(fx["for"]) - 4)
        fixes.append({"sym": name, "val": fx["val"],
                      "line_text": Explainer(tree, {}).fix_text(name,
                                                                fx["val"]),
                      "replace_line": replace,
                      "after_line": 0 if replace else after,
                      "order": order, "reason": reason})
    fixes.sort(key=lambda x: x["order"])
    return fixes, findings, iterations, refused



def resolved_values(kconf):
    """{name: value} as .config has it; a symbol not written is absent."""
    return {s.name: conf_value(s) for s in kconf.unique_defined_syms
            if written(s)}


def same_value(a, b):
    """Not written and n are the same value for a resolved config."""
    return (a if a is not None else "n") == (b if b is not None else "n")


def pin_value(sym, want):
    """
    The raw defconfig value that keeps @sym at @want ("n" for is not set),
    or None when no line can: no prompt, not visible, or a select or the
    choice forces another value.
    """
    if not has_prompt(sym) or sym.visibility == 0:
        return None
    if sym.orig_type in (kconfiglib.BOOL, kconfiglib.TRISTATE):
        want = want if want is not None else "n"
        tri = STR_TRI.get(want)
        if tri is None or tri not in sym.assignable:
            return None
        # a choice member is pinned by the member chosen, never by n
        if sym.choice is not None and tri != 2:
            return None
        return want
    if want is None:
        return None
    if sym.orig_type is kconfiglib.STRING:
        return '"%s"' % kconfiglib.escape(want)
    return want


def pin_line(prefix, name, val):
    if val == "n":
        return "# %s%s is not set" % (prefix, name)
    return "%s%s=%s" % (prefix, name, val)


def unpinned_value(sym, val):
    """@sym's value without its pin line (then set back to @val)."""
    sym.unset_value()
    v = conf_value(sym) if written(sym) else None
    sym.set_value(val if sym.orig_type is not kconfiglib.STRING else
                  kconfiglib.unescape(val[1:-1]))
    return v


def dep_closure(kconf, name, depth=8):
    """{symbol: distance} of what @name's visibility depends on."""
    out = {}
    todo = [name] if name in kconf.syms else []
    for dist in range(1, depth + 1):
        nxt = []
        for n in todo:
            sym = kconf.syms[n]
            exprs = [sym.direct_dep] + [node.prompt[1] for node in sym.nodes
                                        if node.prompt]
            for e in exprs:
                for d in expr_symbols(e):
                    if isinstance(d, kconfiglib.Symbol) and \
                       not d.is_constant and d.name in kconf.syms and \
                       d.name not in out:
                        out[d.name] = dist
                        nxt.append(d.name)
        todo = nxt
    return out


def choice_pin(tree, kconf, choice, base, resolve_with):
    """
    A choice now visible whose members the file before never had (it was
    hidden): the member whose pin leaves the fewest options changed, or
    None when pinning none is as good.
    """
    def cost(extra):
        resolve_with(extra)
        cur = resolved_values(kconf)
        return sum(1 for n in set(base) | set(cur)
                   if not same_value(base.get(n), cur.get(n)))

    best, best_cost = None, cost({})
    for m in choice.syms:
        if not has_prompt(m) or m.visibility == 0:
            continue
        c = cost({m.name: "y"})
        if c < best_cost:
            best, best_cost = m.name, c
    return best


# lib/layout numbers the lines of a build system's base defconfig from
# here on (ST_LAYOUT_LINE_BASE): not the file's own lines
LAYOUT_LINE_BASE = 1 << 20


def not_taken(kconf, assigns):
    """
    The symbols of @assigns (last line of each) whose value as resolved
    now is not the line's: no explanation, only the values (cheap).
    """
    out = set()
    for n, (val, _) in last_assignments(assigns).items():
        sym = kconf.syms.get(n)
        if sym is None or not sym.nodes:
            continue
        want = "n" if val is None else val
        if sym.orig_type is kconfiglib.STRING and len(want) >= 2 and \
           want[0] == '"' == want[-1]:
            want = kconfiglib.unescape(want[1:-1])
        if not same_value(conf_value(sym) if written(sym) else None, want):
            out.add(n)
    return out


def revived_lines(tree, assigns, base_assigns, dead_before, dead_fixed):
    """
    The lines of the file that took no effect before the migration
    (@dead_before, not_taken() of @base_assigns) and do after it because
    its new lines (EXPERT=y) unhide their prompts (not in @dead_fixed,
    the same with those lines added): [assignment of @assigns], the last
    line of each symbol only.
    """
    prefix = tree.kconf.config_prefix
    old = last_assignments(base_assigns)
    out = []
    for n, (val, line) in last_assignments(assigns).items():
        if n in dead_before and n not in dead_fixed and \
           old.get(n, (0,))[0] == val and \
           not n.startswith(("SLAB", "SLOB", "SLUB")) and line:
            a = {"sym": n, "val": val, "line": line}
            out.append(dict(a, text=assign_line(prefix, a)))
    return sorted(out, key=lambda a: a["line"])


def keep_running(tree, assigns, fixes_only, revived, base, mode):
    """
    Lines that never took effect (@revived on a board that had neither
    EXPERT nor EMBEDDED) keep the value the board runs with: the line
    goes, or where its symbol's new default differs, says that value.
    Returns (fixes, @assigns and @fixes_only with those lines so).
    """
    kconf = tree.kconf
    gone = {a["sym"] for a in revived}

    def without(lst, edit):
        last = last_assignments(lst)
        out = []
        for a in lst:
            n = a["sym"]
            if n in gone and last[n][1] == a.get("line", 0):
                if n not in edit:
                    continue
                a = dict(a, val=None if edit[n] == "n" else edit[n])
            out.append(a)
        return out

    resolve(tree, without(assigns, {}), mode)
    cur = resolved_values(kconf)
    edit = {}
    for a in revived:
        n = a["sym"]
        # a base defconfig's line is not the file's to drop: pinned
        if same_value(cur.get(n), base.get(n)) and \
           a["line"] < LAYOUT_LINE_BASE:
            continue
        v = pin_value(kconf.syms[n], base.get(n))
        if v is not None:
            edit[n] = v
        elif a["line"] >= LAYOUT_LINE_BASE:
            gone.discard(n)
    prefix = kconf.config_prefix
    fixes = []
    for a in revived:
        n = a["sym"]
        if n not in gone:
            continue
        was = base.get(n)
        was = "n" if was is None else was
        why = ("%s=%s, the value the board runs with: the line never took "
               "effect (its prompt needs EXPERT, which the file did not "
               "enable)" % (n, was))
        fix = {"sym": n, "val": edit.get(n, a["val"] or "n"),
               "replace_line": a["line"], "after_line": 0,
               "order": tree.order.get(n, -1)}
        if n in edit:
            fixes.append(dict(fix, op="set",
                              line_text=pin_line(prefix, n, edit[n]),
                              reason="in place of %s, keeps %s" % (
                                  a["text"], why)))
        else:
            fixes.append(dict(fix, op="drop", line_text=a["text"],
                              reason="keeps %s" % why))
    return fixes, without(assigns, edit), without(fixes_only, edit)


def restored_notes(tree, revived):
    """
    Lines of a board that had EMBEDDED (which selected EXPERT until it
    was removed): dead only on the kernels in between, they take effect
    again as on the kernels the board was written for. A note, no edit.
    """
    return [{"sym": a["sym"], "val": a["val"] or "n", "op": "keep",
             "line_text": a["text"], "replace_line": a["line"],
             "after_line": 0, "order": tree.order.get(a["sym"], -1),
             "reason": "takes effect again, as when EMBEDDED selected "
                       "EXPERT"}
            for a in revived if a["line"] < LAYOUT_LINE_BASE]


def choice_dep_names(kconf, choice):
    """The symbols @choice's visibility depends on, through their own."""
    out = set()
    for d in expr_symbols(choice.direct_dep):
        if isinstance(d, kconfiglib.Symbol) and not d.is_constant:
            out.add(d.name)
            out.update(dep_closure(kconf, d.name))
    return out


def pin(tree, assigns, base_assigns, mode):
    """
    The lines that keep every option @assigns (the migrated file) changes
    against @base_assigns (the file before) at its old value, where one
    line can: a visible option with a prompt that no select forces. The
    options the file names are its own (not pinned). Rounds, in menu
    order: a pinned menu hides its children, which then need no line.
    Pins whose line would not take effect, or that savedefconfig would
    drop (the value is the default without them), are left out. Returns
    (fixes, refused).
    """
    kconf = tree.kconf
    resolve(tree, base_assigns, mode)
    base = resolved_values(kconf)
    dead_before = not_taken(kconf, base_assigns)
    # What the allocator change itself switches off (SLUB_DEBUG's selects
    # under SLUB_TINY) is the point of the migration, not a side effect:
    # only what the file's other new lines (EXPERT=y) change is pinned.
    # Those are the options whose value the file before, with those lines
    # added, already has as the migrated one does.
    old = {(a["sym"], a.get("val")) for a in base_assigns}
    fixes_only = base_assigns + [
        a for a in assigns if (a["sym"], a.get("val")) not in old and
        not a["sym"].startswith(("SLAB", "SLOB", "SLUB"))]
    # Lines that EXPERT=y brings to life: on a board that had EMBEDDED
    # they come back as the board had them (noted); on one that had
    # neither, they never took effect and the running value stays.
    resolve(tree, fixes_only, mode)
    by_fixes = resolved_values(kconf)
    revived = revived_lines(tree, assigns, base_assigns, dead_before,
                            not_taken(kconf, fixes_only))
    embedded = any(a["sym"] == "EMBEDDED" and a.get("val") == "y"
                   for a in base_assigns)
    restored = set()
    head = []
    if revived and embedded:
        head = restored_notes(tree, revived)
        restored = {a["sym"] for a in revived}
    elif revived:
        head, assigns, fixes_only = keep_running(tree, assigns, fixes_only,
                                                 revived, base, mode)
        resolve(tree, fixes_only, mode)
        by_fixes = resolved_values(kconf)
    named = {a["sym"] for a in assigns} | {"SLUB"} | \
        {a["sym"] for a in revived}
    by_order = sorted(kconf.unique_defined_syms,
                      key=lambda s: tree.order.get(s.name, -1))
    pins = {}
    refused = []

    def cur_assigns():
        return assigns + [{"sym": n, "val": None if v == "n" else v,
                           "line": 0} for n, v in pins.items()]

    def resolve_with(extra):
        saved = dict(pins)
        pins.update(extra)
        resolve(tree, cur_assigns(), mode)
        pins.clear()
        pins.update(saved)

    seen_choices = set()
    chosen = set()      # members pinned for a choice the file never had
    needed = set()      # pins that keep a line of the file effective
    after = None
    for _ in range(8):
        resolve(tree, cur_assigns(), mode)
        cur = resolved_values(kconf)
        if after is None:
            after = cur
        new = {}
        choices = []
        for sym in by_order:
            n = sym.name
            if n in named or n in pins or \
               same_value(base.get(n), cur.get(n)) or \
               not same_value(by_fixes.get(n), after.get(n)):
                continue
            v = pin_value(sym, base.get(n))
            if v is not None:
                new[n] = v
            elif sym.choice is not None and sym.choice not in seen_choices \
                    and not any(base.get(m.name) == "y"
                                for m in sym.choice.syms):
                seen_choices.add(sym.choice)
                choices.append(sym.choice)
        for c in choices:
            # a restored line made it visible: as the board had it
            if restored & choice_dep_names(kconf, c):
                continue
            best = choice_pin(tree, kconf, c, base, resolve_with)
            if best and best not in named:
                new[best] = "y"
                chosen.add(best)
        if not new:
            break
        pins.update(new)
    # keep a pin only where its line takes effect and is not the default
    def prune():
        for _ in range(4):
            resolve(tree, cur_assigns(), mode)
            drop = []
            for n, v in pins.items():
                sym = kconf.syms[n]
                now = conf_value(sym) if written(sym) else None
                want = None if v == "n" else v
                if sym.orig_type is kconfiglib.STRING and want is not None:
                    want = kconfiglib.unescape(want[1:-1])
                if not same_value(now, want) or \
                   (sym.choice is None and
                    same_value(unpinned_value(sym, want), want)):
                    drop.append(n)
            if not drop:
                break
            for n in drop:
                del pins[n]

    prune()
    # No line of the file that takes effect may stop taking effect: the
    # pins its symbol depends on go (the file wants what they hide).
    bad = bad_lines(verify(tree, assigns, mode))
    by_line = {a.get("line", 0): a["sym"] for a in assigns}
    for _ in range(4):
        if not pins:
            break
        lost = bad_lines(verify(tree, cur_assigns(), mode)) - bad
        lost.discard(0)
        if not lost:
            break
        # the nearest pinned dependency of each lost line takes the value
        # the migration gave it (the line needs it); pinned so already: goes
        drop, flip = set(), {}
        for ln in lost:
            deps = dep_closure(kconf, by_line.get(ln))
            # first what the pins made visible that the line needs
            lift = [n for n in deps if n not in pins and n not in named and
                    not same_value(after.get(n), conf_value(kconf.syms[n])
                                   if written(kconf.syms[n]) else None) and
                    pin_value(kconf.syms[n], after.get(n)) is not None]
            if lift:
                d = min(deps[n] for n in lift)
                for n in lift:
                    if deps[n] == d:
                        flip[n] = pin_value(kconf.syms[n], after.get(n))
                continue
            near = [n for n in pins if n in deps]
            if not near:
                continue
            d = min(deps[n] for n in near)
            for n in near:
                if deps[n] != d:
                    continue
                v = after.get(n)
                v = "n" if v is None else v
                if kconf.syms[n].orig_type is kconfiglib.STRING and \
                   after.get(n) is not None:
                    v = '"%s"' % kconfiglib.escape(v)
                if pins[n] == v or n in drop:
                    drop.add(n)
                else:
                    flip[n] = v
        for n in flip:
            if n not in drop:
                pins[n] = flip[n]
                needed.add(n)
        if not drop and not flip:
            refused.append("not pinning %d options: line %s would stop "
                           "taking effect" % (len(pins), ", ".join(
                               str(x) for x in sorted(lost)[:4])))
            pins = {}
            break
        for n in drop:
            del pins[n]
    prune()
    fixes = []
    prefix = kconf.config_prefix
    for n, v in pins.items():
        old = base.get(n)
        if n in needed:
            why = ("sets %s=%s, which a line of the file needs, and pins "
                   "the rest of its menu" % (n, v))
        elif n in chosen:
            why = ("chooses %s in a choice the file did not have before "
                   "(hidden then): the member that changes the fewest "
                   "other options" % n)
        else:
            why = ("keeps %s at %s, its value before the migration" %
                   (n, old if old is not None else "n"))
        fixes.append({"sym": n, "val": v,
                      "line_text": pin_line(prefix, n, v),
                      "replace_line": 0,
                      "after_line": tree.after_line(assigns, n),
                      "order": tree.order.get(n, -1), "reason": why})
    fixes.sort(key=lambda x: x["order"])
    return head + fixes, refused


#
# serve mode: JSON lines on stdin/stdout
#
# Requests (one JSON object per line; "id" is echoed back):
#   {"op": "load", "srctree": DIR|null, "target": "6.12"|null, "arch": A,
#    "cross_compile": P|null, "env": {NAME: VALUE, ...}}
#   {"op": "verify", "mode": "defconfig"|"tinyconfig", "config": bool,
#    "assign": [{"sym": S, "val": RAW|null, "line": N, "fix": bool}, ...]}
#     ("fix": fix_deps makes those take effect; all when none is marked)
#   {"op": "fix_deps", ... same as verify}
#   {"op": "pin", "mode": ..., "assign": [the migrated file],
#    "base": [the file before, same form]}: "fixes" (the pins) and
#     "refused", as fix_deps
#   {"op": "quit"}
# Replies: {"id": ID, "ok": true, ...} or {"id": ID, "ok": false,
#   "error": "one line"}. verify: "findings" [{line, symbol, kind, cause,
#   requested, actual, message, detail, fix}], "config" [[name, value,
#   type]] when asked. fix_deps: also "fixes" [{sym, val, line_text,
#   replace_line, after_line, order, reason}], "iterations", "refused"
#   [one line per fix not written, with why].
#

class Server(object):
    def __init__(self, cwd):
        self.tree = None
        # The caller's working directory: a relative srctree is theirs, not
        # that of the scratch directory the server runs in.
        self.cwd = cwd

    def op_load(self, req):
        srctree = req.get("srctree")
        if srctree:
            srctree = os.path.normpath(os.path.join(self.cwd, srctree))
            if not os.path.isfile(os.path.join(srctree, "Kconfig")):
                raise HelperError("no Kconfig in %s (not a kernel tree?)"
                                  % srctree)
            env = make_env(srctree, req.get("arch"),
                           req.get("cross_compile"), req.get("env"),
                           req.get("srcarch"), req.get("subarch"))
            os.environ.update(env)
            kconf = load_kconfig_cached(os.path.join(srctree, "Kconfig"), env)
            desc = "linux %s tree %s (ARCH=%s)" % (env["KERNELVERSION"],
                                                   srctree, env["ARCH"])
            version = env["KERNELVERSION"]
        else:
            name = pick_model(req.get("target"))
            path = os.path.join(MODELS_DIR, name)
            env = {"srctree": path, "SRCARCH": "none", "ARCH": "none",
                   "KERNELVERSION": name}
            arch = req.get("arch") or req.get("subarch") or host_subarch()
            srcarch = req.get("srcarch") or \
                ("um" if arch == "um" else SRCARCH_MAP.get(arch, arch))
            os.environ.update(env)
            kconf = load_kconfig(os.path.join(path, "Kconfig"))
            desc = "bundled slab-related Kconfig model for linux %s " \
                "(kconfig/models/%s)" % (name, name)
            version = name
        self.tree = Tree(kconf, desc, version, env,
                         model=None if srctree else
                         os.path.join(path, "Kconfig"),
                         srcarch=None if srctree else srcarch)
        return {"describe": desc, "version": version,
                "symbols": len(kconf.unique_defined_syms),
                "env": env, "warnings": len(kconf.warnings)}

    def need_tree(self):
        if not self.tree:
            raise HelperError("no tree loaded")
        return self.tree

    @staticmethod
    def assigns(req):
        out = []
        for a in req.get("assign") or []:
            if not isinstance(a, dict) or not isinstance(a.get("sym"), str):
                raise HelperError("bad assignment %r" % (a,))
            val = a.get("val")
            if val is not None and not isinstance(val, str):
                raise HelperError("bad value for %s" % a["sym"])
            if not re.match(r"^[A-Za-z0-9_]+$", a["sym"]) or \
               (val is not None and "\n" in val):
                raise HelperError("bad assignment to '%s'" % a["sym"])
            out.append({"sym": a["sym"], "val": val,
                        "line": int(a.get("line") or 0),
                        "fix": bool(a.get("fix"))})
        return out

    @staticmethod
    def public(findings):
        keys = ("line", "symbol", "kind", "cause", "requested", "actual",
                "message", "detail", "fix")
        return [{k: f.get(k) for k in keys} for f in findings]

    def op_verify(self, req):
        tree = self.need_tree()
        findings = verify(tree, self.assigns(req), req.get("mode",
                                                           "defconfig"))
        rep = {"findings": self.public(findings)}
        if req.get("config"):
            rep["config"] = config_list(tree.kconf)
        return rep

    def op_fix_deps(self, req):
        tree = self.need_tree()
        fixes, findings, n, refused = fix_deps(
            tree, self.assigns(req), req.get("mode", "defconfig"))
        rep = {"findings": self.public(findings), "fixes": fixes,
               "iterations": n, "refused": refused}
        if req.get("config"):
            rep["config"] = config_list(tree.kconf)
        return rep

    def op_pin(self, req):
        tree = self.need_tree()
        base = self.assigns({"assign": req.get("base")})
        fixes, refused = pin(tree, self.assigns(req), base,
                             req.get("mode", "defconfig"))
        return {"findings": [], "fixes": fixes, "iterations": 0,
                "refused": refused}

    def handle(self, line):
        import json
        try:
            req = json.loads(line)
        except ValueError as e:
            return {"id": None, "ok": False, "error": "bad request: %s" % e}
        if not isinstance(req, dict):
            return {"id": None, "ok": False, "error": "bad request"}
        rid = req.get("id")
        op = req.get("op")
        fn = {"load": self.op_load, "verify": self.op_verify,
              "fix_deps": self.op_fix_deps, "pin": self.op_pin}.get(op)
        if not fn:
            return {"id": rid, "ok": False, "error": "unknown op %r" % op}
        try:
            rep = fn(req)
        except HelperError as e:
            rep = {"id": rid, "ok": False, "error": str(e)}
            if e.code:
                rep["code"] = e.code
            return rep
        except (kconfiglib.KconfigError, EnvironmentError) as e:
            return {"id": rid, "ok": False,
                    "error": str(e).strip().replace("\n", " ")}
        except Exception as e:      # never die with a traceback on the pipe
            return {"id": rid, "ok": False, "error": "internal error: %s: %s"
                    % (type(e).__name__, e)}
        rep["id"] = rid
        rep["ok"] = True
        return rep


def cmd_serve(argv):
    import json
    # The protocol owns the real stdout; anything else that prints (a
    # library, a stray warning) goes to stderr.
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    cwd = os.getcwd()
    os.chdir(os.environ.get("TMPDIR") or "/tmp")
    server = Server(cwd)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        if line.startswith("{") and '"quit"' in line:
            try:
                if json.loads(line).get("op") == "quit":
                    break
            except ValueError:
                pass
        rep = server.handle(line)
        proto.write(json.dumps(rep, separators=(",", ":")) + "\n")
        proto.flush()
    return 0


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        sys.stderr.write(__doc__)
        return 2 if len(argv) < 2 else 0
    if argv[1] == "autoconf":
        return cmd_autoconf(argv[2:])
    if argv[1] == "serve":
        return cmd_serve(argv[2:])
    die("unknown mode '%s' (autoconf, serve)" % argv[1])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
