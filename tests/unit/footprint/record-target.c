// SPDX-License-Identifier: GPL-2.0-only
/*
 * A program with a known allocation pattern, run under the recorder by
 * test-record. Sizes are unusual on purpose so that the test can pick
 * these calls out of whatever libc and the loader allocate.
 */
#include <pthread.h>
#include <stdlib.h>

static void *worker(void *arg)
{
	void *p[50];
	int i;

	for (i = 0; i < 50; i++)
		p[i] = malloc(4097);
	for (i = 0; i < 50; i++)
		free(p[i]);
	return arg;
}

int main(void)
{
	void *p[100], *q;
	pthread_t t;
	int i;

	for (i = 0; i < 100; i++)
		p[i] = malloc(1001 + i);
	for (i = 99; i >= 0; i--)
		free(p[i]);
	for (i = 0; i < 10; i++)
		p[i] = calloc(7, 313);
	for (i = 0; i < 10; i++)
		free(p[i]);
	q = malloc(3001);
	for (i = 3002; i <= 3010; i++)
		q = realloc(q, i);
	free(q);
	q = realloc(NULL, 5001);
	q = realloc(q, 0);	/* glibc frees */
	free(q);
	if (pthread_create(&t, NULL, worker, NULL) || pthread_join(t, NULL))
		return 1;
	return 0;
}
