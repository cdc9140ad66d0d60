/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared-memory segments in the run directory (see shm.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "softhw/fabric/shm.h"
#include "softhw/softhw.h"

/* A *why that names a path: the caller logs it before this thread comes back here. */
static __thread char why_buf[512];

/* Why a folder failed softhw_private_dir_open (errno e): -1, with *err and *why set. */
static int dir_refused(const char *run_dir, const char *kind, bool create, int e, doca_error_t *err,
		       const char **why)
{
	if (e == ENOENT && !create) {
		*err = DOCA_ERROR_NOT_FOUND;
		*why = "no shared segment of that name in the run directory";
	} else if (e == EPERM || e == EACCES) {
		*err = DOCA_ERROR_NOT_PERMITTED;
		snprintf(why_buf, sizeof(why_buf),
			 "%s %.300s%s%s is a symlink, another user's or writable by others; set SOFTDOCA_RUN_DIR to a "
			 "directory of your own (mode 0700)",
			 kind != NULL ? "the run directory's folder" : "the run directory", run_dir, kind != NULL ? "/" : "",
			 kind != NULL ? kind : "");
		*why = why_buf;
	} else if (e == ENAMETOOLONG) {
		*err = DOCA_ERROR_OPERATING_SYSTEM;
		*why = "the run directory path is too long; set SOFTDOCA_RUN_DIR to a shorter one";
	} else {
		*err = DOCA_ERROR_OPERATING_SYSTEM;
		*why = "the run directory cannot be opened; set SOFTDOCA_RUN_DIR to a directory of your own";
	}
	return -1;
}

/*
 * <run_dir>/<kind>, opened (O_PATH) for openat() once both pass softhw_private_dir_open: only
 * this user can have put a file there. `create` makes them first. -1 with *err and *why.
 */
static int shm_dir(const char *kind, bool create, const char **run_dir, doca_error_t *err, const char **why)
{
	const struct softhw_model *m;
	int rfd, kfd, e;

	m = softhw_model_get(err);
	if (m == NULL) {
		*err = DOCA_ERROR_OPERATING_SYSTEM;
		*why = "the device model did not load (see its log line)";
		return -1;
	}
	if (create && softhw_model_run_dir_create(m) != DOCA_SUCCESS) {
		*err = DOCA_ERROR_OPERATING_SYSTEM;
		*why = "the run directory cannot be created or is not this user's alone (see its log line)";
		return -1;
	}
	*run_dir = softhw_model_run_dir(m);
	rfd = softhw_private_dir_open(AT_FDCWD, *run_dir);
	if (rfd < 0)
		return dir_refused(*run_dir, NULL, create, errno, err, why);
	if (create && mkdirat(rfd, kind, 0700) != 0 && errno != EEXIST) {
		close(rfd);
		*err = DOCA_ERROR_OPERATING_SYSTEM;
		*why = "a folder in the run directory cannot be created; set SOFTDOCA_RUN_DIR to a writable directory";
		return -1;
	}
	kfd = softhw_private_dir_open(rfd, kind);
	e = errno;
	close(rfd);
	if (kfd < 0)
		return dir_refused(*run_dir, kind, create, e, err, why);
	return kfd;
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
	const char *run_dir;
	doca_error_t err;
	int dfd, fd;

	dfd = shm_dir(kind, true, &run_dir, &err, why);
	if (dfd < 0)
		return err;
	/* O_EXCL: a name that is there already, a symlink included, is never opened. */
	fd = openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST) {
		/* Names are unique among live processes: this one is a dead process's leftover. */
		(void)unlinkat(dfd, name, 0);
		fd = openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	}
	if (fd < 0) {
		close(dfd);
		*why = "the shared segment file cannot be created in the run directory; set SOFTDOCA_RUN_DIR to a "
		       "writable directory";
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	if (ftruncate(fd, (off_t)len) != 0) {
		close(fd);
		(void)unlinkat(dfd, name, 0);
		close(dfd);
		*why = "the shared segment file cannot be sized (is the run directory's file system full?)";
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	err = map_fd(fd, len, addr, why);
	close(fd);
	if (err != DOCA_SUCCESS)
		(void)unlinkat(dfd, name, 0);
	close(dfd);
	return err;
}

doca_error_t softhw_shm_open(const char *kind, const char *name, size_t len, void **addr, const char **why)
{
	const char *run_dir;
	struct stat st;
	doca_error_t err;
	int dfd, fd, e;

	dfd = shm_dir(kind, false, &run_dir, &err, why);
	if (dfd < 0)
		return err;
	fd = openat(dfd, name, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	e = errno;
	close(dfd);
	if (fd < 0 && e == ENOENT) {
		*why = "no shared segment of that name in the run directory";
		return DOCA_ERROR_NOT_FOUND;
	}
	if (fd < 0 && e != ELOOP && e != EACCES) {
		*why = "the shared segment file cannot be opened";
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		if (fd >= 0)
			close(fd);
		snprintf(why_buf, sizeof(why_buf),
			 "the shared segment %.300s/%s/%.40s is a symlink, not a regular file or another user's; set "
			 "SOFTDOCA_RUN_DIR to a directory of your own (mode 0700)",
			 run_dir, kind, name);
		*why = why_buf;
		return DOCA_ERROR_NOT_PERMITTED;
	}
	/* A shorter file would fault (SIGBUS) past its end: refuse it. */
	if ((size_t)st.st_size < len) {
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
	const char *run_dir, *why;
	doca_error_t err;
	int dfd = shm_dir(kind, false, &run_dir, &err, &why);

	if (dfd >= 0) {
		(void)unlinkat(dfd, name, 0);
		close(dfd);
	}
}
