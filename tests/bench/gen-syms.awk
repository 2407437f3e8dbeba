# SPDX-License-Identifier: GPL-2.0-only
# Generate GNU assembler input with N sized symbols, for the size-diff
# benchmark: awk -v n=250000 -v v=1 -f gen-syms.awk > x.s
# v=2 is the "new" build: about 10% of the sizes change, 2% of the
# symbols are removed and 2% added. Sizes are only declared (.size), so
# the object stays small while nm and bloat-o-meter see real numbers.
function name(i,   k) {
	k = i % 7
	if (k == 0) return sprintf("_ZN4llvm%d%sPass%dE", length("s" i), "s" i, i % 97)
	if (k == 1) return sprintf("subsystem_%d_handle_event_long_name_%d", i % 113, i)
	if (k == 2) return sprintf("static_helper_%d.constprop.0", i)
	if (k == 3) return sprintf("__func__.%d", i)
	if (k == 4) return sprintf("table_%d_entries.isra.0", i)
	if (k == 5) return sprintf("_ZNK5clang%d%sDecl%dEv", length("x" i), "x" i, i % 89)
	return sprintf("obj_%d", i)
}
# A size that depends only on the symbol number: both builds agree on it
# unless a change below applies.
function base_size(i) {
	return (i * 2654435761) % 4000 + 1
}
BEGIN {
	sec[0] = ".text"; sec[1] = ".data"; sec[2] = ".bss"; sec[3] = ".rodata"
	typ[0] = "@function"; typ[1] = "@object"; typ[2] = "@object"; typ[3] = "@object"
	for (i = 0; i < n; i++) {
		sz = base_size(i)
		if (v == 2) {
			if (i % 50 == 7) continue			# removed
			if (i % 10 == 3) sz += (i * 40503) % 64 - 16	# changed
			if (sz < 1) sz = 1
		}
		s = i % 4
		nm = name(i)
		printf "\t.section %s.b%d,\"a%s\"%s\n", sec[s], i % 4, (s == 0 ? "x" : (s == 3 ? "" : "w")), (s == 2 ? ",@nobits" : "")
		if (i % 3) printf "\t.globl \"%s\"\n", nm
		printf "\t.type \"%s\", %s\n\t.size \"%s\", %d\n\"%s\":\t.byte 0\n", nm, typ[s], nm, sz, nm
	}
	if (v == 2)
		for (i = n; i < n + n / 50; i++) {
			nm = name(i)
			printf "\t.text\n\t.globl \"%s\"\n\t.type \"%s\", @function\n\t.size \"%s\", %d\n\"%s\":\t.byte 0\n", nm, nm, nm, i % 300 + 1, nm
		}
	print "\t.section .note.GNU-stack,\"\",@progbits"
}
