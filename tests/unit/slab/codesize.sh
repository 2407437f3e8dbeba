#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Code size of the variants as built (binutils size and nm):
#  - text: SLOB < SLUB_TINY < SLUB, SLUB_TINY at most 3/4 of SLUB
#    (the kernel's mm/slub.o shrinks by about 40%);
#  - forced inlining: SLUB has no out-of-line slab_alloc/slab_free (they
#    are __always_inline into every entry point), so its
#    kmem_cache_alloc() is at least twice SLUB_TINY's, which only calls
#    the node-list path.
#   codesize.sh LIBSLOB LIBSLUB_TINY LIBSLUB
set -u
for t in size nm; do
	command -v $t >/dev/null || { echo "codesize: $t missing: skipped"; exit 77; }
done
text() { size -t "$1" | awk 'END { print $1 }'; }
symsize() { # lib symbol
	h=$(nm -S "$1" | awk -v s="$2" '$4 == s { print $2; exit }')
	[ -n "$h" ] && echo $((0x$h))
}
fail=0
slob=$(text "$1") tiny=$(text "$2") slub=$(text "$3")
echo "text: slob=$slob slub_tiny=$tiny slub=$slub"
[ "$slob" -lt "$tiny" ] || { echo "FAIL: slob >= slub_tiny"; fail=1; }
[ "$tiny" -lt "$slub" ] || { echo "FAIL: slub_tiny >= slub"; fail=1; }
[ $((tiny * 4)) -le $((slub * 3)) ] || { echo "FAIL: slub_tiny > 3/4 of slub"; fail=1; }

if nm "$3" | grep -Eq ' t (slab_alloc|slab_free|slab_alloc_node)(\.|$)'; then
	echo "FAIL: slub has an out-of-line fast path"
	nm "$3" | grep -E ' t (slab_alloc|slab_free|slab_alloc_node)'
	fail=1
fi
a=$(symsize "$3" kmem_cache_alloc) b=$(symsize "$2" kmem_cache_alloc)
echo "kmem_cache_alloc: slub=$a slub_tiny=$b bytes"
[ -n "$a" ] && [ -n "$b" ] && [ "$a" -ge $((2 * b)) ] ||
	{ echo "FAIL: slub's kmem_cache_alloc is not the inlined fast path"; fail=1; }
exit $fail
