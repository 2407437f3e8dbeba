#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The kconfig differential can fail: conf-diff.sh's quick set, run with
# broken versions of KC_TOOL, must exit 1 each time - one that writes no
# config for one file (the others right), one that ends with a
# LeakSanitizer report and status 23, one that writes nothing and exits 0.
#
#   can-fail.sh KC_TOOL
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib.sh"
kc_tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -r /usr/src/linux-source-6.12.tar.xz ] || { echo "skip: linux-source-6.12 missing"; exit 77; }
st_tmpdir w

cat >"$w/drop" <<EOF
#!/bin/sh
"$kc_tool" "\$@"; st=\$?
while [ \$# -gt 0 ]; do [ "\$1" = --config-dir ] && dir=\$2; shift; done
rm -f "\$dir/arch%sh%configs%shmin_defconfig.config"
exit \$st
EOF
cat >"$w/leak" <<EOF
#!/bin/sh
"$kc_tool" "\$@"
echo '==1==ERROR: LeakSanitizer: detected memory leaks' >&2
exit 23
EOF
printf '#!/bin/sh\nexit 0\n' >"$w/nothing"
chmod +x "$w/drop" "$w/leak" "$w/nothing"

for k in drop leak nothing; do
	sh "$here/conf-diff.sh" "$w/$k" 6.12 quick >"$w/out" 2>&1
	st=$?
	echo "$k: exit $st: $(tail -1 "$w/out")"
	[ $st = 1 ] || { echo "FAIL: conf-diff passed with the '$k' kc-tool"; cat "$w/out"; fail=1; }
done
# (kconfig-conf-quick runs the same set with the real kc-tool)
exit $fail
