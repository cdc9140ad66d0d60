/* SPDX-License-Identifier: BSD-3-Clause */
/* Whether a file lies on tmpfs, and whether a process has it mapped (the soft NVMe disk's mapping, nvme map.c). */
#ifndef SOFTDOCA_TESTS_PROC_MAPS_H
#define SOFTDOCA_TESTS_PROC_MAPS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/vfs.h>

static inline bool path_on_tmpfs(const char *path)
{
	struct statfs sf;

	return statfs(path, &sf) == 0 && sf.f_type == 0x01021994; /* TMPFS_MAGIC */
}

/* Whether the soft NVMe disk maps a hole-free tmpfs file: not where the environment keeps io_uring or says no. */
static inline bool nvme_map_on(void)
{
	const char *inl = getenv("SOFTDOCA_NVME_INLINE"), *map = getenv("SOFTDOCA_NVME_MAP");

	return !(inl != NULL && inl[0] == '0') && !(map != NULL && map[0] == '0');
}

/* True when /proc/PID/maps (pid 0: this process) shows path mapped. */
static inline bool maps_show(pid_t pid, const char *path)
{
	char name[64], line[512];
	bool found = false;
	FILE *f;

	if (pid == 0)
		snprintf(name, sizeof(name), "/proc/self/maps");
	else
		snprintf(name, sizeof(name), "/proc/%d/maps", (int)pid);
	f = fopen(name, "r");
	if (f == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		found = strstr(line, path) != NULL;
	fclose(f);
	return found;
}

#endif
