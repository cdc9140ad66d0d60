/* SPDX-License-Identifier: BSD-3-Clause */
/* The SDK log of a unit test, written to a temporary file: look for lines in it. */
#ifndef SOFTDOCA_TESTS_LOG_TEST_H
#define SOFTDOCA_TESTS_LOG_TEST_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Reads everything logged to f since the last log_take (at most 64 KiB). */
static inline const char *log_read(FILE *f)
{
	static char buf[1 << 16];
	size_t n;

	fflush(f);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fseek(f, 0, SEEK_END); /* a read must be followed by a seek before the next write */
	return buf;
}

/* True if a line containing text was logged to f since the last call; then forgets them all. */
static inline bool log_take(FILE *f, const char *text)
{
	const char *buf = log_read(f);
	bool found = strstr(buf, text) != NULL;

	if (!found)
		fprintf(stderr, "log lacks '%s'; it has:\n%s", text, buf);
	if (ftruncate(fileno(f), 0) != 0)
		perror("ftruncate");
	rewind(f);
	return found;
}

#endif
