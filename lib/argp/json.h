/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A small strict JSON parser for argp (-j files and JSON_OBJ values). RFC 8259 plus one
 * extension: "//" comments to the end of a line, which DOCA's own example files carry.
 */
#ifndef SOFTDOCA_ARGP_JSON_H
#define SOFTDOCA_ARGP_JSON_H

#include <stddef.h>

#include "doca_argp.h"

#define ARGP_JSON_MAX_DEPTH 64
/* Values one text may hold (about 100 bytes of memory each): bounds what a -j file costs. */
#define ARGP_JSON_MAX_VALUES 65536

struct argp_json_error {
	int line;	  /* 1-based line where parsing stopped */
	char msg[160];	  /* what was expected or found there */
};

/* Parses len bytes of text; NULL on error (err filled) or on allocation failure (err->line 0). */
struct softdoca_argp_json *argp_json_parse(const char *text, size_t len, struct argp_json_error *err);

/* Frees a tree returned by argp_json_parse (NULL is fine). */
void argp_json_free(struct softdoca_argp_json *root);

/* Member of an object by name, or NULL. */
const struct softdoca_argp_json *argp_json_get(const struct softdoca_argp_json *obj, const char *key);

/* "an object", "a string", ... for messages. */
const char *argp_json_type_name(enum softdoca_argp_json_type type);

#endif /* SOFTDOCA_ARGP_JSON_H */
