#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Errors are per file (issue 45): among good configs, a file that cannot
# be merged (a Buildroot defconfig naming a fragment that is missing) or
# read as a config (NUL bytes) is one error line of its own, "FILE:
# PROBLEM"; the good files are still judged and their findings printed;
# the exit status is 2. check (text, JSON, github) and migrate alike.
set -u
. "$(dirname "$0")/../../lib.sh"
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
unset ARCH CROSS_COMPILE
S=$SLUBTINY
st_tmpdir t
cd "$t" || exit 2
mkdir -p repo/arch/arm/configs
cp "$ST_SRCDIR/fixtures/readme/arch/arm/configs/board_defconfig" repo/arch/arm/configs/
# fixtures/layout/buildroot: acme_other_defconfig names a missing fragment
cp -r "$ST_SRCDIR/fixtures/layout/buildroot" repo/br
printf 'CONFIG_A=y\n\0\0\0ELF\n' >repo/bin_defconfig
cd repo || exit 2
merge_err="br/board/acme/other/extra.fragment: ./br/configs/acme_other_defconfig:6 names ./br/board/acme/other/missing.fragment: No such file or directory"
bin_err="bin_defconfig: not a defconfig (binary data on line 2)"

for c in check migrate; do
	opts=--no-config
	[ $c = migrate ] && opts=--check
	st_expect 2 "$c DIR with a broken stack, and a binary FILE" "$S" $c $opts . bin_defconfig
	# one line for each bad file, naming it and the problem
	n=$(grep -c "^slubtiny: $c: \./br/board/acme/other/extra\.fragment: " "$t/err")
	[ "$n" = 1 ] || bad "$c: $n error lines for extra.fragment, want 1: $(cat "$t/err")"
	grep -qxF "slubtiny: $c: ./$merge_err" "$t/err" || bad "$c: no line '$merge_err'"
	n=$(grep -c "^slubtiny: $c: bin_defconfig: not a defconfig" "$t/err")
	[ "$n" = 1 ] || bad "$c: $n error lines for bin_defconfig, want 1"
	grep -q "^slubtiny: $c: bin_defconfig: not a defconfig (binary data on line 2)" "$t/err" ||
		bad "$c: no line '$bin_err'"
	# the good files are judged: their findings (check) or changes (migrate)
	for f in ./arch/arm/configs/board_defconfig ./br/board/acme/kdef/tiny.fragment; do
		grep -q "^$f:1*[0-9]:1: \(warning\|note\): CONFIG_SLOB=y" "$t/err" ||
			bad "$c: $f not judged: $(cat "$t/err")"
	done
	# no finding of a file that could not be judged
	grep -q '^\./br/board/acme/other/extra\.fragment:[0-9]' "$t/err" &&
		bad "$c: findings of extra.fragment"
	grep -q '^bin_defconfig:[0-9]' "$t/err" && bad "$c: findings of bin_defconfig"
done
grep -q '^+CONFIG_SLUB_TINY=y$' "$t/out" || bad "migrate: no diff of the good board"

# JSON: the findings of the others, an error entry each
st_expect 2 "check --json" "$S" check --no-config --json . bin_defconfig
jq -e '[.errors[].file] | sort == ["./br/board/acme/other/extra.fragment", "bin_defconfig"]' \
	"$t/out" >/dev/null || bad "check --json: errors $(jq -c .errors "$t/out")"
jq -e '[.findings[] | select(.rule == "removed-allocator") | .file] | sort ==
	["./arch/arm/configs/board_defconfig", "./br/board/acme/kdef/tiny.fragment"]' "$t/out" \
	>/dev/null || bad "check --json: the good files' findings: $(jq -c '[.findings[].file]' "$t/out")"
st_expect 2 "migrate --check --json" "$S" migrate --check --json . bin_defconfig
jq -e '[.files[] | select(.error) | .file] | sort == ["./br/board/acme/other/extra.fragment", "bin_defconfig"]' \
	"$t/out" >/dev/null || bad "migrate --json: error entries $(jq -c '[.files[] | select(.error)]' "$t/out")"
jq -e '[.files[] | select(.changed) | .file] | index("./arch/arm/configs/board_defconfig") != null' \
	"$t/out" >/dev/null || bad "migrate --json: the good board is not migrated"
# github: an ::error command for each, beside the others' annotations
st_expect 2 "check --format github" "$S" check --no-config --format github . bin_defconfig
[ "$(grep -c '^::error file=' "$t/out")" = 2 ] || bad "github: $(grep '^::error' "$t/out")"
grep -q '^::warning file=\./arch/arm/configs/board_defconfig,' "$t/out" ||
	bad "github: no annotation for the good board"
# --fix: the good files are written, the broken one is an error
st_expect 2 "check --fix" "$S" check --no-config --fix .
grep -qx 'CONFIG_SLUB_TINY=y' arch/arm/configs/board_defconfig || bad "check --fix: board not fixed"
[ "$(grep -c '^slubtiny: check: \./br/board/acme/other/extra\.fragment: ' "$t/err")" = 1 ] ||
	bad "check --fix: not one error line for extra.fragment: $(cat "$t/err")"
exit $fail
