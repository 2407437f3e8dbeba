#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What kernel maintainers expect of a command line: '-' for standard input
# (and output), -q/-v, a non-defconfig or non-ELF input as one error with
# exit 2, a "version" in every JSON document, an error as a JSON document
# on stdout under --json, -j 0 for all CPUs, short causes by default.
set -u
. "$(dirname "$0")/../lib.sh"
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
st_tmpdir t
S=$SLUBTINY
mkdir -p "$t/arch/arm/configs"
cfg=$t/arch/arm/configs/board_defconfig
printf '# CONFIG_SLUB is not set\nCONFIG_SLOB=y\nCONFIG_NET=y\n' >"$cfg"
printf 'hello world\n' >"$t/text"

# run STATUS DESCRIPTION COMMAND...: stdout in $t/out, stderr in $t/err.
run() {
	want=$1 what=$2; shift 2
	"$@" >"$t/out" 2>"$t/err"; got=$?
	[ "$got" = "$want" ] || { bad "$what: exit $got, want $want"; cat "$t/err"; }
}

# '-': standard input, for migrate and check; migrate --in-place - writes stdout.
run 1 "migrate -" sh -c "\"$S\" migrate --arch arm - <\"$cfg\""
grep -q '^+CONFIG_SLUB_TINY=y$' "$t/out" || bad "migrate -: no diff"
grep -q '^-:2:1: warning: CONFIG_SLUB_TINY=y has no effect' "$t/err" || bad "migrate -: no finding for -"
run 0 "migrate --in-place -" sh -c "\"$S\" migrate --arch arm --fix-deps --in-place -q - <\"$cfg\""
grep -qx 'CONFIG_SLUB_TINY=y' "$t/out" && grep -qx 'CONFIG_EXPERT=y' "$t/out" ||
	bad "migrate --in-place -: no migrated file on stdout"
# -q: only the options that change as a side effect (and, without a tree,
# that the model knows only its own)
grep -v '^-: note: [0-9]* options\{0,1\} changes\{0,1\} as a side effect\( ([^)]*)\)\{0,1\}:$' "$t/err" |
	grep -v '^-: note: these are the side effects within the bundled slab Kconfig model only; ' |
	grep -v '^[-+ ][A-Z0-9_]* ' | grep -q . && bad "migrate --in-place -q -: stderr: $(cat "$t/err")"
cmp -s "$cfg" - <<EOT || bad "migrate --in-place - wrote the file"
# CONFIG_SLUB is not set
CONFIG_SLOB=y
CONFIG_NET=y
EOT
run 1 "check -" sh -c "\"$S\" check - <\"$cfg\""
grep -q '^-:2:1: warning: CONFIG_SLOB=y: .*\[removed-allocator\]$' "$t/err" || bad "check -: $(cat "$t/err")"
run 2 "check --fix -" sh -c "\"$S\" check --fix - <\"$cfg\""
run 2 "migrate - -" sh -c "\"$S\" migrate - - <\"$cfg\""

# -q and -v.
run 1 "migrate" "$S" migrate "$cfg"
n0=$(grep -c 'note:' "$t/err")
run 1 "migrate -q" "$S" migrate -q "$cfg"
grep -q 'note:' "$t/err" && bad "migrate -q prints notes"
grep -q 'warning:' "$t/err" || bad "migrate -q drops the warnings"
run 1 "migrate -v" "$S" migrate -v "$cfg"
nv=$(grep -c 'note:' "$t/err")
[ "$nv" -gt "$n0" ] || bad "migrate -v prints no more notes ($nv) than the default ($n0)"
run 0 "migrate --fix-deps" "$S" migrate --fix-deps "$cfg"
# the side effects: counted, then listed as scripts/diffconfig lists them,
# with -v, by default and with -q alike
grep -q 'note: [0-9]* options\{0,1\} changes\{0,1\} as a side effect\( ([^)]*)\)\{0,1\}:$' "$t/err" ||
	bad "migrate --fix-deps: no count of the side effects: $(cat "$t/err")"
grep '^[-+ ][A-Z0-9_]* ' "$t/err" >"$t/side"
[ -s "$t/side" ] || bad "migrate --fix-deps: the side effects are not listed"
for q in -v -q; do
	run 0 "migrate --fix-deps $q" "$S" migrate --fix-deps $q "$cfg"
	grep '^[-+ ][A-Z0-9_]* ' "$t/err" | cmp -s - "$t/side" ||
		bad "migrate --fix-deps $q: other side effects: $(cat "$t/err")"
done
# check -q: warnings only, no notes (findings of level note, fix hints).
printf 'CONFIG_EXPERT=y\nCONFIG_SLUB=y\nCONFIG_SLUB_TINY=y\nCONFIG_SLOB=y\n' >"$t/q_defconfig"
run 1 "check" "$S" check "$t/q_defconfig"
grep -q 'note:' "$t/err" || bad "check: the case has no note"
run 1 "check -q" "$S" check -q "$t/q_defconfig"
grep -q 'note:' "$t/err" && bad "check -q prints notes: $(cat "$t/err")"
grep -q 'warning: CONFIG_SLOB=y' "$t/err" || bad "check -q drops the warning"

# One fix, not three: the default never repeats a fix the cause states.
run 1 "migrate (fix once)" "$S" migrate "$cfg"
[ "$(grep -c 'CONFIG_EXPERT=y' "$t/err")" = 1 ] || bad "the fix is repeated: $(cat "$t/err")"

# A file that is not a defconfig (an ELF) or not an ELF: one line, exit 2.
elf=$(command -v ls)
for c in migrate check; do
	run 2 "$c ELF" "$S" $c "$elf"
	[ "$(wc -l <"$t/err")" = 1 ] || bad "$c ELF: $(wc -l <"$t/err") lines on stderr"
	grep -q "^slubtiny: $c: $elf: not a defconfig" "$t/err" || bad "$c ELF: $(head -2 "$t/err")"
	[ -s "$t/out" ] && bad "$c ELF: stdout"
done
run 3 "size text" "$S" size "$t/text"
[ "$(wc -l <"$t/err")" = 1 ] || bad "size text: not one line"
run 2 "size-diff text" "$S" size-diff "$t/text" "$elf"
[ "$(wc -l <"$t/err")" = 1 ] || bad "size-diff text: not one line"
run 2 "report --objects text" "$S" report --objects a="$t/text" b="$elf"
[ "$(wc -l <"$t/err")" = 1 ] || bad "report --objects text: not one line"
run 2 "footprint --trace ELF" "$S" footprint --trace "$elf"
[ "$(wc -l <"$t/err")" = 1 ] || bad "footprint ELF: not one line"

# Every JSON document has "version", the same as --version's.
ver=$("$S" --version | sed 's/^slubtiny //')
has_version() { # description
	jq -e --arg v "$ver" '.version == $v' "$t/out" >/dev/null || bad "$1: no version $ver: $(head -c 300 "$t/out")"
}
run 1 "migrate --json" "$S" migrate --json "$cfg"; has_version "migrate --json"
run 1 "check --json" "$S" check --json "$cfg"; has_version "check --json"
run 0 "size --json" "$S" size --json "$elf"; has_version "size --json"
run 0 "size-diff --json" "$S" size-diff --json "$elf" "$elf"; has_version "size-diff --json"
run 0 "report --json" "$S" report --json --objects a="$elf" b="$elf"; has_version "report --json"
"$S" footprint gen boot >"$t/boot.trace" || bad "footprint gen"
run 0 "footprint --json" "$S" footprint --json --time-ms 1 --variant slub --trace "$t/boot.trace"
has_version "footprint --json"

# An error under --json is a document on stdout too (and a line on stderr).
json_err() { # description, [exit status (default 2)], command...
	what=$1 st=2; shift
	case $1 in [0-9]) st=$1; shift ;; esac
	run $st "$what" "$@"
	jq -e --arg v "$ver" '.version == $v and (.error.message | length > 0)' "$t/out" >/dev/null ||
		bad "$what: no error document: $(cat "$t/out")"
	[ "$(wc -l <"$t/err")" -ge 1 ] || bad "$what: nothing on stderr"
}
json_err "migrate --json missing" "$S" migrate --json "$t/none_defconfig"
json_err "migrate --json bad option" "$S" migrate --json --frob "$cfg"
json_err "check --json missing" "$S" check --json "$t/none_defconfig"
# (size exits as GNU size does: 1 for a missing file, 3 for an unknown format)
json_err "size --json missing" 1 "$S" size --json "$t/none.o"
json_err "size-diff --json missing" "$S" size-diff --json "$t/none.o" "$elf"
json_err "build --json bad variant" "$S" build --json --builddir "$t/b" --variant nosuch
json_err "report --json missing" "$S" report --json --objects a="$t/none.o" b="$elf"
json_err "footprint --json bad trace" "$S" footprint --json --trace "$t/text"
jq -e '.error.file != null' "$t/out" >/dev/null || bad "footprint --json: no file in the error"

# -j 0: all CPUs, as make and ninja take it (the error is about the variant).
run 2 "build -j 0" "$S" build -j 0 --builddir "$t/b" --variant nosuch
grep -q "nosuch: unknown variant" "$t/err" || bad "-j 0 refused: $(cat "$t/err")"
exit $fail
