/* SPDX-License-Identifier: MIT */
/*
 * Reading text back: a whole file, and RFC 4180 CSV records (the price
 * list, and the artifacts `rackc diff` compares).
 */
#ifndef RACKC_TEXTREAD_H
#define RACKC_TEXTREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

/* The file at @path, malloc'ed and NUL-terminated (its length in *@n; a
 * NUL byte inside shows as strlen() < *@n), or NULL with errno set. */
char *rk_slurp(const char *path, size_t *n);

/**
 * struct csv_record - one CSV record
 * @cell:  the cells, arena strings, unquoted
 * @n:     how many
 * @cap:   room in @cell (malloc'ed; the caller frees it once done)
 * @line:  the line the record starts on
 */
struct csv_record {
	char **cell;
	uint32_t n, cap;
	uint32_t line;
};

/* One record read from *@p (advanced past it; *@line counts lines), into
 * @r; false with a reason in *@err for a malformed record. */
bool csv_read_record(struct arena *a, const char **p, uint32_t *line,
		     struct csv_record *r, const char **err);

#endif
