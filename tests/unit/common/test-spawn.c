// SPDX-License-Identifier: GPL-2.0-only
/*
 * The spawner: what a child's environment holds, and children started
 * while other threads of the parent allocate all the time (the child of a
 * fork() that allocates can inherit a malloc lock held by one of them and
 * never run its program: seen under ASan, as a test that hung).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/spawn.h"
#include "../../tap.h"

static int stop;

static void *churn(void *arg)
{
	size_t n = 0;

	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		void *p = malloc(16 + n++ % 4096);

		free(p);
	}
	return NULL;
}

static void test_env(void)
{
	char *argv[] = { "sh", "-c", "printf '%s|%s|%s' \"$ST_A\" \"$ST_B\" \"${ST_C-unset}\"", NULL };
	char *add[] = { "ST_A=new", "ST_B=b=c", NULL };
	char *out = NULL;
	int st;

	setenv("ST_A", "old", 1);
	setenv("ST_C", "kept", 1);
	st = st_run(argv, add, NULL, &out, NULL, 0);
	ok(st == 0 && out && !strcmp(out, "new|b=c|kept"),
	   "env_add replaces and adds, the rest is inherited (got %s)", out ? out : "(null)");
	free(out);
	ok(!strcmp(getenv("ST_A"), "old") && !getenv("ST_B"), "the parent's environment is untouched");
	unsetenv("ST_C");
	st = st_run(argv, NULL, NULL, &out, NULL, 0);
	ok(st == 0 && out && !strcmp(out, "old||unset"), "no env_add: the environment as it is");
	free(out);

	argv[0] = "/nonexistent/st-no-such-program";
	st = st_run(argv, add, NULL, NULL, NULL, 0);
	ok(st == 127, "a program that cannot run: exit status 127 (got %d)", st);
}

static void test_threads(void)
{
	char *argv[] = { "sh", "-c", "printf \"$ST_SPAWN\"", NULL };
	char *add[] = { "ST_SPAWN=x", NULL };
	pthread_t t[2];
	int i, nt = 0, good = 0;
	char *out;

	for (i = 0; i < 2; i++)
		nt += !pthread_create(&t[nt], NULL, churn, NULL);
	for (i = 0; i < 200; i++) {
		out = NULL;
		if (st_run(argv, add, NULL, &out, NULL, 0) == 0 && out && !strcmp(out, "x"))
			good++;
		free(out);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < nt; i++)
		pthread_join(t[i], NULL);
	ok(nt == 2 && good == 200, "200 children beside %d allocating threads: %d ran", nt, good);
}

int main(void)
{
	test_env();
	test_threads();
	printf("1..%d\n", nr_test);
	return nr_fail != 0;
}
