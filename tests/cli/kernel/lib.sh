# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the `slubtiny kernel` test and benchmark. Needs $ST_SRCDIR,
# $ST_BUILDDIR, $SLUBTINY, and sets: cache, fail, work (the caller's).
cache=$ST_SRCDIR/build-cache
. "$ST_SRCDIR/tests/lib.sh"
# bad() under the name these tests use
err() { bad "$@"; }

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
			echo "kernel: extracting linux-source-$v" >&2
			if nice tar -C "$tmp" -xJf "/usr/src/linux-source-$v.tar.xz" &&
			   mv "$tmp/linux-source-$v" "$dst"; then
				:
			else
				echo "kernel: extracting linux-source-$v failed" >&2
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

now() { date +%s%N; }

# The recorded boot measurement's recipe (fixtures/boot-record/README) as
# footprint --boot options: boot-tinyconfig boots its images, sizes-vmlinux
# reads them, so both must ask for the same ones.
record_dir=$ST_SRCDIR/fixtures/boot-record
record_612="--config $record_dir/common.config --config $record_dir/base-small-6.12.config --config $record_dir/no-slub-debug.config"
record_61="--config $record_dir/common.config"

# Skip (77) unless both Debian kernel tarballs and every tool are here;
# then extract the trees into $src61 and $src612.
need_trees() { # tools...
	for t in /usr/src/linux-source-6.1.tar.xz /usr/src/linux-source-6.12.tar.xz; do
		[ -r "$t" ] || { echo "SKIP: $t missing (apt-get install ${t##*/} without .tar.xz)"; exit 77; }
	done
	for p; do
		command -v "$p" >/dev/null || { echo "SKIP: $p not installed"; exit 77; }
	done
	src61=$(extract 6.1) || { err "cannot extract linux-source-6.1"; exit 1; }
	src612=$(extract 6.12) || { err "cannot extract linux-source-6.12"; exit 1; }
}

# Stderr of a good run holds only progress lines of COMMAND (default kernel)
# and the line naming each arch's compiler.
only_progress() { # stderr-file [command]
	if grep -v "^slubtiny: ${2:-kernel}: \[[0-9]*/[0-9]*\] " "$1" |
	   grep -v "^slubtiny: ${2:-kernel}\( boot\)\?: [a-z0-9_]*: using .* (.*)$" | grep -q .; then
		err "unexpected stderr in ${1##*/}:"
		cat "$1"
	fi
}

# run NAME SRC ARGS...: slubtiny kernel --json into $work/NAME.out, timed ($ms).
run() {
	name=$1 src=$2
	shift 2
	t0=$(now)
	nice "$SLUBTINY" kernel --srctree "$src" -j2 --json "$@" \
		>"$work/$name.out" 2>"$work/$name.err"
	st=$?
	ms=$((($(now) - t0) / 1000000))
	echo "kernel: $name: exit $st in $ms ms" >&2
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


# "linux-6.12.57" of a tree, as slubtiny names it.
tree_name() {
	echo "linux-$(sed -n 's/^VERSION = //p' "$1/Makefile").$(sed -n 's/^PATCHLEVEL = //p' "$1/Makefile").$(sed -n 's/^SUBLEVEL = //p' "$1/Makefile")"
}
