/* SPDX-License-Identifier: MIT */
/* Files and CSV records read back (textread.h). */
#include "rackc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "textread.h"

bool csv_read_record(struct arena *a, const char **p, uint32_t *line,
		     struct csv_record *r, const char **err)
{
	const char *s = *p;
	char *buf = NULL;
	size_t len = 0, cap = 0;

	r->n = 0;
	r->line = *line;
	for (;;) {
		bool quoted = *s == '"';

		len = 0;
		if (quoted) {
			s++;
			for (;;) {
				if (!*s) {
					free(buf);
					*err = "a quoted cell is not closed";
					return false;
				}
				if (*s == '"' && s[1] != '"')
					break;
				if (*s == '"')
					s++;
				if (*s == '\n')
					(*line)++;
				if (len + 1 >= cap)
					buf = xrealloc(buf, cap = cap * 2 + 64);
				buf[len++] = *s++;
			}
			s++;
		} else {
			while (*s && *s != ',' && *s != '\n' && *s != '\r') {
				if (*s == '"') {
					free(buf);
					*err =
					    "a quote inside an unquoted cell";
					return false;
				}
				if (len + 1 >= cap)
					buf = xrealloc(buf, cap = cap * 2 + 64);
				buf[len++] = *s++;
			}
		}
		*VEC_PUSH(r->cell, r->n, r->cap) =
		    arena_strndup(a, buf ? buf : "", len);
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s == '\r')
			s++;
		if (*s == '\n') {
			s++;
			(*line)++;
		} else if (*s) {
			free(buf);
			*err = "text after a quoted cell";
			return false;
		}
		break;
	}
	free(buf);
	*p = s;
	return true;
}

char *rk_slurp(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (!fp)
		return NULL;
	do {
		if (len + 4096 + 1 > cap)
			buf = xrealloc(buf, cap = cap * 2 + 8192);
		got = fread(buf + len, 1, cap - len - 1, fp);
		len += got;
	} while (got > 0);
	if (ferror(fp)) {
		free(buf);
		fclose(fp);
		errno = EIO;
		return NULL;
	}
	fclose(fp);
	buf[len] = '\0';
	*n = len;
	return buf;
}
