/* SPDX-License-Identifier: BSD-3-Clause */
/* What the RoCEv2 tests share (test_rdma_roce*.c): devices by IB name, progress loops, pipes, patterns. */
#ifndef ROCE_TEST_H
#define ROCE_TEST_H

#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "rdma_test.h"

/* The device of the configuration whose IB name is `name`, or NULL. */
static inline struct doca_dev *open_ibdev_maybe(const char *name)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		char ib[DOCA_DEVINFO_IBDEV_NAME_SIZE] = "";

		if (doca_devinfo_get_ibdev_name(list[i], ib, sizeof(ib)) == DOCA_SUCCESS && strcmp(ib, name) == 0)
			CHECK_OK(doca_dev_open(list[i], &dev));
	}
	CHECK_OK(doca_devinfo_destroy_list(list));
	return dev;
}

static inline struct doca_dev *open_ibdev(const char *name)
{
	struct doca_dev *dev = open_ibdev_maybe(name);

	CHECK(dev != NULL);
	return dev;
}

/* (RUN_UNTIL_S: rdma_test.h) A minute: lossy runs retransmit a lot on a loaded machine. */
#define RUN_UNTIL(s, cond) RUN_UNTIL_S(s, cond, 60)

/* Length-prefixed blobs over a pipe. */
static inline void put_blob(int fd, const void *p, size_t len)
{
	uint32_t l = (uint32_t)len;

	CHECK(write(fd, &l, 4) == 4 && write(fd, p, len) == (ssize_t)len);
}

static inline size_t get_blob(int fd, void *p, size_t cap)
{
	uint32_t l = 0;
	size_t got = 0;

	CHECK(read(fd, &l, 4) == 4 && l <= cap);
	while (got < l && l <= cap) {
		ssize_t n = read(fd, (char *)p + got, l - got);

		if (n <= 0)
			break;
		got += (size_t)n;
	}
	CHECK(got == l);
	return got;
}

static inline uint8_t pattern(size_t i, unsigned seed)
{
	return (uint8_t)((i * 131u + seed * 7u + (i >> 8)) & 0xff);
}

static inline void fill(char *p, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (char)pattern(i, seed);
}

static inline bool is_pattern(const char *p, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		if ((uint8_t)p[i] != pattern(i, seed))
			return false;
	return true;
}

/* Forks: the child runs run_b(in, out) and exits with it; the parent runs run_a(in, out, child). */
static inline void run_two_processes(int (*run_b)(int in, int out), void (*run_a)(int in, int out, pid_t b))
{
	int a2b[2], b2a[2];
	pid_t pid;

	CHECK(pipe(a2b) == 0 && pipe(b2a) == 0);
	pid = fork();
	if (pid == 0) {
		close(a2b[1]);
		close(b2a[0]);
		test_failures = 0;
		_exit(run_b(a2b[0], b2a[1]));
	}
	close(a2b[0]);
	close(b2a[1]);
	run_a(b2a[0], a2b[1], pid);
	close(a2b[1]);
	close(b2a[0]);
}

#endif /* ROCE_TEST_H */
