// SPDX-License-Identifier: GPL-2.0-only
/*
 * Suppression comments: "# slubtiny: ignore[rule,...]" for the next line,
 * "# slubtiny: ignore-file[rule,...]" for the whole file. The parser takes
 * any bytes (it is a fuzz target) and never reads past @len.
 */
#include <stdio.h>
#include <string.h>

#include "check/check.h"

#define TAG "slubtiny:"

static size_t skip_blanks(const char *s, size_t i, size_t len)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

static bool has_word(const char *s, size_t i, size_t len, const char *w)
{
	size_t n = strlen(w);

	return len - i >= n && !memcmp(s + i, w, n);
}

static bool is_id_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-';
}

static void bad(struct st_supp *s, const char *what, const char *arg, size_t n)
{
	s->kind = ST_SUPP_BAD;
	if (n > 40)
		n = 40;
	snprintf(s->bad, sizeof(s->bad), "%s%s%.*s%s", what,
		 arg ? " '" : "", (int)n, arg ? arg : "", arg ? "'" : "");
}

/* Parse "[a, b]" starting at s[i] == '['; returns the index after ']'. */
static size_t parse_list(struct st_supp *s, const char *t, size_t i, size_t len)
{
	size_t start;
	int rule, count = 0;

	i++;
	for (;;) {
		i = skip_blanks(t, i, len);
		start = i;
		while (i < len && is_id_char(t[i]))
			i++;
		if (i == start) {
			bad(s, count ? "empty rule id" : "empty rule list", NULL, 0);
			return len;
		}
		rule = st_check_rule_find(t + start, i - start);
		if (rule < 0) {
			bad(s, "unknown rule", t + start, i - start);
			return len;
		}
		s->rules[rule] = true;
		count++;
		i = skip_blanks(t, i, len);
		if (i < len && t[i] == ',') {
			i++;
			continue;
		}
		if (i < len && t[i] == ']')
			return i + 1;
		bad(s, "expected ',' or ']' in the rule list", NULL, 0);
		return len;
	}
}

void st_check_parse_suppression(struct st_supp *s, const char *t, size_t len)
{
	size_t i;
	int r;

	memset(s, 0, sizeof(*s));
	s->kind = ST_SUPP_NONE;
	if (!len || t[0] != '#')
		return;
	i = skip_blanks(t, 1, len);
	if (!has_word(t, i, len, TAG))
		return;
	i = skip_blanks(t, i + strlen(TAG), len);
	if (has_word(t, i, len, "ignore-file")) {
		s->kind = ST_SUPP_FILE;
		i += strlen("ignore-file");
	} else if (has_word(t, i, len, "ignore")) {
		s->kind = ST_SUPP_LINE;
		i += strlen("ignore");
	} else {
		size_t end = i;

		while (end < len && is_id_char(t[end]))
			end++;
		bad(s, "unknown directive", t + i, end - i);
		return;
	}
	if (i < len && t[i] == '[') {
		i = parse_list(s, t, i, len);
		if (s->kind == ST_SUPP_BAD)
			return;
	} else if (i == len || t[i] == ' ' || t[i] == '\t') {
		for (r = 0; r < ST_RULE_COUNT; r++)
			s->rules[r] = true;
	} else {
		bad(s, "expected '[' after the directive", NULL, 0);
		return;
	}
	/* Free text (a reason) may follow after a blank. */
	if (i < len && t[i] != ' ' && t[i] != '\t')
		bad(s, "expected a blank after ']'", NULL, 0);
}
