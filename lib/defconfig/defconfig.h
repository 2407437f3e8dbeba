/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ST_DEFCONFIG_H
#define ST_DEFCONFIG_H

/*
 * The lossless line model of a defconfig or config fragment.
 *
 * A file is a sequence of lines; each keeps its exact bytes and its own
 * end of line ("\n", "\r\n", or "" for a last line without a newline), so
 * st_defconfig_render(st_defconfig_parse(x)) == x byte for byte, whatever x
 * is (garbage included: a line we do not understand is kept verbatim as
 * ST_DC_OTHER with a diagnostic).
 *
 * This module is also the only code that writes a file in place:
 * st_defconfig_write_atomic().
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "common/strpool.h"

struct st_error;

#define ST_DC_PREFIX		"CONFIG_"
#define ST_DC_MAX_LINE		(64 * 1024)	/* longer lines are an error */
/*
 * Larger inputs are refused before they are read whole: real configs are
 * under 1 MiB, and the model takes about twice a file's size.
 */
#define ST_DC_MAX_FILE		(64 * 1024 * 1024)

enum st_dc_kind {
	ST_DC_ASSIGN,	/* CONFIG_FOO=value */
	ST_DC_NOT_SET,	/* # CONFIG_FOO is not set */
	ST_DC_COMMENT,	/* any other line starting with '#' */
	ST_DC_BLANK,	/* empty or only blanks */
	ST_DC_OTHER,	/* anything else, kept verbatim (has a diagnostic) */
};

/* What an assignment's value looks like (ST_DC_V_NONE for other kinds). */
enum st_dc_vtype {
	ST_DC_V_NONE,
	ST_DC_V_TRISTATE,	/* y, m or n */
	ST_DC_V_STRING,		/* "quoted", with \" and \\ escapes */
	ST_DC_V_INT,		/* -?[0-9]+ */
	ST_DC_V_HEX,		/* 0x[0-9a-fA-F]+ */
	ST_DC_V_EMPTY,		/* CONFIG_FOO= (diagnosed) */
	ST_DC_V_OTHER,		/* anything else (diagnosed) */
};

struct st_dc_line {
	enum st_dc_kind kind;
	enum st_dc_vtype vtype;
	char *text;		/* bytes without the end of line, NUL-terminated;
				 * may contain NUL bytes itself, see len */
	size_t len;
	const char *eol;	/* "\n", "\r\n" or "" (static strings) */
	char *sym;		/* ASSIGN/NOT_SET: symbol without CONFIG_, else NULL */
	char *val;		/* ASSIGN: value as written (quotes kept), trailing
				 * blanks removed; NOT_SET: "n"; else NULL */
	int lineno;		/* 1-based line in the parsed file, 0 if inserted */
	bool modified;		/* replaced by an edit (lineno is the old line) */
};

enum st_dc_severity {
	ST_DC_WARNING,
	ST_DC_ERROR,		/* the file must not be rewritten */
};

enum st_dc_diag_kind {
	ST_DC_D_NUL,		/* error: NUL byte */
	ST_DC_D_BINARY,		/* error: control characters */
	ST_DC_D_LONG,		/* error: line longer than ST_DC_MAX_LINE */
	ST_DC_D_BADSYM,		/* invalid symbol name */
	ST_DC_D_NOEQ,		/* CONFIG_ line without '=' */
	ST_DC_D_NOVALUE,	/* '=' without value */
	ST_DC_D_BADVALUE,	/* value that is no tristate/string/number */
	ST_DC_D_UNEXPECTED,	/* a line that is none of the above */
	ST_DC_D_DUPLICATE,	/* same symbol assigned twice, same value */
	ST_DC_D_CONFLICT,	/* same symbol assigned twice, other value */
};

struct st_dc_diag {
	int line;			/* 1-based */
	enum st_dc_severity sev;
	enum st_dc_diag_kind kind;
	const char *sym;		/* "" when not about a symbol */
	int other_line;			/* DUPLICATE/CONFLICT: the earlier line */
	const char *msg;		/* lowercase, no FILE:LINE prefix */
};

struct st_defconfig {
	char *name;			/* for messages; the path when loaded */
	struct st_dc_line *lines;
	size_t nr_lines, alloc_lines;
	struct st_dc_diag *diags;
	size_t nr_diags, alloc_diags;
	size_t nr_errors;		/* diags with ST_DC_ERROR */
	struct st_strpool diag_strs;	/* the diags' sym and msg strings */
	bool have_stat;			/* st is the file as it was read */
	struct stat st;
	unsigned long long sum;		/* st_defconfig_sum() of the bytes read */
};

/*
 * Parse @len bytes at @buf (need not be NUL-terminated). @name is copied and
 * used in diagnostics. Returns 0 and a new model in *out (free it with
 * st_defconfig_free()) even when the input has diagnostics; -ENOMEM only.
 */
int st_defconfig_parse(struct st_defconfig **out, const char *buf, size_t len,
		       const char *name, struct st_error *err);

/*
 * Standard input's bytes (up to the size limit), read on first use and kept
 * for the process: a command may need them twice (the ARCH of their
 * symbols, then the file). The first read's error is every call's.
 */
int st_defconfig_stdin(const char **buf, size_t *len, struct st_error *err);

/*
 * Read and parse @path. Errors (missing, unreadable, not a regular file,
 * over ST_DC_MAX_FILE bytes: -EFBIG, seen by fstat before any read) fill
 * @err and return -errno. The model remembers the file's stat for
 * st_defconfig_write_atomic(). "-" reads standard input to its end, or to
 * one byte over ST_DC_MAX_FILE and no further (-EFBIG; the model's stat is
 * then zero: it cannot be written back).
 */
int st_defconfig_load(struct st_defconfig **out, const char *path,
		      struct st_error *err);

void st_defconfig_free(struct st_defconfig *dc);

/* A deep copy: same lines, same diagnostics, lineno/modified kept. */
int st_defconfig_dup(struct st_defconfig **out, const struct st_defconfig *dc);

/*
 * A copy of @dc without its lines (same name, stat and diagnostics), to be
 * filled with st_defconfig_append(): a rewrite that edits line by line in
 * a copy costs a move of every later line per edit; building the result
 * from the front costs nothing more per line.
 */
int st_defconfig_dup_empty(struct st_defconfig **out, const struct st_defconfig *dc);
/* Append a copy of @l (of any model), lineno, modified and eol kept. */
int st_defconfig_append(struct st_defconfig *dc, const struct st_dc_line *l);

/* The file's bytes, malloc'd into *buf (NUL-terminated, *len without it). */
int st_defconfig_render(const struct st_defconfig *dc, char **buf, size_t *len);

/* The end of line most lines use ("\n" when there are none). */
const char *st_defconfig_eol(const struct st_defconfig *dc);

/*
 * Edits. @text is one line without end of line (it must not contain '\n');
 * it is classified like a parsed line. A replaced line keeps its end of line;
 * an inserted line gets the file's usual one, and inserting after a last line
 * that had no newline moves the missing newline to the new last line.
 * Indexes are 0-based positions in dc->lines. Diagnostics are not recomputed.
 */
int st_defconfig_replace(struct st_defconfig *dc, size_t idx, const char *text);
int st_defconfig_insert(struct st_defconfig *dc, size_t idx, const char *text);
/* st_defconfig_insert() with @eol instead of st_defconfig_eol(@dc) (O(lines)). */
int st_defconfig_insert_eol(struct st_defconfig *dc, size_t idx, const char *text,
			    const char *eol);
int st_defconfig_delete(struct st_defconfig *dc, size_t idx);

/* Index of the last ASSIGN or NOT_SET line of @sym, or -1. */
long st_defconfig_find(const struct st_defconfig *dc, const char *sym);

/* True if @s (without CONFIG_) is a valid Kconfig symbol name. */
bool st_defconfig_valid_sym(const char *s, size_t len);

/*
 * Write @dc to @path atomically: a temp file in the same directory, written,
 * fsynced, given the old file's owner, group, xattrs (POSIX ACLs) and mode,
 * renamed over @path (symlinks to a regular file are followed, the link
 * stays), then the directory is fsynced. @path is write-locked (fcntl) from
 * the first check to the rename. @path must be an existing, writable regular
 * file with one link, not reached through /dev/stdin or /dev/fd/N; if @dc
 * was loaded from @path, the file must still be what was read, checked again
 * just before the rename (inode, size, mtime, content): -EAGAIN if not.
 * On any error, or SIGINT/SIGTERM/SIGHUP, no temp file is left behind and
 * the original is untouched. Refuses a model with error diagnostics.
 */
int st_defconfig_write_atomic(const char *path, const struct st_defconfig *dc,
			      struct st_error *err);
/*
 * The same, for a file a directory walk found: @within (a resolved
 * directory, NULL for none) is the directory walked, and a @path that
 * resolves outside it (a symlink leaving the tree) is refused (-EXDEV)
 * before anything is opened.
 */
int st_defconfig_write_within(const char *path, const struct st_defconfig *dc,
			      const char *within, struct st_error *err);

/*
 * A 64-bit FNV-1a of @len bytes: the writer compares the file with what was
 * read. It tells a person's edit from the original, not an attacker's.
 */
unsigned long long st_defconfig_sum(const char *buf, size_t len);

/*
 * A unified diff (git style, 3 lines of context, "diff --git a/P b/P"
 * header) from @old to @new, where @new was derived from @old (or a dup of
 * it) by the edits above: lines with lineno != 0 and !modified are old lines.
 * @path is printed after a/ and b/. *out is malloc'd and "" when equal.
 */
int st_defconfig_diff(const struct st_defconfig *old, const struct st_defconfig *new,
		      const char *path, char **out, size_t *out_len);

#endif
