#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# migrate on the real boards, judged by the kernel's own conf.
#
#   boards-diff.sh SLUBTINY
#
# Inputs come from the Debian packages: every Linux 6.1
# arch/*/configs/*defconfig with CONFIG_SLOB=y or CONFIG_SLAB=y, and
# kernel/configs/tiny.config. Each is migrated to 6.12 with
#	slubtiny migrate --in-place --fix-deps --srctree <linux-source-6.12>
# (no --force), and the results are resolved by conf (make O=... ARCH=...
# NAME_defconfig, tinyconfig for tiny.config; savedefconfig). Passes when:
#   - every file is written, and stderr has no error;
#   - no fix adds CONFIG_COMPILE_TEST;
#   - no line that takes effect under conf after the plain migration
#     (the rules alone) stops taking effect after --fix-deps;
#   - CONFIG_SLUB_TINY=y takes effect on every former SLOB board;
#   - every line the migration or a fix added survives savedefconfig;
#   - conf builds SLUB (no SLAB, no SLOB) on every file it resolves;
#   - `migrate --check --json` gives the same bytes with the compiler-probe
#     cache on and off.
# conf's results are cached under $ST_SRCDIR/build-cache/conf-boards/
# (st_conf_cached in common.sh), keyed by a hash of the tree version, arch,
# name and the file's bytes, so the sanitizer run of the suite reuses them. Exit 77 when the tarballs, make,
# flex, bison, xz or jq are missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib.sh"
. "$here/common.sh"

# meson passes the executable relative to the build directory; the
# script works in other directories.
case $1 in /*) slubtiny=$1 ;; *) slubtiny=$PWD/$1 ;; esac
work=${ST_BUILDDIR:-/tmp}/kconfig-diff
export SLUBTINY_CACHE_DIR=${SLUBTINY_CACHE_DIR:-$work/cache}
command -v jq >/dev/null && command -v sha256sum >/dev/null ||
	{ echo "boards-diff: jq or sha256sum missing: skipped"; exit 77; }
t61=$(st_shared_tree 6.1)
rc=$?
[ $rc = 77 ] && { echo "boards-diff: linux-source-6.1 or make/flex/bison/xz missing: skipped"; exit 77; }
[ $rc = 0 ] || { echo "boards-diff: cannot extract linux-source-6.1" >&2; exit 1; }
t612=$(st_shared_tree 6.12)
rc=$?
[ $rc = 77 ] && { echo "boards-diff: linux-source-6.12 missing: skipped"; exit 77; }
[ $rc = 0 ] || { echo "boards-diff: cannot extract linux-source-6.12" >&2; exit 1; }

run=$work/boards.$$
rm -rf "$run" && mkdir -p "$run" || exit 1
st_atexit 'rm -rf "$run"'
start=$(date +%s)

(cd "$t61" && grep -lE '^CONFIG_SL[OA]B=y' arch/*/configs/*defconfig | LC_ALL=C sort;
	echo kernel/configs/tiny.config) >"$run/list"
(cd "$t61" && grep -lE '^CONFIG_SLOB=y' arch/*/configs/*defconfig) >"$run/slob"
for d in in plain fix; do
	while read -r rel; do
		mkdir -p "$run/$d/$(dirname "$rel")" && cp "$t61/$rel" "$run/$d/$rel" || exit 1
	done <"$run/list"
done
nfiles=$(wc -l <"$run/list") nslob=$(wc -l <"$run/slob")
# Under the sanitizers (ST_SANITIZE, tests/meson.build) the rules alone
# still run on every file (the reader, the rules and the writer: C only),
# but the migration through the Kconfig helper, whose time is the
# helper's python evaluating each board (the same in both runs), runs on
# a sample that keeps every kind of input and every arch: the SLOB
# boards, tiny.config and the first SLAB board of each arch.
if [ "${ST_SANITIZE:-none}" != none ]; then
	{ cat "$run/slob"; echo kernel/configs/tiny.config
	  grep -vxF -f "$run/slob" "$run/list" | grep '^arch/' | awk -F/ '!seen[$2]++'
	} | LC_ALL=C sort >"$run/fixlist"
else
	cp "$run/list" "$run/fixlist"
fi
nfix=$(wc -l <"$run/fixlist")

# The rules alone (what the fixes are compared with).
# shellcheck disable=SC2046
(cd "$run/plain" && "$slubtiny" migrate --in-place --no-verify --target 6.12 \
	$(cat "$run/list")) >/dev/null 2>"$run/plain.err"
rc=$?
[ $rc -le 1 ] || bad "plain migration: exit $rc: $(head -3 "$run/plain.err")"

# The migration under test.
t0=$(date +%s)
# shellcheck disable=SC2046
(cd "$run/fix" && "$slubtiny" migrate --in-place --fix-deps --srctree "$t612" --json \
	$(cat "$run/fixlist")) >"$run/fix.json" 2>"$run/fix.err"
rc=$?
t1=$(date +%s)
[ $rc = 0 ] || bad "migrate --in-place --fix-deps: exit $rc, want 0"
grep -v '^slubtiny: verified against ' "$run/fix.err" | grep . &&
	bad "migrate --in-place --fix-deps wrote to stderr (above)"
jq -e . "$run/fix.json" >/dev/null || { bad "not one JSON document"; exit 1; }
written=$(jq '[.files[] | select(.written)] | length' "$run/fix.json")
[ "$written" = "$nfix" ] || bad "$written of $nfix files written"
fixes=$(jq '[.files[].changes[] | select(.rule == "fix-deps")] | length' "$run/fix.json")
fixfiles=$(jq '[.files[] | select(any(.changes[]; .rule == "fix-deps"))] | length' "$run/fix.json")
refused=$(jq '[.files[].refused[]] | length' "$run/fix.json")
ct=$(jq '[.files[].changes[] | select(.message | test("CONFIG_COMPILE_TEST"))] | length' \
	"$run/fix.json")
[ "$ct" = 0 ] || bad "COMPILE_TEST added $ct times"

# conf on every file the migration added lines to (the SLOB boards, fixes),
# and on its plain migration where --fix-deps made it differ. A file the
# migration only deleted a line from (SLAB=y: SLUB is the default) has
# nothing that savedefconfig could drop or a fix could break.
: >"$run/jobs"
while read -r rel; do
	case $rel in
	kernel/*) a=x86 ;;
	*) a=${rel#arch/}; a=${a%%/*} ;;
	esac
	tr -d '\r' <"$run/fix/$rel" | grep -vxF -f "$run/in/$rel" | grep -q . || continue
	echo "$a $rel fix" >>"$run/jobs"
	cmp -s "$run/plain/$rel" "$run/fix/$rel" || echo "$a $rel plain" >>"$run/jobs"
done <"$run/fixlist"
njobs=$(wc -l <"$run/jobs")
# two workers, each with its own hard-linked copy of the tree
for j in 0 1; do
	awk -v j=$j 'NR % 2 == j' "$run/jobs" >"$run/jobs$j"
	(while read -r a rel d; do
		c=$(st_conf_cached "$t612" "$a" "$rel" "$run/$d/$rel" "$run/w$j") &&
			{ [ $d = plain ] || [ $rel = kernel/configs/tiny.config ] ||
			  st_save_cached "$t612" "$a" "$c" "$run/w$j" >/dev/null; } &&
			echo "$c" >"$run/$d/$rel.cfg" ||
			echo "$rel ($d)" >>"$run/conf-failed"
	done <"$run/jobs$j") &
done
wait
[ -s "$run/conf-failed" ] && bad "conf failed on: $(tr '\n' ' ' <"$run/conf-failed")"
t2=$(date +%s)

# value of each assignment of FILE under CONFIG (.config): "line sym ok|bad"
effect() {
	awk -v cfg="$2" '
	BEGIN {
		while ((getline l < cfg) > 0) {
			if (l ~ /^CONFIG_[A-Za-z0-9_]+=/) {
				s = l; sub(/=.*/, "", s); v = l; sub(/^[^=]*=/, "", v); val[s] = v
			} else if (l ~ /^# CONFIG_[A-Za-z0-9_]+ is not set$/) {
				s = l; sub(/^# /, "", s); sub(/ .*/, "", s); val[s] = "n"
			}
		}
	}
	{ sub(/\r$/, "") }
	/^CONFIG_[A-Za-z0-9_]+=/ {
		s = $0; sub(/=.*/, "", s); v = $0; sub(/^[^=]*=/, "", v)
		sub(/[ \t]+$/, "", v); want[s] = v; line[s] = NR
	}
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ {
		s = $0; sub(/^# /, "", s); sub(/ .*/, "", s); want[s] = "n"; line[s] = NR
	}
	END {
		for (s in want) {
			got = (s in val) ? val[s] : "n"
			print s, (got == want[s] ? "ok" : "bad")
		}
	}' "$1"
}

lost=0 tiny=0 added=0 dropped=0 judged=0
while read -r rel; do
	if grep -qx "$rel" "$run/slob" && [ ! -f "$run/fix/$rel.cfg" ]; then
		bad "$rel: the migration added nothing to a SLOB board"
		continue
	fi
	[ -f "$run/fix/$rel.cfg" ] || continue
	cfg=$(cat "$run/fix/$rel.cfg") save=${cfg%.config}.save
	judged=$((judged + 1))
	grep -q '^CONFIG_SLUB=y' "$cfg" && ! grep -q '^CONFIG_SLAB=y\|^CONFIG_SLOB=y' "$cfg" ||
		bad "$rel: conf does not build SLUB"
	if grep -qx "$rel" "$run/slob"; then
		if grep -q '^CONFIG_SLUB_TINY=y$' "$cfg"; then tiny=$((tiny + 1))
		else bad "$rel: conf drops CONFIG_SLUB_TINY=y"; fi
	fi
	# every added line survives savedefconfig (tiny.config is a fragment
	# over allnoconfig, not a defconfig: savedefconfig does not apply)
	if [ "$rel" != kernel/configs/tiny.config ]; then
		tr -d '\r' <"$run/fix/$rel" | grep -vxF -f "$run/in/$rel" | grep . >"$run/added" || :
		while IFS= read -r l; do
			added=$((added + 1))
			grep -qxF -- "$l" "$save" ||
				{ dropped=$((dropped + 1)); bad "$rel: '$l' is dropped by savedefconfig"; }
		done <"$run/added"
	fi
	# no line effective after the plain migration stops taking effect
	[ -f "$run/plain/$rel.cfg" ] || continue
	pcfg=$(cat "$run/plain/$rel.cfg")
	effect "$run/plain/$rel" "$pcfg" | sort >"$run/e.plain"
	effect "$run/fix/$rel" "$cfg" | sort >"$run/e.fix"
	join "$run/e.plain" "$run/e.fix" | awk '$2 == "ok" && $3 == "bad" { print $1 }' >"$run/e.lost"
	if [ -s "$run/e.lost" ]; then
		lost=$((lost + 1))
		bad "$rel: after --fix-deps conf no longer keeps $(tr '\n' ' ' <"$run/e.lost")"
	fi
done <"$run/fixlist"

# The same bytes with the compiler-probe cache on and off (the SLOB boards
# and tiny.config: 7 arches; boards-probe-cache does the 6.1 tree's arm boards).
# Under the sanitizers two arches of them (sh's SLOB boards and
# tiny.config): the cache's code is the same for every arch, the helper's
# time per arch is not.
if [ "${ST_SANITIZE:-none}" != none ]; then
	(grep '^arch/sh/' "$run/slob"; echo kernel/configs/tiny.config) >"$run/list2"
else
	(cat "$run/slob"; echo kernel/configs/tiny.config) >"$run/list2"
fi
# shellcheck disable=SC2046
(cd "$run/in" && "$slubtiny" migrate --check --json --srctree "$t612" \
	$(cat "$run/list2")) >"$run/on.json" 2>"$run/on.err"
rc_on=$?
# shellcheck disable=SC2046
(cd "$run/in" && SLUBTINY_NO_CACHE=1 "$slubtiny" migrate --check --json \
	--srctree "$t612" $(cat "$run/list2")) >"$run/off.json" 2>"$run/off.err"
rc_off=$?
# (exit 1: the SLOB boards need the migration)
[ $rc_on = 1 ] && [ $rc_off = 1 ] ||
	bad "migrate --check --json: exit $rc_on with the cache, $rc_off without, want 1"
cmp -s "$run/on.err" "$run/off.err" || bad "stderr differs with the cache on and off"
cmp -s "$run/on.json" "$run/off.json" ||
	bad "migrate --check --json differs with the cache on and off"
end=$(date +%s)

echo "boards-diff: $nfiles files (6.1 SLOB/SLAB boards + tiny.config) -> 6.12:" \
	"--fix-deps on $nfix, $written written, $fixes fix lines in $fixfiles files, $refused refused," \
	"COMPILE_TEST added $ct times; conf: SLUB_TINY=y on $tiny/$nslob SLOB boards," \
	"$added added lines in $judged files, $dropped dropped by savedefconfig," \
	"$lost files lose a line to --fix-deps; JSON cache on/off $(cmp -s "$run/on.json" \
	"$run/off.json" && echo identical || echo DIFFERENT);" \
	"migrate $((t1 - t0))s, conf $njobs runs $((t2 - t1))s, total $((end - start))s"
exit $fail
