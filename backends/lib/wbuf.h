/* SPDX-License-Identifier: MIT */
/*
 * A buffered text writer for large artifacts: pieces are appended to a
 * 256 KiB buffer and written in blocks, numbers are formatted by hand (no
 * format string is parsed per record).  Errors show up on the FILE, which
 * the back end closes and checks as usual.
 */
#ifndef RACKC_WBUF_H
#define RACKC_WBUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

#define WBUF_SIZE (1 << 18)

struct wbuf {
	FILE *fp;
	size_t len;
	char buf[WBUF_SIZE];
};

void wb_init(struct wbuf *w, FILE *fp);
/* Write what is buffered (wb_* call it when the buffer fills). */
void wb_flush(struct wbuf *w);
void wb_mem(struct wbuf *w, const char *s, size_t n);
static inline void wb_str(struct wbuf *w, const char *s)
{
	wb_mem(w, s, strlen(s));
}
static inline void wb_ch(struct wbuf *w, char c)
{
	if (w->len == WBUF_SIZE)
		wb_flush(w);
	w->buf[w->len++] = c;
}
/* @v in decimal. */
void wb_u64(struct wbuf *w, uint64_t v);
/*
 * A record written in one go: wb_room() makes room for @n bytes (at most
 * WBUF_SIZE) and returns where they go; the caller writes them (rk_put,
 * wb_put_u64) and hands the end to wb_end().
 */
static inline char *wb_room(struct wbuf *w, size_t n)
{
	if (w->len + n > WBUF_SIZE)
		wb_flush(w);
	return w->buf + w->len;
}
static inline void wb_end(struct wbuf *w, const char *end)
{
	w->len = (size_t)(end - w->buf);
}
/* @v in decimal at @o (at most 20 bytes); returns the end. */
static inline char *wb_put_u64(char *o, uint64_t v)
{
	return u64_put(o, v);
}
/* The low @width (at most 16) hex digits of @v, lower case, zero-padded. */
void wb_hex(struct wbuf *w, uint64_t v, int width);

#endif
