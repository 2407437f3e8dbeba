#!/bin/sh
# slubtiny kernel on the real thing: Linux 6.1 and 6.12 (Debian's
# linux-source tarballs, extracted once under $ST_SRCDIR/build-cache/
# kernel-src/) built as x86_64 tinyconfig with every allocator variant each
# tree offers, slab objects only. Every number is checked against GNU size
# and Linux 6.12's scripts/bloat-o-meter run on the same objects, every
# resolved allocator against the .config the kernel's make wrote.
#
# The builds go under $ST_SRCDIR/build-cache/kernel/ (keyed by slubtiny's
# own stamps), shared by the plain and the sanitizer runs of the suite: the
# first run ever builds (minutes), every later one must hit the cache
# (< 1 s, asserted here).
set -u
cache=$ST_SRCDIR/build-cache
kdir=$cache/kernel
work=$ST_BUILDDIR/tests-kernel/tinyconfig
fail=0

# Prerequisites, checked before the tool runs.
for t in /usr/src/linux-source-6.1.tar.xz /usr/src/linux-source-6.12.tar.xz; do
	[ -r "$t" ] || { echo "SKIP: $t missing (apt-get install ${t##*/} without .tar.xz)"; exit 77; }
done
for p in make gcc flex bison bc ar size nm jq python3 xz perl; do
	command -v "$p" >/dev/null || { echo "SKIP: $p not installed"; exit 77; }
done

err() { echo "FAIL: $*"; fail=1; }

# Extract a tarball once: into a temporary directory, then renamed (mkdir is
# the lock between the plain and sanitizer runs).
extract() { # version -> prints the tree
	v=$1 dst=$cache/kernel-src/linux-source-$v
	mkdir -p "$cache/kernel-src"
	i=0
	while [ ! -d "$dst" ]; do
		if mkdir "$dst.lock" 2>/dev/null; then
			tmp=$cache/kernel-src/tmp.$$.$v
			rm -rf "$tmp"
			mkdir -p "$tmp"
			echo "kernel-tinyconfig: extracting linux-source-$v" >&2
			if nice tar -C "$tmp" -xJf "/usr/src/linux-source-$v.tar.xz" &&
			   mv "$tmp/linux-source-$v" "$dst"; then
				:
			else
				echo "kernel-tinyconfig: extracting linux-source-$v failed" >&2
			fi
			rm -rf "$tmp" "$dst.lock"
			[ -d "$dst" ] || return 1
		else
			i=$((i + 1))
			[ $i -gt 3000 ] && return 1
			sleep 0.2
		fi
	done
	echo "$dst"
}

src61=$(extract 6.1) || { err "cannot extract linux-source-6.1"; exit 1; }
src612=$(extract 6.12) || { err "cannot extract linux-source-6.12"; exit 1; }
bom=$src612/scripts/bloat-o-meter
rm -rf "$work"
mkdir -p "$work"

now() { date +%s%N; }

# Stderr of a good run holds only progress lines.
only_progress() { # stderr file
	if grep -v '^slubtiny: kernel: \[[0-9]*/[0-9]*\] ' "$1" | grep -q .; then
		err "unexpected stderr:"
		cat "$1"
	fi
}

# run NAME SRC ARGS...: slubtiny kernel --json into $work/NAME.json, timed.
run() {
	name=$1 src=$2
	shift 2
	t0=$(now)
	nice "$SLUBTINY" kernel --srctree "$src" --defconfig tinyconfig --arch x86_64 -j2 \
		--builddir "$kdir" --json "$@" >"$work/$name.out" 2>"$work/$name.err"
	st=$?
	ms=$((($(now) - t0) / 1000000))
	echo "kernel-tinyconfig: $name: exit $st in $ms ms" >&2
	[ $st = 0 ] || { err "$name: exit status $st"; cat "$work/$name.err"; }
	only_progress "$work/$name.err"
}

# size's text, data and bss summed over the members of an archive.
size_sum() {
	size "$1" | awk 'NR > 1 { t += $1; d += $2; b += $3 } END { print t, d, b, t + d + b }'
}

# Every cell of $work/NAME.json against size, bloat-o-meter and .config.
check_numbers() { # name, expected variants (space-separated), tree
	name=$1 want=$2 tree=$3 j=$work/$1.out
	got=$(jq -r '.variants | join(" ")' "$j")
	[ "$got" = "$want" ] || err "$name: variants '$got', the tree offers '$want'"
	[ "$(jq -r .tree "$j")" = "$tree" ] || err "$name: tree $(jq -r .tree "$j"), want $tree"
	[ "$(jq '.skipped | length' "$j")" = 0 ] || err "$name: skipped: $(jq -c .skipped "$j")"
	[ "$(jq '.results | length' "$j")" = "$(echo $want | wc -w)" ] ||
		err "$name: $(jq '.results | length' "$j") results"
	base=$(jq -r '.results[] | select(.variant == "slub") | .object' "$j")
	for v in $want; do
		obj=$(jq -r --arg v "$v" '.results[] | select(.variant == $v) | .object' "$j")
		dir=$(dirname "$obj")
		[ -f "$obj" ] || { err "$name $v: no object $obj"; continue; }
		case $v in
		slub | slub_tiny) alloc=mm/slub.o ;;
		*) alloc=mm/$v.o ;;
		esac
		members=$(ar t "$obj" | sed "s|^$dir/||" | sort | tr '\n' ' ')
		[ "$members" = "$(printf '%s\n' mm/slab_common.o $alloc | sort | tr '\n' ' ')" ] ||
			err "$name $v: archive members '$members'"
		# GNU size on the same objects.
		ref=$(size_sum "$obj")
		mine=$(jq -r --arg v "$v" '.results[] | select(.variant == $v) |
			"\(.text) \(.data) \(.bss) \(.total)"' "$j")
		[ "$ref" = "$mine" ] || err "$name $v: text data bss total: size $ref, slubtiny $mine"
		# The allocator the kernel's make resolved.
		cfg=$(grep -E '^CONFIG_SL[AOU]B[A-Z0-9_]*=' "$dir/.config" | sed 's/^CONFIG_//' |
			tr '\n' ' ' | sed 's/ $//')
		res=$(jq -r --arg v "$v" '.results[] | select(.variant == $v) | .resolved' "$j")
		[ "$cfg" = "$res" ] || err "$name $v: resolved '$res', .config has '$cfg'"
		case $v in
		slub) want_cfg='CONFIG_SLUB=y' bad='CONFIG_SLUB_TINY=y' ;;
		slub_tiny) want_cfg='CONFIG_SLUB_TINY=y' bad='CONFIG_SLAB=y' ;;
		slab) want_cfg='CONFIG_SLAB=y' bad='CONFIG_SLUB=y' ;;
		slob) want_cfg='CONFIG_SLOB=y' bad='CONFIG_SLUB=y' ;;
		esac
		grep -qx "$want_cfg" "$dir/.config" || err "$name $v: .config lacks $want_cfg"
		! grep -qx "$bad" "$dir/.config" || err "$name $v: .config has $bad"
		[ "$v" = slub ] && continue
		# bloat-o-meter 6.12 on the same two archives.
		python3 "$bom" "$base" "$obj" >"$work/$name-$v.bom" 2>"$work/$name-$v.bom.err" ||
			{ err "$name $v: bloat-o-meter failed"; cat "$work/$name-$v.bom.err"; continue; }
		ref=$(awk 'NR == 1 { gsub(/[\/()]/, " "); print $3, $4, $7, $8, $11, $12, $13 }
			/^Total: / { gsub(/[=,]/, " "); print $3, $5 }' "$work/$name-$v.bom" |
			tr '\n' ' ')
		ref="$ref$(awk 'NR > 2 && !/^Total: /' "$work/$name-$v.bom" | wc -l)"
		mine=$(jq -r --arg v "$v" '.results[] | select(.variant == $v) | .size_diff |
			"\(.add) \(.remove) \(.grow) \(.shrink) \(.up) \(.down) \(.up + .down) \(.old_total) \(.new_total) \(.symbols_changed)"' "$j")
		[ "$ref" = "$mine" ] ||
			err "$name $v: diff summary: bloat-o-meter '$ref', slubtiny '$mine'"
		jq -r --arg v "$v" '.results[] | select(.variant == $v) | .size_diff.top[] |
			"\(.name) \(.old // "-") \(.new // "-") \(.delta)"' "$j" >"$work/$name-$v.top"
		awk 'NR > 2 && !/^Total: / { d = $4; if (d > 0) d = substr(d, 2); print $1, $2, $3, d }' \
			"$work/$name-$v.bom" >"$work/$name-$v.bomrows"
		while read -r row; do
			grep -qxF "$row" "$work/$name-$v.bomrows" ||
				err "$name $v: row '$row' is not in bloat-o-meter's output"
		done <"$work/$name-$v.top"
		[ -s "$work/$name-$v.top" ] || err "$name $v: no symbol rows"
		# size-diff on the same files prints what bloat-o-meter prints.
		"$SLUBTINY" size-diff "$base" "$obj" >"$work/$name-$v.sd" 2>"$work/$name-$v.sd.err"
		[ $? -le 1 ] && [ ! -s "$work/$name-$v.sd.err" ] || err "$name $v: size-diff failed"
		cmp -s "$work/$name-$v.sd" "$work/$name-$v.bom" ||
			err "$name $v: size-diff differs from bloat-o-meter"
	done
}

run 6.1 "$src61"
check_numbers 6.1 "slub slab slob" "linux-$(sed -n 's/^VERSION = //p' "$src61/Makefile").$(sed -n 's/^PATCHLEVEL = //p' "$src61/Makefile").$(sed -n 's/^SUBLEVEL = //p' "$src61/Makefile")"
run 6.12 "$src612"
check_numbers 6.12 "slub slub_tiny" "linux-$(sed -n 's/^VERSION = //p' "$src612/Makefile").$(sed -n 's/^PATCHLEVEL = //p' "$src612/Makefile").$(sed -n 's/^SUBLEVEL = //p' "$src612/Makefile")"

# SLUB -> SLUB_TINY on mm/slub.o alone, 6.12 tinyconfig x86_64: the cover
# letter of the SLUB_TINY series measured about -41% with bloat-o-meter.
d=$(dirname "$(jq -r '.results[] | select(.variant == "slub") | .object' "$work/6.12.out")")
dt=$(dirname "$(jq -r '.results[] | select(.variant == "slub_tiny") | .object' "$work/6.12.out")")
chg=$(python3 "$bom" "$d/mm/slub.o" "$dt/mm/slub.o" | sed -n 's/^Total: .*chg \(.*\)%$/\1/p')
echo "kernel-tinyconfig: 6.12 mm/slub.o SLUB -> SLUB_TINY: bloat-o-meter chg $chg%" >&2
awk -v c="$chg" 'BEGIN { exit !(c != "" && c <= -41 && c >= -43.5) }' ||
	err "mm/slub.o SLUB -> SLUB_TINY: chg '$chg%', expected about -41% to -43%"

# Nothing changed: the second run hits the cache, prints the same, < 1 s.
for v in 6.1 6.12; do
	eval src=\$src$(echo $v | tr -d .)
	run "$v-again" "$src"
	cmp -s "$work/$v.out" "$work/$v-again.out" || err "$v: second run prints other JSON"
	[ "$ms" -lt 1000 ] || err "$v: second run took $ms ms (cache missed?)"
	n=$(grep -c ': cached (' "$work/$v-again.err")
	[ "$n" = "$(jq '.results | length' "$work/$v.out")" ] || err "$v: $n items cached"
done

# Sharded (2) and merged equals the unsharded run byte for byte, in JSON
# and in text.
run 6.1-s1 "$src61" --shard 1/2
run 6.1-s2 "$src61" --shard 2/2
"$SLUBTINY" report --merge "$work/6.1-s2.out" "$work/6.1-s1.out" --json >"$work/merged.json" 2>"$work/merged.err"
[ $? = 0 ] && [ ! -s "$work/merged.err" ] || { err "report --merge failed"; cat "$work/merged.err"; }
cmp -s "$work/6.1.out" "$work/merged.json" || err "sharded + merged JSON differs from unsharded"
"$SLUBTINY" kernel --srctree "$src61" --defconfig tinyconfig --arch x86_64 --builddir "$kdir" \
	>"$work/6.1.txt" 2>/dev/null || err "text run failed"
"$SLUBTINY" report --merge "$work/6.1-s1.out" "$work/6.1-s2.out" >"$work/merged.txt" 2>"$work/merged.err"
[ $? = 0 ] && [ ! -s "$work/merged.err" ] || err "report --merge (text) failed"
cmp -s "$work/6.1.txt" "$work/merged.txt" || err "sharded + merged text differs from unsharded"
# A missing shard is an error, not a partial report.
"$SLUBTINY" report --merge "$work/6.1-s1.out" >/dev/null 2>"$work/merged.err"
[ $? = 2 ] && grep -q 'shard is missing' "$work/merged.err" || err "one shard merged without error"

# A variant the tree does not offer: one error, exit 2, nothing built.
"$SLUBTINY" kernel --srctree "$src612" --defconfig tinyconfig --arch x86_64 \
	--variant slob --builddir "$kdir" >"$work/slob.out" 2>"$work/slob.err"
st=$?
[ $st = 2 ] || err "variant slob on 6.12: exit $st, want 2"
grep -q "does not offer variant 'slob'" "$work/slob.err" || { err "slob on 6.12: message"; cat "$work/slob.err"; }
[ ! -s "$work/slob.out" ] || err "slob on 6.12: output on stdout"

# A variant whose build fails (a config target the tree does not have)
# names tree, arch and variant with make's log, every variant is reported,
# exit 2.
"$SLUBTINY" kernel --srctree "$src612" --defconfig no_such_defconfig --arch x86_64 -j2 \
	--builddir "$cache/kernel-fail" --json >"$work/fail.out" 2>"$work/fail.err"
st=$?
[ $st = 2 ] || err "failing build: exit $st, want 2"
for v in slub slub_tiny; do
	grep -q "^slubtiny: linux-6\.12\.[0-9]*/x86_64/$v: make no_such_defconfig failed" "$work/fail.err" ||
		err "failing build: no error for $v"
done
grep -q "make log" "$work/fail.err" || err "failing build: no make log tail"
[ "$(jq '[.skipped[] | select(.variant)] | length' "$work/fail.out")" = 2 ] ||
	err "failing build: JSON lacks the failed variants"
for s in "$src61" "$src612"; do
	[ ! -e "$s/.config" ] && [ ! -e "$s/include/config" ] && [ ! -e "$s/mm/slub.o" ] ||
		err "$s: written into the source tree"
done

[ $fail = 0 ] && echo "kernel-tinyconfig: ok"
exit $fail
