/* SPDX-License-Identifier: BSD-3-Clause */
/* The tests' look at threads of their own process by name: how many, how often they slept. */
#ifndef TEST_THREAD_SWITCHES_H
#define TEST_THREAD_SWITCHES_H

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The whole of a small /proc file into buf (NUL-terminated); false if it cannot be read. */
static inline bool proc_read(const char *task, const char *file, char *buf, size_t cap)
{
	char path[300];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%s/%s", task, file);
	f = fopen(path, "r");
	if (f == NULL)
		return false;
	n = fread(buf, 1, cap - 1, f);
	fclose(f);
	buf[n] = 0;
	return true;
}

/* Is task (a tid under /proc/self/task) named exactly comm? */
static inline bool task_named(const char *task, const char *comm)
{
	char buf[64];
	size_t len = strlen(comm);

	return task[0] != '.' && proc_read(task, "comm", buf, sizeof(buf)) && strncmp(buf, comm, len) == 0 &&
	       buf[len] == '\n';
}

/*
 * The voluntary context switches of this process's threads named `comm` (a blocked thread
 * switches once per wake-up), summed; -1 when there is none.
 */
static inline long thread_switches(const char *comm)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	long total = -1;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		char buf[4096];
		const char *v;
		long sw;

		if (!task_named(de->d_name, comm) || !proc_read(de->d_name, "status", buf, sizeof(buf)))
			continue;
		v = strstr(buf, "\nvoluntary_ctxt_switches:");
		if (v != NULL && sscanf(v, "\nvoluntary_ctxt_switches: %ld", &sw) == 1)
			total = (total < 0 ? 0 : total) + sw;
	}
	closedir(d);
	return total;
}

/*
 * The scheduler state of this process's first thread named `comm` ('R' running or runnable,
 * 'S' blocked in a system call, ...); 0 when there is none.
 */
static inline char thread_state(const char *comm)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	char state = 0;

	if (d == NULL)
		return 0;
	while (state == 0 && (de = readdir(d)) != NULL) {
		char buf[4096];
		const char *v;

		if (!task_named(de->d_name, comm) || !proc_read(de->d_name, "stat", buf, sizeof(buf)))
			continue;
		v = strrchr(buf, ')'); /* the name in parentheses may hold spaces; the state follows it */
		if (v != NULL && v[1] == ' ')
			state = v[2];
	}
	closedir(d);
	return state;
}

/* This process's threads whose name starts with prefix (io_uring's io-wq workers: "iou-wrk-"). */
static inline int threads_named(const char *prefix)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		char comm[64];

		if (de->d_name[0] != '.' && proc_read(de->d_name, "comm", comm, sizeof(comm)) &&
		    strncmp(comm, prefix, strlen(prefix)) == 0)
			n++;
	}
	closedir(d);
	return n;
}

/* The system call thread tid of this process sleeps in (/proc/self/task/TID/syscall), or -1. */
static inline long task_syscall(long tid)
{
	char task[24], line[64];
	long nr;

	snprintf(task, sizeof(task), "%ld", tid);
	if (!proc_read(task, "syscall", line, sizeof(line)) || sscanf(line, "%ld", &nr) != 1)
		return -1;
	return nr;
}

#endif /* TEST_THREAD_SWITCHES_H */
