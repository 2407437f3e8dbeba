#!/bin/sh
# `slubtiny migrate --target 6.2` must reproduce the upstream 6.2 commit "mm,
# slob: rename CONFIG_SLOB to CONFIG_SLOB_DEPRECATED" byte for byte on its 18
# defconfigs: the 6.1 files (from Debian's linux-source-6.1 tarball) patched
# with the commit's defconfig hunks by patch(1) are the reference. The diff
# migrate prints must equal the commit's own hunks, and a second run must
# change nothing. Then, at scale: every defconfig of both Debian trees,
# migrated for the default target, must be stable under a second run.
set -u
command -v patch >/dev/null || { echo "skip: patch(1) missing"; exit 77; }
extract=$ST_SRCDIR/tests/unit/defconfig/extract-configs.sh
k61=$(sh "$extract" 6.1) || exit $?
w=$(mktemp -d) || exit 1
trap 'rm -rf "$w"' EXIT
fail=0
patchfile=$w/upstream.patch
sh "$ST_SRCDIR/tests/cli/upstream-patch.sh" >"$patchfile" || exit $?

files=$(sed -n 's#^diff --git a/\([^ ]*\) b/.*#\1#p' "$patchfile" | grep -v '^mm/')
[ "$(echo "$files" | wc -l)" = 18 ] || { echo "FAIL: expected 18 files in the patch"; exit 1; }
awk '/^diff --git/ { on = 1 } on' "$patchfile" >"$w/upstream.diff"
sed '/^index /d' "$w/upstream.diff" >"$w/upstream-noindex.diff"
for d in ref mine diffonly; do
	for f in $files; do
		mkdir -p "$w/$d/$(dirname "$f")" && cp "$k61/$f" "$w/$d/$f"
	done
done
(cd "$w/ref" && patch -s -p1 <"$w/upstream.diff") || { echo "FAIL: patch"; exit 1; }

# shellcheck disable=SC2086
(cd "$w/mine" && "$SLUBTINY" migrate --target 6.2 --in-place --no-verify --all $files) 2>"$w/err"
st=$?
# pxa_defconfig assigns USB_GPIO_VBUS twice (a real conflict the board
# already had, not the migration's): listed with --all, exit 0.
[ $st = 0 ] || { echo "FAIL: exit $st, want 0"; cat "$w/err"; fail=1; }
grep -q 'pxa_defconfig:[0-9]*: warning: .*USB_GPIO_VBUS.*\[conflict, pre-existing\]' "$w/err" ||
	{ echo "FAIL: pxa conflict not reported"; fail=1; }
n=0
for f in $files; do
	if cmp "$w/ref/$f" "$w/mine/$f"; then n=$((n + 1)); else fail=1; fi
done
echo "$n of 18 files identical to upstream"

# shellcheck disable=SC2086
(cd "$w/diffonly" && "$SLUBTINY" migrate --target 6.2 --no-verify $files) >"$w/mine.diff" 2>/dev/null
cmp "$w/mine.diff" "$w/upstream-noindex.diff" || { echo "FAIL: diff differs from upstream's"; diff "$w/upstream-noindex.diff" "$w/mine.diff" | head; fail=1; }
for f in $files; do
	cmp -s "$k61/$f" "$w/diffonly/$f" || { echo "FAIL: default mode wrote $f"; fail=1; }
done

# Idempotent: nothing left to do.
# shellcheck disable=SC2086
(cd "$w/mine" && "$SLUBTINY" migrate --target 6.2 --no-verify $files) >"$w/again.diff" 2>/dev/null
[ ! -s "$w/again.diff" ] || { echo "FAIL: second run changes"; head "$w/again.diff"; fail=1; }

# At scale, both trees, default target: migrate in place, then nothing changes.
for v in 6.1 6.12; do
	kd=$(sh "$extract" "$v") || exit $?
	rm -rf "$w/all"; mkdir "$w/all"
	cp -r "$kd/arch" "$kd/kernel" "$w/all/"
	(cd "$w/all" && "$SLUBTINY" migrate --in-place --no-verify arch kernel) >/dev/null 2>"$w/err1"
	[ $? -le 1 ] || { echo "FAIL: $v: in-place run failed"; head "$w/err1"; fail=1; }
	changed=$(grep -c 'note: \[' "$w/err1")
	(cd "$w/all" && "$SLUBTINY" migrate --no-verify arch kernel) >"$w/again" 2>/dev/null
	[ ! -s "$w/again" ] || { echo "FAIL: $v: second run changes"; head "$w/again"; fail=1; }
	echo "linux $v: $(find "$w/all" -type f | wc -l) files, $changed rewrites, second run: no change"
	# Each file's printed diff equals git diff --no-index of before and after.
	command -v git >/dev/null || continue
	nd=0
	for f in $(cd "$kd" && find arch kernel -type f | sort); do
		if cmp -s "$kd/$f" "$w/all/$f"; then continue; fi
		nd=$((nd + 1))
		(cd "$kd" && "$SLUBTINY" migrate --no-verify "$f") >"$w/one.diff" 2>/dev/null
		(cd "$w" && git --no-pager -c color.ui=never -c diff.noprefix=false -c diff.mnemonicPrefix=false \
			diff --no-index "$kd/$f" "$w/all/$f") |
			sed -e '/^index /d' -e "s#a$kd/#a/#g" -e "s#b$w/all/#b/#g" >"$w/git"
		cmp -s "$w/one.diff" "$w/git" || { echo "FAIL: $v: diff of $f differs from git"; diff "$w/git" "$w/one.diff" | head -5; fail=1; }
	done
	echo "linux $v: $nd changed files, each diff identical to git diff --no-index"
done
exit $fail
