#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The ARCH registry against a real tree: every arch/<a>/Kconfig of Debian's
# linux-source-6.12 is a registry SRCARCH, every "SRCARCH :=" alias of its
# Makefile the registry's (tests/unit/linux/test-arch with the tree as
# argument).
# Skipped (77) without the tarball (kernel-tree.sh).
set -u
. "$ST_SRCDIR/tests/cli/kernel-tree.sh"
exec "$1" "$tree"
