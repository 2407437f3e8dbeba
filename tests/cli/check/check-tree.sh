#!/bin/sh
# `slubtiny check --srctree` against the kernel's own conf on Debian's
# linux-source-6.12 (the Kconfig part of the tarball, extracted into the build
# directory): for each file, the symbols check reports as not taking effect
# (ineffective-option, unknown-symbol, slub-tiny-deps, slub-tiny-disables,
# removed-allocator) must be exactly those whose requested value (other than
# n) `make O=... ARCH=... NAME_defconfig` does not keep; check exits 1 when
# conf drops something and 0 when it drops nothing (no other rule fires on
# these files), prints one JSON document and nothing on stderr. Then --fix on
# a SLOB-era file must give a file in which conf keeps CONFIG_SLUB_TINY=y.
set -u
. "$(dirname "$0")/../../lib.sh"
for p in make flex bison gcc python3; do
	command -v $p >/dev/null || { echo "skip: $p missing"; exit 77; }
done
# $tb, $top and $tree: the one extraction the tree tests share.
. "$ST_SRCDIR/tests/cli/kernel-tree.sh"
st_tmpdir w

# A file with one finding of every tree rule, next to the real ones.
cat >"$tree/arch/x86/configs/stcheck_defconfig" <<'EOT'
CONFIG_EXPERT=y
CONFIG_SLOB=y
CONFIG_SLUB_TINY=y
CONFIG_SLUB_DEBUG=y
CONFIG_SLAB_FREELIST_RANDOM=y
CONFIG_NO_SUCH_SYMBOL_ST=y
CONFIG_I2C_MUX_PCA954x=y
CONFIG_PRINTK=y
CONFIG_PRINTK=y
EOT

# conf's .config for arch $1 of the file $3 taken as $2 (its place in a
# tree: kernel/configs/tiny.config is make tinyconfig), through the conf
# cache the kconfig tests share (build-cache/conf-boards, common.sh)
. "$ST_SRCDIR/tests/diff/kconfig/common.sh"
conf() {
	c=$(st_conf_cached "$tree" "$1" "$2" "$3" "$w/conf" 2>"$w/make.log") ||
		{ echo "FAIL: conf ARCH=$1 $2"; tail -5 "$w/make.log"; fail=1; return 1; }
	cat "$c"
}

# symbols whose last assignment (value other than n) conf did not keep
dropped() { # file config
	awk -F= '/^CONFIG_[A-Za-z0-9_]+=/ { s = $1; sub(/^CONFIG_/, "", s); v[s] = substr($0, index($0, "=") + 1) }
		/^# CONFIG_[A-Za-z0-9_]+ is not set/ { s = $2; sub(/^CONFIG_/, "", s); v[s] = "n" }
		END { for (s in v) if (v[s] != "n") print s, v[s] }' "$1" |
	while read -r s v; do
		grep -qx "CONFIG_$s=$v" "$2" || echo "$s"
	done | sort
}

# symbols check reports as not taking effect (requested value other than n);
# two or more unknown symbols of a file are one finding whose chain lists
# them ("not in this tree, line N: CONFIG_X=v")
reported() { # json
	{
		tr '{' '\n' <"$1" | grep -v '"message":"# CONFIG_' | grep -E '"rule":"(ineffective-option|unknown-symbol|slub-tiny-deps|slub-tiny-disables|removed-allocator)"' |
			sed -n 's/.*"symbol":"\([A-Za-z0-9_]*\)".*/\1/p'
		grep -o '"not in this tree, line [0-9]*: CONFIG_[A-Za-z0-9_]*=' "$1" |
			sed 's/.*: CONFIG_//; s/=$//'
	} | sort -u
}

for spec in "x86 arch/x86/configs/stcheck_defconfig stcheck_defconfig" \
	    "sh arch/sh/configs/se7206_defconfig se7206_defconfig" \
	    "sh arch/sh/configs/rsk7201_defconfig rsk7201_defconfig" \
	    "x86 kernel/configs/tiny.config tinyconfig"; do
	set -- $spec
	conf "$1" "$2" "$tree/$2" >"$w/config" || continue
	dropped "$tree/$2" "$w/config" >"$w/want"
	(cd "$tree" && "$SLUBTINY" check --no-config --format json --srctree . "$2") >"$w/json" 2>"$w/err"
	st=$?
	want_st=0
	[ -s "$w/want" ] && want_st=1
	[ $st = $want_st ] || { echo "FAIL: $2: check exit $st, want $want_st"; head -5 "$w/err"; fail=1; }
	[ -s "$w/err" ] && { echo "FAIL: $2: stderr not empty:"; head -5 "$w/err"; fail=1; }
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert isinstance(d["findings"], list)' \
		"$w/json" 2>/dev/null || { echo "FAIL: $2: stdout is not a JSON report"; head -c 300 "$w/json"; fail=1; }
	reported "$w/json" >"$w/got"
	if ! cmp -s "$w/want" "$w/got"; then
		echo "FAIL: $2: check vs conf (< conf drops it, > check reports it):"
		diff "$w/want" "$w/got" | grep '^[<>]'; fail=1
	fi
	echo "$2: $(wc -l <"$w/want") options conf drops, check exit $st"
done
grep -q '"rule":"slub-tiny-deps","level":"warning","symbol":"SLUB_TINY"' "$w/json" &&
	{ echo "FAIL: tiny.config flagged although tinyconfig keeps SLUB_TINY"; fail=1; }

# --fix: a 6.1-era SLOB board, migrated and given EXPERT, verified by conf
mkdir -p "$w/fix/arch/sh/configs"
printf 'CONFIG_SLOB=y\n# CONFIG_VT is not set\nCONFIG_PRINTK=y\n' >"$w/fix/arch/sh/configs/board_defconfig"
(cd "$w/fix" && "$SLUBTINY" check --no-config --fix --srctree "$tree" arch/sh/configs/board_defconfig) >"$w/fix.out" 2>"$w/fix.err"
st=$?
[ $st -le 1 ] || { echo "FAIL: --fix: exit $st"; cat "$w/fix.err"; fail=1; }
# stderr: the findings left and what --fix wrote (one FILE:LINE:COL: note:
# fixed: line each), all in gcc's form, the options that change as a side
# effect as migrate --fix-deps lists them, the count, and what was checked
grep -v '^arch/sh/configs/board_defconfig:[0-9]*:1: \(warning\|note\|error\): \|^slubtiny: check: --fix: fixed [0-9]* lines\? in 1 file$\|^slubtiny: check: checked 1 kernel config, ARCH=sh (from path: arch/sh/configs/)$' \
	"$w/fix.err" | grep -v '^arch/sh/configs/board_defconfig: note: [0-9]* options\? changes\? as a side effect (.*):$\|^[-+ ][A-Z0-9_]* ' |
	grep . && { echo "FAIL: --fix: stderr has more than the fixes"; fail=1; }
grep -q '^arch/sh/configs/board_defconfig: note: [0-9]* options\? changes\? as a side effect' "$w/fix.err" ||
	{ echo "FAIL: --fix: no side effects listed"; cat "$w/fix.err"; fail=1; }
grep -q '^arch/sh/configs/board_defconfig:[0-9]*:1: note: fixed: .*CONFIG_EXPERT=y.* \[fix-deps\]$' "$w/fix.err" ||
	{ echo "FAIL: --fix: the EXPERT line is not reported"; cat "$w/fix.err"; fail=1; }
conf sh arch/sh/configs/board_defconfig "$w/fix/arch/sh/configs/board_defconfig" >"$w/config" &&
	{ grep -qx 'CONFIG_SLUB_TINY=y' "$w/config" ||
	  { echo "FAIL: after --fix conf does not keep SLUB_TINY:"; cat "$w/fix.out" "$w/fix/arch/sh/configs/board_defconfig"; fail=1; }; }
exit $fail
