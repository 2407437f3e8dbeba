#!/bin/sh
# Shell completion is generated from the command table: bash and zsh read
# the scripts, complete commands, options and option arguments, and the
# scripts meson built (and installs) are the ones the tool prints.
set -u
. "$(dirname "$0")/../lib.sh"
st_tmpdir tmp
command -v bash >/dev/null || { echo "no bash"; exit 77; }

for sh in bash zsh; do
	"$SLUBTINY" completion $sh >"$tmp/$sh" 2>"$tmp/err"; st=$?
	[ $st = 0 ] || { echo "FAIL: completion $sh: exit $st"; fail=1; }
	[ -s "$tmp/err" ] && { echo "FAIL: completion $sh: stderr"; cat "$tmp/err"; fail=1; }
done
"$SLUBTINY" completion fish >/dev/null 2>"$tmp/err"; st=$?
[ $st = 2 ] && grep -q "^slubtiny: completion: expected 'bash' or 'zsh'" "$tmp/err" ||
	{ echo "FAIL: completion fish: exit $st"; fail=1; }
cmp -s "$tmp/bash" "$ST_BUILDDIR/doc/slubtiny" || { echo "FAIL: built bash completion differs"; fail=1; }
cmp -s "$tmp/zsh" "$ST_BUILDDIR/doc/_slubtiny" || { echo "FAIL: built zsh completion differs"; fail=1; }
# meson installs both where bash-completion and zsh look for them.
if command -v meson >/dev/null; then
	meson introspect --installed "$ST_BUILDDIR" | tr ',' '\n' >"$tmp/installed"
	grep -q '/doc/slubtiny": ".*/share/bash-completion/completions/slubtiny"' "$tmp/installed" ||
		{ echo "FAIL: bash completion not installed"; fail=1; }
	grep -q '/doc/_slubtiny": ".*/share/zsh/site-functions/_slubtiny"' "$tmp/installed" ||
		{ echo "FAIL: zsh completion not installed"; fail=1; }
fi

# bash: what _slubtiny offers for a command line (words separated by spaces).
complete_bash() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _slubtiny
		printf "%s\n" "${COMPREPLY[@]}"' sh "$tmp/bash" "$@"
}
want() { # description, expected word, command line words...
	what=$1 word=$2; shift 2
	complete_bash "$@" >"$tmp/out" 2>"$tmp/err"
	grep -qx -- "$word" "$tmp/out" || { echo "FAIL: bash: $what: no '$word' in: $(tr '\n' ' ' <"$tmp/out")"; fail=1; }
	[ -s "$tmp/err" ] && { echo "FAIL: bash: $what: stderr"; cat "$tmp/err"; fail=1; }
}
want "command" migrate slubtiny mig
want "command size-diff" size-diff slubtiny size-
want "option" --in-place slubtiny migrate --in
want "option --list-rules" --list-rules slubtiny check --list
want "short option" -j slubtiny build -
want "format value" sarif slubtiny check --format s
want "rule id" hardening-notice slubtiny check --ignore hard
want "footprint gen option" --seed slubtiny footprint gen --se
want "help topic" report slubtiny help rep
mkdir "$tmp/dir_a"
( cd "$tmp" && complete_bash slubtiny migrate --srctree dir_ ) | grep -qx dir_a ||
	{ echo "FAIL: bash: --srctree does not complete a directory"; fail=1; }
# Option values from the code's tables, each compared with what --help (or
# defconfigs/, or uname) says the option takes, not with a second list.
wants() { # description, words expected, command line words...
	what=$1 words=$2; shift 2
	for w in $words; do
		want "$what" "$w" "$@"
	done
}
wants "build --arch" "$(uname -m) arm" slubtiny build --arch ""
wants "report --arch" "$(uname -m) arm" slubtiny report --arch ""
vs=$(for f in "$ST_SRCDIR"/defconfigs/*_defconfig; do
	v=${f##*/}; v=${v%_defconfig}; case $v in *_legacy) ;; *) echo "$v" ;; esac; done)
[ -n "$vs" ] || { echo "FAIL: no defconfigs/*_defconfig"; fail=1; }
wants "build --variant" "$vs" slubtiny build --variant ""
wants "report --variant" "$vs" slubtiny report --variant ""
complete_bash slubtiny report --variant "" | grep -q _legacy && { echo "FAIL: bash: a _legacy variant offered"; fail=1; }
wants "kernel --variant" "$("$SLUBTINY" kernel --help | sed -n 's/.*--variant V .*(\(.*\)).*/\1/p' | tr -d ,)" \
	slubtiny kernel --variant ""
wants "footprint --arch" "$("$SLUBTINY" footprint --help | sed -n '/--arch A/,/^      --/p' |
	sed '$d' | tr '\n' ' ' | sed 's/.*boot: //; s/ *([^)]*)//g; s/,/ /g')" slubtiny footprint --arch ""
shapes=$("$SLUBTINY" footprint --help | sed -n 's/.* SHAPE (\(.*\))$/\1/p' | sed 's/,/ /g; s/ or / /')
[ -n "$shapes" ] || { echo "FAIL: no shapes in footprint --help"; fail=1; }
wants "footprint gen SHAPE" "$shapes" slubtiny footprint gen ""
wants "footprint gen SHAPE after an option" "$shapes" slubtiny footprint gen --seed 7 ""
want "footprint gen" gen slubtiny footprint g
# From the --srctree of the line: its ARCHes and defconfigs, make targets.
mkdir -p "$tmp/tree/arch/arm/configs" "$tmp/tree/arch/x86" "$tmp/tree/kernel/configs"
: >"$tmp/tree/arch/arm/Kconfig"; : >"$tmp/tree/arch/x86/Kconfig"
: >"$tmp/tree/arch/arm/configs/board_defconfig"; : >"$tmp/tree/kernel/configs/tiny.config"
for c in kernel "footprint --boot" "footprint boot"; do
	wants "$c --defconfig" "defconfig board_defconfig tiny.config tinyconfig" \
		slubtiny $c --srctree "$tmp/tree" --defconfig ""
	wants "$c --defconfig (=)" "defconfig board_defconfig" \
		slubtiny $c --srctree="$tmp/tree" --defconfig ""
done
want "kernel --defconfig, no tree" defconfig slubtiny kernel --defconfig ""
for c in kernel migrate check; do
	wants "$c --arch of the tree" "arm x86" slubtiny $c --srctree "$tmp/tree" --arch ""
done

# Every option of every command's --help is offered.
for c in migrate check size-diff size build report footprint; do
	for o in $("$SLUBTINY" $c --help | sed -n -e 's/^  -[A-Za-z], \(--[a-z][a-z-]*\).*/\1/p' \
			-e 's/^      \(--[a-z][a-z-]*\).*/\1/p' | sort -u); do
		complete_bash slubtiny $c "$o" | grep -qx -- "$o" || { echo "FAIL: bash: $c $o not offered"; fail=1; }
	done
done

# zsh: the script parses, and loads with compinit.
if command -v zsh >/dev/null; then
	zsh -n "$tmp/zsh" || { echo "FAIL: zsh -n"; fail=1; }
	mkdir "$tmp/fpath" && cp "$tmp/zsh" "$tmp/fpath/_slubtiny"
	HOME=$tmp zsh -f -c "fpath=($tmp/fpath \$fpath); autoload -Uz compinit; compinit -u -d $tmp/zcd;
		[[ \${_comps[slubtiny]} == _slubtiny ]]" 2>"$tmp/err" ||
		{ echo "FAIL: zsh does not register _slubtiny"; cat "$tmp/err"; fail=1; }
	for c in migrate check size-diff size build report footprint; do
		grep -q "^	$c)" "$tmp/zsh" || { echo "FAIL: zsh: no case for $c"; fail=1; }
	done
else
	echo "FAIL: zsh is not installed (.ci/deps test installs it)"; fail=1
fi
exit $fail
