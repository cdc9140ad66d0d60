/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The few C library functions a device image may call, as the DPA's own small libc offers
 * them (the compiler also emits calls to the mem* ones for struct copies). Hidden: the image
 * never exports or imports them.
 */
#include <stddef.h>

#include "dev_runtime.h"

DEV_HIDDEN void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

DEV_HIDDEN void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d < s) {
		while (n--)
			*d++ = *s++;
	} else {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

DEV_HIDDEN void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

DEV_HIDDEN int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n--; x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

DEV_HIDDEN size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}
