#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Per-file, per-rule ignores in .slubtiny.json ("ignores": files glob,
# rules, reason): they drop exactly the findings they name, count them as
# suppressed, match from any working directory, and a malformed entry (no
# reason, unknown rule or key) is an error naming the file, exit 2.
set -u
. "$(dirname "$0")/../../lib.sh"
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
st_tmpdir t
mkdir -p "$t/repo/arch/arm/configs" "$t/repo/arch/sh/configs" "$t/repo/.git"
cd "$t/repo" || exit 2
printf 'CONFIG_SLOB=y\nCONFIG_SLOB=y\n' >arch/arm/configs/a_defconfig
cp arch/arm/configs/a_defconfig arch/sh/configs/b_defconfig
cp arch/arm/configs/a_defconfig arch/sh/configs/c_defconfig

findings() { # where to run, then check's arguments; prints "file rule" lines
	where=$1; shift
	(cd "$where" && "$SLUBTINY" check --json "$@") >"$t/out" 2>"$t/err"
	echo $? >"$t/st"
	jq -r '.findings[] | "\(.file | split("/") | last) \(.rule)"' "$t/out" | sort
}

# Without ignores: two findings per file.
findings . arch >"$t/all"
[ "$(wc -l <"$t/all")" = 6 ] || bad "without ignores: $(cat "$t/all")"

cat >.slubtiny.json <<'EOT'
{ "ignores": [
    { "files": "arch/sh/configs/b_*", "rules": ["removed-allocator"], "reason": "kept for the 6.1 branch" },
    { "files": "arch/arm/*", "reason": "vendor tree" } ] }
EOT
cat >"$t/want" <<'EOT'
b_defconfig duplicate-assignment
c_defconfig duplicate-assignment
c_defconfig removed-allocator
EOT
findings . arch >"$t/got"
cmp -s "$t/want" "$t/got" || { bad "ignores from the top:"; diff "$t/want" "$t/got"; }
[ "$(cat "$t/st")" = 1 ] || bad "exit $(cat "$t/st"), want 1"
[ "$(jq .summary.suppressed "$t/out")" = 3 ] || bad "suppressed: $(jq .summary.suppressed "$t/out")"
# From a subdirectory: the globs stay relative to .slubtiny.json.
findings arch/sh configs ../arm/configs >"$t/got"
cmp -s "$t/want" "$t/got" || { bad "ignores from arch/sh:"; diff "$t/want" "$t/got"; }
# --no-config: everything again.
findings . --no-config arch >"$t/got"
cmp -s "$t/all" "$t/got" || bad "--no-config still ignores"

# Malformed entries: one error naming the file, exit 2, nothing checked.
for entry in '{ "files": "arch/*" }' '{ "files": "x", "rules": ["nope"], "reason": "r" }' \
	'{ "files": "x", "reason": "r", "why": 1 }' '{ "reason": "r" }' '"arch/*"'; do
	printf '{ "ignores": [ %s ] }\n' "$entry" >.slubtiny.json
	"$SLUBTINY" check arch >"$t/out" 2>"$t/err"; st=$?
	[ $st = 2 ] || bad "$entry: exit $st, want 2"
	[ "$(wc -l <"$t/err")" = 1 ] && grep -q '^slubtiny: .*\.slubtiny\.json: ' "$t/err" ||
		bad "$entry: $(cat "$t/err")"
done
exit $fail
