/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_ELF_PRIV_H
#define ST_ELF_PRIV_H

#include <gelf.h>

#include "elf/elf.h"

/* nm.c: binutils' view of sections and symbols (internal to lib/elf). */
void st_nm_classify_sections(struct st_elf_obj *o, const GElf_Shdr *shdrs,
			     size_t shstrndx, size_t symtab);
void st_nm_classify_symbols(struct st_elf_obj *o);

#endif
