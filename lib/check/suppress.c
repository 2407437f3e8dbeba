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

/*
 * Rule ids and directives are lower case, but a word is scanned in any case
 * so that "IGNORE" or "Removed-Allocator" is named in the warning as
 * written instead of being cut to an empty word.
 */
static bool is_word_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '-' || ch == '_';
}

static size_t word_end(const char *s, size_t i, size_t len)
{
	while (i < len && is_word_char(s[i]))
		i++;
	return i;
}

static bool word_is(const char *s, size_t i, size_t end, const char *w)
{
	return end - i == strlen(w) && !memcmp(s + i, w, end - i);
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
		i = word_end(t, i, len);
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
	size_t i, end;
	int r;

	memset(s, 0, sizeof(*s));
	s->kind = ST_SUPP_NONE;
	if (!len || t[0] != '#')
		return;
	i = skip_blanks(t, 1, len);
	if (!has_word(t, i, len, TAG))
		return;
	i = skip_blanks(t, i + strlen(TAG), len);
	end = word_end(t, i, len);
	if (word_is(t, i, end, "ignore-file")) {
		s->kind = ST_SUPP_FILE;
	} else if (word_is(t, i, end, "ignore")) {
		s->kind = ST_SUPP_LINE;
	} else {
		bad(s, "unknown directive", t + i, end - i);
		return;
	}
	/*
	 * "ignore [rule]" with a blank is the rule list, not a reason: read
	 * as a reason it would silence every rule.
	 */
	i = end;
	end = skip_blanks(t, i, len);
	if (end < len && t[end] == '[')
		i = end;
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
