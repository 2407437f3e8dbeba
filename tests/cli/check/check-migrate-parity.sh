#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# One engine, two doors (issue 45): `check` and `migrate --check --all` on
# the same real files report the same findings, the same rule id at the
# same file, line and symbol, and fail on the same files. The files: the 54
# in-tree sh boards of linux-source-6.12 and the OpenWrt, Buildroot and
# Yocto stacks of fixtures/layout and fixtures/distros (one Buildroot
# defconfig there names a missing fragment: an error of that file in both).
#
#   check-migrate-parity.sh { tree | model }
#
# tree	with --srctree (the 6.12 extraction): every finding of the rules both
#	doors have (syntax, duplicate-assignment, conflicting-assignment,
#	unknown-symbol, ineffective-option, slub-tiny-deps, slub-tiny-disables)
# model	without a tree: the same rules; both doors resolve the bundled slab
#	model, so ineffective-option and unknown-symbol are compared too (the
#	6 of the sh boards' "# CONFIG_SYSFS is not set" that EXPERT off makes
#	ineffective were migrate's alone before check resolved the model), each
#	file for the kernel its build system gives (the 6.1 recipe's c.cfg,
#	whose EMBEDDED migrate called unknown, judging it for the newest)
#
# check prints two or more unknown symbols of a file as one finding whose
# chain names each line ("not in this tree, line N: TEXT"); they are
# compared one by one. migrate judges the migrated file: what it reports
# is the input's (pre-existing) findings, on lines the migration kept; on
# the lines it changed check's findings are about the old text (compared
# only by file: migrate has them as changes).
set -u
. "$(dirname "$0")/../../lib.sh"
mode=$1
for p in jq python3; do
	command -v $p >/dev/null || { echo "skip: $p missing"; exit 77; }
done
. "$(dirname "$0")/../kernel-tree.sh"
unset ARCH CROSS_COMPILE
S=$SLUBTINY
st_tmpdir t

# the files: sh boards inside the tree, the layouts beside it
k=$t/k
mkdir -p "$k/arch/sh" && cp -r "$tree/arch/sh/configs" "$k/arch/sh/" || exit 2
cp -r "$ST_SRCDIR/fixtures/layout" "$t/layout"
cp -r "$ST_SRCDIR/fixtures/distros" "$t/distros"
opts=
[ "$mode" = tree ] && opts="--srctree $tree"

common='["syntax","duplicate-assignment","conflicting-assignment","unknown-symbol","ineffective-option","slub-tiny-deps","slub-tiny-disables"]'

# run DIR WHAT: both doors over DIR's files, from DIR
run_both() {
	cd "$1" || exit 2
	# both exit 2 where a file cannot be judged (the missing fragment), else 1 or 0
	"$S" check --no-config --json $opts . >"$t/c.json" 2>"$t/c.err"; cst=$?
	"$S" migrate --check --all --json $opts . >"$t/m.json" 2>"$t/m.err"; mst=$?
	cd - >/dev/null
	case $cst in 0|1|2) ;; *) bad "$2: check exit $cst"; cat "$t/c.err" ;; esac
	case $mst in 0|1|2) ;; *) bad "$2: migrate exit $mst"; cat "$t/m.err" ;; esac
	[ $cst = 2 ] && [ $mst != 2 ] && bad "$2: check exit 2, migrate $mst"
	[ $mst = 2 ] && [ $cst != 2 ] && bad "$2: migrate exit 2, check $cst"
	jq -e . "$t/c.json" >/dev/null && jq -e . "$t/m.json" >/dev/null ||
		{ bad "$2: not one JSON document each"; return; }
	# the files that could not be judged
	jq -r '.errors[]?.file' "$t/c.json" | sort >"$t/c.bad"
	jq -r '.files[] | select(.error) | .file' "$t/m.json" | sort >"$t/m.bad"
	cmp -s "$t/c.bad" "$t/m.bad" || { bad "$2: not the same files fail"; diff "$t/c.bad" "$t/m.bad"; }
	# check: folded unknown symbols one by one
	"${ST_PYTHON:-python3}" - "$t/c.json" "$common" >"$t/c.tsv" <<'PY' || bad "$2: check's findings"
import json, re, sys
d = json.load(open(sys.argv[1]))
common = json.loads(sys.argv[2])
for f in d["findings"]:
    if f["rule"] not in common:
        continue
    if f["rule"] == "unknown-symbol" and f["symbol"] is None:
        for c in f["chain"] or []:
            m = re.match(r"not in this tree, line (\d+): (?:# )?CONFIG_(\w+)", c)
            if m:
                print("\t".join([f["rule"], f["file"], m.group(1), m.group(2)]))
        continue
    print("\t".join([f["rule"], f["file"], str(f["line"]), f["symbol"] or "-"]))
PY
	"${ST_PYTHON:-python3}" - "$t/m.json" "$common" >"$t/m.tsv" 2>"$t/m.lines" <<'PY' || bad "$2: migrate's findings"
import json, sys
d = json.load(open(sys.argv[1]))
common = json.loads(sys.argv[2])
for f in d["files"]:
    if "error" in f:
        continue
    changed = {c["line"] for c in f["changes"]}
    for c in f["changes"]:
        sys.stderr.write("%s\t%d\n" % (f["file"], c["line"]))
    for x in f["findings"]:
        # the input's own findings, on the lines the migration kept
        if x["rule"] in common and x["origin"] == "pre-existing" and x["line"] not in changed:
            print("\t".join([x["rule"], x["file"], str(x["line"]), x["symbol"] or "-"]))
PY
	# check's on lines the migration changed are the old text's
	# (a first line of its own: awk's NR == FNR with an empty file)
	{ printf -- '-\t-\n'; cat "$t/m.lines"; } >"$t/m.lines1"
	awk -F'\t' 'NR == FNR { ch[$1 "\t" $2] = 1; next } !(($2 "\t" $3) in ch)' \
		"$t/m.lines1" "$t/c.tsv" | sort >"$t/c.cmp"
	sort "$t/m.tsv" >"$t/m.cmp"
	n=$(wc -l <"$t/c.cmp")
	if ! cmp -s "$t/c.cmp" "$t/m.cmp"; then
		bad "$2: check and migrate --check differ (< check only, > migrate only):"
		diff "$t/c.cmp" "$t/m.cmp" | head -20
	fi
	# the rule names: one id a finding in both doors
	jq -r '.files[].findings[]?.rule' "$t/m.json" | sort -u >"$t/m.rules"
	"$S" check --list-rules | grep '^[a-z]' >"$t/rules"
	grep -vxFf "$t/rules" "$t/m.rules" | grep -vx redundant | grep . &&
		bad "$2: migrate names a finding with a rule id check does not have (above)"
	nf=$(jq '.summary.files' "$t/c.json")
	echo "$2: $nf files, $n findings alike ($mode)"
	echo "$2: of them ineffective-option or unknown-symbol: $(grep -c -e '^ineffective-option' -e '^unknown-symbol' "$t/c.cmp")"
}

run_both "$k" "linux 6.12 sh boards"
[ "$nf" -ge 30 ] || bad "only $nf sh boards"
[ "$mode" = tree ] && [ "$n" -lt 100 ] && bad "sh boards: only $n findings compared"
[ "$mode" = model ] && [ "$n" -lt 13 ] && bad "sh boards: only $n findings compared"
run_both "$t/layout" "fixtures/layout"
[ -s "$t/c.bad" ] || bad "fixtures/layout: the missing fragment is no error"
run_both "$t/distros" "fixtures/distros"
exit $fail
