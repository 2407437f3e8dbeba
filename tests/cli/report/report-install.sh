#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `meson install` puts what `build` reads (kconfig/, defconfigs/, lib/slab/)
# where the installed binary looks for it: <prefix>/share/slubtiny.
set -u
. "$(dirname "$0")/lib.sh"
command -v meson >/dev/null || skip "meson missing"
command -v jq >/dev/null || skip "jq missing (Debian package jq)"
out=$ST_BUILDDIR/tests-report/install
rm -rf "$out"
mkdir -p "$out"
meson install -C "$ST_BUILDDIR" --no-rebuild --destdir "$out/root" >"$out/log" 2>&1 ||
	{ cat "$out/log"; bad "meson install failed"; exit 1; }
bin=$(find "$out/root" -type f -path '*/bin/slubtiny' | head -1)
[ -x "$bin" ] || { bad "no installed slubtiny"; exit 1; }
share=$(dirname "$(dirname "$bin")")/share/slubtiny
for f in kconfig/Kconfig kconfig/st_kconfig.py defconfigs/slub_defconfig lib/slab/slab.h; do
	[ -f "$share/$f" ] || bad "not installed: share/slubtiny/$f"
done
ls "$share"/lib/slab/*.c >/dev/null 2>&1 || bad "no allocator sources installed"
"$bin" build --builddir "$out/b" --arch "$(host_arch)" --variant slub_tiny --json >"$out/b.json" ||
	bad "installed build failed"
d=$(jq -r .datadir "$out/b.json")
[ "$(cd "$d" && pwd -P)" = "$(cd "$share" && pwd -P)" ] || bad "installed binary used $d, not $share"
jq -e '.units[0].ok' "$out/b.json" >/dev/null || bad "installed build: unit not ok"
exit $fail
