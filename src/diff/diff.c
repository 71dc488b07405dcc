/* SPDX-License-Identifier: MIT */
/*
 * `rackc diff OLD NEW` (diff.h): two snapshots compared by stable
 * identity, written as text, JSON or Markdown.
 *
 * Sections, each a table of rows (empty sections are left out):
 *   summary   counts of what changed
 *   devices   added, removed, moved (rack or U) or changed (part)
 *   bom       per part number (and stock length): quantity and extended
 *             price before and after, and the change; a total line
 *   cabling   the work order, by rack: cables to add, remove, re-pull (an
 *             end changed: the old cable and the new one share the other
 *             end; or a device it plugs into moved), replace (part or
 *             stock length changed: "crosses stock length" when only the
 *             length did), relabel, keep (only the stock length changed
 *             and the old cable still reaches: "now N m shorter"); a
 *             cable is listed under the rack of each end.  Computed
 *             lengths that change within the same stock length need no
 *             work and are only counted
 *   power     per rack, feed and loop: the report's figures that changed,
 *             before and after (a feed's loads and headroom in normal
 *             operation and after its worst feed loss, a loop's heat,
 *             capacity, flow and headroom), and the rack's headroom
 *             (power_capacity_w - power_max_w)
 *   fabrics   the report's figures that changed, before and after
 *   findings  diagnostics newly raised and newly resolved
 *   moved     racks and units standing in a row whose row or slot
 *             changed, rows whose x, y or pitch changed (same names)
 * Rows are sorted by their identities, so the output is deterministic.
 *
 * JSON is those sections, complete.  Text and Markdown are a review for
 * people: the summary, then the decisions (what to buy and return, cables
 * to pull, devices to install, take out and move), then the work order's
 * cables grouped (dv_work_groups()), then the sections, a cable's ends by
 * rack, U and faceplate port, the report's lists as words, text lines
 * wrapped; within --max-bytes (what a pull-request comment holds), the
 * rest counted and left out, and complete in --full's file.
 * Exit status: 0 no difference, 1 differences, 2 trouble.
 */
#include "rackc.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "arith.h"
#include "diff.h"
#include "opts.h"

enum fmt { F_TEXT = OPTS_TEXT, F_JSON = OPTS_JSON, F_MD = OPTS_MARKDOWN };

/* --max-bytes: a pull-request comment holds 65,536 characters; some room
 * left for what a CI step adds around it */
#define DIFF_MAX_BYTES 60000
#define DIFF_MIN_BYTES 2000

/* One output section: a table of strings. */
struct section {
	const char *name;  /* JSON key */
	const char *title; /* heading */
	const char *const *cols;
	uint32_t ncols;
	const char **cells; /* n * ncols */
	uint32_t n, cap;
	/* or, when set, the rows of a work order (dv_work_row) */
	const struct dv_workorder *wo;
};

struct dd {
	struct arena *a;
	const struct dv_side *o, *n;
	struct section sec[8];
	uint32_t nsec;
	struct dv_workorder wo;
	uint64_t differences;
};

static struct section *section(struct dd *x, const char *name,
			       const char *title, const char *const *cols,
			       uint32_t ncols)
{
	struct section *s = &x->sec[x->nsec++];

	memset(s, 0, sizeof(*s));
	s->name = name;
	s->title = title;
	s->cols = cols;
	s->ncols = ncols;
	return s;
}

static void put_row(struct section *s, const char *const *v)
{
	for (uint32_t i = 0; i < s->ncols; i++)
		*VEC_PUSH(s->cells, s->n, s->cap) = v[i] ? v[i] : "";
}

static uint32_t rows(const struct section *s)
{
	if (s->wo)
		return s->wo->n;
	return s->ncols ? s->n / s->ncols : 0;
}

/* Row @r of @s into @v (strings of a work order's row in @scratch). */
static void get_row(const struct dd *x, const struct section *s, uint32_t r,
		    struct arena *scratch, const char **v)
{
	if (s->wo) {
		dv_work_row(s->wo, r, x->a, scratch, v);
		return;
	}
	for (uint32_t c = 0; c < s->ncols; c++)
		v[c] = s->cells[(size_t)r * s->ncols + c];
}

static const char *val(const struct dv_table *t, uint32_t r, const char *f)
{
	int i = dv_field(t, f);

	return i < 0 ? "" : t->vals[(size_t)r * t->nf + (uint32_t)i];
}

/* Two sorted tables walked in step: each call gives the next key's row
 * in the old table (@i) and in the new one (@j), RK_NONE where absent. */
struct merge {
	uint32_t i, j;
};

static bool merge_next(struct merge *m, const struct dv_table *to,
		       const struct dv_table *tn, uint32_t *i, uint32_t *j)
{
	int c;

	if (m->i >= to->n && m->j >= tn->n)
		return false;
	c = m->i >= to->n   ? 1
	    : m->j >= tn->n ? -1
			    : dv_keycmp(to->keys[m->i], tn->keys[m->j]);
	*i = c <= 0 ? m->i++ : RK_NONE;
	*j = c >= 0 ? m->j++ : RK_NONE;
	return true;
}

#define MERGE(to, tn, i, j)                                               \
	for (struct merge m_ = { 0, 0 }; m_.i != RK_NONE; m_.i = RK_NONE) \
		for (uint32_t i, j; merge_next(&m_, to, tn, &i, &j);)

/* ---- exact decimals (report and bom figures) ---- */

#define DEC_SCALE 1000000 /* six places: the report's exact figures */

typedef i128 dec_t;

/* @s as a multiple of 1e-6; false if it is not such a number (or has
 * more than 30 digits). */
static bool dec_parse(const char *s, dec_t *out)
{
	dec_t v = 0, f = 0, scale = DEC_SCALE;
	bool neg = *s == '-', digits = false;
	int nd = 0;

	if (neg)
		s++;
	for (; *s >= '0' && *s <= '9'; s++, digits = true) {
		if (++nd > 30)
			return false;
		v = v * 10 + (*s - '0');
	}
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++) {
			if (scale == 1)
				return false; /* more places than we keep */
			scale /= 10;
			f += (*s - '0') * scale;
			digits = true;
		}
	if (*s || !digits)
		return false;
	*out = (v * DEC_SCALE + f) * (neg ? -1 : 1);
	return true;
}

static const char *dec_str(struct arena *a, dec_t v, bool sign)
{
	char buf[64], *p = buf + sizeof(buf);
	unsigned __int128 m =
	    v < 0 ? (unsigned __int128)-v : (unsigned __int128)v;
	unsigned __int128 ip = m / DEC_SCALE;
	unsigned frac = (unsigned)(m % DEC_SCALE);
	int n = 6;

	*--p = '\0';
	while (n > 0 && frac % 10 == 0) {
		frac /= 10;
		n--;
	}
	for (int k = 0; k < n; k++) {
		*--p = (char)('0' + frac % 10);
		frac /= 10;
	}
	if (n)
		*--p = '.';
	do {
		*--p = (char)('0' + (unsigned)(ip % 10));
		ip /= 10;
	} while (ip);
	if (v < 0)
		*--p = '-';
	else if (sign)
		*--p = '+';
	return arena_strndup(a, p, strlen(p));
}

/* after - before as a signed decimal, "" when either is not a number. */
static const char *dec_delta(struct arena *a, const char *before,
			     const char *after)
{
	dec_t b = 0, f = 0;

	if (!*before)
		before = "0";
	if (!*after)
		after = "0";
	if (!dec_parse(before, &b) || !dec_parse(after, &f))
		return "";
	return dec_str(a, f - b, true);
}

/* ---- devices ---- */

static const char *const dev_cols[] = { "change",      "device",
					"part_before", "part_after",
					"rack_before", "u_before",
					"rack_after",  "u_after" };

static void diff_devices(struct dd *x)
{
	const struct dv_table *to = &x->o->t[DV_DEVICES],
			      *tn = &x->n->t[DV_DEVICES];
	struct section *s = section(x, "devices", "Devices", dev_cols, 8);

	MERGE(to, tn, i, j)
	{
		const char *ch = NULL;
		const char *po = i != RK_NONE ? val(to, i, "part") : "";
		const char *pn = j != RK_NONE ? val(tn, j, "part") : "";
		const char *ro = i != RK_NONE ? val(to, i, "rack") : "";
		const char *rn = j != RK_NONE ? val(tn, j, "rack") : "";
		const char *uo = i != RK_NONE ? val(to, i, "u") : "";
		const char *un = j != RK_NONE ? val(tn, j, "u") : "";

		if (i == RK_NONE)
			ch = "added";
		else if (j == RK_NONE)
			ch = "removed";
		else if (!streq(po, pn))
			ch = streq(ro, rn) && streq(uo, un) ? "changed"
							    : "changed, moved";
		else if (!streq(ro, rn) || !streq(uo, un))
			ch = "moved";
		if (ch) {
			const char *v[8] = {
				ch, i != RK_NONE ? to->keys[i] : tn->keys[j],
				po, pn,
				ro, uo,
				rn, un
			};

			put_row(s, v);
		}
	}
}

/* ---- bill of materials ---- */

static const char *const bom_cols[] = {
	"part_number",
	"part",
	"quantity_before",
	"quantity_after",
	"quantity_change",
	"extended_price_before",
	"extended_price_after",
	"extended_price_change",
	"currency",
};

/* The currencies of the priced lines of both sides, and their totals. */
struct total {
	const char *cur;
	dec_t sum[2];
};

static void add_total(struct total *t, uint32_t *nt, const char *cur, int side,
		      dec_t v)
{
	uint32_t k;

	for (k = 0; k < *nt && !streq(t[k].cur, cur); k++)
		;
	if (k == *nt) {
		t[k].cur = cur;
		t[k].sum[0] = t[k].sum[1] = 0;
		(*nt)++;
	}
	t[k].sum[side] += v;
}

static int total_cmp(const void *a, const void *b)
{
	return strcmp(((const struct total *)a)->cur,
		      ((const struct total *)b)->cur);
}

static void diff_bom(struct dd *x)
{
	const struct dv_table *to = &x->o->t[DV_BOM], *tn = &x->n->t[DV_BOM];
	struct section *s = section(x, "bom", "Bill of materials", bom_cols, 9);
	struct total *tot = xcalloc((size_t)to->n + tn->n + 1, sizeof(*tot));
	uint32_t ntot = 0;
	bool any = false;

	for (int k = 0; k < 2; k++) {
		const struct dv_table *t = k ? tn : to;

		for (uint32_t r = 0; r < t->n; r++) {
			dec_t v;
			const char *e = val(t, r, "extended_price");

			if (*e && dec_parse(e, &v))
				add_total(tot, &ntot, val(t, r, "currency"), k,
					  v);
		}
	}
	MERGE(to, tn, i, j)
	{
		const char *qo = i != RK_NONE ? val(to, i, "quantity") : "0";
		const char *qn = j != RK_NONE ? val(tn, j, "quantity") : "0";
		const char *eo =
		    i != RK_NONE ? val(to, i, "extended_price") : NULL;
		const char *en =
		    j != RK_NONE ? val(tn, j, "extended_price") : NULL;
		const char *cur = j != RK_NONE && *val(tn, j, "currency")
				      ? val(tn, j, "currency")
				  : i != RK_NONE ? val(to, i, "currency")
						 : "";

		/* a line only on one side: its price is 0 on the other */
		if (!eo)
			eo = *en ? "0" : "";
		if (!en)
			en = *eo ? "0" : "";
		if (streq(qo, qn) && streq(eo, en))
			continue;
		any = true;
		{
			const char *v[9] = {
				i != RK_NONE ? to->keys[i] : tn->keys[j],
				i != RK_NONE ? val(to, i, "part")
					     : val(tn, j, "part"),
				qo,
				qn,
				dec_delta(x->a, qo, qn),
				eo,
				en,
				*eo && *en ? dec_delta(x->a, eo, en) : "",
				cur
			};

			put_row(s, v);
		}
	}
	/* one total per currency, of the priced lines */
	if (ntot)
		qsort(tot, ntot, sizeof(*tot), total_cmp);
	for (uint32_t k = 0; any && k < ntot; k++) {
		const char *v[9] = {
			"total",
			"(priced lines)",
			"",
			"",
			"",
			dec_str(x->a, tot[k].sum[0], false),
			dec_str(x->a, tot[k].sum[1], false),
			dec_str(x->a, tot[k].sum[1] - tot[k].sum[0], true),
			tot[k].cur
		};

		put_row(s, v);
	}
	free(tot);
}

/* ---- cabling ---- */

static const char *const cab_cols[] = { "rack",		"action", "cable_id",
					"new_cable_id", "cable",  "detail" };

/* The work order's rows are written from its items when the output is. */
static void diff_cabling(struct dd *x, uint64_t counts[8])
{
	struct section *s =
	    section(x, "cabling", "Cabling work order", cab_cols, 6);

	dv_cabling(&x->wo, &x->o->cables, &x->n->cables, x->a, counts);
	s->wo = &x->wo;
}

/* ---- report figures: power and fabrics ---- */

static const char *const pw_cols[] = { "kind",	 "name",  "figure",
				       "before", "after", "change" };

/*
 * Field @fn of record @r as the diff shows it: a figure the report gives
 * as null because a term of it is unknown (its "unknown" list, with the
 * lower bound in "at_least") reads "at least X", never as a number that
 * looks known.
 */
static const char *fig_val(struct arena *a, const struct dv_table *t,
			   uint32_t r, const char *fn)
{
	const char *v = val(t, r, fn), *lst, *at, *p;
	char key[80];
	size_t n;

	if (*v)
		return v;
	snprintf(key, sizeof(key), "\"%s\"", fn);
	lst = val(t, r, "unknown");
	if (!strstr(lst, key))
		return v;
	at = val(t, r, "at_least");
	p = strstr(at, key);
	if (!p || p[strlen(key)] != ':')
		return "unknown";
	p += strlen(key) + 1;
	for (n = 0; p[n] && p[n] != ',' && p[n] != '}'; n++)
		;
	return arena_printf(a, "at least %.*s", (int)n, p);
}

/* Every field of every record of table @id that differs. */
static void diff_figures(struct dd *x, struct section *s, enum dv_table_id id,
			 const char *kind)
{
	const struct dv_table *to = &x->o->t[id], *tn = &x->n->t[id];

	MERGE(to, tn, i, j)
	{
		const char *name = i != RK_NONE ? to->keys[i] : tn->keys[j];
		/* fields of either side, old side's order first */
		for (int side = 0; side < 2; side++) {
			const struct dv_table *t = side ? tn : to;

			for (uint32_t f = 0; f < t->nf; f++) {
				const char *fn = t->fields[f];
				const char *b, *e;

				if (side && dv_field(to, fn) >= 0)
					continue;
				/* shown through the figures they qualify */
				if (streq(fn, "unknown") ||
				    streq(fn, "at_least"))
					continue;
				b = i != RK_NONE ? fig_val(x->a, to, i, fn)
						 : "";
				e = j != RK_NONE ? fig_val(x->a, tn, j, fn)
						 : "";
				if (i == RK_NONE)
					b = "(none)";
				if (j == RK_NONE)
					e = "(none)";
				if (streq(b, e))
					continue;
				{
					const char *v[6] = {
						kind, name,
						fn,   b,
						e,    dec_delta(x->a, b, e)
					};

					put_row(s, v);
				}
			}
		}
		/* a rack's headroom */
		if (id == DV_RACKS) {
			const char *h[2];

			for (int side = 0; side < 2; side++) {
				const struct dv_table *t = side ? tn : to;
				uint32_t r = side ? j : i;
				dec_t cap, pw;

				h[side] = "(none)";
				if (r != RK_NONE &&
				    dec_parse(val(t, r, "power_capacity_w"),
					      &cap) &&
				    dec_parse(val(t, r, "power_max_w"), &pw))
					h[side] =
					    dec_str(x->a, cap - pw, false);
				else if (r != RK_NONE &&
					 dec_parse(
					     val(t, r, "power_capacity_w"),
					     &cap) &&
					 !strncmp(
					     fig_val(x->a, t, r, "power_max_w"),
					     "at least ", 9) &&
					 dec_parse(fig_val(x->a, t, r,
							   "power_max_w") +
						       9,
						   &pw))
					/* from a lower bound of the load */
					h[side] = arena_printf(
					    x->a, "at most %s",
					    dec_str(x->a, cap - pw, false));
			}
			if (!streq(h[0], h[1])) {
				const char *v[6] = {
					kind, name, "headroom_w",
					h[0], h[1], dec_delta(x->a, h[0], h[1])
				};

				put_row(s, v);
			}
		}
	}
}

/* ---- findings ---- */

static const char *const fd_cols[] = { "change", "finding", "figures", "was" };

/* Finding @r of @t as people read it: "error [check] message". */
static const char *finding_text(struct arena *a, const struct dv_table *t,
				uint32_t r)
{
	return arena_printf(a, "%s [%s] %s", val(t, r, "level"),
			    val(t, r, "check"), val(t, r, "message"));
}

/* One figure's value, exact, with its bound: "at least 12.34kW". */
static const char *figure_value(struct arena *a, const struct diag_figure *g)
{
	char q[RK_QFMT_MAX];

	quantity_format((struct quantity){ (enum dim)g->dim, g->v }, q);
	return arena_printf(a, "%s%s",
			    g->bound == '>'   ? "at least "
			    : g->bound == '<' ? "at most "
					      : "",
			    q);
}

/* The figure of @figs named as @g is (NULL: none) into @out. */
static bool figure_named(const char *figs, const struct diag_figure *g,
			 struct diag_figure *out)
{
	for (const char *p = figs; diag_figure_next(&p, out);)
		if (out->name_len == g->name_len &&
		    !memcmp(out->name, g->name, g->name_len))
			return true;
	return false;
}

/*
 * A finding's exact figures for people: "load 12.34kW, capacity 10kW";
 * with @old (a changed finding's), each figure that moved as "old ->
 * new", and one it no longer gives as "old -> (none)".
 */
static const char *figures_text(struct arena *a, const char *old,
				const char *figs)
{
	struct diag_figure g, h;
	const char *out = "";

	for (const char *p = figs; diag_figure_next(&p, &g);) {
		const char *v = figure_value(a, &g);

		if (old && !figure_named(old, &g, &h))
			v = arena_printf(a, "(none) -> %s", v);
		else if (old &&
			 (h.v != g.v || h.bound != g.bound || h.dim != g.dim))
			v = arena_printf(a, "%s -> %s", figure_value(a, &h), v);
		out = arena_printf(a, "%s%s%.*s %s", out, *out ? ", " : "",
				   (int)g.name_len, g.name, v);
	}
	for (const char *p = old; old && diag_figure_next(&p, &h);)
		if (!figure_named(figs, &h, &g))
			out = arena_printf(a, "%s%s%.*s %s -> (none)", out,
					   *out ? ", " : "", (int)h.name_len,
					   h.name, figure_value(a, &h));
	return out;
}

/*
 * Findings by identity (diff_load.c: the check and the object): one only
 * the old side has is resolved, one only the new side has raised, and
 * one both have whose level, message or exact figures differ changed
 * (the figures old -> new, and the old text when it differs); a figure
 * that moved within its message's rounding still changes the finding.
 */
static void diff_findings(struct dd *x)
{
	const struct dv_table *to = &x->o->t[DV_FINDINGS],
			      *tn = &x->n->t[DV_FINDINGS];
	struct section *s = section(x, "findings", "Findings", fd_cols, 4);

	MERGE(to, tn, i, j)
	{
		const char *v[4] = { NULL, NULL, NULL, "" };

		if (i == RK_NONE || j == RK_NONE) {
			const struct dv_table *t = i == RK_NONE ? tn : to;
			uint32_t r = i == RK_NONE ? j : i;

			v[0] = i == RK_NONE ? "raised" : "resolved";
			v[1] = finding_text(x->a, t, r);
			v[2] = figures_text(x->a, NULL, val(t, r, "figures"));
		} else {
			const char *a = finding_text(x->a, to, i),
				   *b = finding_text(x->a, tn, j);
			const char *fa = val(to, i, "figures"),
				   *fb = val(tn, j, "figures");

			if (streq(a, b) && streq(fa, fb))
				continue;
			v[0] = "changed";
			v[1] = b;
			v[2] = figures_text(x->a, fa, fb);
			v[3] = streq(a, b) ? "" : a;
		}
		put_row(s, v);
	}
}

/* ---- writing ---- */

static void json_string(FILE *fp, const char *s)
{
	putc('"', fp);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(fp, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", fp);
		else if (*p < 0x20)
			fprintf(fp, "\\u%04x", *p);
		else
			putc(*p, fp);
	}
	putc('"', fp);
}

static void write_json(FILE *fp, const struct dd *x)
{
	struct arena scratch; /* a row's strings at a time */
	struct arena_mark m;
	const char *v[16]; /* a row: ncols cells */

	arena_init(&scratch);
	m = arena_mark(&scratch);
	{
		fputs("{\n  \"old\": ", fp);
		json_string(fp, x->o->what);
		fputs(",\n  \"new\": ", fp);
		json_string(fp, x->n->what);
		fprintf(fp, ",\n  \"differences\": %s",
			x->differences ? "true" : "false");
		for (uint32_t k = 0; k < x->nsec; k++) {
			const struct section *s = &x->sec[k];

			fputs(",\n  ", fp);
			json_string(fp, s->name);
			fputs(": [", fp);
			for (uint32_t r = 0; r < rows(s); r++) {
				arena_release(&scratch, &m);
				get_row(x, s, r, &scratch, v);
				fputs(r ? ",\n    {" : "\n    {", fp);
				for (uint32_t c = 0; c < s->ncols; c++) {
					if (c)
						fputs(", ", fp);
					json_string(fp, s->cols[c]);
					fputs(": ", fp);
					json_string(fp, v[c]);
				}
				putc('}', fp);
			}
			fputs(rows(s) ? "\n  ]" : "]", fp);
		}
		fputs("\n}\n", fp);
		arena_destroy(&scratch);
		return;
	}
}

/* ---- text and Markdown: a review for people ---- */

#define LINE_MAX_TEXT 160 /* text lines are wrapped to this */
#define NOTE_ROOM 300	  /* kept for the closing note, and its file */

/* Where a review goes: a stream, or only counted (@fp NULL); a budget of
 * @max bytes (0: none) past which lines are counted, not written. */
struct em {
	FILE *fp;
	enum fmt f;
	uint64_t used, max;
	uint64_t lines, left; /* lines written, and left out */
	uint64_t room;	      /* kept for the closing note */
};

/* A value of the report that is JSON (a list, an object) as words:
 * "[8,1]" "8, 1"; "[{"down":1,"up":2}]" "(down 1, up 2)". */
static const char *flat(struct arena *a, const char *v)
{
	size_t n = strlen(v), o = 0;
	char *b;
	int depth = 0;

	if (*v != '[' && *v != '{')
		return v;
	b = arena_alloc(a, 2 * n + 1);
	for (const char *p = v; *p; p++) {
		switch (*p) {
		case '[':
		case '{':
			if (depth++)
				b[o++] = '(';
			break;
		case ']':
		case '}':
			if (--depth)
				b[o++] = ')';
			break;
		case '"':
			break;
		case ':':
			b[o++] = ' ';
			break;
		case ',':
			b[o++] = ',';
			b[o++] = ' ';
			break;
		default:
			b[o++] = *p;
		}
	}
	b[o] = '\0';
	return o ? b : "(none)";
}

/* Line @s as text lines of at most LINE_MAX_TEXT bytes: broken at a
 * space (blanks before it dropped), the rest indented; written to @fp
 * (NULL: only counted).  Returns the bytes. */
static size_t wrap(FILE *fp, const char *s, size_t n)
{
	const size_t ind = 6;
	size_t lim = LINE_MAX_TEXT, bytes = 0;

	for (bool first = true;; first = false) {
		size_t k = n, e;

		if (n > lim) {
			for (k = lim; k > lim / 2 && s[k] != ' '; k--)
				;
			if (s[k] != ' ')
				k = lim; /* one long word: cut */
		}
		for (e = k; e && s[e - 1] == ' '; e--)
			;
		bytes += (first ? 0 : ind) + e + 1;
		if (fp)
			fprintf(fp, "%*s%.*s\n", first ? 0 : (int)ind, "",
				(int)e, s);
		if (k == n)
			return bytes;
		for (s += k, n -= k; n && *s == ' '; s++, n--)
			;
		if (!n)
			return bytes;
		lim = LINE_MAX_TEXT - ind;
	}
}

/* A line (no newline), text wrapped (wrap()), within the budget or left
 * out, and every line after it. */
static void em_line(struct em *e, const char *s)
{
	size_t n = strlen(s);
	size_t bytes = e->f == F_TEXT ? wrap(NULL, s, n) : n + 1;

	if (e->left || (e->max && e->used + bytes + e->room > e->max)) {
		e->left++;
		return;
	}
	e->used += bytes;
	e->lines++;
	if (!e->fp)
		return;
	if (e->f == F_TEXT) {
		wrap(e->fp, s, n);
		return;
	}
	fputs(s, e->fp);
	putc('\n', e->fp);
}

/* Markdown table cell: pipes escaped. */
static void md_cell_into(struct arena *a, char **buf, const char *s)
{
	size_t n = strlen(s), o = strlen(*buf);
	char *b = arena_alloc(a, o + 2 * n + 4);

	memcpy(b, *buf, o);
	b[o++] = ' ';
	for (; *s; s++) {
		if (*s == '|')
			b[o++] = '\\';
		b[o++] = *s == '\n' ? ' ' : *s;
	}
	memcpy(b + o, " |", 3);
	*buf = b;
}

/* Row @r of @s for people: figures flattened, a cable's ends by place. */
static void review_row(const struct dd *x, const struct section *s, uint32_t r,
		       struct arena *scratch, const char **v)
{
	get_row(x, s, r, scratch, v);
	/* the report's figures: some are lists */
	if (streq(s->name, "power") || streq(s->name, "fabrics"))
		for (uint32_t c = 0; c < s->ncols; c++)
			v[c] = flat(scratch, v[c]);
	if (s->wo)
		v[4] = dv_work_ends(s->wo, r, x->a, scratch);
}

/* A table: title, header and rows; @get gives row @r's cells. */
static void em_table(struct em *e, const struct dd *x, const struct section *s)
{
	struct arena scratch;
	struct arena_mark m;
	const char *v[16];
	size_t *wd = NULL;
	char *line;

	arena_init(&scratch);
	m = arena_mark(&scratch);
	if (e->f == F_MD) {
		em_line(e, "");
		em_line(e, arena_printf(&scratch, "### %s", s->title));
		em_line(e, "");
		line = arena_strndup(&scratch, "|", 1);
		for (uint32_t c = 0; c < s->ncols; c++)
			md_cell_into(&scratch, &line, s->cols[c]);
		em_line(e, line);
		line = arena_strndup(&scratch, "|", 1);
		for (uint32_t c = 0; c < s->ncols; c++)
			md_cell_into(&scratch, &line, "---");
		em_line(e, line);
		m = arena_mark(&scratch);
		for (uint32_t r = 0; r < rows(s); r++) {
			arena_release(&scratch, &m);
			review_row(x, s, r, &scratch, v);
			line = arena_strndup(&scratch, "|", 1);
			for (uint32_t c = 0; c < s->ncols; c++)
				md_cell_into(&scratch, &line, v[c]);
			em_line(e, line);
		}
		arena_destroy(&scratch);
		return;
	}
	if (s->wo) {
		/* text: a cable a row, the detail on the line below */
		em_line(e, "");
		em_line(e, arena_printf(&scratch, "%s:", s->title));
		m = arena_mark(&scratch);
		for (uint32_t r = 0; r < rows(s); r++) {
			arena_release(&scratch, &m);
			review_row(x, s, r, &scratch, v);
			em_line(e,
				arena_printf(&scratch, "  %s: %s %s%s%s %s",
					     v[0], v[1], v[2],
					     *v[3] ? " -> " : "", v[3], v[4]));
			em_line(e, arena_printf(&scratch, "      %s", v[5]));
		}
		arena_destroy(&scratch);
		return;
	}
	if (streq(s->name, "findings")) {
		/* text: a finding a row, its figures and its old text on
		 * the lines below */
		em_line(e, "");
		em_line(e, arena_printf(&scratch, "%s:", s->title));
		m = arena_mark(&scratch);
		for (uint32_t r = 0; r < rows(s); r++) {
			arena_release(&scratch, &m);
			review_row(x, s, r, &scratch, v);
			em_line(
			    e, arena_printf(&scratch, "  %-8s %s", v[0], v[1]));
			if (*v[2])
				em_line(e, arena_printf(&scratch,
							"      figures: %s",
							v[2]));
			if (*v[3])
				em_line(e, arena_printf(&scratch,
							"      was: %s", v[3]));
		}
		arena_destroy(&scratch);
		return;
	}
	/* text: aligned columns (the rows made twice: for the widths, then
	 * to write them); a long cell does not widen its column */
	wd = xcalloc(s->ncols, sizeof(*wd));
	for (uint32_t c = 0; c < s->ncols; c++)
		wd[c] = strlen(s->cols[c]);
	for (uint32_t r = 0; r < rows(s); r++) {
		arena_release(&scratch, &m);
		review_row(x, s, r, &scratch, v);
		for (uint32_t c = 0; c < s->ncols; c++) {
			size_t l = strlen(v[c]);

			if (l > wd[c] && l <= 40)
				wd[c] = l;
		}
	}
	em_line(e, "");
	em_line(e, arena_printf(&scratch, "%s:", s->title));
	for (uint32_t r = 0; r <= rows(s); r++) {
		size_t o = 1, cap = 2;

		arena_release(&scratch, &m);
		if (r)
			review_row(x, s, r - 1, &scratch, v);
		else
			for (uint32_t c = 0; c < s->ncols; c++)
				v[c] = s->cols[c];
		for (uint32_t c = 0; c < s->ncols; c++)
			cap += strlen(v[c]) + wd[c] + 2;
		line = arena_alloc(&scratch, cap);
		line[0] = ' ';
		for (uint32_t c = 0; c < s->ncols; c++)
			o += (size_t)(c + 1 < s->ncols
					  ? sprintf(line + o, " %-*s",
						    (int)wd[c], v[c])
					  : sprintf(line + o, " %s", v[c]));
		/* no trailing blanks */
		while (o && line[o - 1] == ' ')
			o--;
		line[o] = '\0';
		em_line(e, line);
	}
	free(wd);
	arena_destroy(&scratch);
}

/* ---- racks and rows moved ---- */

static const char *const mv_cols[] = { "kind", "name", "before", "after" };

/* Where row or rack @r of @t stands, in words. */
static const char *place(struct arena *a, const struct dv_table *t, uint32_t r)
{
	if (streq(val(t, r, "kind"), "row"))
		return arena_printf(a, "x %s m, y %s m, pitch %s m",
				    val(t, r, "x"), val(t, r, "y"),
				    val(t, r, "pitch"));
	return arena_printf(a, "%s slot %s", val(t, r, "row"),
			    val(t, r, "slot"));
}

/* A row (same name) whose x, y or pitch changed; a rack or a unit
 * standing in a row (same name) whose row or slot changed.  Added and
 * removed ones are not moves. */
static void diff_places(struct dd *x, uint64_t moved[3])
{
	static const char *const kinds[3] = { "rack", "unit", "row" };
	const struct dv_table *to = &x->o->t[DV_PLACES],
			      *tn = &x->n->t[DV_PLACES];
	struct section *s =
	    section(x, "moved", "Racks and rows moved", mv_cols, 4);

	MERGE(to, tn, i, j)
	{
		const char *kind, *before, *after;

		if (i == RK_NONE || j == RK_NONE)
			continue;
		kind = val(tn, j, "kind");
		before = place(x->a, to, i);
		after = place(x->a, tn, j);
		if (streq(before, after))
			continue;
		for (int k = 0; k < 3; k++)
			moved[k] += streq(kind, kinds[k]);
		{
			const char *v[4] = { kind, tn->keys[j], before, after };

			put_row(s, v);
		}
	}
}

/* The decisions: what to buy and return, cables to pull, devices to
 * install, remove and move. */
static void em_decisions(struct em *e, const struct dd *x,
			 const struct dv_group *g, uint32_t ng)
{
	struct arena s;
	const struct section *dev = &x->sec[1], *bom = &x->sec[2];
	const char *bullet = e->f == F_MD ? "- " : "  ";
	uint64_t act[5] = { 0 }, act_keep = 0;
	static const char *const act_name[5] = { "add", "remove", "replace",
						 "re-pull", "relabel" };
	static const char *const act_say[5] = {
		"pull %llu new cables", "remove %llu cables",
		"replace %llu cables (new part or stock length)",
		"re-pull %llu cables (an end moved)", "relabel %llu cables"
	};
	bool any = false;

	arena_init(&s);
	for (uint32_t k = 0; k < ng; k++)
		for (int a = 0; a < 5; a++)
			if (streq(g[k].action, act_name[a]))
				act[a] += g[k].n;
	em_line(e, "");
	em_line(e, e->f == F_MD ? "### Decisions" : "Decisions:");
	if (e->f == F_MD)
		em_line(e, "");
	for (uint32_t r = 0; r < rows(bom); r++) {
		const char *const *v = &bom->cells[(size_t)r * bom->ncols];

		if (streq(v[0], "total") || !*v[4] || streq(v[4], "0") ||
		    streq(v[4], "+0"))
			continue;
		em_line(e, arena_printf(&s, "%s%s %s x %s (%s)", bullet,
					*v[4] == '-' ? "return" : "buy",
					*v[4] == '-' || *v[4] == '+' ? v[4] + 1
								     : v[4],
					v[0], v[1]));
		any = true;
	}
	for (uint32_t r = 0; r < rows(bom); r++) {
		const char *const *v = &bom->cells[(size_t)r * bom->ncols];

		if (streq(v[0], "total") && *v[7])
			em_line(e, arena_printf(&s, "%sprice change %s %s",
						bullet, v[7], v[8]));
	}
	for (int a = 0; a < 5; a++)
		if (act[a]) {
			em_line(e,
				arena_printf(
				    &s, "%s%s", bullet,
				    arena_printf(&s, act_say[a],
						 (unsigned long long)act[a])));
			any = true;
		}
	{
		static const char *const dch[3] = { "added", "removed",
						    "moved" };
		static const char *const dsay[3] = { "install", "take out",
						     "move" };

		for (int k = 0; k < 3; k++) {
			const char **names =
			    xmalloc(((size_t)rows(dev) + 1) * sizeof(*names));
			uint32_t n = 0;

			for (uint32_t r = 0; r < rows(dev); r++) {
				const char *c = dev->cells[(size_t)r * 8];

				if (streq(c, dch[k]) ||
				    (k == 2 && streq(c, "changed, moved")))
					names[n++] =
					    dev->cells[(size_t)r * 8 + 1];
			}
			if (n)
				em_line(
				    e, arena_printf(
					   &s, "%s%s %u device%s: %s", bullet,
					   dsay[k], n, n == 1 ? "" : "s",
					   dv_compress_names(&s, names, n, 8)));
			any = any || n;
			free(names);
		}
	}
	for (uint32_t k = 0; k < x->nsec; k++) {
		const struct section *mv = &x->sec[k];
		static const char *const mk[2] = { "rack", "row" };

		if (!streq(mv->name, "moved"))
			continue;
		for (int m = 0; m < 2; m++) {
			const char **names =
			    xmalloc(((size_t)rows(mv) + 1) * sizeof(*names));
			uint32_t n = 0;

			for (uint32_t r = 0; r < rows(mv); r++)
				if (streq(mv->cells[(size_t)r * 4], mk[m]))
					names[n++] =
					    mv->cells[(size_t)r * 4 + 1];
			if (n)
				em_line(
				    e, arena_printf(
					   &s, "%smove %u %s%s: %s", bullet, n,
					   mk[m], n == 1 ? "" : "s",
					   dv_compress_names(&s, names, n, 8)));
			any = any || n;
			free(names);
		}
	}
	for (uint32_t k = 0; k < ng; k++)
		if (streq(g[k].action, "keep"))
			act_keep += g[k].n;
	if (act_keep)
		em_line(e, arena_printf(&s,
					"%skeep %llu cables in place (the old "
					"length still reaches)",
					bullet, (unsigned long long)act_keep));
	if (!any)
		em_line(e, arena_printf(&s, "%snothing to buy, pull or move",
					bullet));
	arena_destroy(&s);
}

/* The work order's cables grouped, a line a group. */
static void em_groups(struct em *e, const struct dv_group *g, uint32_t ng)
{
	struct arena s;

	if (!ng)
		return;
	arena_init(&s);
	em_line(e, "");
	if (e->f == F_MD) {
		em_line(e, "### Cabling, grouped");
		em_line(e, "");
		em_line(e, "| cables | action | from | to | cable |");
		em_line(e, "| --- | --- | --- | --- | --- |");
	} else {
		em_line(e, "Cabling, grouped:");
	}
	for (uint32_t k = 0; k < ng; k++) {
		char *line;

		/* the ports, where they are one run on each device */
		const char *a = g[k].ports_a ? arena_printf(&s, "%s %s", g[k].a,
							    g[k].ports_a)
					     : g[k].a;
		const char *b = g[k].ports_b ? arena_printf(&s, "%s %s", g[k].b,
							    g[k].ports_b)
					     : g[k].b;

		if (e->f == F_MD) {
			line = arena_printf(&s, "| %llu |",
					    (unsigned long long)g[k].n);
			md_cell_into(&s, &line, g[k].action);
			md_cell_into(&s, &line, a);
			md_cell_into(&s, &line, b);
			md_cell_into(&s, &line, g[k].what);
		} else {
			line = arena_printf(&s, "  %6llu %-7s %s -- %s, %s",
					    (unsigned long long)g[k].n,
					    g[k].action, a, b, g[k].what);
		}
		em_line(e, line);
	}
	arena_destroy(&s);
}

/* The whole review into @e; @full: where the complete one is (NULL:
 * nowhere), @total: its lines when this one is cut (0: it is not). */
static void em_review(struct em *e, const struct dd *x,
		      const struct dv_group *g, uint32_t ng, const char *full,
		      uint64_t total)
{
	struct arena s;

	arena_init(&s);
	if (e->f == F_MD) {
		em_line(e, "## rackc diff");
		em_line(e, "");
		em_line(e, arena_printf(&s, "`%s` -> `%s`: %s", x->o->what,
					x->n->what,
					x->differences ? "differences below"
						       : "no differences"));
	} else {
		em_line(e, arena_printf(&s, "rackc diff: %s -> %s: %s",
					x->o->what, x->n->what,
					x->differences ? "differences"
						       : "no differences"));
	}
	if (total) {
		const char *where =
		    full ? arena_printf(&s, "the complete review is %s%s%s",
					e->f == F_MD ? "`" : "", full,
					e->f == F_MD ? "`" : "")
			 : "--full=FILE writes the complete review";

		em_line(e, "");
		em_line(e, arena_printf(&s,
					"%sThis review is cut to %llu bytes: "
					"the summary, the decisions and as "
					"much detail as fits; %s.",
					e->f == F_MD ? "> " : "",
					(unsigned long long)e->max, where));
	}
	if (rows(&x->sec[0]))
		em_table(e, x, &x->sec[0]);
	if (x->differences)
		em_decisions(e, x, g, ng);
	em_groups(e, g, ng);
	for (uint32_t k = 1; k < x->nsec; k++)
		if (rows(&x->sec[k]))
			em_table(e, x, &x->sec[k]);
	if (e->left) {
		uint64_t left = e->left;

		e->left = 0;
		e->max = 0; /* the note has its room */
		em_line(e, "");
		em_line(e,
			arena_printf(
			    &s, "%s(%llu more lines of detail left out%s%s)",
			    e->f == F_MD ? "> " : "", (unsigned long long)left,
			    full ? "; they are in " : "", full ? full : ""));
	}
	arena_destroy(&s);
}

/* Text or Markdown to @fp within @max bytes (0: no limit), and the
 * complete review to @full (NULL: none).  False on trouble writing. */
static bool write_review(FILE *fp, const struct dd *x, enum fmt f, uint64_t max,
			 const char *full)
{
	struct dv_group *g = NULL;
	uint32_t ng = x->wo.n ? dv_work_groups(&x->wo, x->a, &g) : 0;
	struct em cnt = { NULL, f, 0, 0, 0, 0, 0 };
	struct em out = { fp, f, 0, max, 0, 0, 0 };
	bool ok = true;

	/* counted first: whether it fits */
	em_review(&cnt, x, g, ng, full, 0);
	if (full) {
		FILE *ff = fopen(full, "w");
		struct em all = { ff, f, 0, 0, 0, 0, 0 };

		if (!ff) {
			fprintf(stderr,
				"rackc diff: error: cannot write '%s': %s\n",
				full, strerror(errno));
			ok = false;
		} else {
			em_review(&all, x, g, ng, NULL, 0);
			if (fclose(ff)) {
				fprintf(stderr,
					"rackc diff: error: cannot write "
					"'%s'\n",
					full);
				ok = false;
			}
		}
	}
	out.room = NOTE_ROOM + (full ? strlen(full) : 0);
	if (max && cnt.used > max)
		em_review(&out, x, g, ng, full, cnt.lines);
	else {
		out.max = 0;
		em_review(&out, x, g, ng, full, 0);
	}
	free(g);
	return ok;
}

static const char *const sum_cols[] = { "what", "count" };

static void count_row(struct dd *x, struct section *sum, const char *what,
		      uint64_t n)
{
	const char *v[2] = { what, arena_printf(x->a, "%llu",
						(unsigned long long)n) };

	put_row(sum, v);
}

static void diff_all(struct dd *x)
{
	static const char *const cab[8] = {
		"cables to add",
		"cables to remove",
		"cables to re-pull",
		"cables to replace",
		"cables to relabel",
		"cables with a new computed length only",
		"cables kept (the old length still reaches)",
		NULL
	};
	uint64_t counts[8] = { 0 }, moved[3] = { 0 };
	struct section *sum = section(x, "summary", "Summary", sum_cols, 2);
	struct section *pw;
	static const char *const dev[4] = { "added", "removed", "moved",
					    "changed" };

	diff_devices(x);
	diff_bom(x);
	diff_cabling(x, counts);
	pw = section(x, "power", "Power, heat and cooling", pw_cols, 6);
	diff_figures(x, pw, DV_RACKS, "rack");
	diff_figures(x, pw, DV_FEEDS, "feed");
	diff_figures(x, pw, DV_LOOPS, "loop");
	diff_figures(x, section(x, "fabrics", "Fabrics", pw_cols, 6),
		     DV_FABRICS, "fabric");
	diff_findings(x);
	diff_places(x, moved);
	/* the summary */
	for (int k = 0; k < 4; k++) {
		const struct section *s = &x->sec[1];
		uint32_t n = 0;

		/* a change is a word of the cell ("changed, moved"), and
		 * "removed" is not "moved" */
		for (uint32_t r = 0; r < rows(s); r++) {
			const char *c = s->cells[r * s->ncols], *w;
			size_t len = strlen(dev[k]);

			for (w = c; (w = strstr(w, dev[k])) != NULL; w += len)
				if ((w == c || w[-1] == ' ') &&
				    (!w[len] || w[len] == ','))
					break;
			n += w != NULL;
		}
		if (n)
			count_row(x, sum,
				  arena_printf(x->a, "devices %s", dev[k]), n);
	}
	{
		const struct section *b = &x->sec[2];
		uint32_t n = rows(b);

		while (n && streq(b->cells[(n - 1) * b->ncols], "total"))
			n--;
		if (n)
			count_row(x, sum, "bill of materials lines changed", n);
	}
	if (moved[0])
		count_row(x, sum, "racks moved", moved[0]);
	if (moved[1])
		count_row(x, sum, "units moved in their rows", moved[1]);
	if (moved[2])
		count_row(x, sum, "rows moved", moved[2]);
	for (int k = 0; cab[k]; k++)
		if (counts[k])
			count_row(x, sum, cab[k], counts[k]);
	if (rows(pw))
		count_row(x, sum, "power figures changed", rows(pw));
	if (rows(&x->sec[5]))
		count_row(x, sum, "fabric figures changed", rows(&x->sec[5]));
	{
		const struct section *s = &x->sec[6];
		uint32_t up = 0;

		uint32_t down = 0;

		for (uint32_t r = 0; r < rows(s); r++) {
			up += streq(s->cells[r * s->ncols], "raised");
			down += streq(s->cells[r * s->ncols], "resolved");
		}
		if (up)
			count_row(x, sum, "findings raised", up);
		if (down)
			count_row(x, sum, "findings resolved", down);
		if (rows(s) - up - down)
			count_row(x, sum, "findings changed",
				  rows(s) - up - down);
	}
	x->differences = rows(sum);
}

/* ---- command line ---- */

enum {
	O_OLD_DEFINE = OPT__SHARED,
	O_NEW_DEFINE,
	O_OLD_INCLUDE,
	O_NEW_INCLUDE,
	O_PRICES,
	O_OLD_PRICES,
	O_NEW_PRICES,
	O_FORMAT,
	O_MAX_BYTES,
	O_FULL,
};

static const struct option diff_opts[] = {
	OPTS_DESIGN,
	{ "old-define", required_argument, NULL, O_OLD_DEFINE },
	{ "new-define", required_argument, NULL, O_NEW_DEFINE },
	{ "old-include", required_argument, NULL, O_OLD_INCLUDE },
	{ "new-include", required_argument, NULL, O_NEW_INCLUDE },
	{ "prices", required_argument, NULL, O_PRICES },
	{ "old-prices", required_argument, NULL, O_OLD_PRICES },
	{ "new-prices", required_argument, NULL, O_NEW_PRICES },
	{ "format", required_argument, NULL, O_FORMAT },
	{ "max-bytes", required_argument, NULL, O_MAX_BYTES },
	{ "full", required_argument, NULL, O_FULL },
	{ NULL, 0, NULL, 0 },
};

static void diff_usage(FILE *fp)
{
	fputs("Usage: rackc diff [OPTION]... OLD NEW\n"
	      "Compare two designs, or the output directories of two runs.\n"
	      "\n"
	      "  -D, --define=NAME=VALUE     override param NAME on both "
	      "sides\n"
	      "      --old-define=NAME=VALUE, --new-define=NAME=VALUE\n"
	      "                              on one side only (over -D)\n"
	      "  -I, --include=DIR           search DIR for imports (both "
	      "sides)\n"
	      "      --old-include=DIR, --new-include=DIR\n"
	      "      --stdlib=DIR            standard library directory\n"
	      "      --max-source-bytes=N    read source files (and each "
	      "side's\n"
	      "                              ir.rack) of up to N bytes\n"
	      "      --max-links=N           allow designs of up to N links\n"
	      "      --prices=FILE.csv       price list, both sides\n"
	      "      --old-prices=FILE.csv, --new-prices=FILE.csv\n"
	      "  -f, --format=text|json|markdown\n"
	      "                              output format (default text)\n"
	      "      --max-bytes=N           text and Markdown of at most N "
	      "bytes\n"
	      "                              (default 60000, a pull-request "
	      "comment;\n"
	      "                              0: no limit): the summary, the "
	      "decisions\n"
	      "                              and as much detail as fits\n"
	      "      --full=FILE             the complete review (text or "
	      "Markdown)\n"
	      "                              to FILE, named in a review that "
	      "is cut\n"
	      "      --help                  show this help and exit\n"
	      "\n"
	      "An output directory must hold ir.rack, report.json, bom.csv "
	      "and\ncabling.csv (the default back ends write them).\n"
	      "Exit status: 0 no differences, 1 differences, 2 trouble.\n",
	      fp);
}

/* A -D for both sides goes after the side's own: the compilation takes
 * the first of a name, so --old-define and --new-define win over -D. */
static bool add_define(struct dv_source *s, char *arg, bool own)
{
	struct rackc_define def;
	uint32_t at;

	if (!opts_define(arg, &def)) {
		free(arg);
		return false;
	}
	s->defines =
	    xrealloc(s->defines, (s->ndefines + 1) * sizeof(*s->defines));
	at = own ? s->nown++ : s->ndefines;
	memmove(&s->defines[at + 1], &s->defines[at],
		(s->ndefines - at) * sizeof(*s->defines));
	s->defines[at] = def;
	s->ndefines++;
	return true;
}

static void add_include(struct dv_source *s, const char *dir)
{
	s->incdirs =
	    xrealloc(s->incdirs, (s->nincdirs + 1) * sizeof(*s->incdirs));
	s->incdirs[s->nincdirs++] = dir;
}

/* What the command line of rackc diff gives. */
struct diff_args {
	struct dv_source src[2]; /* OLD and NEW */
	const char *stddir;
	enum fmt f;
	uint64_t max_bytes;
	const char *full;
};

/* -D, --old-define, --new-define (@c) with @optarg; false, said, when it
 * is no definition. */
static bool diff_define_opt(struct diff_args *o, int c)
{
	bool ok = true;

	if (c != O_NEW_DEFINE)
		ok = add_define(&o->src[0], xstrdup(optarg), c == O_OLD_DEFINE);
	if (c != O_OLD_DEFINE && ok)
		ok = add_define(&o->src[1], xstrdup(optarg), c == O_NEW_DEFINE);
	if (!ok)
		fprintf(stderr, "rackc diff: error: " OPTS_DEFINE_ERR "\n",
			optarg);
	return ok;
}

/* The options of a value (@c): limits and the format; false, said, when
 * @optarg is not one. */
static bool diff_value_opt(struct diff_args *o, int c)
{
	switch (c) {
	case OPT_MAX_SOURCE:
		if (!srcmgr_parse_max(optarg, &o->src[0].max_source)) {
			fprintf(stderr,
				"rackc diff: error: " OPTS_MAX_SOURCE_ERR "\n",
				optarg);
			return false;
		}
		o->src[1].max_source = o->src[0].max_source;
		return true;
	case OPT_MAX_LINKS:
		if (!opts_max_links(optarg, &o->src[0].max_links)) {
			fprintf(stderr,
				"rackc diff: error: " OPTS_MAX_LINKS_ERR "\n",
				optarg);
			return false;
		}
		o->src[1].max_links = o->src[0].max_links;
		return true;
	case O_MAX_BYTES: {
		char *end;
		unsigned long long n = strtoull(optarg, &end, 10);

		if (*end || !*optarg || optarg[0] == '-' ||
		    (n && n < DIFF_MIN_BYTES)) {
			fprintf(stderr,
				"rackc diff: error: --max-bytes needs "
				"0 (no limit) or a number of at least "
				"%u, not '%s'\n",
				DIFF_MIN_BYTES, optarg);
			return false;
		}
		o->max_bytes = n;
		return true;
	}
	default: { /* 'f', O_FORMAT */
		enum opts_format of;

		if (!opts_format(optarg, &of)) {
			fprintf(stderr,
				"rackc diff: error: " OPTS_FORMAT_ERR "\n",
				optarg);
			return false;
		}
		o->f = (enum fmt)of;
		return true;
	}
	}
}

/* Option @c (getopt_long()'s): -1 to go on, else the exit status (0
 * after --help, 2 when it was refused). */
static int diff_option(struct diff_args *o, int c, char **argv)
{
	switch (c) {
	case 'D':
	case O_OLD_DEFINE:
	case O_NEW_DEFINE:
		return diff_define_opt(o, c) ? -1 : 2;
	case 'I':
	case O_OLD_INCLUDE:
	case O_NEW_INCLUDE:
		if (c != O_NEW_INCLUDE)
			add_include(&o->src[0], optarg);
		if (c != O_OLD_INCLUDE)
			add_include(&o->src[1], optarg);
		return -1;
	case OPT_STDLIB:
		o->stddir = optarg;
		return -1;
	case OPT_MAX_SOURCE:
	case OPT_MAX_LINKS:
	case O_MAX_BYTES:
	case 'f':
	case O_FORMAT:
		return diff_value_opt(o, c) ? -1 : 2;
	case O_PRICES:
	case O_OLD_PRICES:
	case O_NEW_PRICES:
		if (c != O_NEW_PRICES)
			o->src[0].prices = optarg;
		if (c != O_OLD_PRICES)
			o->src[1].prices = optarg;
		return -1;
	case O_FULL:
		o->full = optarg;
		return -1;
	case OPT_HELP:
		diff_usage(stdout);
		return 0;
	case ':':
		fprintf(stderr,
			"rackc diff: error: option '%s' needs an argument\n",
			argv[optind - 1]);
		return 2;
	default:
		fprintf(stderr, "rackc diff: error: unknown option '%s'\n",
			argv[optind - 1]);
		return 2;
	}
}

/* The two sides loaded and compared, the review written: the exit
 * status. */
static int diff_run(const struct diff_args *o)
{
	struct arena a;
	struct dv_side side[2];
	struct dd x;
	bool written;
	int rc = 2;

	arena_init(&a);
	if (diff_load(side, o->src, o->stddir, &a)) {
		memset(&x, 0, sizeof(x));
		x.a = &a;
		x.o = &side[0];
		x.n = &side[1];
		diff_all(&x);
		if (o->f == F_JSON) {
			write_json(stdout, &x);
			written = true;
			if (o->full)
				fputs("rackc diff: warning: --full is for "
				      "text and Markdown; JSON is always "
				      "complete\n",
				      stderr);
		} else {
			written = write_review(stdout, &x, o->f, o->max_bytes,
					       o->full);
		}
		rc = !written || fflush(stdout) || ferror(stdout) ? 2
		     : x.differences				  ? 1
								  : 0;
		for (uint32_t k = 0; k < x.nsec; k++)
			free(x.sec[k].cells);
		dv_workorder_free(&x.wo);
	}
	arena_destroy(&a);
	return rc;
}

int diff_main(int argc, char **argv)
{
	struct diff_args o;
	int c, rc = -1;

	memset(&o, 0, sizeof(o));
	o.f = F_TEXT;
	o.max_bytes = DIFF_MAX_BYTES;
	optind = 0; /* GNU: start again (the command line may run again) */
	opterr = 0;
	while (rc < 0 && (c = getopt_long(argc, argv,
					  ":" OPTS_DESIGN_SHORT "f:", diff_opts,
					  NULL)) != -1)
		rc = diff_option(&o, c, argv);
	if (rc < 0 && argc - optind != 2) {
		fputs("rackc diff: error: give two designs or output "
		      "directories, OLD and NEW\nTry 'rackc diff --help' for "
		      "more information.\n",
		      stderr);
		rc = 2;
	}
	if (rc < 0) {
		o.src[0].path = argv[optind];
		o.src[1].path = argv[optind + 1];
		rc = diff_run(&o);
	}
	for (int k = 0; k < 2; k++) {
		for (uint32_t i = 0; i < o.src[k].ndefines; i++)
			free((void *)(uintptr_t)o.src[k].defines[i].name);
		free(o.src[k].defines);
		free(o.src[k].incdirs);
	}
	return rc;
}
