#!/bin/sh
# Rule-only `slubtiny check` over every arch/*/configs/* and kernel/configs/*
# of Debian's linux-source-6.12 against `grep -rn CONFIG_SLOB` over the same
# files, in the same run: alternating rounds, the best wall time of each.
# Fails when check is more than 2x grep. Prints the ratio.
set -u
dir=$(sh "$ST_SRCDIR/tests/unit/defconfig/extract-configs.sh" 6.12) || exit $?
rounds=${ST_BENCH_ROUNDS:-15}
cd "$dir" || exit 1
files=$(find arch/*/configs kernel/configs -type f | sort)
n=$(echo "$files" | wc -l)
[ "$n" -gt 300 ] || { echo "only $n files in $dir"; exit 1; }

now() { date +%s%N; }
best_check= best_grep=
i=0
while [ $i -lt "$rounds" ]; do
	t0=$(now)
	"$SLUBTINY" check --no-config $files >/dev/null 2>&1
	st=$?
	t1=$(now)
	grep -rn CONFIG_SLOB $files >/dev/null
	t2=$(now)
	[ "$st" = 2 ] && { echo "check failed (exit 2)"; "$SLUBTINY" check --no-config $files >/dev/null; exit 1; }
	c=$((t1 - t0)) g=$((t2 - t1))
	[ -z "$best_check" ] || [ "$c" -lt "$best_check" ] && best_check=$c
	[ -z "$best_grep" ] || [ "$g" -lt "$best_grep" ] && best_grep=$g
	i=$((i + 1))
done
ratio=$(awk -v c="$best_check" -v g="$best_grep" 'BEGIN { printf "%.2f", c / g }')
printf 'check-bench: %d files, best of %d: slubtiny check %.1f ms, grep -rn CONFIG_SLOB %.1f ms, ratio %s (limit 2.00)\n' \
	"$n" "$rounds" "$(awk -v x="$best_check" 'BEGIN{print x/1e6}')" \
	"$(awk -v x="$best_grep" 'BEGIN{print x/1e6}')" "$ratio"
awk -v r="$ratio" 'BEGIN { exit !(r <= 2.0) }'
