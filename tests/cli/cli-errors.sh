#!/bin/sh
# Errors of the shared option parser and of main, the ones that get in a
# user's way: each a single line "slubtiny: CMD: message" on stderr, nothing on
# stdout, exit 2, saying what was wrong and what would be right.
#	sh cli-errors.sh [ITEM...]	(default: all; SLUBTINY names the binary)
set -u
. "$(dirname "$0")/../lib.sh"
S=${SLUBTINY:?SLUBTINY not set}
st_tmpdir t

# err STATUS WHAT REGEX COMMAND...: exit STATUS, stdout empty, stderr one
# line matching REGEX.
err() {
	want=$1 what=$2 re=$3; shift 3
	"$@" >"$t/out" 2>"$t/err"; got=$?
	[ "$got" = "$want" ] || bad "$what: exit $got, want $want"
	[ -s "$t/out" ] && bad "$what: stdout: $(head -3 "$t/out")"
	[ "$(wc -l <"$t/err")" = 1 ] || bad "$what: not one line on stderr: $(head -5 "$t/err")"
	grep -q -- "$re" "$t/err" || bad "$what: stderr: $(head -3 "$t/err"), want $re"
}

# a bad number names the option and the valid range, in every command.
item_numbers() {
	err 2 "footprint --threads 0" "^slubtiny: footprint: --threads '0': not a number from 1 to 64\$" \
		"$S" footprint --threads 0
	err 2 "footprint --threads=x" "^slubtiny: footprint: --threads 'x': not a number from 1 to 64\$" \
		"$S" footprint --threads=x
	err 2 "footprint --time-ms" "^slubtiny: footprint: --time-ms '0': not a number from 1 to 600000\$" \
		"$S" footprint --time-ms 0
	err 2 "footprint gen --scale" "^slubtiny: footprint gen: --scale '101': not a number from 1 to 100\$" \
		"$S" footprint gen --scale 101 boot
	err 2 "footprint --boot --mem" "^slubtiny: footprint: --mem '2': not a number from 4 to 65536\$" \
		"$S" footprint --boot --mem 2
	err 2 "footprint --boot --mem list" "^slubtiny: footprint: --mem 'x': not a number from 4 to 65536\$" \
		"$S" footprint --boot --mem 8,x
	err 2 "footprint --boot --mem steps" "^slubtiny: footprint: --mem '4,5,6,7,8,9,10,11,12': more than 8 sizes\$" \
		"$S" footprint --boot --mem 4,5,6,7,8,9,10,11,12
	err 2 "footprint --boot --mem none" "^slubtiny: footprint: --mem ',': no size\$" \
		"$S" footprint --boot --mem ,
	for c in build report kernel; do
		err 2 "$c -j" "^slubtiny: $c: -j 'x': not a number from 0 to 1024 (0: all CPUs)\$" \
			"$S" $c -j x
		err 2 "$c --jobs" "^slubtiny: $c: --jobs '-1': not a number from 0 to 1024 (0: all CPUs)\$" \
			"$S" $c --jobs -1
	done
}

# help --help is help's own usage.
item_help() {
	"$S" help --help >"$t/out" 2>"$t/err"; got=$?
	[ $got = 0 ] || bad "help --help: exit $got: $(cat "$t/err")"
	[ -s "$t/err" ] && bad "help --help: stderr: $(cat "$t/err")"
	grep -q '^Usage: slubtiny help \[COMMAND\]$' "$t/out" || bad "help --help: stdout: $(cat "$t/out")"
	"$S" help -h 2>&1 | cmp -s - "$t/out" || bad "help -h differs from help --help"
}

# the closest option or command, git's "did you mean", one line, exit 2.
item_suggest() {
	err 2 "--versoin" "^slubtiny: unknown option '--versoin' (did you mean '--version'?); see 'slubtiny --help'\$" \
		"$S" --versoin
	err 2 "--hlep" "^slubtiny: unknown option '--hlep' (did you mean '--help'?); see 'slubtiny --help'\$" \
		"$S" --hlep
	err 2 "--frobnicate" "^slubtiny: unknown option '--frobnicate'; see 'slubtiny --help'\$" \
		"$S" --frobnicate
	err 2 "sizee" "^slubtiny: unknown command 'sizee' (did you mean 'size'?); see 'slubtiny --help'\$" \
		"$S" sizee x
	err 2 "help chek" "^slubtiny: help: unknown command 'chek' (did you mean 'check'?); see 'slubtiny --help'\$" \
		"$S" help chek
	err 2 "check --formt" "^slubtiny: check: unknown option '--formt' (did you mean '--format'?); see 'slubtiny check --help'\$" \
		"$S" check --formt json x
}

# one prefix, "slubtiny: CMD: ", for the parser's, the commands' and the
# library's errors alike.
item_prefix() {
	err 2 "unknown option" "^slubtiny: size: unknown option '--frob'; see 'slubtiny size --help'\$" \
		"$S" size --frob
	err 2 "missing argument" "^slubtiny: migrate: option '--srctree' needs an argument (DIR); see 'slubtiny migrate --help'\$" \
		"$S" migrate --srctree
	err 2 "library error" "^slubtiny: size-diff: $t/nope: No such file or directory\$" \
		"$S" size-diff "$t/nope" "$t/nope"
	err 2 "library error" "^slubtiny: check: $t/nope: " \
		"$S" check "$t/nope"
	err 2 "command error" "^slubtiny: completion: expected 'bash' or 'zsh'" \
		"$S" completion fish
}

# no abbreviations of long options: "--srctre" is not "--srctree" (a
# seven-minute build), in every command, with the suggestion of item_suggest.
item_abbrev() {
	err 2 "migrate --srctre" "^slubtiny: migrate: unknown option '--srctre' (did you mean '--srctree'?); see 'slubtiny migrate --help'\$" \
		"$S" migrate --srctre "$t" x_defconfig
	err 2 "kernel --srctre=" "^slubtiny: kernel: unknown option '--srctre=$t' (did you mean '--srctree'?); see 'slubtiny kernel --help'\$" \
		"$S" kernel --srctre="$t"
	err 2 "size --for=" "^slubtiny: size: unknown option '--for=sysv' (did you mean '--format'?)" \
		"$S" size --for=sysv /bin/true
	err 2 "check --js" "^slubtiny: check: unknown option '--js' (did you mean '--json'?)" \
		"$S" check --js "$t"
	err 2 "footprint gen --bin" "^slubtiny: footprint gen: unknown option '--bin' (did you mean '--binary'?)" \
		"$S" footprint gen --bin boot
	err 2 "build --hel" "^slubtiny: build: unknown option '--hel' (did you mean '--help'?)" \
		"$S" build --hel
	# after an operand: the option is named, not the operand
	err 2 "footprint gen boot --bin" "^slubtiny: footprint gen: unknown option '--bin' (did you mean '--binary'?)" \
		"$S" footprint gen boot --bin
	err 2 "size FILE --radix" "^slubtiny: size: option '--radix' needs an argument" \
		"$S" size /bin/true --radix
	# spelled out, with = or apart, still fine
	"$S" size --format=sysv --radix 16 /bin/true >/dev/null 2>"$t/err" || bad "size --format=sysv: $(cat "$t/err")"
}

# an unknown --variant lists the valid ones (those of defconfigs/).
item_variant() {
	for c in report build; do
		err 2 "$c --variant nope" "^slubtiny: $c: nope: unknown variant (no .*); one of .*or a defconfig's path\$" \
			"$S" $c --variant nope --builddir "$t/b"
		for f in "${ST_SRCDIR:?}"/defconfigs/*_defconfig; do
			v=${f##*/}; v=${v%_defconfig}
			case $v in *_legacy) continue ;; esac
			grep -q "one of .*\<$v, " "$t/err" || bad "$c --variant nope: $v not listed: $(cat "$t/err")"
		done
	done
}

# a file that opens but is not a regular file (a directory) says which
# (tests/cli/special-files.sh does FIFOs and devices).
item_read() {
	err 2 "footprint --trace DIR" "^slubtiny: footprint: $t: is a directory, not a regular file\$" \
		"$S" footprint --trace "$t"
	err 2 "report --merge DIR" "^slubtiny: report: $t: is a directory, not a regular file\$" \
		"$S" report --merge "$t"
}

# footprint's own commands (replay, gen, boot): each parses its own table,
# names itself in its errors, and the old spelling `footprint --boot` is
# boot; a choice names its words; a --boot that is another option's
# argument is not the old spelling.
item_subcommands() {
	err 2 "footprint boot --mem" "^slubtiny: footprint boot: --mem '2': not a number from 4 to 65536\$" \
		"$S" footprint boot --mem 2
	err 2 "footprint replay --threads" "^slubtiny: footprint replay: --threads '0': not a number from 1 to 64\$" \
		"$S" footprint replay --threads 0
	err 2 "footprint boot, no tree" "^slubtiny: footprint boot: --srctree DIR is required\$" \
		"$S" footprint boot
	err 2 "footprint --boot, no tree" "^slubtiny: footprint: --srctree DIR is required\$" \
		"$S" footprint --boot
	err 2 "footprint boot --accel" "^slubtiny: footprint boot: --accel is kvm or tcg, not 'x'\$" \
		"$S" footprint boot --accel x
	err 2 "footprint --boot --boot-config" \
		"^slubtiny: footprint: --boot-config is minimal or kvm-guest, not 'big'\$" \
		"$S" footprint --srctree "$t" --boot-config big --boot
	err 2 "footprint boot two arches" "^slubtiny: footprint boot: --arch: a boot takes one ARCH at a time\$" \
		"$S" footprint boot --srctree "$t" --arch arm --arch riscv
	err 2 "footprint boot arm with kvm" \
		"^slubtiny: footprint boot: --accel kvm: no KVM for ARCH=arm on this machine; use --accel tcg\$" \
		"$S" footprint boot --srctree "$t" --arch arm --accel kvm
	err 2 "footprint boot -j" "^slubtiny: footprint boot: -j 'x': not a number from 0 to 1024 (0: all CPUs)\$" \
		"$S" footprint boot -j x
	err 2 "replay options are not boot's" "^slubtiny: footprint boot: unknown option '--trace'" \
		"$S" footprint boot --trace x
	err 2 "boot options are not the replay's" "^slubtiny: footprint: unknown option '--accel'" \
		"$S" footprint --accel kvm
	err 2 "--boot as --trace's argument" "^slubtiny: footprint: --boot: " \
		"$S" footprint --variant slub --trace --boot
	"$S" footprint boot --help >"$t/out" 2>"$t/err"; got=$?
	[ $got = 0 ] && [ ! -s "$t/err" ] && grep -q '^Usage: slubtiny footprint boot \[OPTIONS\]$' "$t/out" ||
		bad "footprint boot --help: exit $got: $(head -3 "$t/out" "$t/err")"
	"$S" footprint gen -h 2>&1 | grep -q '^Usage: slubtiny footprint gen \[OPTIONS\] SHAPE' ||
		bad "footprint gen -h: not gen's usage"
}

items=${*:-numbers help suggest prefix abbrev variant read subcommands}
for i in $items; do
	item_$i
done
exit $fail
