#!/bin/sh
# `slubtiny migrate --target 6.2` must reproduce the upstream 6.2 commit "mm,
# slob: rename CONFIG_SLOB to CONFIG_SLOB_DEPRECATED" byte for byte on its 18
# files. The reference is the commit's own git blob ids of each file before
# and after (tests/cli/slob-rename-6.2.index): the 6.1 files of Debian's
# linux-source-6.1 tarball must be the blobs before, and `git hash-object`
# of migrate's results must be the blobs after. The diff migrate prints must
# be what git diff prints between the 6.1 file and that result, and a second
# run must change nothing. Then, at scale: every defconfig of both Debian
# trees, migrated for the default target, must be stable under a second run.
set -u
. "$(dirname "$0")/../lib.sh"
command -v git >/dev/null || { echo "skip: git missing"; exit 77; }
extract=$ST_SRCDIR/tests/unit/defconfig/extract-configs.sh
k61=$(sh "$extract" 6.1) || exit $?
st_tmpdir w
index=$ST_SRCDIR/tests/cli/slob-rename-6.2.index

files=$(sed -n 's/^\([a-z][^ ]*\) .*/\1/p' "$index")
[ "$(echo "$files" | wc -l)" = 18 ] || { echo "FAIL: expected 18 files in $index"; exit 1; }
# blob id before or after (1 or 2) of file $1, from the index
blob() { awk -v f="$1" -v i="$2" '$1 == f { split($2, b, "[.][.]"); print b[i] }' "$index"; }
for d in mine diffonly; do
	for f in $files; do
		mkdir -p "$w/$d/$(dirname "$f")" && cp "$k61/$f" "$w/$d/$f"
	done
done
for f in $files; do
	case $(git hash-object "$k61/$f") in
	"$(blob "$f" 1)"*) ;;
	*) echo "FAIL: $f of linux-source-6.1 is not the file the upstream commit changed"; fail=1 ;;
	esac
done

# shellcheck disable=SC2086
(cd "$w/mine" && "$SLUBTINY" migrate --target 6.2 --in-place --no-verify --all $files) 2>"$w/err"
st=$?
# pxa_defconfig assigns USB_GPIO_VBUS twice (a real conflict the board
# already had, not the migration's): listed with --all, exit 0.
[ $st = 0 ] || { echo "FAIL: exit $st, want 0"; cat "$w/err"; fail=1; }
grep -q 'pxa_defconfig:[0-9]*:1: warning: .*USB_GPIO_VBUS.*\[conflicting-assignment, pre-existing\]' "$w/err" ||
	{ echo "FAIL: pxa conflict not reported"; fail=1; }
# stderr holds nothing but FILE:LINE:COL: warning/note lines and FILE: note:
# summaries of pre-existing findings, and what was checked (no error, no
# sanitizer report)
diag_only() { # stderr file, what
	if grep -v '^[^ ]*:\([0-9]*:\)\? \(warning\|note\): \|^slubtiny: migrate: \(checked [0-9]* kernel configs\?\|ARCH=\)' "$1" | head -5 | grep .; then
		echo "FAIL: $2: stderr has more than diagnostics (above)"; fail=1
	fi
}
diag_only "$w/err" "in-place run"
n=0
: >"$w/want.diff"
for f in $files; do
	case $(git hash-object "$w/mine/$f") in
	"$(blob "$f" 2)"*) n=$((n + 1)) ;;
	*) echo "FAIL: $f differs from upstream's (6.1 -> slubtiny):"
	   diff "$k61/$f" "$w/mine/$f" | head; fail=1 ;;
	esac
	# git's diff of the 6.1 file and the result, as migrate prints it
	(cd "$w" && git --no-pager -c color.ui=never -c diff.noprefix=false \
		-c diff.mnemonicPrefix=false diff --no-index "$k61/$f" "$w/mine/$f") |
		sed -e '/^index /d' -e "s#a$k61/#a/#g" -e "s#b$w/mine/#b/#g" >>"$w/want.diff"
done
echo "$n of 18 files identical to upstream"

# shellcheck disable=SC2086
(cd "$w/diffonly" && "$SLUBTINY" migrate --target 6.2 --no-verify $files) >"$w/mine.diff" 2>"$w/err"
# (the pxa conflict is the board's own: exit 0)
[ $? = 0 ] || { echo "FAIL: diff mode: exit status"; cat "$w/err"; fail=1; }
diag_only "$w/err" "diff mode"
cmp "$w/mine.diff" "$w/want.diff" || { echo "FAIL: diff differs from upstream's"; diff "$w/want.diff" "$w/mine.diff" | head; fail=1; }
for f in $files; do
	cmp -s "$k61/$f" "$w/diffonly/$f" || { echo "FAIL: default mode wrote $f"; fail=1; }
done

# Idempotent: nothing left to do.
# shellcheck disable=SC2086
(cd "$w/mine" && "$SLUBTINY" migrate --target 6.2 --no-verify $files) >"$w/again.diff" 2>"$w/err"
[ $? = 0 ] || { echo "FAIL: second run: exit status (want 0: the pxa conflict is pre-existing)"; cat "$w/err"; fail=1; }
grep -q 'pxa_defconfig: note: 1 pre-existing finding' "$w/err" ||
	{ echo "FAIL: second run: the pxa conflict is not summed up"; cat "$w/err"; fail=1; }
diag_only "$w/err" "second run"
[ ! -s "$w/again.diff" ] || { echo "FAIL: second run changes"; head "$w/again.diff"; fail=1; }

# At scale, both trees, default target: migrate in place, then nothing changes.
for v in 6.1 6.12; do
	kd=$(sh "$extract" "$v") || exit $?
	rm -rf "$w/all"; mkdir "$w/all"
	cp -r "$kd/arch" "$kd/kernel" "$w/all/"
	(cd "$w/all" && "$SLUBTINY" migrate --in-place --no-verify arch kernel) >/dev/null 2>"$w/err1"
	[ $? -le 1 ] || { echo "FAIL: $v: in-place run failed"; head "$w/err1"; fail=1; }
	diag_only "$w/err1" "$v: in-place run"
	changed=$(grep -c 'note: \[' "$w/err1")
	(cd "$w/all" && "$SLUBTINY" migrate --no-verify arch kernel) >"$w/again" 2>"$w/err2"
	[ $? -le 1 ] || { echo "FAIL: $v: second run failed"; head "$w/err2"; fail=1; }
	diag_only "$w/err2" "$v: second run"
	[ ! -s "$w/again" ] || { echo "FAIL: $v: second run changes"; head "$w/again"; fail=1; }
	echo "linux $v: $(find "$w/all" -type f | wc -l) files, $changed rewrites, second run: no change"
	# Each file's printed diff equals git diff --no-index of before and after.
	nd=0
	for f in $(cd "$kd" && find arch kernel -type f | sort); do
		if cmp -s "$kd/$f" "$w/all/$f"; then continue; fi
		nd=$((nd + 1))
		(cd "$kd" && "$SLUBTINY" migrate --no-verify "$f") >"$w/one.diff" 2>"$w/err3"
		[ $? -le 1 ] || { echo "FAIL: $v: $f: exit status"; head "$w/err3"; fail=1; }
		diag_only "$w/err3" "$v: $f"
		(cd "$w" && git --no-pager -c color.ui=never -c diff.noprefix=false -c diff.mnemonicPrefix=false \
			diff --no-index "$kd/$f" "$w/all/$f") |
			sed -e '/^index /d' -e "s#a$kd/#a/#g" -e "s#b$w/all/#b/#g" >"$w/git"
		cmp -s "$w/one.diff" "$w/git" || { echo "FAIL: $v: diff of $f differs from git"; diff "$w/git" "$w/one.diff" | head -5; fail=1; }
	done
	echo "linux $v: $nd changed files, each diff identical to git diff --no-index"
done
exit $fail
