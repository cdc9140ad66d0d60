/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A small text file read whole (the device configuration, argp's -j file): a regular file of at
 * most `max` bytes, or a pipe or FIFO (`-j <(jq ...)`) read to its end, at most `max` bytes and
 * never waiting more than SOFTHW_SMALL_FILE_PIPE_MS for its next bytes (a FIFO nobody writes to
 * ends in TIMEOUT, not in a hang). A device, a directory or a /proc file (whose size reads as 0)
 * is refused at once. Inline: the libraries that read such files (libdoca_argp) do not link
 * softhw.
 */
#ifndef SOFTHW_BASE_SMALL_FILE_H
#define SOFTHW_BASE_SMALL_FILE_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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
	SOFTHW_SMALL_FILE_TIMEOUT,     /* a pipe: nothing more came for softhw_small_file_pipe_ms() */
};

/* How long a pipe may keep its reader waiting for more; SOFTDOCA_PIPE_WAIT_MS changes it (tests). */
#define SOFTHW_SMALL_FILE_PIPE_MS 10000

static inline int softhw_small_file_pipe_ms(void)
{
	const char *e = getenv("SOFTDOCA_PIPE_WAIT_MS");
	int ms = e != NULL ? atoi(e) : 0;

	return ms > 0 ? ms : SOFTHW_SMALL_FILE_PIPE_MS;
}

struct softhw_small_file {
	char *text;      /* NUL-terminated (to free), on OK */
	size_t len;
	mode_t mode;     /* NOT_REGULAR: what it is; a pipe's (S_ISFIFO) whatever the result */
	long long size;  /* TOO_BIG (a pipe: what it had sent by then) */
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

/* A pipe or FIFO (fd non-blocking) to its end, at most max bytes, into *buf (to free) and *got. */
static inline enum softhw_small_file_result softhw_small_pipe_read(int fd, size_t max, char **buf, size_t *got,
								   long long *size)
{
	size_t cap = 0;
	int ms = softhw_small_file_pipe_ms();

	*buf = NULL;
	*got = 0;
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		ssize_t n;
		int k;

		if (*got == cap) { /* room for max + 1 bytes at most: one more says it is too big */
			size_t ncap = cap == 0 ? 4096 : cap * 2 > max + 1 ? max + 1 : cap * 2;
			char *nb = ncap > cap ? realloc(*buf, ncap + 1) : NULL;

			if (nb == NULL)
				return SOFTHW_SMALL_FILE_NO_MEMORY;
			*buf = nb;
			cap = ncap;
		}
		/* a FIFO no writer opened yet is neither readable nor hung up: poll waits for one */
		k = poll(&p, 1, ms);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return SOFTHW_SMALL_FILE_READ;
		if (k == 0)
			return SOFTHW_SMALL_FILE_TIMEOUT;
		n = read(fd, *buf + *got, cap - *got);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return SOFTHW_SMALL_FILE_READ;
		if (n == 0)
			return SOFTHW_SMALL_FILE_OK; /* its writers closed it */
		*got += (size_t)n;
		if (*got > max) {
			*size = (long long)*got;
			return SOFTHW_SMALL_FILE_TOO_BIG;
		}
	}
}

/* The whole file into f->text; errno says why for OPEN and READ. */
static inline enum softhw_small_file_result softhw_small_file_read(const char *path, size_t max,
								   struct softhw_small_file *f)
{
	/* O_NONBLOCK: opening a FIFO that nobody writes to returns at once (poll then waits, bounded) */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), e;
	enum softhw_small_file_result res = SOFTHW_SMALL_FILE_OK;
	struct stat st;
	size_t size, got = 0;
	char *buf = NULL;

	if (fd < 0)
		return SOFTHW_SMALL_FILE_OPEN;
	if (fstat(fd, &st) != 0) {
		res = SOFTHW_SMALL_FILE_OPEN;
	} else if (S_ISFIFO(st.st_mode)) {
		f->mode = st.st_mode;
		res = softhw_small_pipe_read(fd, max, &buf, &got, &f->size);
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
