#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Cross-check of slubtiny's verdicts on a 7.2+ Kconfig against conf's own:
# from Linux 7.2, conf run with KCONFIG_WARN_CHANGED_INPUT=1 names on stderr
# every option whose value in the input Kconfig changed ("CONFIG_A: y -> n"),
# and with KCONFIG_WARN_UNKNOWN_SYMBOLS=1 every line naming a symbol the tree
# lacks. conf comes from
#
#   ST_CONF_72=PATH     a scripts/kconfig/conf built from a 7.2+ tree
#   ST_SRCTREE_72=DIR   a 7.2+ kernel tree: its conf is built here with
#                       make -C DIR O=SCRATCH allnoconfig (never in DIR)
#
# or, without either, from Debian's linux-source-7.2 (trixie-backports,
# fetched by tests/fetch-linux-source.sh into build-cache/ and extracted
# once, common.sh's st_shared_tree); skipped (77) only when that package
# cannot be fetched or make, flex or bison is missing. On fixtures/kconfig-7x (a tree of our
# own with the Kconfig syntax of 6.13 to 7.3), for each board, conf
# --olddefconfig gives a .config and its warnings, and:
#   1. the options conf says it changed are exactly the lines `slubtiny
#      check --srctree` reports as not taking effect (ineffective-option,
#      slub-tiny-disables, slub-tiny-deps);
#   2. the lines conf calls unknown are reported (removed-option or
#      unknown-symbol); a removed-option line that conf knows is a
#      transitional name: conf neither names it nor writes it;
#   3. each line check says does nothing ("delete this line") leaves conf's
#      .config as it is when deleted, and a line it says to replace ("replace
#      with CONFIG_X=V") gives conf's .config with CONFIG_X=V;
#   4. kc-tool's resolution (lib/kconfig, the helper) equals conf's .config,
#      and its ineffective findings carry conf's "from -> to" values;
#   5. `slubtiny migrate --srctree` rewrites the board into one that conf
#      resolves to the same .config (migrate's verification says so).
#
#   warn-changed-input.sh KC_TOOL SLUBTINY
set -u
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/common.sh"
abspath() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
kc_tool=$(abspath "$1") slubtiny=$(abspath "$2")
fixture=${ST_SRCDIR:?}/fixtures/kconfig-7x
skip() { echo "warn-changed-input: skipped: $*"; exit 77; }

st_tmpdir t
export SLUBTINY_CACHE_DIR=$t/cache
command -v jq >/dev/null || skip "jq missing"

# A conf from a 7.2+ tree: given, or built from the given tree.
conf=${ST_CONF_72:-}
tree=${ST_SRCTREE_72:-}
if [ -z "$conf" ] && [ -z "$tree" ]; then
	tree=$(st_shared_tree 7.2)
	rc=$?
	[ $rc = 77 ] && skip "linux-source-7.2 cannot be fetched, or make, flex, bison or xz is missing"
	[ $rc = 0 ] || { echo "FAIL: cannot fetch or extract linux-source-7.2"; exit 1; }
fi
if [ -z "$conf" ] && [ -n "$tree" ]; then
	[ -f "$tree/Makefile" ] && [ -f "$tree/scripts/kconfig/conf.c" ] ||
		{ echo "FAIL: $tree: not a kernel tree"; exit 1; }
	v=$(sed -n 's/^\(VERSION\|PATCHLEVEL\) = //p' "$tree/Makefile" | tr '\n' ' ')
	set -- $v
	# a tree given for this test that cannot serve is a wrong setting, not
	# a missing prerequisite
	[ $# = 2 ] && [ $(($1 * 100 + $2)) -ge 702 ] ||
		{ echo "FAIL: $tree is linux $1.${2:-?}, older than 7.2"; exit 1; }
	command -v make >/dev/null && command -v flex >/dev/null &&
		command -v bison >/dev/null || skip "make, flex or bison missing"
	nice make -s -C "$tree" O="$t/obj" ARCH=x86 allnoconfig >"$t/make.log" 2>&1 ||
		{ echo "FAIL: building conf in $tree:"; tail -5 "$t/make.log"; exit 1; }
	conf=$t/obj/scripts/kconfig/conf
fi
[ -x "$conf" ] || { echo "FAIL: ST_CONF_72=$conf: not an executable"; exit 1; }

# runconf ARCH IN OUT: conf --olddefconfig on the fixture; OUT.config gets
# the .config (its CONFIG_ lines, sorted), OUT.err conf's stderr.
runconf() {
	cp "$2" "$t/.config" || return 1
	(cd "$t" && KCONFIG_CONFIG=$t/.config KCONFIG_WARN_CHANGED_INPUT=1 \
		KCONFIG_WARN_UNKNOWN_SYMBOLS=1 srctree=$fixture SRCARCH=$1 ARCH=$1 \
		KERNELVERSION=7.2.0 "$conf" -s --olddefconfig Kconfig) >"$3.out" 2>"$3.err"
	_rc=$?
	[ $_rc = 0 ] || { bad "conf on $2: exit $_rc"; cat "$3.out" "$3.err"; return 1; }
	grep -E '^(CONFIG_|# CONFIG_[A-Za-z0-9_]* is not set)' "$t/.config" | sort >"$3.config"
}
# The feature itself, on a probe of our own: without it, nothing here
# would be compared.
mkdir -p "$t/probe"
printf 'config A\n\tbool "A"\n\tdepends on B\nconfig B\n\tbool\n' >"$t/probe/Kconfig"
printf 'CONFIG_A=y\n' >"$t/probe/.config"
(cd "$t/probe" && KCONFIG_CONFIG=.config KCONFIG_WARN_CHANGED_INPUT=1 srctree=. \
	"$conf" -s --olddefconfig Kconfig) >/dev/null 2>"$t/probe/err"
grep -q '^warning: user-provided values changed by Kconfig:$' "$t/probe/err" &&
	grep -q '^  CONFIG_A: y -> n$' "$t/probe/err" ||
	{ echo "FAIL: $conf: no KCONFIG_WARN_CHANGED_INPUT warning (a conf older than 7.2?):"
	  cat "$t/probe/err"; exit 1; }

# conf's verdicts: "changed SYM FROM TO", "unknown SYM"; anything else on
# its stderr is a failure.
conf_verdicts() {
	awk -v f="$2" '
		/^warning: user-provided values changed by Kconfig:$/ { next }
		/^  CONFIG_[A-Za-z0-9_]*: .* -> / {
			sub(/^  CONFIG_/, ""); sub(/:/, ""); print "changed", $1, $2, $4; next }
		/:[0-9]+:warning: unknown symbol: / { print "unknown", $NF; next }
		{ print "other", $0 }' "$1" | sort
}

# check, once over the tree: "FILE RULE SYMBOL LINE HINT" a line
(cd "$t" && "$slubtiny" check --no-config --json --srctree "$fixture" "$fixture/arch") \
	>"$t/check.json" 2>"$t/check.err"
rc=$?
[ $rc = 1 ] || bad "check --srctree: exit $rc, want 1"
grep -v '^slubtiny: check: \(checked [0-9]\|ARCH=\)' "$t/check.err" >"$t/check.err2"
[ -s "$t/check.err2" ] && { bad "check --srctree: stderr:"; cat "$t/check.err2"; }
jq -r '.findings[] | [(.file | sub(".*/arch/"; "arch/")), .rule, .symbol,
	(.line | tostring), (.hint // "-")] | join("\t")' "$t/check.json" >"$t/findings" ||
	bad "check --srctree: no JSON"

boards=0 changed=0 unknown=0 dead=0
for f in $(cd "$fixture" && ls arch/*/configs/*_defconfig); do
	a=${f#arch/}; a=${a%%/*}; b=$t/$(echo "$f" | tr / %)
	boards=$((boards + 1))
	runconf "$a" "$fixture/$f" "$b" || continue
	conf_verdicts "$b.err" "$f" >"$b.v"
	grep '^other' "$b.v" && bad "$f: conf said more than it was asked"
	awk '$1 == "changed" { print $2 }' "$b.v" | sort >"$b.conf-changed"
	awk '$1 == "unknown" { print $2 }' "$b.v" | sort >"$b.conf-unknown"
	changed=$((changed + $(wc -l <"$b.conf-changed")))
	unknown=$((unknown + $(wc -l <"$b.conf-unknown")))

	# 1. what does not take effect, both ways
	awk -F'\t' -v f="$f" '$1 == f && ($2 == "ineffective-option" ||
		$2 == "slub-tiny-disables" || $2 == "slub-tiny-deps") { print $3 }' \
		"$t/findings" | sort -u >"$b.st-dead"
	cmp -s "$b.conf-changed" "$b.st-dead" ||
		bad "$f: conf changed {$(echo $(cat "$b.conf-changed"))}, check reports {$(echo $(cat "$b.st-dead"))}"
	# 2. unknown to conf: reported; reported as removed but known: transitional
	awk -F'\t' -v f="$f" '$1 == f && ($2 == "removed-option" ||
		$2 == "unknown-symbol") { print $3 }' "$t/findings" | sort -u >"$b.st-gone"
	for s in $(comm -23 "$b.conf-unknown" "$b.st-gone"); do
		bad "$f: conf does not know $s, check does not report it"
	done
	for s in $(comm -13 "$b.conf-unknown" "$b.st-gone"); do
		grep -q "^\(# \)\?CONFIG_$s[= ]" "$b.config" &&
			bad "$f: check calls $s removed, conf writes it: $(grep "CONFIG_$s[= ]" "$b.config")"
	done
	# 3. deleting a line that does nothing changes nothing; a rename holds
	awk -F'\t' -v f="$f" '$1 == f && $5 ~ /^(delete this line|replace with CONFIG_)/' \
		"$t/findings" >"$b.lines"
	while IFS='	' read -r _ rule sym line hint; do
		case $hint in
		"delete this line"*)
			sed "${line}d" "$fixture/$f" >"$b.del"
			dead=$((dead + 1)) ;;
		*)
			new=${hint#replace with }
			sed "${line}s/.*/$new/" "$fixture/$f" >"$b.del"
			grep -qx "$new" "$b.config" ||
				bad "$f:$line: check says $sym is $new, conf's .config has $(grep "CONFIG_${new#CONFIG_}" "$b.config" || echo nothing)" ;;
		esac
		runconf "$a" "$b.del" "$b.d" || continue
		cmp -s "$b.config" "$b.d.config" ||
			bad "$f:$line ($rule, $sym): conf resolves the file without that line differently: $(diff "$b.config" "$b.d.config" | grep '^[<>]' | tr '\n' ' ')"
	done <"$b.lines"
done
[ "$boards" -ge 6 ] || bad "only $boards boards in $fixture"
[ "$changed" -ge 5 ] && [ "$unknown" -ge 2 ] && [ "$dead" -ge 4 ] ||
	bad "too few verdicts to compare: $changed changed, $unknown unknown, $dead lines deleted"

# 4. lib/kconfig's own resolution and values, one helper per arch
for a in $(cd "$fixture/arch" && ls); do
	mkdir -p "$t/kc-$a"
	(cd "$fixture" && "$kc_tool" --srctree "$fixture" --arch "$a" --config-dir "$t/kc-$a" \
		arch/$a/configs/*_defconfig) >"$t/kc-$a.out" 2>"$t/kc-$a.err"
	rc=$?
	[ $rc -le 1 ] || bad "kc-tool --arch $a: exit $rc: $(tail -1 "$t/kc-$a.err")"
	grep -v '^kc-tool: using linux 7.2.0 tree ' "$t/kc-$a.err" | grep . &&
		bad "kc-tool --arch $a: stderr"
	for f in $(cd "$fixture" && ls arch/$a/configs/*_defconfig); do
		key=$(echo "$f" | tr / %); b=$t/$key
		[ -f "$b.config" ] || continue
		[ -s "$t/kc-$a/$key.config" ] ||
			{ bad "$f: kc-tool wrote no configuration"; continue; }
		grep -E '^(CONFIG_|# CONFIG_[A-Za-z0-9_]* is not set)' "$t/kc-$a/$key.config" |
			sort | cmp -s - "$b.config" ||
			bad "$f: kc-tool's resolution differs from conf's: $(grep -E '^(CONFIG_|# CONFIG_)' \
				"$t/kc-$a/$key.config" | sort | diff - "$b.config" | grep '^[<>]' | tr '\n' ' ')"
		awk -F'\t' -v f="$f" '$1 == "F" && $2 == f && $5 == "ineffective" {
			print "changed", $4, $7, $8 }' "$t/kc-$a.out" | sort >"$b.kc"
		grep '^changed' "$b.v" | cmp -s - "$b.kc" ||
			bad "$f: kc-tool's values {$(echo $(cat "$b.kc"))}, conf's {$(echo $(grep '^changed' "$b.v"))}"
	done
done

# 5. migrate's verification, judged by conf
for f in $(cd "$fixture" && ls arch/*/configs/*_defconfig); do
	a=${f#arch/}; a=${a%%/*}; b=$t/$(echo "$f" | tr / %)
	[ -f "$b.config" ] || continue
	mkdir -p "$t/m/$(dirname "$f")"
	cp "$fixture/$f" "$t/m/$f"
	(cd "$t/m" && "$slubtiny" migrate -q --in-place --srctree "$fixture" "$f") \
		>"$t/m.out" 2>"$t/m.err"
	rc=$?
	[ $rc = 0 ] || { bad "migrate $f: exit $rc"; cat "$t/m.err"; continue; }
	grep -v ': note: \|^slubtiny: migrate: \(checked [0-9]\|ARCH=\)' "$t/m.err" | grep . &&
		bad "migrate $f: stderr"
	runconf "$a" "$t/m/$f" "$b.m" || continue
	cmp -s "$b.config" "$b.m.config" ||
		bad "migrate $f: conf resolves the migrated file differently: $(diff "$b.config" \
			"$b.m.config" | grep '^[<>]' | tr '\n' ' ')"
done

echo "warn-changed-input: $boards boards, conf changed $changed options and" \
	"ignored $unknown unknown lines; $dead lines check calls dead deleted; conf=$conf"
exit $fail
