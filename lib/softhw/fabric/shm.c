/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared-memory segments in the run directory (see shm.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "softhw/fabric/shm.h"
#include "softhw/softhw.h"

/* <run_dir>/<kind>, created when `create`; false with *why when that fails. */
static bool shm_dir(const char *kind, bool create, char *out, size_t room, const char **why)
{
	const struct softhw_model *m;
	doca_error_t err;
	int n;

	m = softhw_model_get(&err);
	if (m == NULL) {
		*why = "the device model did not load (see its log line)";
		return false;
	}
	if (create && softhw_model_run_dir_create(m) != DOCA_SUCCESS) {
		*why = "the run directory cannot be created (see its log line)";
		return false;
	}
	n = snprintf(out, room, "%s/%s", softhw_model_run_dir(m), kind);
	if (n < 0 || (size_t)n >= room) {
		*why = "the run directory path is too long; set SOFTDOCA_RUN_DIR to a shorter one";
		return false;
	}
	if (create && mkdir(out, 0700) != 0 && errno != EEXIST) {
		*why = "a folder in the run directory cannot be created; set SOFTDOCA_RUN_DIR to a writable directory";
		return false;
	}
	return true;
}

static bool shm_path(const char *kind, const char *name, bool create, char *out, size_t room, const char **why)
{
	char dir[PATH_MAX];
	int n;

	if (!shm_dir(kind, create, dir, sizeof(dir), why))
		return false;
	n = snprintf(out, room, "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= room) {
		*why = "the run directory path is too long; set SOFTDOCA_RUN_DIR to a shorter one";
		return false;
	}
	return true;
}

static doca_error_t map_fd(int fd, size_t len, void **addr, const char **why)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED) {
		*why = "mmap of the shared segment failed (out of address space or memory)";
		return DOCA_ERROR_NO_MEMORY;
	}
	*addr = p;
	return DOCA_SUCCESS;
}

doca_error_t softhw_shm_create(const char *kind, const char *name, size_t len, void **addr, const char **why)
{
	char path[PATH_MAX];
	doca_error_t err;
	int fd;

	if (!shm_path(kind, name, true, path, sizeof(path), why))
		return DOCA_ERROR_OPERATING_SYSTEM;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST) {
		/* Names are unique among live processes: this one is a dead process's leftover. */
		(void)unlink(path);
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	}
	if (fd < 0) {
		*why = "the shared segment file cannot be created in the run directory; set SOFTDOCA_RUN_DIR to a "
		       "writable directory";
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	if (ftruncate(fd, (off_t)len) != 0) {
		close(fd);
		(void)unlink(path);
		*why = "the shared segment file cannot be sized (is the run directory's file system full?)";
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	err = map_fd(fd, len, addr, why);
	close(fd);
	if (err != DOCA_SUCCESS)
		(void)unlink(path);
	return err;
}

doca_error_t softhw_shm_open(const char *kind, const char *name, size_t len, void **addr, const char **why)
{
	char path[PATH_MAX];
	struct stat st;
	doca_error_t err;
	int fd;

	if (!shm_path(kind, name, false, path, sizeof(path), why))
		return DOCA_ERROR_OPERATING_SYSTEM;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		*why = "no shared segment of that name in the run directory";
		return errno == ENOENT ? DOCA_ERROR_NOT_FOUND : DOCA_ERROR_OPERATING_SYSTEM;
	}
	/* A shorter file would fault (SIGBUS) past its end: refuse it. */
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size < len) {
		close(fd);
		*why = "the shared segment is not a regular file of the expected size";
		return DOCA_ERROR_NOT_FOUND;
	}
	err = map_fd(fd, len, addr, why);
	close(fd);
	return err;
}

void softhw_shm_unmap(void *addr, size_t len)
{
	if (addr != NULL)
		(void)munmap(addr, len);
}

void softhw_shm_unlink(const char *kind, const char *name)
{
	char path[PATH_MAX];
	const char *why;

	if (shm_path(kind, name, false, path, sizeof(path), &why))
		(void)unlink(path);
}
