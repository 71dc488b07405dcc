/* SPDX-License-Identifier: MIT */
/* Buffered text output for the back ends (see wbuf.h). */
#include "rackc.h"

#include "backend.h"
#include "wbuf.h"

void wb_init(struct wbuf *w, FILE *fp)
{
	w->fp = fp;
	w->len = 0;
}

void wb_flush(struct wbuf *w)
{
	if (w->len)
		out_write(w->fp, w->buf, w->len);
	w->len = 0;
}

void wb_mem(struct wbuf *w, const char *s, size_t n)
{
	if (w->len + n <= WBUF_SIZE) {
		w->len = (size_t)(rk_put(w->buf + w->len, s, n) - w->buf);
		return;
	}
	while (n) {
		size_t k;

		if (w->len == WBUF_SIZE)
			wb_flush(w);
		k = WBUF_SIZE - w->len;
		if (k > n)
			k = n;
		memcpy(w->buf + w->len, s, k);
		w->len += k;
		s += k;
		n -= k;
	}
}

void wb_u64(struct wbuf *w, uint64_t v)
{
	char buf[24], *p = u64_digits(v, buf + sizeof(buf));

	wb_mem(w, p, (size_t)(buf + sizeof(buf) - p));
}

void wb_hex(struct wbuf *w, uint64_t v, int width)
{
	static const char digits[] = "0123456789abcdef";
	char buf[16];

	if (width > 16)
		width = 16;
	for (int i = width - 1; i >= 0; i--) {
		buf[i] = digits[v & 0xf];
		v >>= 4;
	}
	wb_mem(w, buf, (size_t)width);
}
