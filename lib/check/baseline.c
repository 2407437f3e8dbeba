// SPDX-License-Identifier: GPL-2.0-only
/*
 * --baseline auto: which git revision a change is measured against, and
 * the words for a revision a shallow clone does not have. Every git run is
 * quiet: what git says on stderr never reaches the user; what it means is
 * said here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/check.h"
#include "check/check_priv.h"
#include "common/error.h"
#include "common/spawn.h"

/* The branches a default branch is looked for under, in this order. */
static const char *const default_branches[] = {
	"origin/HEAD", "origin/main", "origin/master", "main", "master",
};

#define SHALLOW_HINT "fetch more history (git fetch --unshallow)"

/*
 * Run git @argv in @dir with stderr to /dev/null; the first line of its
 * output into @line (@len > 0), "" when it printed none. Returns git's
 * exit status, or -errno when it could not run.
 */
int st_check_git(const char *dir, char *line, size_t len, char *const argv[])
{
	char *out = NULL;
	int ret;

	line[0] = '\0';
	ret = st_run(argv, NULL, dir, &out, NULL, ST_SPAWN_QUIET);
	if (ret >= 0 && out) {
		out[strcspn(out, "\n")] = '\0';
		snprintf(line, len, "%s", out);
	}
	free(out);
	return ret;
}

bool st_check_git_shallow(const char *dir)
{
	char *argv[] = { "git", "rev-parse", "--is-shallow-repository", NULL };
	char line[16];

	return st_check_git(dir, line, sizeof(line), argv) == 0 && !strcmp(line, "true");
}

/*
 * The commit @rev names, in @hash; -ENOENT when it names none here (a
 * leading '-' is no revision: git would take it for an option).
 */
static int commit_of(const char *dir, const char *rev, char *hash, size_t len)
{
	char *argv[] = { "git", "rev-parse", "--quiet", "--verify", NULL, NULL };
	char *spec;
	int ret;

	hash[0] = '\0';
	if (!rev[0] || rev[0] == '-')
		return -ENOENT;
	spec = malloc(strlen(rev) + sizeof("^{commit}"));
	if (!spec)
		return -ENOMEM;
	sprintf(spec, "%s^{commit}", rev);
	argv[4] = spec;
	ret = st_check_git(dir, hash, len, argv);
	free(spec);
	if (ret < 0)
		return ret;
	return ret || !hash[0] ? -ENOENT : 0;
}

/* Why @rev is not a revision here, into @err: a shallow clone says how to get it. */
int st_check_baseline_missing(struct st_error *err, const char *dir, const char *file,
			      const char *what, const char *rev)
{
	if (st_check_git_shallow(dir))
		return st_err(err, ENOENT, file, "%s%s: not in this shallow clone; "
			      SHALLOW_HINT " or give another revision", what, rev);
	return st_err(err, ENOENT, file, "%s%s: not a git revision here", what, rev);
}

/* The merge base of commits @a and @b into @hash: -ENOENT when they have none. */
static int merge_base(const char *dir, const char *a, const char *b, char *hash, size_t len)
{
	char *argv[] = { "git", "merge-base", (char *)a, (char *)b, NULL };
	int ret = st_check_git(dir, hash, len, argv);

	if (ret < 0)
		return ret;
	return ret || !hash[0] ? -ENOENT : 0;
}

static int set_ref(struct st_baseline *b, const char *ref, const char *ref2)
{
	int n = snprintf(b->ref, sizeof(b->ref), "%s", ref);
	int n2 = snprintf(b->ref2, sizeof(b->ref2), "%s", ref2 ? ref2 : "");

	return n < 0 || (size_t)n >= sizeof(b->ref) || n2 < 0 ||
	       (size_t)n2 >= sizeof(b->ref2) ? -ENAMETOOLONG : 0;
}

/*
 * pre-commit's ref range: the files it names are those of `git diff
 * FROM...TO`, so the baseline is what that diffs against, the merge base
 * of the two (the from-ref itself when there is none, as pre-commit's own
 * fallback to FROM..TO).
 */
static int from_ref(struct st_baseline *b, const char *dir, const char *from,
		    const char *to, struct st_error *err)
{
	char to_hash[128], mb[128];
	int ret;

	ret = commit_of(dir, from, b->rev, sizeof(b->rev));
	if (ret == -ENOENT)
		return st_check_baseline_missing(err, dir, "", "baseline auto: pre-commit's from-ref ",
						 from);
	if (ret)
		return st_err(err, -ret, "", "baseline auto: cannot run git: %s", strerror(-ret));
	b->from = ST_BASELINE_FROM_REF;
	if (set_ref(b, from, to))
		return st_err(err, ENAMETOOLONG, "", "baseline auto: pre-commit's ref names are too long");
	if (!to || commit_of(dir, to, to_hash, sizeof(to_hash)) ||
	    merge_base(dir, b->rev, to_hash, mb, sizeof(mb)) || !strcmp(mb, b->rev))
		return 0;
	b->from = ST_BASELINE_FROM_MERGE_BASE;
	snprintf(b->rev, sizeof(b->rev), "%s", mb);
	return 0;
}

/*
 * Uncommitted changes to tracked files, staged or not: a commit in
 * progress (pre-commit stashes what is not staged), or a local run over
 * an edit. A clean tree (CI's clone) compares with the default branch.
 */
static bool uncommitted(const char *dir)
{
	char *argv[] = { "git", "diff", "HEAD", "--quiet", "--no-ext-diff", NULL };
	char line[8];

	return st_check_git(dir, line, sizeof(line), argv) == 1;
}

/* The first of default_branches that names a commit here, into b->ref; false: none. */
static bool default_branch(struct st_baseline *b, const char *dir, char *hash, size_t len)
{
	char *abbrev[] = { "git", "rev-parse", "--abbrev-ref", "origin/HEAD", NULL };
	size_t i;

	for (i = 0; i < sizeof(default_branches) / sizeof(default_branches[0]); i++) {
		if (commit_of(dir, default_branches[i], hash, len))
			continue;
		snprintf(b->ref, sizeof(b->ref), "%s", default_branches[i]);
		/* origin/HEAD by the branch it points to */
		if (i == 0 && (st_check_git(dir, b->ref, sizeof(b->ref), abbrev) || !b->ref[0]))
			snprintf(b->ref, sizeof(b->ref), "%s", default_branches[i]);
		return true;
	}
	return false;
}

/* No ref range, no uncommitted change: the merge base of HEAD and the default branch. */
static int from_branch(struct st_baseline *b, const char *dir, const char *head,
		       struct st_error *err)
{
	char def[128];
	int ret;

	if (!default_branch(b, dir, def, sizeof(def))) {
		b->from = ST_BASELINE_NO_DEFAULT;
		return 0;
	}
	ret = merge_base(dir, head, def, b->rev, sizeof(b->rev));
	if (ret == -ENOENT && st_check_git_shallow(dir))
		return st_err(err, ENOENT, "", "baseline auto: no merge base of HEAD and %s in this "
			      "shallow clone; " SHALLOW_HINT " or give --baseline REV", b->ref);
	if (ret == -ENOENT) {
		b->from = ST_BASELINE_NO_HISTORY;
		return 0;
	}
	if (ret)
		return st_err(err, -ret, "", "baseline auto: cannot run git: %s", strerror(-ret));
	/* HEAD is on the default branch: comparing would hide everything */
	if (!strcmp(b->rev, head)) {
		b->rev[0] = '\0';
		b->from = ST_BASELINE_ON_DEFAULT;
		return 0;
	}
	b->from = ST_BASELINE_MERGE_BASE;
	return 0;
}

/* The directory git runs in for @path: itself when a directory, else its own. */
static char *dir_of(const char *path)
{
	const char *slash;
	struct stat st;

	if (!path || !strcmp(path, "-"))
		return strdup(".");
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return strdup(path);
	slash = strrchr(path, '/');
	if (!slash)
		return strdup(".");
	return strndup(path, slash == path ? 1 : (size_t)(slash - path));
}

static int decide(struct st_baseline *b, const char *dir, const char *from,
		  const char *to, struct st_error *err)
{
	char *inside[] = { "git", "rev-parse", "--is-inside-work-tree", NULL };
	char line[128];
	int ret;

	ret = st_check_git(dir, line, sizeof(line), inside);
	if (ret < 0)
		return st_err(err, -ret, "", "baseline auto: cannot run git: %s", strerror(-ret));
	if (ret || strcmp(line, "true")) {
		b->from = ST_BASELINE_NO_GIT;
		return 0;
	}
	if (from && from[0])
		return from_ref(b, dir, from, to && to[0] ? to : NULL, err);
	if (commit_of(dir, "HEAD", line, sizeof(line))) {
		b->from = ST_BASELINE_NO_COMMIT;
		return 0;
	}
	if (uncommitted(dir)) {
		b->from = ST_BASELINE_STAGED;
		snprintf(b->rev, sizeof(b->rev), "HEAD");
		return 0;
	}
	return from_branch(b, dir, line, err);
}

int st_check_baseline_auto(struct st_baseline *b, const char *path, const char *from,
			   const char *to, struct st_error *err)
{
	char *dir = dir_of(path);
	int ret;

	memset(b, 0, sizeof(*b));
	if (!dir)
		return st_err(err, ENOMEM, "", "out of memory");
	ret = decide(b, dir, from, to, err);
	free(dir);
	return ret;
}
