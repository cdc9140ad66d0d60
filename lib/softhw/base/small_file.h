/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A small text file read whole (the device configuration, argp's -j file): only a regular file
 * of at most `max` bytes. A FIFO, a pipe, a device or a /proc file (whose size reads as 0) is
 * refused at once instead of blocking in open() or reading as empty or for ever. Inline: the
 * libraries that read such files (libdoca_argp) do not link softhw.
 */
#ifndef SOFTHW_BASE_SMALL_FILE_H
#define SOFTHW_BASE_SMALL_FILE_H

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

enum softhw_small_file_result {
	SOFTHW_SMALL_FILE_OK,
	SOFTHW_SMALL_FILE_OPEN,        /* open or fstat failed: errno */
	SOFTHW_SMALL_FILE_NOT_REGULAR, /* what it is: softhw_file_kind(mode) */
	SOFTHW_SMALL_FILE_TOO_BIG,     /* size */
	SOFTHW_SMALL_FILE_NO_MEMORY,
	SOFTHW_SMALL_FILE_READ,        /* read failed: errno */
	SOFTHW_SMALL_FILE_CHANGED,     /* it grew while it was read */
};

struct softhw_small_file {
	char *text;      /* NUL-terminated (to free), on OK */
	size_t len;
	mode_t mode;     /* NOT_REGULAR */
	long long size;  /* TOO_BIG */
};

/* "a FIFO", "a device", ...: what a file that is not a regular one is, for a message. */
static inline const char *softhw_file_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/* The whole file into f->text; errno says why for OPEN and READ. */
static inline enum softhw_small_file_result softhw_small_file_read(const char *path, size_t max,
								   struct softhw_small_file *f)
{
	/* O_NONBLOCK: opening a FIFO that nobody writes to returns at once (and is refused) */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), e;
	enum softhw_small_file_result res = SOFTHW_SMALL_FILE_OK;
	struct stat st;
	size_t size, got = 0;
	char *buf = NULL;

	if (fd < 0)
		return SOFTHW_SMALL_FILE_OPEN;
	if (fstat(fd, &st) != 0) {
		res = SOFTHW_SMALL_FILE_OPEN;
	} else if (!S_ISREG(st.st_mode)) {
		f->mode = st.st_mode;
		res = SOFTHW_SMALL_FILE_NOT_REGULAR;
	} else if ((unsigned long long)st.st_size > max) {
		f->size = (long long)st.st_size;
		res = SOFTHW_SMALL_FILE_TOO_BIG;
	} else if ((buf = malloc((size = (size_t)st.st_size) + 2)) == NULL) {
		res = SOFTHW_SMALL_FILE_NO_MEMORY;
	} else {
		/* one byte more than its size: a file that grows meanwhile is noticed */
		while (got < size + 1) {
			ssize_t n = read(fd, buf + got, size + 1 - got);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				res = n < 0 ? SOFTHW_SMALL_FILE_READ : res;
				break;
			}
			got += (size_t)n;
		}
		if (res == SOFTHW_SMALL_FILE_OK && got > size)
			res = SOFTHW_SMALL_FILE_CHANGED;
	}
	e = errno;
	close(fd);
	if (res != SOFTHW_SMALL_FILE_OK) {
		free(buf);
		errno = e;
		return res;
	}
	buf[got] = '\0';
	f->text = buf;
	f->len = got;
	return res;
}

#endif /* SOFTHW_BASE_SMALL_FILE_H */
