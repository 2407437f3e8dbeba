// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test driver for lib/defconfig, used by the shell tests that compare it
 * with git and patch:
 *   dc-tool roundtrip FILE...        parse+render must give the same bytes
 *   dc-tool diag FILE                print the diagnostics
 *   dc-tool edit [-o OUT] [-w] FILE OP...
 *       OP is r:N:TEXT (replace line N), i:N:TEXT (insert before line N,
 *       N = lines + 1 appends) or d:N (delete line N), 1-based, applied in
 *       order. Prints the diff (path = FILE as given); -o writes the result
 *       to OUT, -w writes FILE in place with st_defconfig_write_atomic().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "defconfig/defconfig.h"

static int read_file(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n;

	if (!f)
		return -1;
	*buf = malloc(cap);
	*len = 0;
	while ((n = fread(*buf + *len, 1, cap - *len, f)) > 0) {
		*len += n;
		if (*len == cap)
			*buf = realloc(*buf, cap *= 2);
	}
	fclose(f);
	return 0;
}

static int roundtrip(int argc, char **argv)
{
	int i, bad = 0;

	for (i = 0; i < argc; i++) {
		struct st_defconfig *dc;
		struct st_error e = { 0 };
		char *in, *out;
		size_t inlen, outlen;

		if (read_file(argv[i], &in, &inlen) || st_defconfig_load(&dc, argv[i], &e)) {
			fprintf(stderr, "%s: cannot read\n", argv[i]);
			return 2;
		}
		if (st_defconfig_render(dc, &out, &outlen))
			return 2;
		if (outlen != inlen || memcmp(in, out, inlen)) {
			fprintf(stderr, "%s: round trip differs\n", argv[i]);
			bad++;
		}
		free(in);
		free(out);
		st_defconfig_free(dc);
	}
	printf("round trip: %d files, %d differ\n", argc, bad);
	return bad ? 1 : 0;
}

static int diag(const char *path)
{
	struct st_defconfig *dc;
	struct st_error e = { 0 };
	size_t i;

	if (st_defconfig_load(&dc, path, &e)) {
		fprintf(stderr, "%s: %s\n", e.file, e.msg);
		return 2;
	}
	for (i = 0; i < dc->nr_diags; i++)
		printf("%s:%d: %s: %s\n", path, dc->diags[i].line,
		       dc->diags[i].sev == ST_DC_ERROR ? "error" : "warning",
		       dc->diags[i].msg);
	st_defconfig_free(dc);
	return 0;
}

static int apply_op(struct st_defconfig *dc, const char *op)
{
	char *end;
	long n = strtol(op + 2, &end, 10);
	const char *text = *end == ':' ? end + 1 : "";

	if (op[1] != ':' || n < 1)
		return -1;
	switch (op[0]) {
	case 'r':
		return st_defconfig_replace(dc, n - 1, text);
	case 'i':
		return st_defconfig_insert(dc, n - 1, text);
	case 'd':
		return st_defconfig_delete(dc, n - 1);
	}
	return -1;
}

static int edit(int argc, char **argv)
{
	struct st_defconfig *dc, *nw;
	struct st_error e = { 0 };
	const char *out = NULL;
	bool in_place = false;
	char *d, *buf;
	size_t len;
	int opt, i;

	while ((opt = getopt(argc, argv, "+o:w")) != -1) {
		if (opt == 'o')
			out = optarg;
		else if (opt == 'w')
			in_place = true;
		else
			return 2;
	}
	if (optind >= argc || st_defconfig_load(&dc, argv[optind], &e))
		return 2;
	if (st_defconfig_dup(&nw, dc))
		return 2;
	for (i = optind + 1; i < argc; i++) {
		if (apply_op(nw, argv[i])) {
			fprintf(stderr, "bad op %s\n", argv[i]);
			return 2;
		}
	}
	if (st_defconfig_diff(dc, nw, argv[optind], &d, &len))
		return 2;
	fwrite(d, 1, len, stdout);
	free(d);
	if (out) {
		FILE *f = fopen(out, "wb");

		if (!f || st_defconfig_render(nw, &buf, &len) ||
		    fwrite(buf, 1, len, f) != len || fclose(f))
			return 2;
		free(buf);
	}
	if (in_place && st_defconfig_write_atomic(argv[optind], nw, &e)) {
		fprintf(stderr, "%s: %s\n", e.file, e.msg);
		return 2;
	}
	st_defconfig_free(dc);
	st_defconfig_free(nw);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "roundtrip"))
		return roundtrip(argc - 2, argv + 2);
	if (argc == 3 && !strcmp(argv[1], "diag"))
		return diag(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "edit"))
		return edit(argc - 1, argv + 1);
	fprintf(stderr, "usage: dc-tool {roundtrip FILE...|diag FILE|edit [-o OUT] [-w] FILE OP...}\n");
	return 2;
}
