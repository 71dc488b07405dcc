/* SPDX-License-Identifier: MIT */
/*
 * `rackc lsp`: what the server answers about a compiled document (lsp.c
 * holds the protocol).  Every answer reads the document's latest
 * compilation (the IR and its source files) and the buffer's text, and
 * does work linear in the document and the design at most:
 *
 *   hover       a part's figures and sources; an object's kind, part, rack
 *               and U; a quantity literal in the other units of its
 *               dimension
 *   definition  parts and objects (at their name in the declaration),
 *               imports (the imported file), params and lets
 *   completion  after ':' the catalog's parts, inside `waive "` the check
 *               names, at the start of a statement the attributes and the
 *               kinds of declaration valid where the cursor is
 *   symbols     the objects the document declares, nested as in the design
 */
#include "rackc.h"

#ifdef HAVE_JANSSON

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lsp_int.h"
#include "schema.h"

/* ---- positions ---- */

/* UTF-16 code units of the UTF-8 text [p, e). */
static uint32_t utf16_units(const char *p, const char *e)
{
	uint32_t n = 0;

	for (; p < e; p++) {
		unsigned char ch = (unsigned char)*p;

		if ((ch & 0xc0) == 0x80)
			continue;	 /* a continuation byte */
		n += ch >= 0xf0 ? 2 : 1; /* beyond the BMP: a surrogate pair */
	}
	return n;
}

uint32_t lsp_offset(const char *text, size_t len, int64_t line, int64_t ch)
{
	size_t i = 0;
	int64_t u = 0;

	for (int64_t l = 0; l < line && i < len; i++)
		if (text[i] == '\n')
			l++;
	while (i < len && text[i] != '\n' && u < ch) {
		unsigned char c0 = (unsigned char)text[i];
		size_t step = c0 >= 0xf0   ? 4
			      : c0 >= 0xe0 ? 3
			      : c0 >= 0xc0 ? 2
					   : 1;

		u += c0 >= 0xf0 ? 2 : 1;
		for (i++, step--;
		     step && i < len && ((unsigned char)text[i] & 0xc0) == 0x80;
		     step--)
			i++;
	}
	return i > UINT32_MAX ? UINT32_MAX : (uint32_t)i;
}

json_t *lsp_pos(const struct compilation *c, uint32_t file, uint32_t off)
{
	const struct srcfile *f = srcmgr_file(&c->sm, file);
	uint32_t lo = 0, hi;

	if (!f)
		return json_pack("{s:i,s:i}", "line", 0, "character", 0);
	if (off > f->len)
		off = f->len;
	hi = f->nlines;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (f->lines[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return json_pack(
	    "{s:I,s:I}", "line", (json_int_t)lo, "character",
	    (json_int_t)utf16_units(f->text + f->lines[lo], f->text + off));
}

json_t *lsp_range(const struct compilation *c, struct srcloc loc)
{
	return json_pack("{s:o,s:o}", "start", lsp_pos(c, loc.file, loc.begin),
			 "end", lsp_pos(c, loc.file, loc.end));
}

/* A file: URI for @path (made absolute), percent-encoded. */
static char *file_uri(const char *path)
{
	char abs[PATH_MAX];
	const char *p = realpath(path, abs) ? abs : path;
	size_t n = strlen(p);
	char *out = xmalloc(8 + 3 * n + 1), *o = out;

	memcpy(o, "file://", 7);
	o += 7;
	for (; *p; p++) {
		unsigned char ch = (unsigned char)*p;

		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9') || strchr("/-_.~+", ch)) {
			*o++ = (char)ch;
		} else {
			snprintf(o, 4, "%%%02X", ch);
			o += 3;
		}
	}
	*o = '\0';
	return out;
}

json_t *lsp_location(const struct lsp_doc *doc, const struct compilation *c,
		     struct srcloc loc)
{
	json_t *r;

	if (loc.file == c->root_file || !srcmgr_file(&c->sm, loc.file))
		return json_pack("{s:s,s:o}", "uri", doc->uri, "range",
				 lsp_range(c, loc));
	{
		char *uri = file_uri(srcmgr_file(&c->sm, loc.file)->path);

		r = json_pack("{s:s,s:o}", "uri", uri, "range",
			      lsp_range(c, loc));
		free(uri);
	}
	return r;
}

/* ---- words ---- */

static bool ident_ch(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_';
}

/* The identifier around @off: [*b, *e), empty when none. */
static void word_at(const char *t, size_t len, uint32_t off, uint32_t *b,
		    uint32_t *e)
{
	uint32_t i = off, j = off;

	while (i > 0 && ident_ch(t[i - 1]))
		i--;
	while (j < len && ident_ch(t[j]))
		j++;
	*b = i;
	*e = j;
}

/* The dotted path that ends with the word [b, e): "lab.r1" for "r1" in
 * "lab.r1.rk[1]" (indexes written as numbers are kept, and path_end()
 * takes the word's own: "lab.r1.rk[1]" for "rk"). */
static uint32_t path_start(const char *t, uint32_t b)
{
	uint32_t i = b;

	while (i > 0 && (ident_ch(t[i - 1]) || t[i - 1] == '.' ||
			 t[i - 1] == '[' || t[i - 1] == ']'))
		i--;
	while (i < b && !ident_ch(t[i]))
		i++;
	return i;
}

static uint32_t path_end(const char *t, size_t len, uint32_t e)
{
	uint32_t k = e + 1;

	if (e >= len || t[e] != '[')
		return e;
	while (k < len && t[k] >= '0' && t[k] <= '9')
		k++;
	return k > e + 1 && k < len && t[k] == ']' ? k + 1 : e;
}

static uint32_t lookup(const struct rk_design *d, const char *s, size_t n,
		       bool part)
{
	uint32_t id = intern_find(d->arena, s, n);

	if (!id)
		return RK_NONE;
	return part ? ir_find_part(d, id) : ir_find_name(d, id);
}

/* The innermost object declared in the root file whose statement holds
 * @off (RK_NONE: none). */
static uint32_t declared_at(const struct compilation *c, uint32_t off)
{
	const struct rk_design *d = &c->design;
	uint32_t best = RK_NONE, span = UINT32_MAX;

	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];

		if (o->loc.file != c->root_file || o->loc.begin > off ||
		    o->loc.end < off || o->kind == K_PORT || o->kind == K_COMP)
			continue;
		if (o->loc.end - o->loc.begin < span) {
			span = o->loc.end - o->loc.begin;
			best = i;
		}
	}
	return best;
}

/* A growing string. */
struct sbuf {
	char *p;
	size_t n, cap;
	unsigned lines;
};

static PRINTF(2, 3) void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	if (b->n + (size_t)k + 1 > b->cap) {
		b->cap = (b->n + (size_t)k + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	va_start(ap, fmt);
	vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
	va_end(ap);
	b->n += (size_t)k;
}

static void sb_value(struct sbuf *b, const struct rk_design *d,
		     const struct rk_value *v, unsigned depth)
{
	char q[RK_QFMT_MAX];

	switch (v->type) {
	case VT_NUM:
		sb_printf(
		    b, "%s",
		    quantity_format((struct quantity){ v->dim, v->n }, q));
		break;
	case VT_BOOL:
		sb_printf(b, "%s", v->n ? "true" : "false");
		break;
	case VT_STR:
		sb_printf(b, "\"%s\"", str_of(d->arena, v->a));
		break;
	case VT_WORD:
	case VT_REF:
		sb_printf(b, "%s", str_of(d->arena, v->a));
		break;
	case VT_RATIO:
		sb_printf(b, "%lld:%u", (long long)v->n, v->a);
		break;
	case VT_OBJ:
		sb_printf(b, "%s", v->a < d->nobjs ? ir_name(d, v->a) : "?");
		break;
	case VT_PORT:
		sb_printf(b, "%s.%s", v->a < d->nobjs ? ir_name(d, v->a) : "?",
			  (uint64_t)v->n < d->nobjs
			      ? str_of(d->arena, d->objs[v->n].local)
			      : "?");
		break;
	case VT_LIST:
		sb_printf(b, "[");
		for (int64_t i = 0; i < v->n && depth < 4; i++) {
			if (i == 8) {
				sb_printf(b, ", ... (%lld in all)",
					  (long long)v->n);
				break;
			}
			if (i)
				sb_printf(b, ", ");
			sb_value(b, d, ir_list_at(d, v, (uint32_t)i),
				 depth + 1);
		}
		sb_printf(b, "]");
		break;
	case VT_PAIR:
		if (depth < 4) {
			sb_value(b, d, &d->vals[v->a], depth + 1);
			sb_printf(b, " -> ");
			sb_value(b, d, &d->vals[v->a + 1], depth + 1);
		}
		break;
	default:
		sb_printf(b, "?");
	}
}

static json_t *markdown(struct sbuf *b)
{
	json_t *r = json_pack("{s:{s:s,s:s%}}", "contents", "kind", "markdown",
			      "value", b->p ? b->p : "", b->n);

	free(b->p);
	return r;
}

/* A part's class, bases, figures and sources. */
static void hover_part(struct sbuf *b, const struct rk_design *d, uint32_t p)
{
	uint32_t chain[RK_MAX_PART_DEPTH + 1];
	uint32_t n = ir_part_chain(d, p, chain);
	bool seen[A__COUNT];

	memset(seen, 0, sizeof(seen));
	sb_printf(b, "**part** `%s` (%s)", ir_name(d, p),
		  rk_class_name((enum rk_class)d->objs[p].cls));
	for (uint32_t k = 1; k < n; k++)
		sb_printf(b, "%s`%s`", k == 1 ? ", from " : " <- ",
			  ir_name(d, chain[k]));
	sb_printf(b, "\n\n");
	for (uint32_t k = 0; k < n; k++) {
		const struct rk_obj *o = &d->objs[chain[k]];
		bool here[A__COUNT];

		memset(here, 0, sizeof(here));
		for (uint32_t i = 0; i < o->attr_count; i++) {
			const struct rk_attr *a = &d->attrs[o->attr_first + i];

			if (a->key >= A__COUNT || seen[a->key] ||
			    b->lines >= 60)
				continue;
			here[a->key] = true;
			sb_printf(b, "- %s: ", attr_table[a->key].name);
			sb_value(b, d, &a->val, 0);
			sb_printf(b, "\n");
			b->lines++;
		}
		for (uint32_t i = 0; i < A__COUNT; i++)
			seen[i] |= here[i];
	}
}

/* An object's kind, part, rack and U. */
static void hover_obj(struct sbuf *b, const struct rk_design *d, uint32_t id)
{
	const struct rk_obj *o = &d->objs[id];
	uint32_t part = ir_part_of(d, id), rack;
	const struct rk_value *at;
	char q[RK_QFMT_MAX];

	sb_printf(b, "**%s** `%s`", rk_kind_name((enum rk_kind)o->kind),
		  ir_name(d, id));
	if (part != RK_NONE)
		sb_printf(b, ": part `%s` (%s)", ir_name(d, part),
			  rk_class_name((enum rk_class)d->objs[part].cls));
	sb_printf(b, "\n\n");
	if (o->kind == K_DEVICE) {
		const struct rk_value *r = ir_attr(d, id, A_RACK);

		rack = r && r->type == VT_OBJ ? r->a : RK_NONE;
		if (rack == RK_NONE)
			rack = ir_ancestor(d, id, K_RACK);
		at = ir_attr(d, id, A_AT);
		if (rack != RK_NONE)
			sb_printf(b, "- rack: `%s`\n", ir_name(d, rack));
		if (at && at->type == VT_NUM)
			sb_printf(b, "- at: %s\n",
				  quantity_format(
				      (struct quantity){ at->dim, at->n }, q));
	}
	if (o->parent != RK_NONE)
		sb_printf(b, "- in: `%s`\n", ir_name(d, o->parent));
	for (uint32_t i = 0; i < o->attr_count && i < 40; i++) {
		const struct rk_attr *a = &d->attrs[o->attr_first + i];

		if (a->key >= A__COUNT || a->key == A_RACK || a->key == A_AT)
			continue;
		sb_printf(b, "- %s: ", attr_table[a->key].name);
		sb_value(b, d, &a->val, 0);
		sb_printf(b, "\n");
	}
}

/* The unit suffixes a quantity is shown in (units.h's table). */
static const char *const shown_units[] = {
	"mW",	"W",	"kW",	"MW",  "um", "mm",     "cm",	  "m",
	"km",	"in",	"ft",	"g",   "kg", "t",      "b/s",	  "Mb/s",
	"Gb/s", "Tb/s", "GB/s", "B",   "kB", "MB",     "GB",	  "TB",
	"GiB",	"TiB",	"mA",	"A",   "mV", "V",      "kV",	  "L/min",
	"L/s",	"U",	"USD",	"ppm", "%",  "FLOP/s", "TFLOP/s", "PFLOP/s",
	"ns",	"us",	"ms",	"s",
};

static bool quantity_hover(struct sbuf *b, const char *t, size_t len,
			   uint32_t off)
{
	uint32_t i = off, j = off;
	struct quantity q;
	size_t at;
	char buf[RK_QFMT_MAX];
	unsigned shown = 0;

#define QCH(ch) (ident_ch(ch) || (ch) == '.' || (ch) == '/' || (ch) == '%')
	while (i > 0 && QCH(t[i - 1]))
		i--;
	while (j < len && QCH(t[j]))
		j++;
#undef QCH
	if (i == j || !(t[i] >= '0' && t[i] <= '9') || j - i > 64)
		return false;
	if (unit_parse(t + i, j - i, &q, &at) != UNIT_OK || q.dim == DIM_NONE)
		return false;
	sb_printf(b, "**%.*s** (%s)\n\n", (int)(j - i), t + i, dim_name(q.dim));
	for (size_t k = 0; k < sizeof(shown_units) / sizeof(*shown_units);
	     k++) {
		const char *s = quantity_format_in(q, shown_units[k], buf);

		if (s && strlen(s) <= 24) {
			sb_printf(b, "- %s\n", s);
			shown++;
		}
	}
	if (!shown)
		sb_printf(b, "- %s\n", quantity_format(q, buf));
	return true;
}

/* The word at @off (into *wb, *we; false when there is none) and what it
 * names, into *id: the object its dotted path names (with the path's
 * index, else without it); else, or where that is a part, the part of
 * the word's name (*part true), when there is one. */
static bool named_at(const struct rk_design *d, const char *t, uint32_t len,
		     uint32_t off, uint32_t *wb, uint32_t *we, uint32_t *id,
		     bool *part)
{
	uint32_t ps;

	word_at(t, len, off, wb, we);
	if (*wb == *we)
		return false;
	ps = path_start(t, *wb);
	*id = lookup(d, t + ps, path_end(t, len, *we) - ps, false);
	if (*id == RK_NONE)
		*id = lookup(d, t + ps, *we - ps, false);
	*part = false;
	if (*id == RK_NONE || d->objs[*id].kind == K_PART) {
		uint32_t p = lookup(d, t + *wb, *we - *wb, true);

		if (p != RK_NONE) {
			*id = p;
			*part = true;
		}
	}
	return true;
}

json_t *lsp_hover(const struct lsp_doc *doc, uint32_t off)
{
	const struct compilation *c = &doc->cur->c;
	const struct rk_design *d = &c->design;
	const char *t = doc->text;
	struct sbuf b = { NULL, 0, 0, 0 };
	uint32_t wb, we, id;
	bool part;

	if (off > doc->len)
		return NULL;
	if (quantity_hover(&b, t, doc->len, off))
		return markdown(&b);
	if (!named_at(d, t, doc->len, off, &wb, &we, &id, &part))
		return NULL;
	if (part) {
		hover_part(&b, d, id);
		return markdown(&b);
	}
	if (id == RK_NONE) {
		/* the declaration under the cursor (one made in a loop
		 * stands for the others) */
		id = declared_at(c, off);
		if (id != RK_NONE && d->objs[id].kind == K_PART)
			id = RK_NONE;
		if (id != RK_NONE &&
		    strncmp(str_of(d->arena, d->objs[id].local), t + wb,
			    we - wb) != 0)
			id = RK_NONE;
	}
	if (id == RK_NONE)
		return NULL;
	hover_obj(&b, d, id);
	return markdown(&b);
}

/* ---- definition ---- */

/* The name @local (without its index) inside the declaration @loc. */
static struct srcloc name_in(const struct compilation *c, struct srcloc loc,
			     const char *local)
{
	const struct srcfile *f = srcmgr_file(&c->sm, loc.file);
	size_t n = strcspn(local, "[");

	if (!f || !n)
		return (struct srcloc){ loc.file, loc.begin, loc.begin };
	for (uint32_t i = loc.begin; i + n <= loc.end && i + n <= f->len; i++) {
		if (memcmp(f->text + i, local, n) == 0 &&
		    (i == 0 || !ident_ch(f->text[i - 1])) &&
		    !ident_ch(f->text[i + n]))
			return (struct srcloc){ loc.file, i, i + (uint32_t)n };
	}
	return (struct srcloc){ loc.file, loc.begin, loc.begin };
}

/* `param NAME` or `let NAME` in the document: the name's place. */
static bool find_binding(const char *t, size_t len, const char *w, size_t n,
			 uint32_t *at)
{
	size_t i = 0;

	while (i < len) {
		size_t k = i;

		while (k < len && (t[k] == ' ' || t[k] == '\t'))
			k++;
		for (unsigned v = 0; v < 2; v++) {
			const char *kw = v ? "let" : "param";
			size_t kl = strlen(kw), s = k + kl;

			if (k + kl >= len || memcmp(t + k, kw, kl) != 0 ||
			    (t[s] != ' ' && t[s] != '\t'))
				continue;
			while (s < len && (t[s] == ' ' || t[s] == '\t'))
				s++;
			if (s + n <= len && memcmp(t + s, w, n) == 0 &&
			    (s + n == len || !ident_ch(t[s + n]))) {
				*at = (uint32_t)s;
				return true;
			}
		}
		while (i < len && t[i] != '\n')
			i++;
		i++;
	}
	return false;
}

json_t *lsp_definition(const struct lsp_doc *doc, uint32_t off)
{
	const struct compilation *c = &doc->cur->c;
	const struct rk_design *d = &c->design;
	const char *t = doc->text;
	uint32_t wb, we, id, ls = off, le = off, at;
	bool part;

	if (off > doc->len)
		return NULL;
	while (ls > 0 && t[ls - 1] != '\n')
		ls--;
	while (le < doc->len && t[le] != '\n')
		le++;
	{
		/* an import: the file it brought in */
		uint32_t k = ls;

		while (k < le && (t[k] == ' ' || t[k] == '\t'))
			k++;
		if (le - k > 7 && memcmp(t + k, "import", 6) == 0 &&
		    !ident_ch(t[k + 6])) {
			for (uint32_t f = 1; f <= c->sm.nfiles; f++) {
				const struct srcfile *sf =
				    srcmgr_file(&c->sm, f);

				if (sf &&
				    sf->included_from.file == c->root_file &&
				    sf->included_from.begin >= ls &&
				    sf->included_from.begin <= le)
					return lsp_location(
					    doc, c, (struct srcloc){ f, 0, 0 });
			}
			return NULL;
		}
	}
	if (!named_at(d, t, doc->len, off, &wb, &we, &id, &part))
		return NULL;
	if (id != RK_NONE)
		return lsp_location(
		    doc, c,
		    name_in(c, d->objs[id].loc,
			    str_of(d->arena, d->objs[id].local)));
	if (find_binding(t, doc->len, t + wb, we - wb, &at))
		return lsp_location(
		    doc, c,
		    (struct srcloc){ c->root_file, at, at + (we - wb) });
	return NULL;
}

/* ---- completion ---- */

static void add_item(json_t *items, const char *label, int kind,
		     const char *detail, const struct compilation *c,
		     struct srcloc repl)
{
	json_t *it = json_pack("{s:s,s:i,s:{s:o,s:s}}", "label", label, "kind",
			       kind, "textEdit", "range", lsp_range(c, repl),
			       "newText", label);

	if (detail)
		json_object_set_new(it, "detail", json_string(detail));
	json_array_append_new(items, it);
}

static bool has_prefix(const char *s, const char *p, size_t n)
{
	return strncmp(s, p, n) == 0;
}

static uint32_t scope_ctx(const struct compilation *c, uint32_t off)
{
	const struct rk_design *d = &c->design;
	uint32_t id = declared_at(c, off);

	for (uint32_t i = 0; i < d->nlinks; i++) {
		const struct rk_link *l = &d->links[i];

		if (!l->generated && l->loc.file == c->root_file &&
		    l->loc.begin < off && off < l->loc.end)
			return X_LINK;
	}
	if (id == RK_NONE)
		return X_TOP;
	switch (d->objs[id].kind) {
	case K_PART:
		return X_PART;
	case K_SITE:
		return X_SITE;
	case K_ROW:
		return X_ROW;
	case K_RACK:
		return X_RACK;
	case K_DEVICE:
		return X_DEVICE;
	case K_FEED:
		return X_FEED;
	case K_AIR:
		return X_AIR;
	case K_LOOP:
		return X_LOOP;
	case K_FABRIC:
		return X_FABRIC;
	case K_GROUP:
		return X_GROUP;
	default:
		return X_TOP;
	}
}

json_t *lsp_completion(const struct lsp_doc *doc, uint32_t off)
{
	const struct lsp_unit *u = doc->good ? doc->good : doc->cur;
	const struct compilation *c = &doc->cur->c;
	const struct rk_design *d = &u->c.design;
	const char *t = doc->text;
	json_t *items = json_array();
	uint32_t ls = off, k, wb = off, n = 0;
	struct srcloc repl;

	if (off > doc->len)
		return items;
	while (ls > 0 && t[ls - 1] != '\n')
		ls--;
	while (wb > ls && (ident_ch(t[wb - 1]) || t[wb - 1] == '-'))
		wb--;
	/* the range is in the buffer's text, which the root file of the
	 * latest compilation holds */
	repl = (struct srcloc){ c->root_file, wb, off };
	k = wb;
	while (k > ls && (t[k - 1] == ' ' || t[k - 1] == '\t'))
		k--;
	if (k > ls && t[k - 1] == '"') {
		/* waive "...: the check names */
		uint32_t q = k - 1;
		struct diag_rule r;

		while (q > ls && (t[q - 1] == ' ' || t[q - 1] == '\t'))
			q--;
		if (q >= ls + 5 && memcmp(t + q - 5, "waive", 5) == 0)
			for (unsigned i = 0; diag_rule_at(i, &r); i++)
				if (r.check &&
				    has_prefix(r.id, t + wb, off - wb))
					add_item(items, r.id, 21, r.summary, c,
						 repl);
		return items;
	}
	if (k > ls && t[k - 1] == ':') {
		/* NAME : the catalog's parts */
		for (uint32_t i = 0; i < d->nobjs && n < LSP_MAX_ITEMS; i++) {
			const struct rk_obj *o = &d->objs[i];
			const char *name = str_of(d->arena, o->name);

			if (o->kind != K_PART ||
			    !has_prefix(name, t + wb, off - wb))
				continue;
			add_item(items, name, 7,
				 rk_class_name((enum rk_class)o->cls), c, repl);
			n++;
		}
		return items;
	}
	if (k == ls || (k > ls && (t[k - 1] == '{' || t[k - 1] == ';'))) {
		/* the first word of a statement: attributes and kinds */
		uint32_t ctx = scope_ctx(&u->c, off);

		for (uint32_t i = 1; i < A__COUNT; i++)
			if ((attr_table[i].where & ctx) &&
			    has_prefix(attr_table[i].name, t + wb, off - wb))
				add_item(items, attr_table[i].name, 10,
					 attr_table[i].summary, c, repl);
		for (uint32_t i = 0; i < kind_table_len; i++)
			if ((kind_table[i].where & ctx) &&
			    has_prefix(kind_table[i].word, t + wb, off - wb))
				add_item(items, kind_table[i].word, 14,
					 kind_table[i].summary, c, repl);
	}
	return items;
}

/* ---- document symbols ---- */

static int symbol_kind(enum rk_kind k)
{
	switch (k) {
	case K_PART:
		return 5; /* Class */
	case K_SITE:
	case K_ROW:
		return 3; /* Namespace */
	case K_RACK:
		return 23; /* Struct */
	case K_FEED:
	case K_AIR:
	case K_LOOP:
		return 13; /* Variable */
	case K_FABRIC:
		return 11; /* Interface */
	case K_GROUP:
		return 2; /* Module */
	default:
		return 19; /* Object */
	}
}

static void symbols_of(const struct compilation *c, uint32_t parent,
		       json_t *out, unsigned depth, uint32_t *count)
{
	const struct rk_design *d = &c->design;

	if (depth > 64)
		return;
	for_each_child(d, parent, i) {
		const struct rk_obj *o = &d->objs[i];
		json_t *sym, *kids;
		uint32_t part;

		if (*count >= LSP_MAX_ITEMS)
			return;
		if (o->kind == K_PORT || o->kind == K_COMP ||
		    o->loc.file != c->root_file)
			continue;
		(*count)++;
		kids = json_array();
		symbols_of(c, i, kids, depth + 1, count);
		sym = json_pack(
		    "{s:s,s:i,s:o,s:o,s:o}", "name", str_of(d->arena, o->local),
		    "kind", symbol_kind((enum rk_kind)o->kind), "range",
		    lsp_range(c, o->loc), "selectionRange",
		    lsp_range(c,
			      name_in(c, o->loc, str_of(d->arena, o->local))),
		    "children", kids);
		part = o->kind == K_PART ? o->part : ir_part_of(d, i);
		if (part != RK_NONE)
			json_object_set_new(sym, "detail",
					    json_string(ir_name(d, part)));
		json_array_append_new(out, sym);
	}
}

json_t *lsp_symbols(const struct lsp_doc *doc)
{
	json_t *out = json_array();
	uint32_t count = 0;

	symbols_of(&doc->cur->c, RK_NONE, out, 0, &count);
	return out;
}

#else
/* ISO C wants something in a translation unit */
typedef int lsp_query_unused;
#endif
