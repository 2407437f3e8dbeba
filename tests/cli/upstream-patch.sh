#!/bin/sh
# Print the defconfig hunks of the upstream v6.2 commit "mm, slob: rename
# CONFIG_SLOB to CONFIG_SLOB_DEPRECATED", taken from the series kept in
# shared/seeds beside the project root (it is not copied into this tree).
# Exit 77 (skip) when it is not there.
seed=$ST_SRCDIR/../shared/seeds/010-patch-mm-slob-rename-config-slob-to-config-slob-deprecated.patch
[ -r "$seed" ] || { echo "skip: $seed missing" >&2; exit 77; }
awk '/^diff --git/ { on = ($3 !~ /^a\/mm\//) } /^-- $/ { on = 0 } on' "$seed"
