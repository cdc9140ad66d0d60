/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the "target asleep" tests share (test_rdma_asleep, test_ibv_asleep, test_comch_asleep):
 * the monotonic clock their bounds are kept with, the pipe between the active and the passive
 * process (every read bounded), and their scenario names, STATE:OP or STATE:OP:sleep.
 */
#ifndef SOFTDOCA_TESTS_UNIT_ASLEEP_H
#define SOFTDOCA_TESTS_UNIT_ASLEEP_H

#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline double asleep_now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static inline bool asleep_put(const void *p, size_t n, int fd)
{
	return write(fd, p, n) == (ssize_t)n;
}

/* n bytes from fd, within `secs` (false: not there, EOF or time-out). */
static inline bool asleep_get(void *p, size_t n, int fd, int secs)
{
	size_t got = 0;

	while (got < n) {
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		ssize_t r;

		if (poll(&pf, 1, secs * 1000) != 1)
			return false;
		r = read(fd, (char *)p + got, n - got);
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

/* "STATE:OP" or "STATE:OP:sleep" as indexes into the two name tables; false if unknown. */
static inline bool asleep_scenario(const char *arg, const char *const *states, int nstates, const char *const *ops,
				   int nops, int *state, int *op, bool *sleep)
{
	char name[64], *st, *o, *sl, *save = NULL;

	snprintf(name, sizeof(name), "%s", arg);
	st = strtok_r(name, ":", &save);
	o = strtok_r(NULL, ":", &save);
	sl = strtok_r(NULL, ":", &save);
	*state = *op = -1;
	for (int k = 0; st != NULL && k < nstates; k++)
		if (strcmp(st, states[k]) == 0)
			*state = k;
	for (int k = 0; o != NULL && k < nops; k++)
		if (strcmp(o, ops[k]) == 0)
			*op = k;
	*sleep = sl != NULL && strcmp(sl, "sleep") == 0;
	return *state >= 0 && *op >= 0;
}

#endif /* SOFTDOCA_TESTS_UNIT_ASLEEP_H */
