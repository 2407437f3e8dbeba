#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The tarball of Debian's linux-source-VERSION, fetched once:
#
#   sh tests/fetch-linux-source.sh VERSION     (7.2, 7.3)
#
# prints the path of linux-source-VERSION.tar.xz. Debian 12 has no package
# of a kernel after 6.12; trixie-backports has linux-source-7.2 and -7.3
# (sid as a fallback), `.deb`s of arch all. They are fetched with
# `apt-get download` on an apt state of our own (sources, lists, cache,
# status under build-cache/linux-source/apt): the machine's sources and
# lists are neither read for the package nor written. The mirror is the
# machine's own Debian mirror (the first URI of /etc/apt/sources.list.d/
# *.sources or sources.list that serves a Debian release, not -security),
# then deb.debian.org; ST_DEBIAN_MIRROR overrides. The indexes are checked
# with the debian-archive-keyring keys, as apt checks the machine's own.
#
# Kept under $ST_SRCDIR/build-cache/linux-source/VERSION/: the .deb and
# the tarball out of it (the .config of every build directory and run of
# the suite come from this one copy; a second run fetches nothing).
# Concurrent callers wait for each other (one flock for all versions).
#
# Exit 0 with the path on stdout; 77 when the package cannot be fetched (no
# apt-get, no network, no mirror that has it); 1 on any other failure.
set -u
case ${1:-} in
[0-9]*.[0-9]*) v=$1 ;;
*) echo "usage: fetch-linux-source.sh VERSION" >&2; exit 2 ;;
esac
top=${ST_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
cache=$top/build-cache/linux-source
dir=$cache/$v tb=$cache/$v/linux-source-$v.tar.xz
say() { echo "fetch-linux-source: $*" >&2; }

# the Debian mirrors to try: "URI" a line, the machine's first
mirrors() {
	[ -n "${ST_DEBIAN_MIRROR:-}" ] && { echo "$ST_DEBIAN_MIRROR"; return; }
	{
		# deb822: the URIs of a stanza whose Suites are not -security
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -r "$f" ] || continue
			awk 'function flush() { if (types ~ /(^| )deb( |$)/ && uris != "" &&
					suites !~ /-security/) print uris; types = uris = suites = "" }
				/^[ \t]*#/ { next }
				/^[ \t]*$/ { flush(); next }
				tolower($1) == "types:" { $1 = ""; types = $0 }
				tolower($1) == "uris:" { $1 = ""; uris = $0 }
				tolower($1) == "suites:" { $1 = ""; suites = $0 }
				END { flush() }' "$f" | tr ' ' '\n'
		done
		# one-line style: deb [options] URI SUITE COMPONENT...
		for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
			[ -r "$f" ] || continue
			sed -n 's/^[ \t]*deb[ \t]\+\(\[[^]]*\][ \t]\+\)\{0,1\}\([^ \t]\+\)[ \t]\+\([^ \t]\+\).*/\2 \3/p' \
				"$f" | awk '$2 !~ /-security/ { print $1 }'
		done
	} | grep -E '^(https?|file|mirror\+[a-z]+)://' | grep -v 'debian-security' |
		grep '/debian/\{0,1\}$' | sed 's#/$##'
	echo http://deb.debian.org/debian
}

# fetch SUITE MIRROR: the .deb into $dir; 0 when it is there
fetch() {
	suite=$1 mirror=$2 st=$cache/apt
	mkdir -p "$st/lists/partial" "$st/cache/archives/partial" || return 1
	: >"$st/status"
	kr=/usr/share/keyrings/debian-archive-keyring.gpg
	opt=
	[ -r "$kr" ] && opt="signed-by=$kr "
	echo "deb [${opt}arch=$(dpkg --print-architecture)] $mirror $suite main" >"$st/sources.list"
	set -- -o Dir::State::Lists="$st/lists" -o Dir::Etc::sourcelist="$st/sources.list" \
		-o Dir::Etc::sourceparts=- -o Dir::Cache="$st/cache" \
		-o Dir::State::status="$st/status" -o Dir::Etc::preferencesparts=- \
		-o Dir::Etc::preferences=/dev/null -o Acquire::Languages=none
	# as root apt drops to _apt, which may not enter the build tree
	[ "$(id -u)" = 0 ] && set -- "$@" -o APT::Sandbox::User=root
	apt-get -q "$@" update >"$st/update.log" 2>&1 &&
		! grep -q '^\(W: Failed\|E: \)' "$st/update.log" ||
		{ sed 's/^/  /' "$st/update.log" | tail -3 >&2; return 77; }
	ver=$(apt-cache "$@" show --no-all-versions "linux-source-$v" 2>/dev/null |
		sed -n 's/^Version: //p')
	[ -n "$ver" ] || return 77
	rm -f "$dir"/*.deb
	(cd "$dir" && apt-get -q "$@" download "linux-source-$v=$ver") >"$st/download.log" 2>&1 ||
		{ sed 's/^/  /' "$st/download.log" | tail -3 >&2; return 77; }
	echo "$ver" >"$dir/version"
	say "linux-source-$v $ver from $mirror $suite"
}

command -v flock >/dev/null && command -v xz >/dev/null ||
	{ say "flock or xz missing"; exit 77; }
mkdir -p "$dir" || exit 1
# one lock for every version: they share the apt state
(
	flock 9 || exit 1
	[ -f "$dir/.done" ] && [ -s "$tb" ] && exit 0
	rm -f "$dir/.done" "$tb"
	if ! ls "$dir"/linux-source-"$v"_*_all.deb >/dev/null 2>&1; then
		command -v apt-get >/dev/null && command -v dpkg >/dev/null ||
			{ say "no apt-get: cannot fetch linux-source-$v"; exit 77; }
		rc=77
		for m in $(mirrors | awk '!seen[$0]++'); do
			for s in trixie-backports sid; do
				fetch "$s" "$m"
				rc=$?
				[ $rc = 77 ] || break 2
			done
		done
		[ $rc = 0 ] || { [ $rc = 77 ] && say "linux-source-$v: not found on any mirror"; exit $rc; }
	fi
	deb=$(ls "$dir"/linux-source-"$v"_*_all.deb | tail -1)
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/linux-source-$v.tar.xz" >"$tb.tmp" && [ -s "$tb.tmp" ] &&
		mv "$tb.tmp" "$tb" ||
		{ rm -f "$tb.tmp" "$deb"; say "$deb: no usable usr/src/linux-source-$v.tar.xz (removed)"; exit 1; }
	: >"$dir/.done"
) 9>"$cache/.lock"
rc=$?
[ $rc = 0 ] && echo "$tb"
exit $rc
