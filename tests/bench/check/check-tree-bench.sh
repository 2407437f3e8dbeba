#!/bin/sh
# `slubtiny check --srctree` over every arch/*/configs/* and kernel/configs/*
# of linux-source-6.12 (the Kconfig part of the tarball, extracted into the
# build directory): wall time against the 60 s budget of the issue (2 cores).
set -u
tb=/usr/src/linux-source-6.12.tar.xz
[ -r "$tb" ] || { echo "skip: $tb not installed"; exit 77; }
top=$ST_BUILDDIR/check-tree
tree=$top/linux-source-6.12
mkdir -p "$top"
(
	flock 9
	if [ ! -f "$tree/.done" ]; then
		rm -rf "$tree"
		xz -T1 -dc "$tb" | tar -x -C "$top" --wildcards '*Kconfig*' '*Makefile*' \
			'*Kbuild*' '*.config' 'linux-source-6.12/scripts/*' \
			'linux-source-6.12/arch/*/configs/*' 'linux-source-6.12/arch/*/tools/*' \
			2>/dev/null
		[ -f "$tree/Kconfig" ] && : >"$tree/.done"
	fi
) 9>"$top/.lock"
[ -f "$tree/.done" ] || { echo "cannot extract $tb"; exit 1; }
cd "$tree" || exit 1
# only the tarball's own files (check-tree.sh adds scratch ones while it runs)
files=$(tar -tJf "$tb" --wildcards 'linux-source-6.12/arch/*/configs/*' \
	'linux-source-6.12/kernel/configs/*' | grep -v '/$' | sed 's#^linux-source-6.12/##')
n=$(echo "$files" | wc -l)
t0=$(date +%s%N)
"$SLUBTINY" check --no-config --format json --srctree . $files >"$top/bench.json" 2>"$top/bench.err"
st=$?
t1=$(date +%s%N)
[ $st = 2 ] && { echo "check failed:"; cat "$top/bench.err"; exit 1; }
ms=$(( (t1 - t0) / 1000000 ))
printf 'check-tree-bench: %d files with --srctree in %d.%03d s (budget 60 s), %s\n' \
	"$n" $((ms / 1000)) $((ms % 1000)) "$(sed -n 's/.*"summary":\({[^}]*}\).*/\1/p' "$top/bench.json")"
[ "$ms" -le 60000 ]
