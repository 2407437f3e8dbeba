#!/bin/sh
# slubtiny check end to end: exit codes, the gcc format, suppression
# comments, --select/--ignore, .slubtiny.json and the json/github formats.
set -u
. "$(dirname "$0")/../../lib.sh"
st_tmpdir t

expect() { # status description command...
	want=$1; shift; what=$1; shift
	"$@" >"$t/out" 2>"$t/err"; got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL: $what: exit $got, want $want"; cat "$t/out" "$t/err"; fail=1
	fi
}
has() { # description regex file
	grep -Eq -- "$2" "$3" || { echo "FAIL: $1: no line matching '$2' in:"; cat "$3"; fail=1; }
}
hasnt() {
	! grep -Eq -- "$2" "$3" || { echo "FAIL: $1: unexpected '$2' in:"; cat "$3"; fail=1; }
}

mkdir -p "$t/repo/.git" "$t/repo/arch/sh/configs" "$t/repo/sub"
cd "$t/repo"
printf 'CONFIG_EXPERT=y\nCONFIG_SLUB=y\n' >good_defconfig
printf 'CONFIG_EXPERT=y\nCONFIG_SLOB=y\n# CONFIG_SLAB is not set\n' >slob_defconfig
printf 'CONFIG_SLUB=y\nCONFIG_SLUB_TINY=y\nCONFIG_SLUB_DEBUG=y\n' >arch/sh/configs/tiny_defconfig
printf 'CONFIG_EXPERT=y\nCONFIG_SLUB_TINY=y\n' >notice_defconfig

expect 0 "clean file" "$SLUBTINY" check good_defconfig
# only what was checked, and for which ARCH (the host's: nothing else says)
[ -s "$t/out" ] && { echo "FAIL: clean file printed on stdout"; cat "$t/out"; fail=1; }
grep -qx 'slubtiny: check: checked 1 kernel config, ARCH=[a-z0-9_]* (from host)' "$t/err" &&
	[ "$(wc -l <"$t/err")" = 1 ] || { echo "FAIL: clean file: stderr is not the count"; cat "$t/err"; fail=1; }
expect 0 "clean file, -q" "$SLUBTINY" check -q good_defconfig
[ -s "$t/out" ] || [ -s "$t/err" ] && { echo "FAIL: clean file -q printed something"; cat "$t/out" "$t/err"; fail=1; }
expect 1 "slob" "$SLUBTINY" check slob_defconfig
has "gcc format" '^slob_defconfig:2:1: warning: CONFIG_SLOB=y: SLOB was removed in Linux 6.4.* \[removed-allocator\]$' "$t/err"
has "fix hint" "^slob_defconfig:2:1: note: fix: replace with CONFIG_SLUB_TINY=y; 'slubtiny check --fix' does it\$" "$t/err"
# text findings are diagnostics: on stderr, as gcc prints them; stdout empty
[ -s "$t/out" ] && { echo "FAIL: text findings on stdout"; cat "$t/out"; fail=1; }

expect 0 "a note alone exits 0" "$SLUBTINY" check notice_defconfig
has "notice" '^notice_defconfig:2:1: note: CONFIG_SLUB_TINY=y turns off .* \[hardening-notice\]$' "$t/err"
expect 0 "notice turned off" "$SLUBTINY" check -q --ignore hardening-notice notice_defconfig
[ -s "$t/out" ] || [ -s "$t/err" ] && { echo "FAIL: ignored notice printed"; cat "$t/out" "$t/err"; fail=1; }

expect 1 "tiny" "$SLUBTINY" check arch/sh/configs/tiny_defconfig
has "deps" ':2:1: warning: CONFIG_SLUB_TINY=y has no effect: it depends on EXPERT .*\[slub-tiny-deps\]$' "$t/err"
has "disables" ':3:1: warning: CONFIG_SLUB_DEBUG=y has no effect next to CONFIG_SLUB_TINY=y \(line 2\).*\[slub-tiny-disables\]$' "$t/err"

expect 0 "--select other rules" "$SLUBTINY" check --select duplicate-assignment,syntax slob_defconfig
expect 1 "--select the rule" "$SLUBTINY" check --select removed-allocator slob_defconfig
expect 2 "unknown rule" "$SLUBTINY" check --select slob slob_defconfig
has "unknown rule message" "^slubtiny: check: unknown rule 'slob'" "$t/err"
expect 2 "unknown format" "$SLUBTINY" check --format xml slob_defconfig
expect 2 "missing file" "$SLUBTINY" check nosuch_defconfig
has "error format" '^slubtiny: check: nosuch_defconfig: ' "$t/err"
expect 2 "no arguments" "$SLUBTINY" check
# an error keeps stdout one document in the machine formats
expect 2 "json error" "$SLUBTINY" check --format json nosuch_defconfig
has "json error document" '^\{"version":"[0-9.]*","error":\{"file":"nosuch_defconfig","message":"No such file or directory"\}\}$' "$t/out"
expect 2 "github error" "$SLUBTINY" check --format github nosuch_defconfig
has "github error command" '^::error file=nosuch_defconfig::No such file or directory$' "$t/out"

# suppression comments
printf '# slubtiny: ignore[removed-allocator] legacy board, kept on 6.1\nCONFIG_SLOB=y\nCONFIG_SLAB=y\n' >supp_defconfig
expect 1 "line suppression" "$SLUBTINY" check supp_defconfig
has "unsuppressed line" '^supp_defconfig:3:1: warning: CONFIG_SLAB=y' "$t/err"
hasnt "suppressed line" '^supp_defconfig:2:' "$t/err"
printf '# slubtiny: ignore-file[removed-allocator]\nCONFIG_SLOB=y\nCONFIG_SLAB=y\n' >supp_defconfig
expect 0 "file suppression" "$SLUBTINY" check supp_defconfig
printf '# slubtiny: ignore[removed-alocator]\nCONFIG_SLOB=y\n' >supp_defconfig
expect 1 "misspelt suppression" "$SLUBTINY" check supp_defconfig
has "bad suppression" "^supp_defconfig:1:1: warning: suppression comment ignored: unknown rule 'removed-alocator' \[bad-suppression\]$" "$t/err"
has "not suppressed" '^supp_defconfig:2:1: warning: CONFIG_SLOB=y' "$t/err"

# .slubtiny.json: found from a subdirectory, up to the top of the repository
printf '{"ignore": ["removed-allocator"]}\n' >.slubtiny.json
expect 0 "config ignore" "$SLUBTINY" check slob_defconfig
(cd sub && "$SLUBTINY" check ../slob_defconfig >/dev/null 2>&1); [ $? = 0 ] ||
	{ echo "FAIL: config not found from a subdirectory"; fail=1; }
expect 1 "--no-config" "$SLUBTINY" check --no-config slob_defconfig
printf '{"select": ["syntax"]}\n' >other.json
expect 0 "--config" "$SLUBTINY" check --config other.json --no-config slob_defconfig
expect 1 "--select beats the file" "$SLUBTINY" check --config other.json --select removed-allocator slob_defconfig
printf '{"ignore": ["removed-alocator"]}\n' >.slubtiny.json
expect 2 "typo in config" "$SLUBTINY" check slob_defconfig
has "config error" "^slubtiny: .*\.slubtiny\.json: \"ignore\": unknown rule 'removed-alocator'" "$t/err"
printf '{"ignore": [' >.slubtiny.json
expect 2 "broken config" "$SLUBTINY" check slob_defconfig
rm .slubtiny.json

# machine formats: one JSON value; github workflow commands
expect 1 "json" "$SLUBTINY" check --format json slob_defconfig arch/sh/configs/tiny_defconfig
"$ST_PYTHON" -m json.tool "$t/out" >/dev/null || { echo "FAIL: --format json is not JSON"; cat "$t/out"; fail=1; }
has "json finding" '"rule": ?"removed-allocator"' "$t/out"
has "json summary" '"files": ?2' "$t/out"
expect 1 "--json" "$SLUBTINY" check --json slob_defconfig
"$ST_PYTHON" -m json.tool "$t/out" >/dev/null || { echo "FAIL: --json is not JSON"; fail=1; }
expect 1 "github" "$SLUBTINY" check --format github slob_defconfig notice_defconfig
has "github warning" '^::warning file=slob_defconfig,line=2,col=1,title=removed-allocator::CONFIG_SLOB=y: SLOB was removed in Linux 6\.4.*\[removed-allocator\]%0Afix: replace with' "$t/out"
has "github notice" '^::notice file=notice_defconfig,line=2,col=1,title=hardening-notice::' "$t/out"

# a findings-free run over garbage is not possible: binary data is a syntax error
printf 'CONFIG_A=y\n\001\002\003\n' >bin_defconfig
expect 1 "binary" "$SLUBTINY" check bin_defconfig
has "binary is an error" '^bin_defconfig:2:1: error: control character 0x01' "$t/err"
exit $fail
