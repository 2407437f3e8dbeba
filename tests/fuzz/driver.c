// SPDX-License-Identifier: GPL-2.0-only
/*
 * Run a libFuzzer target over files and directories of inputs, so that the
 * regression corpus is part of the normal test suite (and of the ASan+UBSan
 * run) without libFuzzer.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	/* An exact-size heap copy lets ASan see reads past the input. */
	buf = malloc(len ? len : 1);
	if (!buf || fread(buf, 1, len, f) != (size_t)len) {
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

static int run_path(const char *path, int *count)
{
	struct stat st;
	struct dirent *de;
	char sub[4096];
	DIR *d;
	int ret = 0;

	if (stat(path, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return run_file(path);
	}
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (run_path(sub, count))
			ret = -1;
	}
	closedir(d);
	return ret;
}

int main(int argc, char **argv)
{
	int i, count = 0;

	for (i = 1; i < argc; i++) {
		if (run_path(argv[i], &count)) {
			fprintf(stderr, "fuzz driver: cannot read %s\n", argv[i]);
			return 1;
		}
	}
	printf("ran %d inputs\n", count);
	return count ? 0 : 1;
}
