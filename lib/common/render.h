/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_RENDER_H
#define ST_RENDER_H
/*
 * The one shape of a result's printer, whatever the result (a report, a
 * size diff, check's findings, a replay, a boot):
 *
 *	int st_<obj>_render(FILE *f, const T *r, const struct st_render_opts *o);
 *	struct cJSON *st_<obj>_to_json(const T *r);
 *
 * _render() prints @r to @f in o->format: 0, -ENOTSUP for a format the
 * result has no printer for, -ENOMEM, -EIO when @f reports a write error.
 * _to_json() builds the tree the JSON format prints (NULL: no memory; the
 * caller deletes it). Each module keeps a table of its printers, one per
 * format, as scripts/kconfig keeps its conf_printer table.
 */
#include <stdbool.h>

enum st_format {
	ST_FORMAT_TEXT,
	ST_FORMAT_JSON,
	ST_FORMAT_MARKDOWN,
	ST_FORMAT_HTML,
	ST_FORMAT_SVG,
	ST_FORMAT_GITHUB,	/* GitHub Actions workflow commands */
	ST_FORMAT_SARIF,
};

struct st_render_opts {
	enum st_format format;
	bool pretty;	/* JSON indented */
	bool color;	/* ANSI colour in text */
	bool verbose;	/* text: every figure */
	bool quiet;	/* text: only what changes the result */
};

#endif
