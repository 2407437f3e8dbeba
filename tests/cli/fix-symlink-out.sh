#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A committed symlink must not make `check --fix DIR` or `migrate --in-place
# DIR` write outside DIR: a defconfig found by the walk that resolves to a
# file outside the walked directory is named, not written, and the run
# exits 2 after doing the other files. A link inside the tree is written
# through; a file named on the command line is still followed (with a note).
set -u
. "$(dirname "$0")/../lib.sh"
: "${SLUBTINY:?}"
st_tmpdir t
cd "$t" || exit 1
mkdir -p repo/arch/arm/configs repo/boards elsewhere
printf 'CONFIG_SLOB=y\nCONFIG_PRINTK=y\n' >slob
# the file outside the repository a pull request points at
cp slob elsewhere/victim_defconfig
cp slob elsewhere/orig
# fresh: the repository's files, before each run
fresh() {
	rm -f repo/arch/arm/configs/* repo/boards/*
	ln -s ../../../../elsewhere/victim_defconfig repo/arch/arm/configs/foo_defconfig
	cp slob repo/boards/bar_board			# not a name the walk takes
	ln -s ../../../boards/bar_board repo/arch/arm/configs/bar_defconfig
	cp slob repo/arch/arm/configs/plain_defconfig
}

# expect WHAT EXIT: the outside file untouched, the link named on stderr,
# the in-tree link's target and the plain file migrated
expect() {
	what=$1 want=$2
	[ "$st" = "$want" ] || { bad "$what: exit $st, want $want"; cat err; }
	cmp -s elsewhere/orig elsewhere/victim_defconfig ||
		{ bad "$what: the file outside the tree was rewritten:"; cat elsewhere/victim_defconfig; }
	grep -q "repo/arch/arm/configs/foo_defconfig: .*outside" err ||
		{ bad "$what: stderr does not name the link leaving the tree"; cat err; }
	grep -q SLOB repo/boards/bar_board &&
		{ bad "$what: the link inside the tree was not written through"; cat err; }
	[ -L repo/arch/arm/configs/bar_defconfig ] ||
		bad "$what: the in-tree link is no longer a link"
	grep -q SLOB repo/arch/arm/configs/plain_defconfig &&
		{ bad "$what: the other files were not done"; cat err; }
	ls -a elsewhere | grep -q '^\.victim' && bad "$what: temp file left outside"
}

fresh
"$SLUBTINY" check --no-config --fix repo >out 2>err
st=$?
expect "check --fix DIR" 2

fresh
"$SLUBTINY" migrate --no-verify --in-place repo >out 2>err
st=$?
expect "migrate --in-place DIR" 2

# a walk from inside the tree, as CI runs it: `check --fix .`
fresh
(cd repo && "$SLUBTINY" check --no-config --fix . >../out 2>../err)
st=$?
[ "$st" = 2 ] || { bad "check --fix .: exit $st, want 2"; cat err; }
cmp -s elsewhere/orig elsewhere/victim_defconfig || bad "check --fix .: outside file rewritten"
grep -q "arch/arm/configs/foo_defconfig: .*outside" err ||
	{ bad "check --fix .: the link not named"; cat err; }

# JSON: the file's entry is an error
fresh
"$SLUBTINY" migrate --no-verify --in-place --json repo >out 2>err
st=$?
[ "$st" = 2 ] || bad "migrate --in-place --json DIR: exit $st, want 2"
cmp -s elsewhere/orig elsewhere/victim_defconfig || bad "migrate --json: outside file rewritten"
grep -q '"error": *".*outside' out || { bad "migrate --json: no error entry for the link"; cat out; }

# named on the command line: followed, with a note (as before)
fresh
"$SLUBTINY" migrate --no-verify --in-place repo/arch/arm/configs/foo_defconfig >out 2>err
st=$?
[ "$st" = 0 ] || { bad "migrate --in-place LINK: exit $st, want 0"; cat err; }
grep -q "foo_defconfig: note: a symlink to ../../../../elsewhere/victim_defconfig; following it" err ||
	{ bad "migrate --in-place LINK: no note"; cat err; }
grep -q SLOB elsewhere/victim_defconfig && bad "migrate --in-place LINK: not written through"
cp elsewhere/orig elsewhere/victim_defconfig
"$SLUBTINY" check --no-config --fix repo/arch/arm/configs/foo_defconfig >out 2>err
st=$?
[ "$st" = 0 ] || { bad "check --fix LINK: exit $st, want 0"; cat err; }
grep -q "foo_defconfig: note: a symlink to ../../../../elsewhere/victim_defconfig; following it" err ||
	{ bad "check --fix LINK: no note"; cat err; }
grep -q SLOB elsewhere/victim_defconfig && bad "check --fix LINK: not written through"
exit $fail
