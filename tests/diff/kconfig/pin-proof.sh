#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# After migrate --fix-deps, no collateral change is left that one more line
# of the file could restore (judged by the kernel's own conf on
# linux-source-6.12, or on ST_PIN_VERSION's: ST_PIN_VERSION=7.3):
#
#   pin-proof.sh SLUBTINY {quick|all} [KEEPDIR]
#
# The former SLOB boards of linux-source-6.1 (quick: two of them) are
# migrated in one run with --fix-deps --in-place --srctree. For each board,
# conf resolves the file before and after, and the options it changes
# (scripts/diffconfig, "n" and absent being the same) must be those
# slubtiny lists. Each of them, but for the options the migration's own
# lines set, is then classed:
#   restored   the board's own line for it takes effect now (EXPERT=y), as
#              it did on 6.1, where the board's EMBEDDED selected EXPERT:
#              conf on linux-source-6.1 gives the board that value
#   DEAD       the board's own line for it takes effect now, but never did
#              before (the board had neither EMBEDDED nor EXPERT), or not
#              with this value on 6.1: --fix-deps should have kept the
#              running value (the test fails)
#   allocator  the allocator change alone changes it (conf on the migrated
#              file without its CONFIG_SLUB_TINY=y line keeps the old value):
#              SLUB_DEBUG and what it selected, the point of the migration
#   expert     CONFIG_EXPERT selects it (init/Kconfig)
#   hidden     conf no longer writes it: no line for it can take effect.
#              Proven with one conf run per board: all those lines appended
#              at once leave conf's .config unchanged (a line only sets its
#              own symbol's user value, which conf ignores while the symbol
#              is invisible, so each line alone leaves it unchanged too)
#   not-taken  conf ignores the line that would restore it (a select, a
#              choice, a range): appended, and at its menu position
#   collateral the line restores it but changes other options, or stops a
#              line of the file from taking effect
#   no-tiny    the line restores it but CONFIG_SLUB_TINY=y stops taking effect
#   RESTORABLE the line restores it, SLUB_TINY stays, nothing else changes:
#              a pin --fix-deps should have written (the test fails)
# The remaining options are listed with their class (and, with KEEPDIR,
# the lines tried and conf's results are kept there). conf's results are
# cached in $ST_SRCDIR/build-cache/conf-boards/ (st_conf_cached).
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib.sh"
. "$here/common.sh"
case $1 in /*) slubtiny=$1 ;; *) slubtiny=$PWD/$1 ;; esac
mode=${2:-all}
keep=${3:-}
work=${ST_BUILDDIR:-/tmp}/kconfig-diff
export SLUBTINY_CACHE_DIR=${SLUBTINY_CACHE_DIR:-$work/cache}
command -v python3 >/dev/null && command -v jq >/dev/null ||
	{ echo "skip: python3 or jq missing"; exit 77; }
t61=$(st_shared_tree 6.1)
rc=$?
[ $rc = 77 ] && { echo "skip: linux-source-6.1 or make/flex/bison/xz missing"; exit 77; }
[ $rc = 0 ] || { echo "FAIL: cannot extract linux-source-6.1"; exit 1; }
# the tree judged by: 6.12, or ST_PIN_VERSION (7.3: fetched, see
# tests/fetch-linux-source.sh); the name t612 stays
pv=${ST_PIN_VERSION:-6.12}
t612=$(st_shared_tree "$pv")
rc=$?
[ $rc = 77 ] && { echo "skip: linux-source-$pv missing"; exit 77; }
[ $rc = 0 ] || { echo "FAIL: cannot extract linux-source-$pv"; exit 1; }
run=$work/proof.$$
rm -rf "$run" && mkdir -p "$run" || exit 1
st_atexit 'rm -rf "$run"'
start=$(date +%s)

list=$(cd "$t61" && grep -l '^CONFIG_SLOB=y' arch/*/configs/*_defconfig)
[ "$(echo "$list" | wc -l)" = 17 ] || bad "want 17 SLOB boards in 6.1, found $(echo "$list" | wc -l)"
if [ "$mode" = quick ]; then
	quick="arch/arm/configs/collie_defconfig arch/sh/configs/rsk7201_defconfig"
	for rel in $quick; do
		echo "$list" | grep -qx "$rel" || bad "$rel: not a SLOB board of 6.1"
	done
	list=$quick
fi
for rel in $list; do
	mkdir -p "$run/fix/$(dirname "$rel")" "$run/orig/$(dirname "$rel")" &&
		cp "$t61/$rel" "$run/fix/$rel" && cp "$t61/$rel" "$run/orig/$rel" || exit 1
done
# shellcheck disable=SC2086
(cd "$run/fix" && "$slubtiny" migrate --srctree "$t612" --fix-deps --in-place --json \
	$list) >"$run/fix.json" 2>"$run/fix.err"
st=$?
[ $st = 0 ] || bad "migrate --fix-deps: exit $st, want 0"
[ -s "$run/fix.err" ] && { bad "migrate --fix-deps wrote to stderr:"; head -5 "$run/fix.err"; }
jq -e . "$run/fix.json" >/dev/null || { bad "migrate --json: not one JSON document"; exit 1; }
t_mig=$(($(date +%s) - start))

# what CONFIG_EXPERT selects
expert=$(awk '/^(menu)?config / { in_e = ($2 == "EXPERT") }
	in_e && $1 == "select" { print $2 }' "$t612/init/Kconfig")
[ -n "$expert" ] || bad "no select of CONFIG_EXPERT found in init/Kconfig"

# run_jobs FILE: conf on every "ARCH REL INPUT" line of FILE, two workers
# with a tree copy each; INPUT.cfg gets the path of conf's .config
run_jobs() {
	for j in 0 1; do
		awk -v j=$j 'NR % 2 == j' "$1" >"$1.$j"
		(while read -r a rel in; do
			st_conf_cached "$t612" "$a" "$rel" "$in" "$run/w$j" >"$in.cfg" ||
				echo "$in" >>"$run/conf-failed"
		done <"$1.$j") &
	done
	wait
	[ -s "$run/conf-failed" ] && { bad "conf failed on: $(cat "$run/conf-failed")"; exit 1; }
}

# cval CONFIG SYM: SYM's value in the .config CONFIG (n: is not set; empty:
# not written)
cval() {
	sed -n "s/^CONFIG_$2=\(.*\)/\1/p; s/^# CONFIG_$2 is not set\$/n/p" "$1"
}

# same A B: one value ("-" or empty: not written, the same as n)
same() {
	case ${1:--}/${2:--} in
	-/n | n/- | -/- | n/n) return 0 ;;
	esac
	[ "$1" = "$2" ]
}

# changed BEFORE AFTER: "SYM OLD NEW" for every option conf's two .configs
# differ in, not written and n being the same ("-" for not written)
changed() {
	python3 "$t612/scripts/diffconfig" "$1" "$2" | awk '
	/^[-+]/ && $2 == "n" && NF == 2 { next }
	/^-/ { print substr($1, 2), $2, "-"; next }
	/^\+/ { print substr($1, 2), "-", $2; next }
	{ print $1, $2, $4 }'
}

# effective FILE CONFIG: the symbols of FILE's lines that take effect
effective() {
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
	/^CONFIG_[A-Za-z0-9_]+=/ {
		s = $0; sub(/=.*/, "", s); v = $0; sub(/^[^=]*=/, "", v); want[s] = v
	}
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ {
		s = $0; sub(/^# /, "", s); sub(/ .*/, "", s); want[s] = "n"
	}
	END {
		for (s in want)
			if (((s in val) ? val[s] : "n") == want[s])
				print substr(s, 8)
	}' "$1" | LC_ALL=C sort
}

# restore_line SYM OLD: the line that sets SYM back to OLD
restore_line() {
	case $2 in
	- | n) echo "# CONFIG_$1 is not set" ;;
	*) echo "CONFIG_$1=$2" ;;
	esac
}

# at_position FILE CONFIG LINE SYM: FILE with LINE before the first line
# whose symbol comes after SYM in CONFIG (conf's menu order)
at_position() {
	awk -v cfg="$2" -v add="$3" -v sym="CONFIG_$4" '
	function name(l) {
		sub(/^# /, "", l); sub(/[= ].*/, "", l); return l
	}
	BEGIN {
		while ((getline l < cfg) > 0)
			if (l ~ /^(# )?CONFIG_/)
				ord[name(l)] = ++n
	}
	!done && /^(# )?CONFIG_/ && (name($0) in ord) && ord[name($0)] > ord[sym] {
		print add; done = 1
	}
	{ print }
	END { if (!done) print add }' "$1"
}

# conf on each board as it is, on 6.1: what its own lines gave it there
for rel in $list; do
	a=${rel#arch/}; a=${a%%/*}
	st_conf_cached "$t61" "$a" "$rel" "$run/orig/$rel" "$run/w61" \
		>"$run/orig/$rel.cfg61" || { bad "$rel: conf failed on 6.1"; exit 1; }
done

# conf on each board before, after, and after without CONFIG_SLUB_TINY=y
: >"$run/jobs"
for rel in $list; do
	a=${rel#arch/}; a=${a%%/*}
	grep -v '^CONFIG_SLUB_TINY=y$' "$run/fix/$rel" >"$run/fix/$rel.notiny" || exit 1
	printf '%s %s %s\n' "$a" "$rel" "$run/orig/$rel" "$a" "$rel" "$run/fix/$rel" \
		"$a" "$rel" "$run/fix/$rel.notiny" >>"$run/jobs"
done
run_jobs "$run/jobs"

# the lines to try
: >"$run/jobs"
for rel in $list; do
	a=${rel#arch/}; a=${a%%/*}
	b=$(basename "$rel" _defconfig)
	d=$run/c/$b
	mkdir -p "$d" || exit 1
	before=$(cat "$run/orig/$rel.cfg") after=$(cat "$run/fix/$rel.cfg")
	notiny=$(cat "$run/fix/$rel.notiny.cfg")
	grep -q '^CONFIG_SLUB_TINY=y$' "$after" || bad "$rel: conf drops SLUB_TINY=y"
	changed "$before" "$after" | LC_ALL=C sort >"$d/changed"
	{ echo SLUB; diff "$run/orig/$rel" "$run/fix/$rel" |
		sed -n 's/^[<>] \(# \)\{0,1\}CONFIG_\([A-Za-z0-9_]*\)[= ].*/\2/p'; } |
		LC_ALL=C sort -u >"$d/direct"
	join -v 1 "$d/changed" "$d/direct" >"$d/remaining"
	# a line the migration dropped (one that never took effect) leaves
	# its option as the board ran it
	diff "$run/orig/$rel" "$run/fix/$rel" |
		sed -n 's/^< \(# \)\{0,1\}CONFIG_\([A-Za-z0-9_]*\)[= ].*/\2/p' |
		grep -v '^\(SLOB\|SLAB\|SLUB\|EMBEDDED\|EXPERT\)' | LC_ALL=C sort -u |
		join - "$d/changed" >"$d/dropped-changed"
	[ -s "$d/dropped-changed" ] &&
		bad "$rel: a dropped line's option changes: $(tr '\n' ' ' <"$d/dropped-changed")"
	jq -r --arg p "$rel" '.files[] | select(.path == $p) | .collateral[].symbol' \
		"$run/fix.json" | LC_ALL=C sort >"$d/listed"
	cut -d' ' -f1 "$d/remaining" | cmp -s - "$d/listed" ||
		{ bad "$rel: slubtiny's list differs from conf's (< conf, > slubtiny):"
		  cut -d' ' -f1 "$d/remaining" | diff - "$d/listed" | head -6; }
	effective "$run/fix/$rel" "$after" >"$d/eff"
	cp "$run/fix/$rel" "$d/batch" || exit 1
	: >"$d/classes"
	while read -r s old new; do
		if grep -q "^CONFIG_$s=\|^# CONFIG_$s is not set" "$run/orig/$rel" &&
		   grep -qx "$s" "$d/eff"; then
			if grep -q '^CONFIG_EMBEDDED=y$' "$run/orig/$rel" &&
			   same "$(cval "$(cat "$run/orig/$rel.cfg61")" "$s")" "$new"; then
				echo "$s $old $new restored" >>"$d/classes"
			else
				echo "$s $old $new DEAD" >>"$d/classes"
			fi
		elif echo "$expert" | grep -qx "$s"; then
			echo "$s $old $new expert" >>"$d/classes"
		elif same "$(cval "$notiny" "$s")" "$old"; then
			echo "$s $old $new allocator" >>"$d/classes"
		elif [ "$new" = - ]; then
			restore_line "$s" "$old" >>"$d/batch"
			echo "$s $old $new hidden?" >>"$d/classes"
		else
			l=$(restore_line "$s" "$old")
			{ cat "$run/fix/$rel"; echo "$l"; } >"$d/$s.end"
			at_position "$run/fix/$rel" "$after" "$l" "$s" >"$d/$s.pos"
			echo "$a $rel $d/$s.end" >>"$run/jobs"
			cmp -s "$d/$s.end" "$d/$s.pos" || echo "$a $rel $d/$s.pos" >>"$run/jobs"
			echo "$s $old $new try" >>"$d/classes"
		fi
	done <"$d/remaining"
	grep -q ' hidden?$' "$d/classes" && echo "$a $rel $d/batch" >>"$run/jobs"
done
run_jobs "$run/jobs"

# judge LINEFILE CONFIG SYM OLD: the class of one tried line
judge() {
	same "$(cval "$2" "$3")" "$4" || { echo not-taken; return; }
	grep -q '^CONFIG_SLUB_TINY=y$' "$2" || { echo no-tiny; return; }
	more=$(changed "$before" "$2" | cut -d' ' -f1 | LC_ALL=C sort |
		join -v 1 - "$d/changed" | tr '\n' ' ')
	lost=$(effective "$run/fix/$rel" "$2" | join -v 1 "$d/eff" - | tr '\n' ' ')
	[ -z "$more$lost" ] && { echo RESTORABLE; return; }
	echo "collateral (${more:+changes $more}${lost:+stops $lost})"
}

total=0 restorable=0
for rel in $list; do
	b=$(basename "$rel" _defconfig)
	d=$run/c/$b
	before=$(cat "$run/orig/$rel.cfg") after=$(cat "$run/fix/$rel.cfg")
	hidden_ok=0
	[ -f "$d/batch.cfg" ] && cmp -s "$(cat "$d/batch.cfg")" "$after" && hidden_ok=1
	: >"$d/judged"
	while read -r s old new c; do
		case $c in
		hidden\?)
			if [ $hidden_ok = 1 ]; then
				c=hidden
			else
				# not proven at once: that line alone, appended
				{ cat "$run/fix/$rel"; restore_line "$s" "$old"; } >"$d/$s.end"
				c=$(judge "$d/$s.end" "$(st_conf_cached "$t612" \
					"$(echo "$rel" | cut -d/ -f2)" "$rel" "$d/$s.end" "$run/w0")" \
					"$s" "$old")
			fi ;;
		try)
			c=$(judge "$d/$s.end" "$(cat "$d/$s.end.cfg")" "$s" "$old")
			if [ -f "$d/$s.pos.cfg" ]; then
				c2=$(judge "$d/$s.pos" "$(cat "$d/$s.pos.cfg")" "$s" "$old")
				[ "$c" = RESTORABLE ] || c=$c2
			fi ;;
		esac
		echo "$s $old $new $c" >>"$d/judged"
	done <"$d/classes"
	n=$(wc -l <"$d/judged")
	r=$(grep -c ' RESTORABLE$' "$d/judged")
	total=$((total + n)) restorable=$((restorable + r))
	sum=$(awk '{ c = $4; sub(/ .*/, "", c); k[c]++ }
		END { for (c in k) printf "%s %d, ", c, k[c] }' "$d/judged" | sed 's/, $//')
	echo "$rel: $n remaining, $r restorable by one line${sum:+ ($sum)}"
	if [ "$mode" = all ] || [ "$r" != 0 ]; then
		sed 's/^/	/' "$d/judged"
	fi
	[ "$r" = 0 ] || bad "$rel: $r options one more line restores (RESTORABLE above)"
	dead=$(grep -c ' DEAD$' "$d/judged")
	[ "$dead" = 0 ] || { bad "$rel: $dead lines that never took effect now do (DEAD above)"
		[ "$mode" = all ] || grep ' DEAD$' "$d/judged" | sed 's/^/	/'; }
done
if [ -n "$keep" ]; then
	rm -rf "$keep" && cp -r "$run/c" "$keep"
fi
echo "pin-proof: $(echo "$list" | wc -w) boards, $total options still change," \
	"$restorable restorable by one line; migrate ${t_mig}s, total $(($(date +%s) - start))s"
exit $fail
