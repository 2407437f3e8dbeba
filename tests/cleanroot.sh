#!/bin/sh
# Prove the README's quick-start commands on a fresh Debian 12: a minbase
# bookworm root from mmdebstrap (no apt lists, no python3, no compiler), this
# repository cloned into it, then one quick-start command run as root inside.
# Not part of the test suite: it downloads packages and takes minutes.
#
#   sh tests/cleanroot.sh main   # first quick-start command (report)
#   sh tests/cleanroot.sh test   # second one (the test suite)
#   sh tests/cleanroot.sh deps   # only what the second one installs, then a build
#
# CLEANROOT_LOGS=DIR keeps each build directory's meson-logs there.
set -eu
what=${1:-test}
top=$(cd "$(dirname "$0")/.." && pwd)
tarball=${CLEANROOT_TAR:-/var/tmp/cleanroot.tar}
root=$(mktemp -d /var/tmp/cleanroot.XXXXXX)

# Nothing of the host is bind-mounted: the root gets its own /dev (a tmpfs
# with the few nodes a build needs), so removing it can never reach the host.
cleanup() {
	# The test logs outlive the root (CLEANROOT_LOGS, a directory): each
	# test's duration there is what CI's time is made of.
	if [ -n "${CLEANROOT_LOGS:-}" ]; then
		for d in "$root"/root/slubtiny/build*/meson-logs; do
			[ -d "$d" ] || continue
			b=$(basename "$(dirname "$d")")
			mkdir -p "$CLEANROOT_LOGS/$b" && cp -r "$d/." "$CLEANROOT_LOGS/$b/" || true
		done
	fi
	for m in dev/pts dev proc sys; do
		umount "$root/$m" 2>/dev/null || true
	done
	if grep -q " $root/" /proc/mounts; then
		echo "cleanroot: $root still has mounts, not removing it" >&2
		return
	fi
	rm -rf --one-file-system "$root"
}
trap cleanup EXIT INT TERM

# The host's own tool (a fresh Debian 12 lacks it), not the project's.
if [ ! -f "$tarball" ] && ! command -v mmdebstrap >/dev/null; then
	apt-get update -q && apt-get install -y -q mmdebstrap >/dev/null
fi
[ -f "$tarball" ] || mmdebstrap --variant=minbase bookworm "$tarball"
tar -C "$root" -xf "$tarball"
# The same package sources as this machine (a fresh one has them too).
if cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/" 2>/dev/null; then
	rm -f "$root/etc/apt/sources.list"
fi
rm -rf "$root/var/lib/apt/lists/"*
git clone -q "$top" "$root/root/slubtiny"
# Nothing beside the clone: a user's clone stands alone, and no test may
# need anything next to it.
mount -t proc proc "$root/proc"
mount -t tmpfs -o mode=755 dev "$root/dev"
for n in "null 1 3" "zero 1 5" "full 1 7" "random 1 8" "urandom 1 9" "tty 5 0"; do
	set -- $n
	mknod -m 666 "$root/dev/$1" c "$2" "$3"
done
mkdir "$root/dev/pts" "$root/dev/shm"
mount -t devpts -o newinstance,ptmxmode=666 devpts "$root/dev/pts"
ln -s pts/ptmx "$root/dev/ptmx"
ln -s /proc/self/fd "$root/dev/fd"
# What udev, systemd and container runtimes put there on every machine (a
# test redirects through /dev/stdin): without them the root lacks what no
# real one does.
ln -s /proc/self/fd/0 "$root/dev/stdin"
ln -s /proc/self/fd/1 "$root/dev/stdout"
ln -s /proc/self/fd/2 "$root/dev/stderr"
mount -t sysfs sys "$root/sys"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

case $what in
main) cmd='sh .ci/deps && sh .ci/build && build/cli/slubtiny report' ;;
test) cmd='sh .ci/deps test && sh tests/run' ;;
deps) cmd='sh .ci/deps test && sh .ci/deps test --check && sh .ci/build' ;;
*) echo "usage: $0 {main|test|deps}" >&2; exit 2 ;;
esac
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	LANG=C.UTF-8 /bin/sh -c "cd /root/slubtiny && $cmd"
