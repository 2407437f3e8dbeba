#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Files a build system's layout names (Buildroot's custom config and
# fragments, a Yocto recipe's file:// entries, OpenWrt's generic config)
# are read only inside the tree and its declared external trees: a path
# outside it (absolute, ../.., or a symlink leaving the tree) is named as
# not read, on stderr and in the JSON stack, and no byte of it is shown.
# A part inside the tree, and one in a tree named by $BR2_EXTERNAL, is read.
set -u
. "$(dirname "$0")/../lib.sh"
: "${SLUBTINY:?}"
command -v jq >/dev/null || { echo "SKIP: jq missing"; exit 77; }
st_tmpdir t
cd "$t" || exit 1
unset BR2_EXTERNAL
# what no output may ever hold: lines of a file outside the tree
secret() {
	printf 'root:$6$SECRETHASH0:19000:0:99999:7:::\nCONFIG_SECRET_TOKEN1=y\n'
	printf 'CONFIG_SLOB=y\nCONFIG_LOCALVERSION="SECRET_TOKEN2"\n'
}
secret >secret
secret >secret.cfg
frag='CONFIG_SLOB=y\nCONFIG_PRINTK=y\n'

# no_leak WHAT: nothing of the secret in out/err
no_leak() {
	if grep -q 'SECRET' out err; then
		bad "$1: a line of a file outside the tree was shown:"
		grep 'SECRET' out err
	fi
}
# not_read WHAT PATH: named as not read on stderr
not_read() {
	grep -q "not read.*$2" err || { bad "$1: $2 not named as not read"; cat err; }
}
# json_not_read WHAT PATH [KEY]: in the stack's not_read
json_not_read() {
	jq -e --arg p "$2" "[${3:-.stacks[0]}.not_read[] | select(. == \$p)] | length == 1" out \
		>/dev/null || { bad "$1: JSON not_read lacks $2"; cat out; }
}

# --- Buildroot
mkdir -p br/configs br/board/x ext/board/e
: >br/Config.in
printf "$frag" >br/board/x/linux.fragment
printf 'CONFIG_PRINTK=y\n' >br/board/x/ok.fragment
printf 'CONFIG_PRINTK=y\n' >ext/board/e/e.fragment
: >ext/external.desc
mkdir ext/configs
ln -s ../../../secret br/board/x/link.fragment
cat >br/configs/evil_defconfig <<EOF
BR2_arm=y
BR2_LINUX_KERNEL=y
BR2_LINUX_KERNEL_USE_CUSTOM_CONFIG=y
BR2_LINUX_KERNEL_CUSTOM_CONFIG_FILE="$t/secret"
BR2_LINUX_KERNEL_CONFIG_FRAGMENT_FILES="board/x/ok.fragment ../secret board/x/link.fragment $t/ext/board/e/e.fragment board/x/linux.fragment"
EOF
f=br/board/x/linux.fragment
for cmd in "check --no-config" "check --no-config -v" "migrate" "migrate -v"; do
	$SLUBTINY $cmd $f >out 2>err
	st=$?
	[ $st = 1 ] || { bad "buildroot $cmd: exit $st, want 1"; cat err; }
	no_leak "buildroot $cmd"
	not_read "buildroot $cmd" "$t/secret"
	not_read "buildroot $cmd" "br/../secret"
	not_read "buildroot $cmd" "br/board/x/link.fragment"
	not_read "buildroot $cmd" "$t/ext/board/e/e.fragment"
	grep -q "over.*br/board/x/ok.fragment" err || { bad "buildroot $cmd: the part inside not read"; cat err; }
done
$SLUBTINY check --no-config --json $f >out 2>err
no_leak "buildroot check --json"
json_not_read "buildroot check --json" "$t/secret"
json_not_read "buildroot check --json" "br/board/x/link.fragment"
jq -e '.stacks[0].parts | index("br/board/x/ok.fragment")' out >/dev/null ||
	{ bad "buildroot check --json: ok.fragment not a part"; cat out; }
$SLUBTINY migrate --json $f >out 2>err
no_leak "buildroot migrate --json"
json_not_read "buildroot migrate --json" "$t/secret" '.files[0].stack'
# a declared external tree is read
BR2_EXTERNAL="$t/nothing:$t/ext" $SLUBTINY check --no-config --json $f >out 2>err
jq -e --arg p "$t/ext/board/e/e.fragment" '.stacks[0].parts | index($p)' out >/dev/null ||
	{ bad "buildroot BR2_EXTERNAL: the external tree's fragment not read"; cat out err; }
json_not_read "buildroot BR2_EXTERNAL" "$t/secret"
no_leak "buildroot BR2_EXTERNAL"

# the kernel's in-tree defconfig, by a name that climbs out of arch/ARCH/configs/
mkdir -p br/board/y
printf "$frag" >br/board/y/y.fragment
cat >br/configs/kdef_defconfig <<'EOF'
BR2_arm=y
BR2_LINUX_KERNEL=y
BR2_LINUX_KERNEL_USE_DEFCONFIG=y
BR2_LINUX_KERNEL_DEFCONFIG="../../../../../../../secret"
BR2_LINUX_KERNEL_CONFIG_FRAGMENT_FILES="board/y/y.fragment"
EOF
$SLUBTINY check --no-config br/board/y/y.fragment >out 2>err
st=$?
[ $st = 1 ] || { bad "buildroot kernel defconfig: exit $st, want 1"; cat err; }
not_read "buildroot kernel defconfig" '\.\./secret_defconfig'
grep -q "over the kernel's" err && { bad "buildroot kernel defconfig: still a base"; cat err; }

# --- Yocto: a layer, file:// entries leaving it by ../ and by a symlink
l=meta-x/recipes-kernel/linux
mkdir -p meta-x/conf $l/files
: >meta-x/conf/layer.conf
printf 'CONFIG_PRINTK=y\n' >$l/files/defconfig
printf 'CONFIG_PRINTK=y\n' >$l/files/ok.cfg
printf "$frag" >$l/files/tiny.cfg
ln -s ../../../../secret.cfg $l/files/link.cfg
cat >$l/linux-x_6.6.bb <<'EOF'
SRC_URI = "file://defconfig file://../../../../secret.cfg file://link.cfg \
	file://ok.cfg file://tiny.cfg"
EOF
for cmd in "check --no-config" "migrate -v"; do
	$SLUBTINY $cmd $l/files/tiny.cfg >out 2>err
	st=$?
	[ $st = 1 ] || { bad "yocto $cmd: exit $st, want 1"; cat err; }
	no_leak "yocto $cmd"
	not_read "yocto $cmd" "$l/files/../../../../secret.cfg"
	not_read "yocto $cmd" "$l/files/link.cfg"
	grep -q "over.*$l/files/ok.cfg" err || { bad "yocto $cmd: the part inside not read"; cat err; }
done
$SLUBTINY check --no-config --json $l/files/tiny.cfg >out 2>err
no_leak "yocto check --json"
json_not_read "yocto check --json" "$l/files/link.cfg"

# --- OpenWrt: a committed generic config that is a link out of the tree
mkdir -p ow/target/linux/generic ow/target/linux/ramips
printf 'ARCH:=mipsel\n' >ow/target/linux/ramips/Makefile
printf "$frag" >ow/target/linux/ramips/config-6.6
ln -s ../../../../secret ow/target/linux/generic/config-6.6
$SLUBTINY check --no-config ow/target/linux/ramips/config-6.6 >out 2>err
st=$?
[ $st = 1 ] || { bad "openwrt check: exit $st, want 1"; cat err; }
no_leak "openwrt check"
not_read "openwrt check" "ow/target/linux/generic/config-6.6"
exit $fail
