#!/bin/sh
# Verification against the kernel's own conf, on Debian's linux-source-6.12:
# the 18 upstream SLOB defconfigs of 6.1, migrated for 6.12, must be flagged
# exactly when conf drops their CONFIG_SLUB_TINY=y, and after --fix-deps conf
# must keep SLUB_TINY=y in every one of them. conf runs as
# `make O=... ARCH=... NAME_defconfig` (tinyconfig for tiny.config) in a
# scratch extraction of the tarball.
set -u
. "$(dirname "$0")/../lib.sh"
. "$ST_SRCDIR/tests/diff/kconfig/common.sh"
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
extract=$ST_SRCDIR/tests/unit/defconfig/extract-configs.sh
k61=$(sh "$extract" 6.1) || exit $?
work=$ST_BUILDDIR/migrate-verify
mkdir -p "$work"
tree=$(st_tree 6.12 "$work"); st=$?
[ $st = 0 ] || { echo "skip/fail: cannot extract the 6.12 tree ($st)"; exit $st; }
st_tmpdir w
# the files of the upstream commit (path, then its index line)
files=$(sed -n 's/^\([a-z][^ ]*\) .*/\1/p' "$ST_SRCDIR/tests/cli/slob-rename-6.2.index")
for f in $files; do
	mkdir -p "$w/m/$(dirname "$f")" && cp "$k61/$f" "$w/m/$f"
done

# conf's value of SLUB_TINY for the file $1 (relative to $w/m).
conf_tiny() {
	rel=$1
	case $rel in
	kernel/configs/tiny.config)
		a=x86; cp "$w/m/$rel" "$tree/kernel/configs/tiny.config"; tgt=tinyconfig ;;
	*)
		a=${rel#arch/}; a=${a%%/*}
		cp "$w/m/$rel" "$tree/arch/$a/configs/st_mig_defconfig"; tgt=st_mig_defconfig ;;
	esac
	st_ref "$tree" "$a" "$tgt" "$work/obj-$a" "$w/config" || return 2
	grep -q '^CONFIG_SLUB_TINY=y$' "$w/config"
}
cp "$tree/kernel/configs/tiny.config" "$w/tiny.orig"

now() { date +%s.%N; }
t0=$(now)
# shellcheck disable=SC2086
(cd "$w/m" && "$SLUBTINY" migrate --json --srctree "$tree" --in-place --force $files) >"$w/v.json" 2>"$w/v.err"
[ $? -le 1 ] || { echo "FAIL: verify run"; cat "$w/v.err"; exit 1; }
t1=$(now)
jq -e '.target == "6.12"' "$w/v.json" >/dev/null || { echo "FAIL: target is not the tree's"; fail=1; }
flagged=$(jq -r '.files[] | select(any(.findings[]; .symbol == "SLUB_TINY" and .kind == "ineffective")) | .path' "$w/v.json" | sort)
dropped=
for f in $files; do
	conf_tiny "$f"; r=$?
	[ $r = 2 ] && { echo "FAIL: conf failed for $f"; fail=1; }
	[ $r = 1 ] && dropped="$dropped $f"
done
dropped=$(echo $dropped | tr ' ' '\n' | sed '/^$/d' | sort)
if [ "$flagged" != "$dropped" ]; then
	echo "FAIL: flagged files differ from conf"; echo "flagged: $flagged"; echo "conf dropped: $dropped"; fail=1
fi
echo "SLUB_TINY=y without effect on 6.12 (conf and slubtiny agree):" $(echo "$dropped" | wc -w) "of 18"
echo "$dropped" | sed 's/^/  /'
# Every such finding names its cause.
jq -e '[.files[].findings[] | select(.symbol == "SLUB_TINY" and .kind == "ineffective")] |
	all(.cause == "depends" and (.message | test("EXPERT")))' "$w/v.json" >/dev/null ||
	{ echo "FAIL: SLUB_TINY findings without the EXPERT cause"; fail=1; }

# --fix-deps: every file gets SLUB_TINY=y for real.
# shellcheck disable=SC2086
(cd "$w/m" && "$SLUBTINY" migrate --json --srctree "$tree" --fix-deps --in-place --force $files) >"$w/f.json" 2>"$w/f.err"
[ $? -le 1 ] || { echo "FAIL: fix-deps run"; cat "$w/f.err"; exit 1; }
jq -e '[.files[].findings[] | select(.symbol == "SLUB_TINY")] | length == 0' "$w/f.json" >/dev/null ||
	{ echo "FAIL: SLUB_TINY still flagged after --fix-deps"; fail=1; }
n=0
t2=$(now)
for f in $files; do
	if conf_tiny "$f"; then n=$((n + 1)); else echo "FAIL: conf drops SLUB_TINY in $f after --fix-deps"; fail=1; fi
done
t3=$(now)
echo "after --fix-deps: conf keeps SLUB_TINY=y in $n of 18 files"
echo "time: slubtiny migrate (18 files, verify + collateral, helpers started):" \
	"$(echo "$t1 - $t0" | bc) s; make NAME_defconfig one file at a time (conf built):" \
	"$(echo "$t3 - $t2" | bc) s; ratio $(echo "scale=1; ($t3 - $t2) / ($t1 - $t0)" | bc)"
cp "$w/tiny.orig" "$tree/kernel/configs/tiny.config"
rm -f "$tree"/arch/*/configs/st_mig_defconfig
exit $fail
