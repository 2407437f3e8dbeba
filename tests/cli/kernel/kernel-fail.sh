#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# slubtiny kernel when make fails or writes no .config, and with a missing
# --defconfig .config: a fake `make` first in PATH stands for each failure
# (no compiler runs; the tree is the Kconfig extraction of linux-source-6.12
# the check tests share). Every failure is one error naming the item, the
# stage and the make log (or the file), exit 2, never a crash.
set -u
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../kernel-tree.sh"
st_tmpdir t
# The Kconfig helper's probe of the tree is cached here for every run below.
kb=$t/kb
mkdir -p "$t/bin" "$t/cwd"

fake_make() { # body of the fake make
	printf '#!/bin/sh\n%s\n' "$1" >"$t/bin/make"
	chmod +x "$t/bin/make"
}
# kernel NAME ARGS...: run with the fake make, $st, $t/NAME.out, $t/NAME.err.
kernel() {
	name=$1
	shift
	rm -rf "$kb"/linux-source-6.12-*/x86_64/slub
	(cd "$t/cwd" && PATH=$t/bin:$PATH "$SLUBTINY" kernel --srctree "$tree" --arch x86_64 \
		--variant slub --builddir "$kb" "$@") >"$t/$name.out" 2>"$t/$name.err"
	st=$?
}
# No sanitizer report, no crash, exit 2.
no_crash() { # name
	[ $st = 2 ] || bad "$1: exit $st, want 2: $(tail -5 "$t/$1.err")"
	! grep -q 'Sanitizer\|runtime error\|malloc()\|double free' "$t/$1.err" ||
		bad "$1: $(grep -m1 'Sanitizer\|runtime error\|malloc()\|double free' "$t/$1.err")"
}
item='linux-6\.12\.[0-9]*/x86_64/slub'
log="$kb/linux-source-6.12-[0-9a-f]*/x86_64/slub/slubtiny-make.log"

# make fails at once and says nothing: one line naming the stage and the
# (empty) log. This overflowed the message buffer and crashed (exit 134/139).
fake_make 'sleep 2; exit 1'
kernel tinyconfig --defconfig tinyconfig
no_crash tinyconfig
grep -qx "slubtiny: kernel: $item: make tinyconfig failed (exit status 1); make log $log is empty" \
	"$t/tinyconfig.err" || bad "make tinyconfig failing: $(cat "$t/tinyconfig.err")"
grep -v '^slubtiny: ' "$t/tinyconfig.err" | grep -q . && bad "make tinyconfig failing: more than one line"

# The build step fails after a long log with empty lines: the error names
# the step and the log, and its last lines follow, indented.
fake_make 'for a; do case $a in O=*) o=${a#O=} ;; tinyconfig) : >"$o/.config"; exit 0 ;; olddefconfig) exit 0 ;; esac; done
i=0; while [ $i -lt 40 ]; do echo; echo; echo "  CC      line $i"; i=$((i + 1)); done
echo "make: *** boom"; exit 2'
kernel build --defconfig tinyconfig
no_crash build
grep -q "^slubtiny: kernel: $item: make mm/[a-z_]*\.o\( \.\.\.\)\? failed (exit status 2)$" "$t/build.err" ||
	bad "build failing: $(head -3 "$t/build.err")"
grep -q "^  make log ($log), last lines:$" "$t/build.err" || bad "build failing: no make log line"
grep -qx '    make: \*\*\* boom' "$t/build.err" || bad "build failing: no log tail"

# The config target's make succeeds but writes no .config: the error names
# the file it did not find.
fake_make 'exit 0'
kernel noconfig --defconfig tinyconfig
no_crash noconfig
grep -q "^slubtiny: kernel: $item: $kb/linux-source-6.12-[0-9a-f]*/x86_64/slub/\.config: cannot open: " \
	"$t/noconfig.err" || bad "no .config: $(cat "$t/noconfig.err")"

# --defconfig .config that does not exist is a missing file, not a make
# target: one error naming it, nothing run.
fake_make ': >"$0.ran"; exit 1'
kernel dotconfig --defconfig .config
no_crash dotconfig
[ "$(cat "$t/dotconfig.err")" = "slubtiny: kernel: .config: cannot read: No such file or directory" ] ||
	bad "--defconfig .config missing: $(cat "$t/dotconfig.err")"
[ ! -e "$t/bin/make.ran" ] || bad "--defconfig .config missing: make was run"
[ ! -s "$t/dotconfig.out" ] || bad "--defconfig .config missing: output on stdout"

[ $fail = 0 ] && echo "kernel-fail: ok"
exit $fail
