// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/migrate: every rule on its own, the target ranges,
 * idempotence, line endings, findings and the collateral diff. TAP output.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "defconfig/defconfig.h"
#include "migrate/migrate.h"

#include "../../tap.h"

static struct st_kver kv(const char *s)
{
	struct st_kver v = { 0, 0 };

	if (st_kver_parse(s, &v))
		printf("# bad version %s\n", s);
	return v;
}

/* Migrate @in for @target; return the result's bytes (malloc'd). */
static char *run(const char *in, const char *target, struct st_migration *m)
{
	struct st_defconfig *dc;
	char *out;
	size_t len;

	if (st_defconfig_parse(&dc, in, strlen(in), "t", NULL) ||
	    st_migrate(dc, kv(target), m) || st_defconfig_render(m->after, &out, &len)) {
		printf("Bail out! migrate failed\n");
		exit(1);
	}
	st_defconfig_free(dc);
	return out;
}

static bool has_finding(const struct st_migration *m, int line, const char *sym,
			const char *kind)
{
	size_t i;

	for (i = 0; i < m->nr_findings; i++)
		if (m->findings[i].line == line && !strcmp(m->findings[i].symbol, sym) &&
		    !strcmp(m->findings[i].kind, kind))
			return true;
	return false;
}

/*
 * @in migrated for @target must give @want, with @rules the ids of the
 * applied rules (space separated); migrating the result again changes nothing.
 */
static void expect(const char *what, const char *in, const char *target,
		   const char *want, const char *rules)
{
	struct st_migration m, m2;
	char *out, *out2, ids[256] = "";
	size_t i;

	out = run(in, target, &m);
	for (i = 0; i < m.nr_changes; i++)
		snprintf(ids + strlen(ids), sizeof(ids) - strlen(ids), "%s%s", i ? " " : "",
			 m.changes[i].rule);
	ok(!strcmp(out, want), "%s (%s): result", what, target);
	if (strcmp(out, want))
		printf("# got:\n%s# want:\n%s", out, want);
	ok(!strcmp(ids, rules), "%s (%s): rules '%s'", what, target, ids);
	ok(m.changed == (m.nr_changes > 0), "%s: changed flag", what);
	out2 = run(out, target, &m2);
	ok(!strcmp(out, out2) && !m2.nr_changes, "%s (%s): idempotent", what, target);
	free(out);
	free(out2);
	st_migration_release(&m);
	st_migration_release(&m2);
}

static void test_rules(void)
{
	expect("slob", "A=1\nCONFIG_SLOB=y\nCONFIG_NET=y\n", "6.2",
	       "A=1\nCONFIG_SLUB=y\nCONFIG_SLUB_TINY=y\nCONFIG_NET=y\n", "slob-to-slub-tiny");
	expect("slob before 6.2", "CONFIG_SLOB=y\n", "6.1", "CONFIG_SLOB=y\n", "");
	/* from 6.8 SLUB has no prompt: no CONFIG_SLUB=y (savedefconfig form) */
	expect("slob, newest", "CONFIG_SLOB=y\n", "6.12",
	       "CONFIG_SLUB_TINY=y\n", "slob-to-slub-tiny");
	expect("slob_deprecated on 6.3", "CONFIG_SLOB_DEPRECATED=y\n", "6.3",
	       "CONFIG_SLOB_DEPRECATED=y\n", "");
	expect("slob_deprecated", "# x\nCONFIG_SLOB_DEPRECATED=y\n", "6.4",
	       "# x\nCONFIG_SLUB=y\nCONFIG_SLUB_TINY=y\n", "slob-deprecated-to-slub-tiny");
	expect("slab on 6.4", "CONFIG_SLAB=y\n", "6.4", "CONFIG_SLAB=y\n", "");
	expect("slab", "CONFIG_SLAB=y\nCONFIG_X=m\n", "6.5", "CONFIG_SLUB=y\nCONFIG_X=m\n",
	       "slab-to-slub");
	expect("slab_deprecated on 6.7", "CONFIG_SLAB_DEPRECATED=y\n", "6.7",
	       "CONFIG_SLAB_DEPRECATED=y\n", "");
	expect("slab_deprecated", "CONFIG_SLAB_DEPRECATED=y\n", "6.8", "",
	       "slab-deprecated-to-slub");
	/* tiny.config of 6.1, as upstream did for 6.2 and what later targets need. */
	expect("tiny.config", "# CONFIG_SLAB is not set\n# CONFIG_SLUB is not set\nCONFIG_SLOB=y\n",
	       "6.2", "# CONFIG_SLAB is not set\n# CONFIG_SLOB_DEPRECATED is not set\n"
	       "CONFIG_SLUB=y\nCONFIG_SLUB_TINY=y\n", "slub-not-set slob-to-slub-tiny");
	expect("tiny.config", "# CONFIG_SLAB is not set\n# CONFIG_SLUB is not set\nCONFIG_SLOB=y\n",
	       "6.4", "# CONFIG_SLAB is not set\nCONFIG_SLUB=y\nCONFIG_SLUB_TINY=y\n",
	       "slub-not-set slob-to-slub-tiny");
	expect("slub=n with slab", "CONFIG_SLAB=y\nCONFIG_SLUB=n\n", "6.5",
	       "CONFIG_SLUB=y\n# CONFIG_SLAB_DEPRECATED is not set\n", "slab-to-slub slub-not-set");
	expect("slub not set with slab", "CONFIG_SLAB=y\n# CONFIG_SLUB is not set\n", "6.8",
	       "", "slab-to-slub slub-not-set");
	expect("slub not set alone", "# CONFIG_SLUB is not set\n", "6.2",
	       "# CONFIG_SLUB is not set\n", "");
	expect("old member already listed",
	       "# CONFIG_SLOB_DEPRECATED is not set\n# CONFIG_SLUB is not set\nCONFIG_SLOB=y\n", "6.2",
	       "# CONFIG_SLOB_DEPRECATED is not set\nCONFIG_SLUB=y\nCONFIG_SLUB_TINY=y\n",
	       "slub-not-set slob-to-slub-tiny");
	expect("tiny not set", "# CONFIG_SLUB_TINY is not set\nCONFIG_SLOB=y\n", "6.2",
	       "CONFIG_SLUB=y\nCONFIG_SLUB_TINY=y\n", "slub-tiny-not-set slob-to-slub-tiny");
	expect("tiny not set without slob", "# CONFIG_SLUB_TINY is not set\nCONFIG_SLAB=y\n",
	       "6.5", "# CONFIG_SLUB_TINY is not set\nCONFIG_SLUB=y\n", "slab-to-slub");
	expect("slub already set", "CONFIG_SLUB=y\nCONFIG_SLOB=y\n", "6.2",
	       "CONFIG_SLUB=y\nCONFIG_SLUB_TINY=y\n", "slob-to-slub-tiny");
	/* the allocator is a choice: conf takes the last member set to y */
	expect("both already set", "CONFIG_SLOB=y\nCONFIG_SLUB=y\nCONFIG_SLUB_TINY=y\n", "6.2",
	       "CONFIG_SLUB=y\nCONFIG_SLUB_TINY=y\n", "slab-choice-overridden");
	expect("slob and slob_deprecated", "CONFIG_SLOB=y\nCONFIG_SLOB_DEPRECATED=y\n", "6.4",
	       "CONFIG_SLUB=y\nCONFIG_SLUB_TINY=y\n",
	       "slab-choice-overridden slob-deprecated-to-slub-tiny");
	expect("slob then slab: slab wins", "CONFIG_SLOB=y\nCONFIG_X=y\nCONFIG_SLAB=y\n", "6.12",
	       "CONFIG_X=y\n", "slab-choice-overridden slab-to-slub");
	expect("slab then slob: slob wins", "CONFIG_SLAB=y\nCONFIG_SLOB=y\n", "6.5",
	       "CONFIG_SLUB=y\nCONFIG_SLUB_TINY=y\n", "slab-choice-overridden slob-to-slub-tiny");
	/* conf reads a bool by its first character: the comment is the user's, kept */
	expect("trailing comment", "CONFIG_SLOB=y # small board\n", "6.12",
	       "CONFIG_SLUB_TINY=y # small board\n", "slob-to-slub-tiny");
	expect("trailing comment, two lines", "CONFIG_SLAB=y\t# big\nCONFIG_SLOB=y  # small\n", "6.2",
	       "# big\nCONFIG_SLUB=y  # small\nCONFIG_SLUB_TINY=y\n",
	       "slab-choice-overridden slob-to-slub-tiny");
	expect("trailing comment, nothing else written", "CONFIG_SLUB=y\nCONFIG_SLUB_TINY=y\n"
	       "CONFIG_SLOB=y # was\n", "6.2", "CONFIG_SLUB=y\nCONFIG_SLUB_TINY=y\n# was\n",
	       "slob-to-slub-tiny");
	expect("trailing comment on a deleted line", "CONFIG_SLAB_DEPRECATED=y # old\n", "6.8",
	       "# old\n", "slab-deprecated-to-slub");
	expect("slob=n is no allocator", "CONFIG_SLOB=n\n", "6.2", "CONFIG_SLOB=n\n", "");
	expect("slob=m is no allocator", "CONFIG_SLOB=m\n", "6.2", "CONFIG_SLOB=m\n", "");
	expect("CRLF", "CONFIG_A=y\r\nCONFIG_SLOB=y\r\nCONFIG_B=y\r\n", "6.2",
	       "CONFIG_A=y\r\nCONFIG_SLUB=y\r\nCONFIG_SLUB_TINY=y\r\nCONFIG_B=y\r\n",
	       "slob-to-slub-tiny");
	expect("no final newline", "CONFIG_A=y\nCONFIG_SLOB=y", "6.2",
	       "CONFIG_A=y\nCONFIG_SLUB=y\nCONFIG_SLUB_TINY=y", "slob-to-slub-tiny");
	expect("trailing blanks", "CONFIG_SLOB=y  \n", "6.2",
	       "CONFIG_SLUB=y\nCONFIG_SLUB_TINY=y\n", "slob-to-slub-tiny");
	expect("empty file", "", "6.12", "", "");
	/* 7.0: SLUB_CPU_PARTIAL is gone, "is not set" as much as "=y" */
	expect("cpu partial not set on 6.19", "# CONFIG_SLUB_CPU_PARTIAL is not set\n", "6.19",
	       "# CONFIG_SLUB_CPU_PARTIAL is not set\n", "");
	expect("cpu partial not set", "CONFIG_A=y\n# CONFIG_SLUB_CPU_PARTIAL is not set\n", "7.0",
	       "CONFIG_A=y\n", "slub-cpu-partial-removed");
	expect("cpu partial y", "CONFIG_SLUB_CPU_PARTIAL=y\nCONFIG_B=y\n", "7.3",
	       "CONFIG_B=y\n", "slub-cpu-partial-removed");
	/* 7.2: RANDOM_KMALLOC_CACHES is a transitional name */
	expect("random kmalloc on 7.1", "CONFIG_RANDOM_KMALLOC_CACHES=y\n", "7.1",
	       "CONFIG_RANDOM_KMALLOC_CACHES=y\n", "");
	expect("random kmalloc", "CONFIG_RANDOM_KMALLOC_CACHES=y # hardening\n", "7.2",
	       "CONFIG_KMALLOC_PARTITION_CACHES=y # hardening\n", "random-kmalloc-to-partition");
	expect("random kmalloc off", "# CONFIG_RANDOM_KMALLOC_CACHES is not set\n", "7.2",
	       "# CONFIG_KMALLOC_PARTITION_CACHES is not set\n", "random-kmalloc-to-partition");
	expect("random kmalloc beside tiny", "CONFIG_SLUB_TINY=y\nCONFIG_RANDOM_KMALLOC_CACHES=y\n",
	       "7.2", "CONFIG_SLUB_TINY=y\n", "random-kmalloc-to-partition");
	expect("random kmalloc in a file moved off slob",
	       "CONFIG_RANDOM_KMALLOC_CACHES=y\nCONFIG_SLOB=y\n", "7.3",
	       "CONFIG_SLUB_TINY=y\n", "random-kmalloc-to-partition slob-to-slub-tiny");
	expect("random kmalloc and the new name", "CONFIG_RANDOM_KMALLOC_CACHES=y\n"
	       "# CONFIG_KMALLOC_PARTITION_CACHES is not set\n", "7.2",
	       "# CONFIG_KMALLOC_PARTITION_CACHES is not set\n", "random-kmalloc-to-partition");
}

static void test_rule_notes(void)
{
	struct st_migration m;
	char *out;

	out = run("CONFIG_EXPERT=y\n# CONFIG_SLUB_CPU_PARTIAL is not set\n", "7.0", &m);
	ok(m.nr_changes == 1 && strstr(m.changes[0].msg, "removed") &&
	   strstr(m.changes[0].msg, "Linux 7.0"), "cpu partial note names the release: %s",
	   m.nr_changes ? m.changes[0].msg : "");
	free(out);
	st_migration_release(&m);
	out = run("CONFIG_RANDOM_KMALLOC_CACHES=y\n", "7.2", &m);
	ok(m.nr_changes == 1 &&
	   !strcmp(m.changes[0].msg, "CONFIG_RANDOM_KMALLOC_CACHES=y -> CONFIG_KMALLOC_PARTITION_CACHES=y"),
	   "random kmalloc note: %s", m.nr_changes ? m.changes[0].msg : "");
	free(out);
	st_migration_release(&m);
	out = run("CONFIG_SLUB_TINY=y\nCONFIG_RANDOM_KMALLOC_CACHES=y\n", "7.2", &m);
	ok(m.nr_changes == 1 && strstr(m.changes[0].msg, "KMALLOC_PARTITION_CACHES") &&
	   strstr(m.changes[0].msg, "Linux 7.2") && strstr(m.changes[0].msg, "!SLUB_TINY"),
	   "random kmalloc beside tiny: %s", m.nr_changes ? m.changes[0].msg : "");
	free(out);
	st_migration_release(&m);
	/* without verification: the symbols a target lacks are findings */
	out = run("CONFIG_SLAB_BUCKETS=y\nCONFIG_KMALLOC_PARTITION_CACHES=y\n", "6.6", &m);
	ok(has_finding(&m, 1, "SLAB_BUCKETS", "unknown") &&
	   has_finding(&m, 2, "KMALLOC_PARTITION_CACHES", "unknown"), "6.11 and 7.2 symbols on 6.6");
	free(out);
	st_migration_release(&m);
}

static void test_findings(void)
{
	struct st_migration m;
	char *out;

	out = run("# CONFIG_SLAB is not set\nCONFIG_DEBUG_SLAB=y\n# CONFIG_SLUB is not set\n"
		  "CONFIG_A=y\nCONFIG_A=y\nCONFIG_B=y\n# CONFIG_B is not set\ngarbage\n",
		  "6.12", &m);
	ok(has_finding(&m, 1, "SLAB", "unknown"), "removed SLAB is unknown on 6.12");
	ok(has_finding(&m, 2, "DEBUG_SLAB", "unknown"), "DEBUG_SLAB is unknown on 6.12");
	ok(has_finding(&m, 3, "SLUB", "ineffective") && !strcmp(m.findings[2].actual, "y") &&
	   m.findings[2].line == 3,
	   "SLUB cannot be disabled on 6.12");
	ok(has_finding(&m, 5, "A", "duplicate"), "duplicate");
	ok(has_finding(&m, 7, "B", "conflict"), "conflict");
	ok(has_finding(&m, 8, "", "syntax"), "garbage line");
	ok(m.nr_findings == 6 && !m.changed, "nothing else, nothing changed");
	free(out);
	st_migration_release(&m);

	out = run("CONFIG_SLUB_TINY=y\n# CONFIG_SLOB_DEPRECATED is not set\n", "6.1", &m);
	ok(has_finding(&m, 1, "SLUB_TINY", "unknown") &&
	   has_finding(&m, 2, "SLOB_DEPRECATED", "unknown"), "too new for 6.1");
	free(out);
	st_migration_release(&m);

	/* Findings are numbered in the migrated file. */
	out = run("CONFIG_SLOB=y\n# CONFIG_SLAB is not set\n", "6.12", &m);
	ok(has_finding(&m, 2, "SLAB", "unknown") && m.nr_findings == 1,
	   "finding lines are lines of the migrated file");
	free(out);
	st_migration_release(&m);
}

static void test_kver(void)
{
	struct st_kver v;

	ok(!st_kver_parse("6.2", &v) && v.major == 6 && v.minor == 2, "6.2");
	ok(!st_kver_parse("v6.12.57", &v) && v.minor == 12, "v6.12.57");
	ok(!st_kver_parse("6.1-rc3", &v) && v.minor == 1, "6.1-rc3");
	ok(st_kver_parse("6", &v) && st_kver_parse("six", &v) && st_kver_parse("6.x", &v) &&
	   st_kver_parse("6.2junk", &v) && st_kver_parse("", &v), "bad versions refused");
	ok(st_kver_cmp(kv("6.2"), kv("6.12")) < 0 && st_kver_cmp(kv("7.0"), kv("6.12")) > 0,
	   "ordering");
	ok(st_kver_cmp(st_kver_newest, kv("7.3")) >= 0, "newest known >= 7.3");
}

static void test_collateral(void)
{
	const struct st_symval before[] = {
		{ "SLUB", "y" }, { "SLUB_TINY", "n" }, { "SLUB_CPU_PARTIAL", "y" },
		{ "SLAB_MERGE_DEFAULT", "n" }, { "NET", "y" }, { "GONE", "y" },
		{ "HZ", "100" }, { "UNDEF_N", NULL },
	};
	const struct st_symval after[] = {
		{ "NET", "y" }, { "SLAB_MERGE_DEFAULT", "y" }, { "SLUB_TINY", "y" },
		{ "SLUB_CPU_PARTIAL", "n" }, { "SLUB", "y" }, { "NEW", "m" },
		{ "HZ", "100" }, { "UNDEF_N", "n" },
	};
	const char *const skip[] = { "SLUB_TINY", NULL };
	struct st_collateral *c;
	size_t n;

	ok(!st_migrate_collateral(before, 8, after, 8, skip, &c, &n), "collateral");
	ok(n == 4 && !strcmp(c[0].sym, "GONE") && !strcmp(c[0].old, "y") && !c[0].new &&
	   !strcmp(c[1].sym, "NEW") && !c[1].old && !strcmp(c[1].new, "m") &&
	   !strcmp(c[2].sym, "SLAB_MERGE_DEFAULT") && !strcmp(c[2].new, "y") &&
	   !strcmp(c[3].sym, "SLUB_CPU_PARTIAL") && !strcmp(c[3].new, "n"),
	   "sorted differences, skip list and undefined == n honoured");
	st_collateral_free(c, n);
	ok(!st_migrate_collateral(before, 8, before, 8, NULL, &c, &n) && n == 0,
	   "no difference, no collateral");
	st_collateral_free(c, n);
}

/*
 * The rewrite builds its output from the front; an inserted line must still
 * take the end of line st_defconfig_insert() gives (the most common in the
 * file as it stands), also where a mixed file's majority tips. Judged
 * against the edit API applied to a copy, line by line, as before.
 */
static void test_eol_majority(void)
{
	/* 2 LF, 2 CRLF: tied; each rewrite changes the count it sees */
	static const char *const in[] = {
		"CONFIG_A=y\r\nCONFIG_SLOB=y\nCONFIG_B=y\r\n# CONFIG_SLUB is not set\n",
		"CONFIG_SLOB=y\r\nCONFIG_A=y\nCONFIG_B=y\n",
		"CONFIG_A=y\r\nCONFIG_B=y\r\nCONFIG_SLOB=y\n",
		"CONFIG_SLOB=y\r\n# CONFIG_SLUB is not set\n# CONFIG_SLUB_TINY is not set\r\nCONFIG_A=y",
		"CONFIG_A=y\r\nCONFIG_B=y\nCONFIG_SLOB=y",
		"CONFIG_A=y\r\nCONFIG_SLOB=y\n# CONFIG_SLUB_TINY is not set",
		/* CRLF leads 3:2 in the input, ties once the deleted line is gone */
		"CONFIG_A=y\n# CONFIG_SLUB_TINY is not set\r\nCONFIG_SLOB=y\r\nCONFIG_B=y\r\nCONFIG_C=y\n",
	};
	size_t i;

	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		struct st_defconfig *dc, *ref;
		struct st_migration m;
		char *out, *want;
		size_t len, j, at;

		out = run(in[i], "6.3", &m);
		/* the same edits through the API that counts the whole file */
		if (st_defconfig_parse(&dc, in[i], strlen(in[i]), "t", NULL) ||
		    st_defconfig_dup(&ref, dc))
			abort();
		for (j = 0, at = 0; j < dc->nr_lines; j++) {
			const struct st_dc_line *l = &dc->lines[j];

			if (l->sym && !strcmp(l->sym, "SLOB")) {
				st_defconfig_replace(ref, at, "CONFIG_SLUB=y");
				st_defconfig_insert(ref, ++at, "CONFIG_SLUB_TINY=y");
			} else if (l->kind == ST_DC_NOT_SET && !strcmp(l->sym, "SLUB")) {
				st_defconfig_replace(ref, at, "# CONFIG_SLOB_DEPRECATED is not set");
			} else if (l->kind == ST_DC_NOT_SET && !strcmp(l->sym, "SLUB_TINY")) {
				st_defconfig_delete(ref, at--);
			}
			at++;
		}
		if (st_defconfig_render(ref, &want, &len))
			abort();
		ok(!strcmp(out, want), "mixed ends of line %zu: inserted lines as the edit API", i);
		if (strcmp(out, want))
			printf("# got:\n%s# want:\n%s", out, want);
		free(out);
		free(want);
		st_defconfig_free(dc);
		st_defconfig_free(ref);
		st_migration_release(&m);
	}
}

int main(void)
{
	test_eol_majority();
	test_rules();
	test_rule_notes();
	test_findings();
	test_kver();
	test_collateral();
	printf("1..%d\n", nr_test);
	return nr_fail ? 1 : 0;
}
