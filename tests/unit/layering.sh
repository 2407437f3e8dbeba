#!/bin/sh
# The #include lines of lib/ against the layering table of lib/meson.build
# (given here as MODULE:USES,... arguments): a module includes its own
# headers and those of the modules it lists, never another's; lib/slab and
# all of lib/ include nothing of cli/; every module directory is in the
# table. The link side of the same rule is each module's -closed program.
#
#   layering.sh SRCDIR MODULE:USES...
set -u
src=$1
shift
fail=0

bad() {
	echo "layering: $*" >&2
	fail=1
}

[ -d "$src/lib" ] || { echo "layering: no $src/lib" >&2; exit 2; }
[ $# -gt 0 ] || { echo "layering: no table given" >&2; exit 2; }

# "X" for each #include "X/..." of FILE (lib/ headers are named that way).
includes() {
	sed -n 's|^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z_]*\)/.*|\1|p' "$1" | sort -u
}

table=" "
for row in "$@"; do
	table="$table${row%%:*} "
done

for row in "$@"; do
	m=${row%%:*}
	uses=" $(echo "${row#*:}" | tr , ' ') "
	[ -d "$src/lib/$m" ] || { bad "lib/$m: in the table but not in the tree"; continue; }
	for f in "$src/lib/$m"/*.c "$src/lib/$m"/*.h; do
		[ -f "$f" ] || continue
		for x in $(includes "$f"); do
			[ "$x" = "$m" ] && continue
			case $table in
			*" $x "*) ;;
			*) [ "$x" = cli ] && bad "${f#$src/}: includes cli/"
			   continue ;;
			esac
			case $uses in
			*" $x "*) ;;
			*) bad "${f#$src/}: includes $x/, which lib/$m does not list" ;;
			esac
		done
	done
done

# The allocator is measured alone: nothing of the rest of lib/.
for f in "$src"/lib/slab/*.[ch]; do
	for x in $(includes "$f"); do
		bad "${f#$src/}: includes $x/ (lib/slab uses nothing of lib/)"
	done
done

# A module directory outside the table would escape both checks.
for d in "$src"/lib/*/; do
	m=$(basename "$d")
	[ "$m" = slab ] && continue
	case $table in
	*" $m "*) ;;
	*) bad "lib/$m: a module missing from lib/meson.build's table" ;;
	esac
done

[ $fail -eq 0 ] && echo "layering: $# modules, every include is declared"
exit $fail
