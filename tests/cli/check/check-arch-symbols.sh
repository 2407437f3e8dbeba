#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A Yocto layer's recipes-kernel/linux/files/<machine>/defconfig is in no
# arch/<a>/configs/: its own arm-only symbols (ARCH_MULTI_V7, ARCH_AT91)
# make it arm, not the host. check --srctree judges it as conf does with
# ARCH=arm (the lines that do not take effect), says so in text and JSON
# ("arch_from": "symbols" and the symbol), and migrate agrees (SLOB, gone
# from 6.12, is a removed-allocator finding where conf drops the line); --arch x86
# still wins and gives another verdict. Linux 6.12 of Debian.
set -u
. "$(dirname "$0")/../../lib.sh"
command -v jq >/dev/null && command -v sha256sum >/dev/null || { echo "skip: jq"; exit 77; }
. "$ST_SRCDIR/tests/diff/kconfig/common.sh"
k612=$(st_shared_tree 6.12) || { echo "skip: linux-source-6.12"; exit 77; }
command -v make >/dev/null && command -v gcc >/dev/null || { echo "skip: make/gcc"; exit 77; }
unset ARCH
st_tmpdir t
F=meta-board/recipes-kernel/linux/files/sama5-board/defconfig
cd "$ST_SRCDIR/fixtures/distros/yocto" || exit 2

# conf's verdict with ARCH=arm: the lines of the file that do not take effect
conf=$(st_conf_cached "$k612" arm arch/arm/configs/sama5-board_defconfig "$F" "$t/conf") ||
	{ echo "FAIL: conf failed"; exit 1; }
n=0
while IFS= read -r l; do
	n=$((n + 1))
	case $l in
	CONFIG_*=*) grep -qxF -- "$l" "$conf" || echo "$n" ;;
	"# CONFIG_"*" is not set")
		s=${l#\# }; s=${s%% *}
		grep -q "^$s=[ym]$" "$conf" && echo "$n" ;;
	esac
done <"$F" | sort -n >"$t/conf.lines"
[ -s "$t/conf.lines" ] || bad "conf takes every line (the test would show nothing)"

"$SLUBTINY" check --no-config --format json --srctree "$k612" "$F" >"$t/c.json" 2>"$t/c.err"; st=$?
[ $st = 1 ] || { bad "check: exit $st, want 1"; cat "$t/c.err"; }
[ -s "$t/c.err" ] && { bad "check --format json: stderr"; cat "$t/c.err"; }
[ "$(jq -c '.files[0] | [.arch, .arch_from, .arch_why]' "$t/c.json")" = \
	'["arm","symbols","CONFIG_ARCH_MULTI_V7"]' ] ||
	bad "check json: arch $(jq -c '.files[0]' "$t/c.json")"
jq -r '.findings[] | select(.rule == "ineffective-option" or .rule == "unknown-symbol" or .rule == "removed-allocator") | .line' \
	"$t/c.json" | sort -nu >"$t/check.lines"
cmp -s "$t/conf.lines" "$t/check.lines" ||
	{ bad "check's lines without effect are not conf's (ARCH=arm):"; diff "$t/conf.lines" "$t/check.lines"; }

# text: the ARCH and how it was decided, once, after the findings
"$SLUBTINY" check --no-config --srctree "$k612" "$F" >/dev/null 2>"$t/c.err"; st=$?
[ $st = 1 ] || bad "check text: exit $st, want 1"
[ "$(tail -1 "$t/c.err")" = 'slubtiny: check: checked 1 kernel config, ARCH=arm (from symbols: CONFIG_ARCH_MULTI_V7)' ] ||
	{ bad "check text: the ARCH is not said:"; tail -2 "$t/c.err"; }

# --arch wins, and x86 is another verdict (the arm symbols are unknown)
"$SLUBTINY" check --no-config --format json --srctree "$k612" --arch x86 "$F" >"$t/x.json" 2>/dev/null
[ "$(jq -c '.files[0] | [.arch, .arch_from]' "$t/x.json")" = '["x86","--arch"]' ] ||
	bad "--arch x86: $(jq -c '.files[0]' "$t/x.json")"
jq -r '.findings[] | select(.rule == "ineffective-option" or .rule == "unknown-symbol" or .rule == "removed-allocator") | .line' \
	"$t/x.json" | sort -nu >"$t/x.lines"
cmp -s "$t/conf.lines" "$t/x.lines" && bad "--arch x86 gives arm's verdict: the ARCH does not matter here"

# migrate decides the same
"$SLUBTINY" migrate --json --srctree "$k612" "$F" >"$t/m.json" 2>"$t/m.err"; st=$?
[ $st -le 1 ] || { bad "migrate: exit $st"; cat "$t/m.err"; }
[ "$(jq -c '.files[0] | [.arch, .arch_from, .arch_why]' "$t/m.json")" = \
	'["arm","symbols","CONFIG_ARCH_MULTI_V7"]' ] ||
	bad "migrate json: arch $(jq -c '.files[0] | [.arch, .arch_from, .arch_why]' "$t/m.json")"
exit $fail
