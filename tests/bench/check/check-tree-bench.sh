#!/bin/sh
# `slubtiny check --srctree` over every arch/*/configs/* and kernel/configs/*
# of linux-source-6.12 (the Kconfig part of the tarball, extracted into the
# build directory): wall time against the 60 s budget of the issue (2 cores).
set -u
# $tb, $top and $tree: the one extraction the tree tests share.
. "$ST_SRCDIR/tests/cli/kernel-tree.sh"
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
