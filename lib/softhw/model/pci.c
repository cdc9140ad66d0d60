/* SPDX-License-Identifier: BSD-3-Clause */
/* PCI addresses as DOCA programs write them: "b1:00.0" or "0000:b1:00.0", any case. */
#include <ctype.h>
#include <stdio.h>

#include "softhw/softhw.h"

/* Reads 1..max hex digits; returns the count read, 0 if none or too many. */
static int read_hex(const char **s, unsigned max, unsigned *out)
{
	unsigned n = 0, v = 0;

	while (isxdigit((unsigned char)**s)) {
		if (++n > max)
			return 0;
		v = v * 16 + (unsigned)(isdigit((unsigned char)**s) ? **s - '0' : tolower((unsigned char)**s) - 'a' + 10);
		(*s)++;
	}
	*out = v;
	return (int)n;
}

bool softhw_pci_addr_parse(const char *str, char out[SOFTHW_PCI_ADDR_LEN])
{
	unsigned part[4], n = 0, domain = 0, bus, dev, fn;
	const char *s = str;

	if (str == NULL)
		return false;
	/* Up to three ':'-separated hex fields, then ".F". */
	for (;;) {
		if (n == 3 || !read_hex(&s, 4, &part[n]))
			return false;
		n++;
		if (*s != ':')
			break;
		s++;
	}
	if (n == 3) {
		domain = part[0];
		bus = part[1];
		dev = part[2];
	} else if (n == 2) {
		bus = part[0];
		dev = part[1];
	} else {
		return false;
	}
	if (*s++ != '.' || !read_hex(&s, 1, &fn) || *s != '\0')
		return false;
	if (bus > 0xff || dev > 0x1f || fn > 7)
		return false;
	snprintf(out, SOFTHW_PCI_ADDR_LEN, "%04x:%02x:%02x.%x", domain, bus, dev, fn);
	return true;
}
