/* SPDX-License-Identifier: MIT */
/*
 * Cable labels and faceplate names (cablelabel.h), formatted once: one
 * pass over the links writes every cabled link's label into one buffer,
 * each site's template compiled to a list of pieces when its first link
 * comes, each port's faceplate name rendered when its first link comes.
 */
#include "rackc.h"

#include <stdio.h>
#include <stdlib.h>

#include "cableplan.h"
#include "cablelabel.h"
#include "layout.h"
#include "schema.h"

/* The pieces of a compiled template. */
enum lf_kind { LF_LIT, LF_ID, LF_ROW, LF_RACK, LF_U, LF_DEVICE, LF_PORT };

static const char *const end_fields[] = {
	[LF_ROW] = "row",	[LF_RACK] = "rack", [LF_U] = "u",
	[LF_DEVICE] = "device", [LF_PORT] = "port",
};

/* A literal (@off, @len in the template) or a field of end @b (0: a). */
struct lf_op {
	uint8_t kind;
	uint8_t b;
	uint32_t off, len;
};

/* What a label prints for a row or a rack (cablelabel.h): the number
 * @n (@num), or the @len bytes at @s. */
struct code {
	const char *s;
	uint32_t len;
	bool num;
	int64_t n;
};

struct builder {
	const struct rk_design *d;
	struct cable_labels *cl;
	uint32_t *code;	    /* row or rack -> its codes[] entry, RK_NONE */
	struct code *codes; /* what the labels print for rows and racks */
	uint32_t ncodes, codes_cap;
	uint32_t *row;	 /* a device's rack -> row_of() */
	size_t len, cap; /* cl->text */
	size_t nfaces, faces_cap;
	uint32_t site_at;   /* site_of() memo: the object asked, */
	uint32_t site;	    /* its site */
	uint32_t tmpl_site; /* the site whose template is compiled */
	const char *tmpl;
	struct lf_op *ops;
	uint32_t nops, ops_cap;
};

/* The kind of field @f (@n bytes), its end in *@b; -1: not a field. */
static int field_kind(const char *f, size_t n, uint8_t *b)
{
	if (n == 2 && !memcmp(f, "id", 2))
		return LF_ID;
	if (n < 3 || (f[0] != 'a' && f[0] != 'b') || f[1] != '.')
		return -1;
	*b = f[0] == 'b';
	for (int k = LF_ROW; k <= LF_PORT; k++)
		if (strlen(end_fields[k]) == n - 2 &&
		    !memcmp(end_fields[k], f + 2, n - 2))
			return k;
	return -1;
}

bool cable_label_field_known(const char *f, size_t n)
{
	uint8_t b;

	return field_kind(f, n, &b) >= 0;
}

/* Room for @n more bytes at *@len in *@buf (capacity *@cap). */
static inline char *room(char **buf, size_t *cap, size_t len, size_t n)
{
	if (len + n > *cap) {
		while (len + n > *cap)
			*cap = *cap ? 2 * *cap : 1 << 16;
		*buf = xrealloc(*buf, *cap);
	}
	return *buf + len;
}

static inline void put(struct builder *b, const char *s, size_t n)
{
	char *o = room(&b->cl->text, &b->cap, b->len, n);

	b->len = (size_t)(rk_put(o, s, n) - b->cl->text);
}

static inline void put_num(struct builder *b, uint64_t v)
{
	char *o = room(&b->cl->text, &b->cap, b->len, 20);

	b->len = (size_t)(u64_put(o, v) - b->cl->text);
}

/* Compile template @t: a literal piece per run of characters that are not
 * a known field (a '{' that opens none is a character). */
static void compile(struct builder *b, const char *t)
{
	b->tmpl = t;
	b->nops = 0;
	for (const char *q = t; *q; q++) {
		const char *e = q[0] == '{' ? strchr(q, '}') : NULL;
		uint8_t end = 0;
		int k = e ? field_kind(q + 1, (size_t)(e - q - 1), &end) : -1;
		struct lf_op *op;

		if (k < 0 && b->nops && b->ops[b->nops - 1].kind == LF_LIT) {
			b->ops[b->nops - 1].len++;
			continue;
		}
		op = VEC_PUSH(b->ops, b->nops, b->ops_cap);
		op->kind = (uint8_t)(k < 0 ? LF_LIT : k);
		op->b = end;
		op->off = (uint32_t)(q - t);
		op->len = 1;
		if (k >= 0)
			q = e;
	}
}

/* The index of a port from its local name ("p[12]": 12; none: 0). */
static uint64_t port_number(const char *nm, size_t n)
{
	uint64_t v = 0, scale = 1;

	if (!n || nm[n - 1] != ']')
		return 0;
	for (n--; n && nm[n - 1] >= '0' && nm[n - 1] <= '9'; n--) {
		v += (uint64_t)(nm[n - 1] - '0') * scale;
		scale *= 10;
	}
	return v;
}

/* Render the faceplate name of @port unless it has one already. */
static void face(struct builder *b, uint32_t port)
{
	const struct rk_design *d = b->d;
	struct cable_labels *cl = b->cl;
	uint32_t nm = d->objs[port].local;
	const char *pat, *cage, *name;
	size_t n, start = b->nfaces;
	uint64_t idx, per;

	if (cl->face_len[port] != UINT32_MAX)
		return;
	name = str_of(d->arena, nm);
	n = strlen_of(d->arena, nm);
	pat = ir_str(d, port, A_FACEPLATE);
	if (!pat) {
		rk_put(room(&cl->faces, &b->faces_cap, b->nfaces, n), name, n);
		b->nfaces += n;
	} else {
		cage = ir_str(d, port, A_CAGE);
		per = cage && !strcmp(cage, "twin") ? 2 : 1;
		idx = port_number(name, n);
		for (const char *q = pat; *q; q++) {
			char *o =
			    room(&cl->faces, &b->faces_cap, b->nfaces, 20);

			if (q[0] == '{' && q[1] && q[2] == '}' &&
			    strchr("cpni", q[1])) {
				o = u64_put(o, q[1] == 'c'   ? idx / per + 1
					       : q[1] == 'p' ? idx % per + 1
					       : q[1] == 'n' ? idx + 1
							     : idx);
				b->nfaces = (size_t)(o - cl->faces);
				q += 2;
			} else {
				*o = *q;
				b->nfaces++;
			}
		}
	}
	cl->face[port] = start;
	cl->face_len[port] = (uint32_t)(b->nfaces - start);
}

/* The site of object @at (the last one asked is kept: consecutive links
 * mostly start in one rack). */
static uint32_t site_of(struct builder *b, uint32_t at)
{
	if (at != b->site_at) {
		b->site_at = at;
		b->site = ir_ancestor(b->d, at, K_SITE);
	}
	return b->site;
}

/* The row of @rack, or RK_NONE. */
static uint32_t row_of(const struct builder *b, uint32_t rack)
{
	return rack != RK_NONE ? ir_ancestor(b->d, rack, K_ROW) : RK_NONE;
}

/* The number a name ends in, as written: the last index ("r[12]": "12")
 * or the trailing digits ("r12": "12"); its length in *@n, 0 when none. */
static const char *name_number(const char *nm, size_t len, size_t *n)
{
	size_t e = len;

	if (e && nm[e - 1] == ']')
		e--;
	*n = 0;
	while (*n < e && nm[e - *n - 1] >= '0' && nm[e - *n - 1] <= '9')
		++*n;
	if (e < len && (*n == 0 || *n == e || nm[e - *n - 1] != '['))
		*n = 0; /* "r[i+1]": not a plain index */
	return nm + e - *n;
}

/* The code of row or rack @obj: its @key attribute (a whole number) when
 * given, else the number its name ends in, else its local name. */
static void code_of(const struct rk_design *d, uint32_t obj, uint32_t key,
		    struct code *c)
{
	const struct rk_value *v = ir_attr(d, obj, key);
	uint32_t nm = d->objs[obj].local;
	size_t n;

	memset(c, 0, sizeof(*c));
	if (v && v->type == VT_NUM) {
		c->num = true;
		c->n = v->n;
		return;
	}
	c->s = name_number(str_of(d->arena, nm), strlen_of(d->arena, nm), &n);
	if (!n) {
		c->s = str_of(d->arena, nm);
		n = strlen_of(d->arena, nm);
	}
	c->len = (uint32_t)n;
}

static void set_code(struct builder *b, uint32_t obj, uint32_t key)
{
	b->code[obj] = b->ncodes;
	code_of(b->d, obj, key, VEC_PUSH(b->codes, b->ncodes, b->codes_cap));
}

const char *cable_row_code(const struct rk_design *d, uint32_t row,
			   char buf[CABLE_CODE_MAX], size_t *n)
{
	struct code c;

	code_of(d, row, A_LABEL_CODE, &c);
	if (!c.num) {
		*n = c.len;
		return c.s;
	}
	*n = (size_t)snprintf(buf, CABLE_CODE_MAX, "%lld", (long long)c.n);
	return buf;
}

/* Print the code of @obj (a row or a rack; nothing for another). */
static void put_code(struct builder *b, uint32_t obj)
{
	const struct code *c;

	if (b->code[obj] == RK_NONE)
		return;
	c = &b->codes[b->code[obj]];
	if (!c->num) {
		put(b, c->s, c->len);
		return;
	}
	if (c->n < 0)
		put(b, "-", 1);
	put_num(b, c->n < 0 ? -(uint64_t)c->n : (uint64_t)c->n);
}

/* row_of() of a device's rack, as kept for every rack before the links
 * (walking up from the rack per label field read records far apart). */
static uint32_t rack_row(const struct builder *b, uint32_t rack)
{
	return rack != RK_NONE ? b->row[rack] : RK_NONE;
}

/* Field @op of the label of link @l (plan @r). */
static void field(struct builder *b, const struct lf_op *op,
		  const struct rk_link *l, const struct cp_link *r)
{
	const struct rk_design *d = b->d;
	const struct cable_labels *cl = b->cl;
	uint32_t dev = op->b ? l->b_dev : l->a_dev;
	uint32_t port = op->b ? l->b_port : l->a_port;
	uint32_t rack = cl->rack[dev], row;
	size_t n;
	const char *s;

	switch (op->kind) {
	case LF_ID:
		/* "C" and digits, and a NUL byte after them */
		cableplan_id_str(r->id - 1, room(&b->cl->text, &b->cap, b->len,
						 CP_ID_CHARS + 1));
		b->len += CP_ID_CHARS;
		break;
	case LF_PORT:
		face(b, port);
		s = cable_face(cl, port, &n);
		put(b, s, n);
		break;
	case LF_DEVICE:
		put(b, str_of(d->arena, d->objs[dev].name),
		    strlen_of(d->arena, d->objs[dev].name));
		break;
	case LF_U:
		if (rack != RK_NONE && cl->at[dev] >= 1)
			put_num(b, (uint64_t)cl->at[dev]);
		break;
	case LF_RACK:
		row = rack_row(b, rack);
		if (row != RK_NONE) {
			put_code(b, row);
			put(b, ".", 1);
		}
		if (rack != RK_NONE)
			put_code(b, rack);
		break;
	default: /* LF_ROW */
		row = rack_row(b, rack);
		if (row != RK_NONE)
			put_code(b, row);
		break;
	}
}

/* The label of cabled link @li. */
static void label(struct builder *b, uint32_t li, const struct cp_link *r)
{
	const struct rk_design *d = b->d;
	const struct rk_link *l = &d->links[li];
	uint32_t at =
	    b->cl->rack[l->a_dev] != RK_NONE ? b->cl->rack[l->a_dev] : l->a_dev;
	uint32_t site = site_of(b, at);

	if (site != b->tmpl_site || !b->tmpl) {
		const char *t =
		    site != RK_NONE ? ir_str(d, site, A_LABEL) : NULL;

		b->tmpl_site = site;
		compile(b, t ? t : CABLE_LABEL_DEFAULT);
	}
	for (uint32_t k = 0; k < b->nops; k++) {
		const struct lf_op *op = &b->ops[k];

		if (op->kind == LF_LIT)
			put(b, b->tmpl + op->off, op->len);
		else
			field(b, op, l, r);
	}
}

void cable_labels_build(const struct rk_design *d, const struct cable_plan *p,
			struct cable_labels *cl)
{
	size_t nobj = (size_t)d->nobjs + 1;
	struct builder b;

	memset(cl, 0, sizeof(*cl));
	memset(&b, 0, sizeof(b));
	b.d = d;
	b.cl = cl;
	b.site_at = b.site = b.tmpl_site = RK_NONE;
	cl->rack = xmalloc(nobj * sizeof(*cl->rack));
	cl->at = xmalloc(nobj * sizeof(*cl->at));
	cl->face = xmalloc(nobj * sizeof(*cl->face));
	cl->face_len = xmalloc(nobj * sizeof(*cl->face_len));
	memset(cl->face_len, 0xff, nobj * sizeof(*cl->face_len));
	b.code = xmalloc(nobj * sizeof(*b.code));
	memset(b.code, 0xff, nobj * sizeof(*b.code));
	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];

		cl->rack[i] = layout_rack_of(d, i);
		cl->at[i] = layout_at(d, i);
		/* from names and attributes only, never from the order of
		 * the declarations: a row by its label_code, a rack by its
		 * slot (elaboration gives every rack in a row one) */
		if (o->kind == K_ROW)
			set_code(&b, i, A_LABEL_CODE);
		else if (o->kind == K_RACK)
			set_code(&b, i, A_SLOT);
	}
	/* the rows of the devices' racks, once per rack */
	b.row = xmalloc(nobj * sizeof(*b.row));
	for (uint32_t i = 0, last = RK_NONE; i < d->nobjs; i++) {
		uint32_t rk = cl->rack[i];

		if (rk != RK_NONE && rk != last)
			b.row[rk] = row_of(&b, rk);
		last = rk;
	}
	cl->off = xmalloc(((size_t)d->nlinks + 1) * sizeof(*cl->off));
	/* never NULL, so that an empty label or name still points somewhere */
	room(&cl->text, &b.cap, 0, 1);
	room(&cl->faces, &b.faces_cap, 0, 1);
	for (uint32_t i = 0; i < d->nlinks; i++) {
		const struct cp_link *r = &p->links[i];

		cl->off[i] = b.len;
		if (!r->label_no)
			continue;
		label(&b, i, r);
		/* the patch schedule names both ends by their faceplates */
		face(&b, d->links[i].a_port);
		face(&b, d->links[i].b_port);
	}
	cl->off[d->nlinks] = b.len;
	/* what was held ahead and not used goes back */
	if (b.len)
		cl->text = xrealloc(cl->text, b.len);
	free(b.code);
	free(b.codes);
	free(b.row);
	free(b.ops);
}

void cable_labels_free(struct cable_labels *cl)
{
	free(cl->rack);
	free(cl->at);
	free(cl->text);
	free(cl->off);
	free(cl->faces);
	free(cl->face);
	free(cl->face_len);
	memset(cl, 0, sizeof(*cl));
}
