#!/bin/sh
# The diff of an edited model must equal `git diff --no-index` of the two
# files (minus the index line), and apply with patch(1) and git apply.
# Inputs: real kernel defconfigs plus odd line endings.
set -u
. "$(dirname "$0")/../../lib.sh"
tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") extract=$2
command -v git >/dev/null || { echo "skip: git missing"; exit 77; }
command -v patch >/dev/null || { echo "skip: patch missing"; exit 77; }
dir=$(sh "$extract" 6.1) || exit $?
st_tmpdir w
fail=0 n=0

one() { # file ops...
	src=$1; shift
	n=$((n + 1))
	rm -rf "$w/t"; mkdir -p "$w/t/old" "$w/t/new" "$w/t/apply"
	cp "$src" "$w/t/old/f"; cp "$src" "$w/t/apply/f"
	(cd "$w/t/old" && "$tool" edit -o ../new/f f "$@") >"$w/t/mine" || { echo "FAIL: tool $src $*"; fail=1; return; }
	(cd "$w/t" && git --no-pager -c color.ui=never -c diff.noprefix=false \
		-c diff.mnemonicPrefix=false diff --no-index old/f new/f) |
		sed -e '/^index /d' -e 's#a/old/f#a/f#g' -e 's#b/new/f#b/f#g' >"$w/t/git"
	if ! cmp -s "$w/t/mine" "$w/t/git"; then
		echo "FAIL: diff differs from git for $src $*"; diff "$w/t/git" "$w/t/mine" | head -20; fail=1
	fi
	(cd "$w/t/apply" && patch -s -p1 <"$w/t/mine") && cmp -s "$w/t/apply/f" "$w/t/new/f" ||
		{ echo "FAIL: patch did not reproduce $src $*"; fail=1; }
	(cd "$w/t/old" && git apply --unsafe-paths -p1 "$w/t/mine") && cmp -s "$w/t/old/f" "$w/t/new/f" ||
		{ echo "FAIL: git apply did not reproduce $src $*"; fail=1; }
}

c=$dir/arch/arm/configs
one "$c/clps711x_defconfig" 'r:17:CONFIG_SLUB=y' 'i:18:CONFIG_SLUB_TINY=y'
one "$c/clps711x_defconfig" 'd:1' 'i:3:# x'
one "$c/clps711x_defconfig" 'r:2:X' 'r:9:Y' 'r:17:Z' 'r:30:W'
one "$c/clps711x_defconfig" 'i:1:FIRST'
n_lines=$(wc -l <"$c/pxa_defconfig")
one "$c/pxa_defconfig" "i:$((n_lines + 1)):CONFIG_LAST=y" 'd:5' 'd:5' 'd:5'
one "$c/pxa_defconfig" "d:$n_lines" "d:$((n_lines - 1))"
one "$dir/kernel/configs/tiny.config" 'r:10:# CONFIG_SLOB_DEPRECATED is not set' \
	'r:11:CONFIG_SLUB=y' 'i:12:CONFIG_SLUB_TINY=y'
printf 'CONFIG_A=y\r\nCONFIG_B=y\r\nCONFIG_C=y' >"$w/crlf"
one "$w/crlf" 'r:2:CONFIG_B=m'
one "$w/crlf" 'r:3:CONFIG_C=m'
one "$w/crlf" 'i:4:CONFIG_D=y'
one "$w/crlf" 'd:3'
printf 'a\nb\nc\n' >"$w/small"
one "$w/small" 'd:1' 'd:1' 'd:1'
one "$w/small" 'i:1:x'
# Changes 6 and 7 lines apart: one hunk, then two (git's merge rule).
seq 1 40 >"$w/seq"
one "$w/seq" 'r:10:x' 'r:17:y'
one "$w/seq" 'r:10:x' 'r:18:y'
one "$w/seq" 'r:2:x' 'r:39:y'
echo "$n diffs compared with git"
exit $fail
