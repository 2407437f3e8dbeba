#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Where check takes its settings from, and what it accepts in them.
# Discovery is like git's: the current directory and its parents up to the
# top of the repository, $HOME or a file system boundary; a .slubtiny.json
# in a directory that another user owns or everyone may write to (/tmp) is
# not read unless named with --config, so nobody can silence a finding by
# planting one (a note says it was not read). -v says which file was used. A settings file with content
# after its object, or an "arch" that is no arch, is an error naming it.
set -u
. "$(dirname "$0")/../../lib.sh"
: "${SLUBTINY:?}"
st_tmpdir t
export ARCH=x86
silence='{ "ignore": ["removed-allocator"] }'

# run DIR STATUS WHAT ARGS...: check in DIR, want STATUS
run() {
	dir=$1 want=$2 what=$3; shift 3
	(cd "$dir" && "$SLUBTINY" check "$@" >"$t/out" 2>"$t/err")
	got=$?
	[ "$got" = "$want" ] || { bad "$what: exit $got, want $want"; cat "$t/err"; }
}
has() { grep -qxF "$2" "$t/err" || { bad "$1: no line '$2':"; cat "$t/err"; }; }
planted() { # DIR: a config below DIR, with DIR holding the settings
	mkdir -p "$1/work"
	printf 'CONFIG_SLOB=y\n' >"$1/work/a_defconfig"
	printf '%s\n' "$silence" >"$1/.slubtiny.json"
}

# a world-writable directory, with and without the sticky bit
for mode in 1777 0777; do
	d=$t/ww$mode
	planted "$d"
	chmod "$mode" "$d"
	run "$d/work" 1 "world-writable $mode" a_defconfig
	has "world-writable $mode" "slubtiny: check: settings: none ($d/.slubtiny.json not read: its directory is writable by everyone; name it with --config to use it)"
	run "$d/work" 1 "world-writable $mode -v" -v a_defconfig
	has "world-writable $mode -v" "slubtiny: check: settings: none ($d/.slubtiny.json not read: its directory is writable by everyone; name it with --config to use it)"
	run "$d/work" 0 "world-writable $mode --config" --config ../.slubtiny.json a_defconfig
done

# another user's directory, another user's file (only root can make them)
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	d=$t/other
	planted "$d"
	chown nobody "$d"
	run "$d/work" 1 "other user's directory" a_defconfig
	has "other user's directory" "slubtiny: check: settings: none ($d/.slubtiny.json not read: its directory belongs to another user; name it with --config to use it)"
	run "$d/work" 1 "other user's directory -v" -v a_defconfig
	has "other user's directory -v" "slubtiny: check: settings: none ($d/.slubtiny.json not read: its directory belongs to another user; name it with --config to use it)"
	d=$t/otherfile
	planted "$d"
	chown nobody "$d/.slubtiny.json"
	run "$d/work" 1 "other user's file -v" -v a_defconfig
	has "other user's file -v" "slubtiny: check: settings: none ($d/.slubtiny.json not read: it belongs to another user; name it with --config to use it)"
else
	echo "note: not root, the other-user cases are left out"
fi

# in a repository: its own file is used, from a subdirectory too; -v names it
d=$t/repo
planted "$d"
mkdir "$d/.git"
run "$d" 0 "repository" work/a_defconfig
run "$d" 0 "repository -v" -v work/a_defconfig
has "repository -v" "slubtiny: check: settings: .slubtiny.json"
run "$d/work" 0 "repository subdirectory -v" -v a_defconfig
has "repository subdirectory -v" "slubtiny: check: settings: ../.slubtiny.json"
run "$d/work" 1 "--no-config -v" -v --no-config a_defconfig
has "--no-config -v" "slubtiny: check: settings: none (--no-config)"
# nothing above the top of the repository is read
mkdir -p "$d/sub/.git"
printf 'CONFIG_SLOB=y\n' >"$d/sub/a_defconfig"
run "$d/sub" 1 "above the repository -v" -v a_defconfig
has "above the repository -v" "slubtiny: check: settings: none (no .slubtiny.json found)"
# nor above $HOME
d=$t/abovehome
planted "$d"
mkdir "$d/work/home"
cp "$d/work/a_defconfig" "$d/work/home/"
(HOME=$d/work/home; export HOME; run "$d/work/home" 1 "above \$HOME" -v a_defconfig)
has "above \$HOME" "slubtiny: check: settings: none (no .slubtiny.json found)"
# a plain directory of our own still finds it in a parent
run "$d/work" 0 "parent directory -v" -v a_defconfig
has "parent directory -v" "slubtiny: check: settings: ../.slubtiny.json"

# "srctree" from the settings runs that tree's Kconfig ($(shell,...)):
# --untrusted-settings and SLUBTINY_UNTRUSTED_SETTINGS leave it out, with a
# note; a missing tree shows whether it was taken (exit 2) or not (1)
d=$t/untrusted
planted "$d"
mkdir "$d/.git"
printf '{ "srctree": "no-such-tree" }\n' >"$d/.slubtiny.json"
run "$d/work" 2 "srctree from settings" a_defconfig
run "$d/work" 1 "--untrusted-settings" --untrusted-settings a_defconfig
has "--untrusted-settings" "slubtiny: check: ../.slubtiny.json: \"srctree\" not used (untrusted settings); give --srctree DIR"
(SLUBTINY_UNTRUSTED_SETTINGS=1; export SLUBTINY_UNTRUSTED_SETTINGS
 run "$d/work" 1 "SLUBTINY_UNTRUSTED_SETTINGS=1" a_defconfig)
has "SLUBTINY_UNTRUSTED_SETTINGS=1" "slubtiny: check: ../.slubtiny.json: \"srctree\" not used (untrusted settings); give --srctree DIR"
(SLUBTINY_UNTRUSTED_SETTINGS=0; export SLUBTINY_UNTRUSTED_SETTINGS
 run "$d/work" 2 "SLUBTINY_UNTRUSTED_SETTINGS=0" a_defconfig)

# validation: one error naming the file, exit 2
d=$t/valid
mkdir "$d"
printf 'CONFIG_SLOB=y\n' >"$d/a_defconfig"
invalid() { # WHAT JSON MESSAGE
	printf '%s' "$2" >"$d/s.json"
	run "$d" 2 "$1" --config s.json a_defconfig
	[ "$(cat "$t/err")" = "slubtiny: check: s.json: $3" ] ||
		{ bad "$1: stderr is not 's.json: $3':"; cat "$t/err"; }
	[ -s "$t/out" ] && { bad "$1: stdout not empty"; cat "$t/out"; }
}
invalid "two objects" "$silence
{ \"select\": [\"syntax\"] }
" "trailing content after the JSON object (line 2)"
invalid "trailing garbage" '{} x' "trailing content after the JSON object (line 1)"
invalid "arch with a path" '{ "arch": "../../tmp/x" }' "\"arch\": unknown arch '../../tmp/x'"
invalid "arch unknown" '{ "arch": "blackfin" }' "\"arch\": unknown arch 'blackfin'"
invalid "arches with a path" '{ "arches": [ { "files": "*", "arch": "../x" } ] }' \
	"\"arches\": unknown arch '../x' for \"*\""
# trailing blanks are fine
printf '%s\n\n  \n' "$silence" >"$d/s.json"
run "$d" 0 "trailing blanks" --config s.json a_defconfig
exit $fail
