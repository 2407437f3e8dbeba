#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Suppression comments: a comment that means to name rules either names
# them or is a bad-suppression warning naming what was written. It never
# silently turns into "ignore every rule". Rule ids and directives are
# lower case; other spellings are named as written in the warning.
set -u
. "$(dirname "$0")/../../lib.sh"
: "${SLUBTINY:?}"
st_tmpdir t
cd "$t" || exit 1

slob="x_defconfig:2:1: warning: CONFIG_SLOB=y: SLOB was removed in Linux 6.4; newer kernels ignore this line and build SLUB [removed-allocator]"
tail="slubtiny: check: checked 1 kernel config, ARCH=x86 (from \$ARCH)"

# case STATUS COMMENT BAD: BAD is the bad-suppression reason or "-" for
# none; the SLOB line is reported unless the comment silences it (status 0).
case_() {
	want=$1 comment=$2 why=$3
	printf '# slubtiny: %s\nCONFIG_SLOB=y\n' "$comment" >x_defconfig
	ARCH=x86 "$SLUBTINY" check --no-config x_defconfig >out 2>err
	got=$?
	[ "$got" = "$want" ] || { echo "FAIL: '$comment': exit $got, want $want"; cat err; fail=1; }
	if [ "$why" != - ]; then
		grep -qxF "x_defconfig:1:1: warning: suppression comment ignored: $why [bad-suppression]" err ||
			{ echo "FAIL: '$comment': no bad-suppression '$why':"; cat err; fail=1; }
	elif grep -q bad-suppression err; then
		echo "FAIL: '$comment': unexpected bad-suppression:"; cat err; fail=1
	fi
	if [ "$want" = 0 ]; then
		grep -qF "[removed-allocator]" err &&
			{ echo "FAIL: '$comment': SLOB not silenced:"; cat err; fail=1; }
	else
		grep -qxF "$slob" err || { echo "FAIL: '$comment': SLOB not reported:"; cat err; fail=1; }
	fi
	[ "$(tail -n 1 err)" = "$tail" ] || { echo "FAIL: '$comment': last line:"; cat err; fail=1; }
}

# a blank before the list: the list still names the rules
case_ 1 'ignore [hardening-notice]' -
case_ 0 'ignore [removed-allocator]' -
case_ 0 'ignore  [removed-allocator] kept for 6.1' -
case_ 0 'ignore-file [removed-allocator]' -
# the documented forms
case_ 0 'ignore[removed-allocator]' -
case_ 0 'ignore[removed-allocator] kept for 6.1' -
case_ 0 'ignore' -
case_ 0 'ignore kept for 6.1' -
case_ 1 'ignore[hardening-notice]' -
# wrong case: named as written
case_ 1 'ignore[Removed-Allocator]' "unknown rule 'Removed-Allocator'"
case_ 1 'ignore[removed-allocator, Syntax]' "unknown rule 'Syntax'"
case_ 1 'IGNORE[removed-allocator]' "unknown directive 'IGNORE'"
case_ 1 'Ignore-File[removed-allocator]' "unknown directive 'Ignore-File'"
# a directive word that only starts like one
case_ 1 'ignorex[removed-allocator]' "unknown directive 'ignorex'"
case_ 1 'ignore-files[removed-allocator]' "unknown directive 'ignore-files'"
# broken lists
case_ 1 'ignore[]' "empty rule list"
case_ 1 'ignore [removed-allocator' "expected ',' or ']' in the rule list"
case_ 1 'ignore[removed-allocator]x' "expected a blank after ']'"
case_ 1 'ignore:removed-allocator' "expected '[' after the directive"
exit $fail
