// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz what lib/layout reads of a user's tree: the classifier and the
 * symbols' ARCH guess over a file's bytes, and the build systems' own files
 * (a Yocto recipe and machine conf, a Buildroot defconfig) as the stack of a
 * fragment beside them is worked out. The first byte picks; the files are
 * written into a private directory made once, the stack asked of the
 * fragment there.
 */
#include <ftw.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "layout/discover.h"
#include "layout/layout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char top[PATH_MAX];

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The private directory goes with the process (libFuzzer ends with exit()). */
static void cleanup(void)
{
	if (top[0])
		nftw(top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The layer and tree the files go in, once: a Yocto layer, a Buildroot tree. */
static int setup(void)
{
	static const char *const dirs[] = {
		"conf", "conf/machine", "recipes-kernel", "recipes-kernel/linux",
		"recipes-kernel/linux/files", "br", "br/configs", "br/board",
	};
	char p[PATH_MAX + 64];
	size_t i;
	FILE *f;

	if (top[0])
		return 0;
	snprintf(top, sizeof(top), "%s/slubtiny-fuzz-layout.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(top)) {
		top[0] = '\0';
		return -1;
	}
	atexit(cleanup);
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", top, dirs[i]);
		if (mkdir(p, 0700))
			return -1;
	}
	snprintf(p, sizeof(p), "%s/br/Config.in", top);
	if (!(f = fopen(p, "w")) || fclose(f))
		return -1;
	snprintf(p, sizeof(p), "%s/recipes-kernel/linux/files/a.cfg", top);
	if (!(f = fopen(p, "w")) || fputs("CONFIG_SLUB_TINY=y\n", f) < 0 || fclose(f))
		return -1;
	snprintf(p, sizeof(p), "%s/br/board/a.fragment", top);
	if (!(f = fopen(p, "w")) || fputs("CONFIG_SLOB=y\n", f) < 0 || fclose(f))
		return -1;
	return 0;
}

static void write_file(const char *rel, const uint8_t *data, size_t size)
{
	char p[PATH_MAX + 64];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	f = fopen(p, "w");
	if (!f)
		return;
	fwrite(data, 1, size, f);
	fclose(f);
}

static void stack_of(const char *rel)
{
	char p[PATH_MAX + 64];
	struct st_layout l;
	struct st_error e = { 0 };
	char *d;

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	if (st_layout_of(p, &l, &e))
		return;
	d = st_layout_describe(&l, true, true, NULL, true);
	free(d);
	st_layout_release(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char recipe[] = "SRC_URI:append:m = \" file://a.cfg\"\n"
				     "COMPATIBLE_MACHINE = \"(m)\"\n";
	struct st_cfg_verdict v;
	char arch[32], sym[64];

	if (!size || setup())
		return 0;
	switch (data[0] % 4) {
	case 0:
		st_cfg_classify_buf((const char *)data + 1, size - 1, &v);
		st_cfg_arch_of_buf((const char *)data + 1, size - 1, arch, sizeof(arch), sym,
				   sizeof(sym));
		break;
	case 1:
		write_file("recipes-kernel/linux/linux-fuzz_6.6.bb", data + 1, size - 1);
		stack_of("recipes-kernel/linux/files/a.cfg");
		break;
	case 2:
		/* a machine conf, for a recipe that appends a.cfg for that machine */
		write_file("recipes-kernel/linux/linux-fuzz_6.6.bb", (const uint8_t *)recipe,
			   strlen(recipe));
		write_file("conf/machine/m.conf", data + 1, size - 1);
		stack_of("recipes-kernel/linux/files/a.cfg");
		break;
	case 3:
		write_file("br/configs/fuzz_defconfig", data + 1, size - 1);
		stack_of("br/board/a.fragment");
		break;
	}
	return 0;
}
