#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Directories of distribution build trees yield the kernel configs they
# keep (fixtures/distros): OpenWrt's target/linux/*/[SUBTARGET/]config-*,
# Yocto's recipes-kernel/**/*.cfg, Buildroot's linux.config and fragments
# (not its own configs/*_defconfig, which set BR2_ symbols); nothing else
# (grub.cfg, *.orig, patches). check and migrate find the same set, and the
# pre-commit hooks' files/exclude patterns select the same set.
set -u
command -v jq >/dev/null || { echo "skip: jq missing"; exit 77; }
python3 -c 'import yaml' 2>/dev/null || { echo "skip: python3-yaml missing"; exit 77; }
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
fail=0
F=$ST_SRCDIR/fixtures/distros

expect() { # tree, the files it must yield (relative to the tree)
	tree=$1; shift
	printf '%s\n' "$@" | sort >"$t/want"
	cd "$F/$tree" || exit 2
	# (--target: every file has a finding, also those for a kernel that
	# still had SLOB, such as OpenWrt's config-6.1)
	"$SLUBTINY" check --no-config --target 6.12 --format json . >"$t/check.json" 2>"$t/err"; st=$?
	[ $st = 1 ] || { echo "FAIL: $tree: check exits $st"; cat "$t/err"; fail=1; }
	[ -s "$t/err" ] && { echo "FAIL: $tree: check stderr"; cat "$t/err"; fail=1; }
	jq -r '.findings[].file' "$t/check.json" | sed 's|^\./||' | sort -u >"$t/check"
	[ "$(jq .summary.files "$t/check.json")" = "$#" ] ||
		{ echo "FAIL: $tree: check read $(jq .summary.files "$t/check.json") files, want $#"; fail=1; }
	cmp -s "$t/want" "$t/check" || { echo "FAIL: $tree: check found:"; diff "$t/want" "$t/check"; fail=1; }
	"$SLUBTINY" migrate --no-verify --json . >"$t/mig.json" 2>"$t/err"; st=$?
	[ $st = 0 ] || { echo "FAIL: $tree: migrate exits $st"; cat "$t/err"; fail=1; }
	jq -r '.files[].path' "$t/mig.json" | sed 's|^\./||' | sort >"$t/mig"
	cmp -s "$t/want" "$t/mig" || { echo "FAIL: $tree: migrate found:"; diff "$t/want" "$t/mig"; fail=1; }
	# The hooks run on what pre-commit selects with files: and exclude:.
	find . -type f | sed 's|^\./||' | python3 -c '
import re, sys, yaml
hooks = yaml.safe_load(open(sys.argv[1]))
for h in hooks:
    inc, exc = re.compile(h["files"]), re.compile(h.get("exclude", "^$"))
    sel = sorted(p for p in sys.stdin.read().split() if inc.search(p) and not exc.search(p))
    print("\n".join(sel))
    break' "$ST_SRCDIR/.pre-commit-hooks.yaml" >"$t/hook"
	cmp -s "$t/want" "$t/hook" || { echo "FAIL: $tree: the hook selects:"; diff "$t/want" "$t/hook"; fail=1; }
	cd - >/dev/null
}
expect openwrt target/linux/generic/config-6.6 target/linux/ath79/generic/config-default \
	target/linux/ramips/mt76x8/config-6.1
expect yocto meta-board/recipes-kernel/linux/files/slob.cfg \
	meta-board/recipes-kernel/linux/files/tiny.cfg
expect buildroot board/acme/tiny/linux.config board/acme/tiny/linux-extra.config
# Both hooks have the same patterns.
python3 -c '
import sys, yaml
h = yaml.safe_load(open(sys.argv[1]))
sys.exit(0 if len({(x["files"], x.get("exclude")) for x in h}) == 1 else 1)' "$ST_SRCDIR/.pre-commit-hooks.yaml" ||
	{ echo "FAIL: the hooks select different files"; fail=1; }
exit $fail
