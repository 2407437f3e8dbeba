# SPDX-License-Identifier: GPL-2.0-only
# Sourced: $tree is the Kconfig part of Debian's linux-source-6.12, extracted
# once per build directory (the place, lock and marker of check-tree.sh, so
# the tests share one extraction). Exits 77 when the tarball or a tool is
# missing; call it before running anything under test.
tb=/usr/src/linux-source-6.12.tar.xz
[ -r "$tb" ] || { echo "skip: $tb not installed"; exit 77; }
for p in xz tar flock; do
	command -v $p >/dev/null || { echo "skip: $p missing"; exit 77; }
done
top=$ST_BUILDDIR/check-tree
tree=$top/linux-source-6.12
mkdir -p "$top"
(
	flock 9
	if [ ! -f "$tree/.done" ]; then
		rm -rf "$tree"
		xz -T1 -dc "$tb" | tar -x -C "$top" --wildcards '*Kconfig*' '*Makefile*' \
			'*Kbuild*' '*.config' 'linux-source-6.12/scripts/*' \
			'linux-source-6.12/arch/*/configs/*' 'linux-source-6.12/arch/*/tools/*' \
			2>/dev/null
		[ -f "$tree/Kconfig" ] && : >"$tree/.done"
	fi
) 9>"$top/.lock"
[ -f "$tree/.done" ] || { echo "FAIL: cannot extract $tb"; exit 1; }
