#!/bin/sh
# migrate --in-place keeps what the old file had besides its text: mode,
# owner and group, POSIX ACLs (the mask does not become the group bits) and
# other extended attributes; a user who cannot keep the owner is refused.
set -u
. "$(dirname "$0")/../lib.sh"
for t in setfacl getfacl setfattr getfattr; do
	command -v $t >/dev/null || { echo "SKIP: $t missing (Debian acl, attr)"; exit 77; }
done
st_tmpdir w
cd "$w" || exit 1
printf 'CONFIG_A=y\nCONFIG_SLOB=y\n' >a_defconfig
setfattr -n user.slubtiny -v keep a_defconfig 2>err ||
	{ echo "SKIP: no user xattrs here: $(cat err)"; exit 77; }
setfacl -m u:nobody:rw,g::r a_defconfig 2>err ||
	{ echo "SKIP: no POSIX ACLs here: $(cat err)"; exit 77; }

check_run() { # got want description
	[ "$1" = "$2" ] || { echo "FAIL: $3: exit $1, want $2"; cat err; fail=1; }
}
m() { "$SLUBTINY" migrate --no-verify "$@"; }

chmod 0640 a_defconfig	# the group bits are the ACL mask: r
getfacl -n a_defconfig >acl.before 2>/dev/null
getfattr -d a_defconfig >xattr.before 2>/dev/null
stat -c '%a %u %g' a_defconfig >stat.before
m --in-place a_defconfig >out 2>err
check_run $? 0 "--in-place with an ACL"
! grep -q '^slubtiny: migrate: a_defconfig:' err || { echo "FAIL: stderr:"; cat err; fail=1; }
grep -qx 'CONFIG_SLUB_TINY=y' a_defconfig || { echo "FAIL: not migrated"; fail=1; }
getfacl -n a_defconfig >acl.after 2>/dev/null
getfattr -d a_defconfig >xattr.after 2>/dev/null
stat -c '%a %u %g' a_defconfig >stat.after
cmp -s acl.before acl.after || { echo "FAIL: ACL not kept:"; diff acl.before acl.after; fail=1; }
cmp -s xattr.before xattr.after ||
	{ echo "FAIL: xattrs not kept:"; diff xattr.before xattr.after; fail=1; }
cmp -s stat.before stat.after ||
	{ echo "FAIL: mode/owner not kept:"; diff stat.before stat.after; fail=1; }

# A directory's default ACL does not give the new file an ACL the old lacked.
mkdir d
printf 'CONFIG_SLOB=y\n' >d/b_defconfig
chmod 0600 d/b_defconfig
setfacl -d -m u:nobody:rwx d
m --in-place d/b_defconfig >out 2>err
check_run $? 0 "--in-place under a default ACL"
[ "$(getfacl -c -n d/b_defconfig 2>/dev/null | grep -c 'user:[0-9]')" = 0 ] ||
	{ echo "FAIL: the file got the directory's default ACL"; getfacl d/b_defconfig; fail=1; }
[ "$(stat -c %a d/b_defconfig)" = 600 ] || { echo "FAIL: mode changed"; fail=1; }
[ "$(ls -A d | wc -l)" = 1 ] || { echo "FAIL: temp file left in d"; fail=1; }

# Owner and group: root keeps them; a user who may not give the file away
# is refused rather than making the file theirs.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	printf 'CONFIG_SLOB=y\n' >c_defconfig
	chown 1:"$(id -g nobody)" c_defconfig
	m --in-place c_defconfig >out 2>err
	check_run $? 0 "root: --in-place of another user's file"
	[ "$(stat -c '%u %g' c_defconfig)" = "1 $(id -g nobody)" ] ||
		{ echo "FAIL: owner not kept by root"; fail=1; }

	mkdir shared && chmod 0777 shared && chmod 0755 .
	printf 'CONFIG_SLOB=y\n' >shared/g_defconfig
	chown 0:"$(id -g nobody)" shared/g_defconfig
	chmod 0664 shared/g_defconfig
	setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups \
		"$SLUBTINY" migrate --no-verify --in-place shared/g_defconfig >out 2>err
	check_run $? 2 "a user who cannot keep the owner"
	grep -q '^slubtiny: migrate: shared/g_defconfig: cannot keep owner 0 and group' err ||
		{ echo "FAIL: owner message:"; cat err; fail=1; }
	[ "$(stat -c '%u' shared/g_defconfig)" = 0 ] &&
		grep -qx 'CONFIG_SLOB=y' shared/g_defconfig ||
		{ echo "FAIL: the file changed hands or text"; fail=1; }
	[ "$(ls -A shared | wc -l)" = 1 ] || { echo "FAIL: temp file left in shared"; fail=1; }
else
	echo "note: not root or no setpriv: owner cases not run"
fi
exit $fail
