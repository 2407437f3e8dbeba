#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# report --objects takes each file's arch from its ELF header (e_machine,
# as readelf -h shows it) and refuses to compare different machines unless
# --mixed-arch says so.
set -u
. "$(dirname "$0")/../lib.sh"
for p in cc arm-linux-gnueabi-gcc readelf jq; do
	command -v $p >/dev/null || { echo "skip: $p missing"; exit 77; }
done
st_tmpdir t
printf 'int a[10]; int f(int i) { return a[i]; }\n' >"$t/a.c"
printf 'int a[20]; int f(int i) { return a[i] * 2; }\n' >"$t/b.c"
cc -Os -c "$t/a.c" -o "$t/host-a.o" && cc -Os -c "$t/b.c" -o "$t/host-b.o" &&
arm-linux-gnueabi-gcc -Os -c "$t/a.c" -o "$t/arm-a.o" &&
arm-linux-gnueabi-gcc -Os -c "$t/b.c" -o "$t/arm-b.o" || { echo "FAIL: compilers"; exit 1; }

# The arch name slubtiny gives to readelf's "Machine:".
arch_of() {
	case $(readelf -h "$1" | sed -n 's/^ *Machine: *//p') in
	"Advanced Micro Devices X86-64") echo x86_64 ;;
	"Intel 80386") echo i686 ;;
	ARM) echo arm ;;
	AArch64) echo aarch64 ;;
	*) echo unknown ;;
	esac
}
host=$(arch_of "$t/host-a.o")
[ "$host" = unknown ] && { echo "skip: host machine not mapped here"; exit 77; }

# Same machine: the arch column is that machine, for the arm pair too.
for m in host arm; do
	"$SLUBTINY" report --json --objects old="$t/$m-a.o" new="$t/$m-b.o" >"$t/out" 2>"$t/err"; st=$?
	[ $st = 0 ] || { bad "$m pair: exit $st"; cat "$t/err"; }
	[ -s "$t/err" ] && bad "$m pair: stderr: $(cat "$t/err")"
	want=$(arch_of "$t/$m-a.o")
	[ "$(jq -r '[.results[].arch] | unique | join(",")' "$t/out")" = "$want" ] ||
		bad "$m pair: arch $(jq -c '[.results[].arch]' "$t/out"), want $want"
done

# Different machines: one error naming the file and both machines, exit 2.
"$SLUBTINY" report --objects old="$t/host-a.o" new="$t/arm-b.o" >"$t/out" 2>"$t/err"; st=$?
[ $st = 2 ] || bad "mixed: exit $st, want 2"
[ -s "$t/out" ] && bad "mixed: stdout: $(cat "$t/out")"
[ "$(wc -l <"$t/err")" = 1 ] || bad "mixed: not one line: $(cat "$t/err")"
grep -q "^slubtiny: report: $t/arm-b.o: a arm file; $t/host-a.o is $host: different machines" "$t/err" ||
	bad "mixed: message: $(cat "$t/err")"
# ... unless told to.
"$SLUBTINY" report --json --mixed-arch --objects old="$t/host-a.o" new="$t/arm-b.o" >"$t/out" 2>"$t/err"; st=$?
[ $st = 0 ] || { bad "--mixed-arch: exit $st"; cat "$t/err"; }
[ "$(jq -r '.results[0].arch' "$t/out")" = "$host+arm" ] || bad "--mixed-arch: arch $(jq -r '.results[0].arch' "$t/out")"
"$SLUBTINY" report --mixed-arch >/dev/null 2>"$t/err"; st=$?
[ $st = 2 ] || bad "--mixed-arch without --objects: exit $st"
exit $fail
