/* SPDX-License-Identifier: MIT */
/*
 * The check registry and runner: the table of checks (checks.def),
 * effective levels from -W/-E options, prerequisites first, waivers
 * unused, and the grouping of repeated findings.  It calls the checks;
 * the checks call only the helpers of check.c, which call nothing here.
 */
#include "rackc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "checks.h"
#include "context.h"
#include "loads.h"
#include "metrics.h"
#include "schema.h"
#include "suggest.h"
#include "units.h"

const struct check *const check_table[] = {
#define CHECK(id) &check_##id,
#include "checks.def"
#undef CHECK
};

const unsigned check_table_len = ARRAY_SIZE(check_table);

const struct check *check_find(const char *name)
{
	for (unsigned i = 0; i < check_table_len; i++)
		if (streq(check_table[i]->name, name))
			return check_table[i];
	return NULL;
}

static unsigned check_index(const struct check *c)
{
	for (unsigned i = 0; i < check_table_len; i++)
		if (check_table[i] == c)
			return i;
	BUG("check not in table");
}

enum run_status { ST_UNCHECKED, ST_RUNNING, ST_PASSED, ST_FAILED, ST_SKIPPED };

/*
 * @bad[i]: the objects check i failed on or skipped (NULL: none), which
 * its dependants skip; @global[i]: it failed on something that is no
 * object, so its dependants do not run at all.
 */
struct check_run {
	enum check_level level[ARRAY_SIZE(check_table)];
	enum run_status status[ARRAY_SIZE(check_table)];
	uint8_t *bad[ARRAY_SIZE(check_table)];
	bool global[ARRAY_SIZE(check_table)];
	struct check_ctx ctx;
};

static void raise_level(struct check_run *r, unsigned i, enum check_level l)
{
	const struct check *c = check_table[i];

	if (r->level[i] < l)
		r->level[i] = l;
	for (const struct check *const *p = c->prereqs; p && *p; p++)
		raise_level(r, check_index(*p),
			    CHECK_WARN > r->level[check_index(*p)]
				? CHECK_WARN
				: r->level[check_index(*p)]);
}

static void disable(struct check_run *r, unsigned i)
{
	r->level[i] = CHECK_OFF;
	/* checks that depend on it go too */
	for (unsigned k = 0; k < check_table_len; k++)
		for (const struct check *const *p = check_table[k]->prereqs;
		     p && *p; p++)
			if (*p == check_table[i] && r->level[k] != CHECK_OFF)
				disable(r, k);
}

bool checks_validate(const struct check_setting *s, uint32_t n, FILE *err)
{
	for (uint32_t i = 0; i < n; i++) {
		struct suggest sg;

		if (streq(s[i].name, "error") || check_find(s[i].name))
			continue;
		suggest_init(&sg, s[i].name);
		for (unsigned k = 0; k < check_table_len; k++)
			suggest_offer(&sg, check_table[k]->name);
		if (suggest_result(&sg))
			fprintf(err,
				"rackc: error: unknown check '%s'; did you "
				"mean '%s'?\n",
				s[i].name, suggest_result(&sg));
		else
			fprintf(err,
				"rackc: error: unknown check '%s' (see "
				"--list-checks)\n",
				s[i].name);
		return false;
	}
	return true;
}

/* "a, b, c and 5 more": the first few objects set in @set (and not in
 * @unless, when given) */
static void skip_list(const struct rk_design *d, const uint8_t *set,
		      const uint8_t *unless, char *out, size_t n)
{
	uint32_t shown = 0, more = 0;
	size_t len = 0;

	out[0] = '\0';
	for (uint32_t o = 0; o < d->nobjs; o++) {
		if (!set[o] || (unless && unless[o]))
			continue;
		if (shown == CHECK_SKIP_NAMES || len >= n) {
			more++;
			continue;
		}
		len += (size_t)snprintf(out + len, n - len, "%s%s",
					shown ? ", " : "", ir_name(d, o));
		shown++;
	}
	if (more && len < n)
		snprintf(out + len, n - len, " and %u more", more);
}

/* ---- one finding, one message (text output) ---- */

static bool name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' ||
	       ch == '[' || ch == ']';
}

static bool index_char(char ch)
{
	return (ch >= '0' && ch <= '9') || ch == '.' || ch == ',' ||
	       ch == ' ' || ch == '*';
}

/*
 * A finding's message less its indices: "n[12].p[3]" reads "n[].p[]".
 * Findings of one check at one place whose messages read the same this
 * way are what one statement said about many objects.
 */
static char *shape_of(const char *m)
{
	char *out = xmalloc(strlen(m) + 1), *o = out;

	for (const char *p = m; *p; p++) {
		*o++ = *p;
		if (*p != '[')
			continue;
		while (index_char(p[1]))
			p++;
	}
	*o = '\0';
	return out;
}

static uint32_t shape_hash(const struct diag_record *r, const char *shape)
{
	uint32_t h = 2166136261u;
	uint32_t w[4] = { r->level, r->loc.file, r->loc.begin, r->loc.end };

	for (unsigned k = 0; k < 4; k++)
		for (unsigned b = 0; b < 4; b++)
			h = (h ^ ((w[k] >> (8 * b)) & 0xff)) * 16777619u;
	for (const char *p = shape; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	return h;
}

static bool same_loc(const struct srcloc *a, const struct srcloc *b)
{
	return a->file && a->file == b->file && a->begin == b->begin &&
	       a->end == b->end;
}

/* The first name in @m that differs from the name at the same place in
 * @lead (the object a grouped finding is about), into @out. */
static void differing_name(const char *lead, const char *m, char *out, size_t n)
{
	const char *a = lead, *b = m;

	for (;;) {
		size_t la, lb;

		while (*a && !name_char(*a))
			a++;
		while (*b && !name_char(*b))
			b++;
		if (!*b)
			break;
		for (la = 0; name_char(a[la]); la++)
			;
		for (lb = 0; name_char(b[lb]); lb++)
			;
		if (la != lb || strncmp(a, b, la)) {
			snprintf(out, n, "%.*s", (int)(lb < 200 ? lb : 200), b);
			return;
		}
		a += la;
		b += lb;
	}
	snprintf(out, n, "?");
}

/*
 * Text output only (JSON and SARIF keep every record): the findings of
 * the check just run, records [@from, nrecs) of its deferred engine, that
 * one statement made about many objects, saying the same of each, print
 * once: the first with its notes, then a note with how many more and the
 * first few of their names.  The others stay, hidden, so that the counts
 * of errors and warnings do not change.
 */
static void group_findings(struct check_ctx *c, uint32_t from)
{
	struct diag_engine *dg = c->diag;
	uint32_t n = dg->nrecs - from, out = 0, hsize = 16, groups = 0;
	uint32_t *leader, *more, *table, *named;
	char **shape;
	struct diag_record *keep;

	if (!dg->defer || dg->format != DIAG_TEXT || n < 2)
		return;
	shape = xcalloc(n, sizeof(*shape));
	leader = xmalloc(n * sizeof(*leader));
	more = xcalloc(n, sizeof(*more));
	/* per leader, the first CHECK_SKIP_NAMES of its group, which its
	 * note names: found as the group is, not by a scan per leader */
	named = xmalloc((size_t)n * CHECK_SKIP_NAMES * sizeof(*named));
	while (hsize < 2 * n)
		hsize *= 2;
	table = xmalloc(hsize * sizeof(*table));
	for (uint32_t h = 0; h < hsize; h++)
		table[h] = RK_NONE;
	/* each finding's leader: the first from the same place with the
	 * same shape, through a hash table */
	for (uint32_t i = 0; i < n; i++) {
		const struct diag_record *ri = &dg->recs[from + i];
		uint32_t h;

		leader[i] = RK_NONE;
		if (ri->level == DIAG_NOTE || !ri->check || !ri->loc.file)
			continue;
		shape[i] = shape_of(ri->message);
		h = shape_hash(ri, shape[i]) & (hsize - 1);
		for (;; h = (h + 1) & (hsize - 1)) {
			uint32_t j = table[h];
			const struct diag_record *rj;

			if (j == RK_NONE) {
				table[h] = i;
				break;
			}
			rj = &dg->recs[from + j];
			if (rj->level == ri->level &&
			    same_loc(&rj->loc, &ri->loc) &&
			    streq(shape[j], shape[i])) {
				leader[i] = j;
				if (more[j] < CHECK_SKIP_NAMES)
					named[(size_t)j * CHECK_SKIP_NAMES +
					      more[j]] = i;
				groups += !more[j]++;
				break;
			}
		}
	}
	if (!groups)
		goto done;
	/* the leaders' notes get one more record each */
	keep = xmalloc((n + groups) * sizeof(*keep));
	for (uint32_t i = 0; i < n;) {
		uint32_t e = i + 1;

		while (e < n && dg->recs[from + e].level == DIAG_NOTE)
			e++;
		for (uint32_t k = i; k < e; k++) {
			keep[out] = dg->recs[from + k];
			keep[out++].hidden = leader[i] != RK_NONE;
		}
		if (more[i]) {
			char names[600], one[256];
			size_t len = 0;
			uint32_t shown = 0;

			names[0] = '\0';
			for (uint32_t t = 0;
			     t < more[i] && t < CHECK_SKIP_NAMES; t++) {
				uint32_t k =
				    named[(size_t)i * CHECK_SKIP_NAMES + t];

				if (len >= sizeof(names))
					continue;
				differing_name(dg->recs[from + i].message,
					       dg->recs[from + k].message, one,
					       sizeof(one));
				len += (size_t)snprintf(
				    names + len, sizeof(names) - len, "%s%s",
				    shown ? ", " : "", one);
				shown++;
			}
			if (more[i] > shown && len < sizeof(names))
				snprintf(names + len, sizeof(names) - len,
					 " and %u more", more[i] - shown);
			memset(&keep[out], 0, sizeof(keep[out]));
			keep[out].level = DIAG_NOTE;
			keep[out].kind = DIAG_NOTE_GROUP;
			keep[out].loc = dg->recs[from + i].loc;
			keep[out].message =
			    arena_printf(dg->arena,
					 "%u more like this from the "
					 "same statement: %s",
					 more[i], names);
			out++;
		}
		i = e;
	}
	for (uint32_t g = 0; g < groups; g++)
		(void)VEC_PUSH(dg->recs, dg->nrecs, dg->recs_cap);
	memcpy(&dg->recs[from], keep, out * sizeof(*keep));
	free(keep);
	diag_forget(dg); /* the records moved */
done:
	for (uint32_t i = 0; i < n; i++)
		free(shape[i]);
	free(shape);
	free(table);
	free(leader);
	free(more);
	free(named);
}

static void run_one(struct check_run *r, unsigned i)
{
	const struct check *c = check_table[i];
	const struct rk_design *d = r->ctx.d;
	uint32_t errors_before;
	uint8_t *skip = NULL, *base = NULL;
	uint32_t recs_before;
	char why[400];
	size_t wlen = 0;
	unsigned nwhy = 0;

	if (r->status[i] != ST_UNCHECKED)
		return;
	if (diag_stop(r->ctx.diag)) {
		/* the error limit is reached: no more findings wanted */
		r->status[i] = ST_SKIPPED;
		return;
	}
	r->status[i] = ST_RUNNING;
	why[0] = '\0';
	for (const struct check *const *p = c->prereqs; p && *p; p++) {
		unsigned k = check_index(*p);

		run_one(r, k);
		if (r->global[k]) {
			r->status[i] = ST_SKIPPED;
			r->global[i] = true;
			diag_alone(r->ctx.diag);
			diag_emit(r->ctx.diag, DIAG_NOTE, NULL, NULL,
				  "check '%s' skipped: prerequisite '%s' "
				  "failed",
				  c->name, (*p)->name);
			free(skip);
			return;
		}
		if (!r->bad[k])
			continue;
		if (!skip)
			skip = xcalloc(d->nobjs + 1, 1);
		for (uint32_t o = 0; o < d->nobjs; o++)
			skip[o] |= r->bad[k][o];
		if (wlen < sizeof(why))
			wlen += (size_t)snprintf(why + wlen, sizeof(why) - wlen,
						 "%s'%s'", nwhy ? " and " : "",
						 (*p)->name);
		nwhy++;
	}
	r->ctx.check = c;
	r->ctx.level = r->level[i];
	r->ctx.findings = 0;
	r->ctx.last_printed = false;
	r->ctx.cover =
	    r->ctx.dv && r->ctx.dv->coverage ? &r->ctx.dv->coverage[i] : NULL;
	if (r->ctx.cover)
		r->ctx.cover->ran = true;
	r->ctx.skip = skip;
	r->ctx.found = NULL;
	r->ctx.found_global = false;
	if (skip) {
		base = xmalloc(d->nobjs + 1);
		memcpy(base, skip, d->nobjs + 1);
	}
	errors_before = r->ctx.diag->errors;
	recs_before = r->ctx.diag->nrecs;
	c->run(&r->ctx);
	group_findings(&r->ctx, recs_before);
	if (skip) {
		char list[600], more[600];

		skip_list(d, base, NULL, list, sizeof(list));
		skip_list(d, skip, base, more, sizeof(more));
		diag_alone(r->ctx.diag);
		diag_emit(r->ctx.diag, DIAG_NOTE, NULL, NULL,
			  "check '%s' skipped for %s, where %s %s failed%s%s",
			  c->name, list,
			  nwhy > 1 ? "prerequisites" : "prerequisite", why,
			  more[0] ? ", and for what depends on them: " : "",
			  more);
		free(base);
	}
	if (r->ctx.diag->errors > errors_before) {
		r->status[i] = ST_FAILED;
		/* an error reported about no object (or not through
		 * check_fail) leaves nothing its dependants can trust */
		if (r->ctx.found_global || !r->ctx.found)
			r->global[i] = true;
	} else {
		r->status[i] = ST_PASSED;
		free(r->ctx.found); /* warnings: nothing failed */
		r->ctx.found = NULL;
	}
	if (r->ctx.found && skip)
		for (uint32_t o = 0; o < d->nobjs; o++)
			skip[o] |= r->ctx.found[o];
	r->bad[i] = skip ? skip : r->ctx.found;
	if (skip)
		free(r->ctx.found);
	r->ctx.skip = NULL;
	r->ctx.found = NULL;
}

static void check_waivers(struct check_run *r)
{
	const struct rk_design *d = r->ctx.d;
	uint8_t *on_link = xcalloc(d->nattrs + 1, 1);
	/* the last unknown name's suggestion: a waiver in a loop names the
	 * same string every time, and a suggestion is an edit distance to
	 * every check's name (a million waivers took 55 s) */
	struct suggest sg;
	uint32_t sg_name = UINT32_MAX;

	/* waivers written on links: each attribute once, however many
	 * links share it */
	for (uint32_t i = 0; i < d->nlinks; i++)
		for (uint32_t k = 0; k < d->links[i].attr_count; k++)
			on_link[d->links[i].attr_first + k] = 1;
	for (uint32_t i = 0; i <= d->nobjs && !diag_stop(r->ctx.diag); i++) {
		struct rk_obj link_obj;
		const struct rk_obj *o = i < d->nobjs ? &d->objs[i] : NULL;

		if (!o) {
			/* a pseudo-object spanning the link attributes */
			memset(&link_obj, 0, sizeof(link_obj));
			link_obj.attr_first = 0;
			link_obj.attr_count = d->nattrs;
			o = &link_obj;
		}
		for (uint32_t k = 0; k < o->attr_count; k++) {
			const struct rk_attr *at = &d->attrs[o->attr_first + k];
			const char *name;

			if (i == d->nobjs && !on_link[k])
				continue;

			if (at->key != A_WAIVE)
				continue;
			name = str_of(d->arena, d->vals[at->val.a].a);
			if (!check_find(name)) {
				if (sg_name != d->vals[at->val.a].a) {
					sg_name = d->vals[at->val.a].a;
					suggest_init(&sg, name);
					for (unsigned c = 0;
					     c < check_table_len; c++)
						suggest_offer(
						    &sg, check_table[c]->name);
				}
				diag_emit(r->ctx.diag, DIAG_ERROR,
					  &d->vals[at->val.a].loc, "waiver",
					  "waiver names unknown check "
					  "'%s'" SUGGEST_FMT,
					  name, SUGGEST_ARGS(&sg));
			} else if (!r->ctx.used_waivers[o->attr_first + k]) {
				unsigned ci = check_index(check_find(name));

				if (r->level[ci] != CHECK_OFF)
					diag_emit(r->ctx.diag, DIAG_WARNING,
						  &at->val.loc, "unused-waiver",
						  "waiver for '%s' silences "
						  "nothing",
						  name);
			}
		}
	}
	free(on_link);
}

bool checks_run(const struct rk_design *d, struct derived *dv,
		struct diag_engine *diag, struct arena *a,
		const struct check_setting *settings, uint32_t nsettings,
		bool *usage_error)
{
	struct check_run *r = xcalloc(1, sizeof(*r));

	*usage_error = false;
	if (!checks_validate(settings, nsettings, diag->out)) {
		*usage_error = true;
		free(r);
		return false;
	}
	for (unsigned i = 0; i < check_table_len; i++)
		r->level[i] = check_table[i]->level;
	for (uint32_t s = 0; s < nsettings; s++) {
		const struct check *c = check_find(settings[s].name);
		unsigned i;

		if (!c)
			continue; /* -Werror */
		i = check_index(c);
		switch (settings[s].level) {
		case 0:
			disable(r, i);
			break;
		case 1:
			raise_level(r, i, CHECK_WARN);
			break;
		case 2:
			raise_level(r, i, CHECK_ERROR);
			break;
		default:
			if (r->level[i] == CHECK_ERROR)
				r->level[i] = CHECK_WARN;
			break;
		}
	}
	r->ctx.d = d;
	r->ctx.dv = dv;
	r->ctx.diag = diag;
	r->ctx.arena = a;
	r->ctx.used_waivers = xcalloc(d->nattrs + 1, sizeof(uint32_t));
	if (dv && !dv->coverage) {
		dv->coverage = xcalloc(check_table_len, sizeof(*dv->coverage));
		dv->ncoverage = check_table_len;
		dv->check_names =
		    xcalloc(check_table_len, sizeof(*dv->check_names));
		for (unsigned i = 0; i < check_table_len; i++)
			dv->check_names[i] = check_table[i]->name;
	}
	for (unsigned i = 0; i < check_table_len; i++)
		if (r->level[i] != CHECK_OFF)
			run_one(r, i);
	check_waivers(r);
	if (dv && !dv->figures) {
		dv->figures = figure_report_compute(d, dv);
	}
	free(r->ctx.used_waivers);
	for (unsigned k = 0; k < check_table_len; k++)
		free(r->bad[k]);
	for (unsigned k = 0; k < A__COUNT; k++)
		free(r->ctx.memo[k]);
	free(r);
	return true;
}

void checks_list(FILE *fp)
{
	static const char *const lv[] = { "off", "warning", "error" };

	for (unsigned i = 0; i < check_table_len; i++) {
		const struct check *c = check_table[i];

		if (c->hidden)
			continue;
		fprintf(fp, "%-24s %-8s %s", c->name, lv[c->level], c->summary);
		if (c->prereqs && c->prereqs[0]) {
			fputs(" (after", fp);
			for (const struct check *const *p = c->prereqs; *p; p++)
				fprintf(fp, " %s", (*p)->name);
			fputc(')', fp);
		}
		fputc('\n', fp);
	}
}
