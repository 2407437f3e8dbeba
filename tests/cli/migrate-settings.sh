#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# migrate reads check's settings (.slubtiny.json): the kernel tree and each
# file's ARCH come from the same place at both doors, so a file is judged
# for the same ARCH by `check` and by `migrate` (issue 45: --config and
# friends were check's alone, and migrate judged an "arches" board for the
# host). Found, named and refused by the same rules as check's; a "srctree"
# is left out with --untrusted-settings; --srctree and --arch beat them.
set -u
. "$(dirname "$0")/../lib.sh"
: "${SLUBTINY:?}"
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
st_tmpdir t
unset ARCH
host=$("$SLUBTINY" migrate --json --no-config - </dev/null 2>/dev/null |
	jq -r '.files[0].arch // empty')

has() { grep -qxF "$2" "$t/err" || { bad "$1: no line '$2':"; cat "$t/err"; }; }
noerr() { [ ! -s "$t/err" ] || { bad "$1: stderr not empty:"; cat "$t/err"; }; }
# arch_of WHAT JQ_ARCH JQ_FROM: the first file of $t/out's JSON
arch_of() {
	got=$(jq -r '.files[0] | "\(.arch) \(.arch_from) \(.arch_why // "")"' "$t/out")
	[ "$got" = "$2" ] || bad "$1: arch '$got', want '$2'"
}

r=$t/repo
mkdir -p "$r/.git" "$r/boards/arm" "$r/boards/sh" "$r/other"
for d in boards/arm boards/sh other; do
	printf 'CONFIG_SLOB=y\n# CONFIG_EXPERT is not set\n' >"$r/$d/x_defconfig"
done
cat >"$r/.slubtiny.json" <<'EOF'
{ "arch": "riscv",
  "arches": [ { "files": "boards/arm/*", "arch": "arm" },
	      { "files": "boards/sh/*", "arch": "sh" } ] }
EOF

# the "arches" entry, from the top and from below it; "arch" for the rest
cd "$r" || exit 1
st_expect 1 "arches arm" "$SLUBTINY" migrate --json boards/arm/x_defconfig
arch_of "arches arm" "arm .slubtiny.json arches: boards/arm/*"
noerr "arches arm"
cd "$r/boards/sh" || exit 1
st_expect 1 "arches sh, below" "$SLUBTINY" migrate --json x_defconfig
arch_of "arches sh, below" "sh .slubtiny.json arches: boards/sh/*"
cd "$r" || exit 1
st_expect 1 "arch" "$SLUBTINY" migrate --json other/x_defconfig
arch_of "arch" "riscv .slubtiny.json "

# the same decision as check's, file by file, over a walk
st_expect 1 "check" "$SLUBTINY" check --json .
jq -r '.files[] | "\(.file) \(.arch) \(.arch_why // "")"' "$t/out" | sort >"$t/check"
st_expect 1 "migrate --check" "$SLUBTINY" migrate --check --json .
jq -r '.files[] | "\(.path) \(.arch) \(.arch_why // "")"' "$t/out" | sort >"$t/migrate"
[ "$(wc -l <"$t/check")" = 3 ] || { bad "check judged not 3 files:"; cat "$t/check"; }
cmp -s "$t/check" "$t/migrate" ||
	{ bad "check and migrate decide ARCH differently:"; diff "$t/check" "$t/migrate"; }

# the command line wins; --no-config reads nothing, -v says so
st_expect 1 "--arch" "$SLUBTINY" migrate --json --arch mips boards/arm/x_defconfig
arch_of "--arch" "mips --arch "
st_expect 1 "--no-config" "$SLUBTINY" migrate --json --no-config -v other/x_defconfig
arch_of "--no-config" "$host host "
has "--no-config" "slubtiny: migrate: settings: none (--no-config)"
st_expect 1 "-v names it" "$SLUBTINY" migrate -v boards/arm/x_defconfig
has "-v names it" "slubtiny: migrate: settings: .slubtiny.json"
has "-v names it" "slubtiny: migrate: checked 1 kernel config, ARCH=arm (from .slubtiny.json: arches: boards/arm/*)"

# --config FILE instead of the search
printf '{ "arch": "sh" }\n' >"$t/s.json"
st_expect 1 "--config" "$SLUBTINY" migrate --json --config "$t/s.json" boards/arm/x_defconfig
arch_of "--config" "sh .slubtiny.json "

# "srctree": taken (a missing tree is exit 2 naming it), or left out with a
# note under --untrusted-settings or SLUBTINY_UNTRUSTED_SETTINGS
printf '{ "srctree": "no-such-tree" }\n' >"$t/s.json"
st_expect 2 "srctree" "$SLUBTINY" migrate --config "$t/s.json" other/x_defconfig
grep -q "no-such-tree" "$t/err" || { bad "srctree: the tree is not named:"; cat "$t/err"; }
st_expect 1 "--untrusted-settings" "$SLUBTINY" migrate --untrusted-settings \
	--config "$t/s.json" other/x_defconfig
has "--untrusted-settings" "slubtiny: migrate: $t/s.json: \"srctree\" not used (untrusted settings); give --srctree DIR"
st_expect 1 "SLUBTINY_UNTRUSTED_SETTINGS" env SLUBTINY_UNTRUSTED_SETTINGS=1 \
	"$SLUBTINY" migrate --config "$t/s.json" other/x_defconfig
has "SLUBTINY_UNTRUSTED_SETTINGS" "slubtiny: migrate: $t/s.json: \"srctree\" not used (untrusted settings); give --srctree DIR"
st_expect 2 "--srctree wins" "$SLUBTINY" migrate --srctree "$t/other-tree" \
	--config "$t/s.json" other/x_defconfig
grep -q "other-tree" "$t/err" || { bad "--srctree wins: not named:"; cat "$t/err"; }

# a settings file everyone may write to is not read; a bad one is one error
w=$t/ww
mkdir -p "$w/work"
cp "$r/other/x_defconfig" "$w/work/"
printf '{ "arch": "sh" }\n' >"$w/.slubtiny.json"
chmod 0777 "$w"
cd "$w/work" || exit 1
st_expect 1 "world-writable" "$SLUBTINY" migrate --json x_defconfig
has "world-writable" "slubtiny: migrate: settings: none ($w/.slubtiny.json not read: its directory is writable by everyone; name it with --config to use it)"
arch_of "world-writable" "$host host "
printf '{ "arch": "blackfin" }\n' >"$t/s.json"
st_expect 2 "invalid" "$SLUBTINY" migrate --config "$t/s.json" x_defconfig
[ "$(cat "$t/err")" = "slubtiny: migrate: $t/s.json: \"arch\": unknown arch 'blackfin'" ] ||
	{ bad "invalid: not one line naming the file:"; cat "$t/err"; }
[ ! -s "$t/out" ] || { bad "invalid: stdout not empty"; cat "$t/out"; }
cmp -s x_defconfig "$r/other/x_defconfig" || bad "invalid: the file changed"
exit $fail
