/* SPDX-License-Identifier: MIT */
/* Helpers shared by the deployment back ends (see be_common.h). */
#include "rackc.h"

#include <pthread.h>

#include <stdlib.h>
#include <string.h>

#include "be_common.h"
#include "cableplan.h"
#include "schema.h"

struct named {
	const char *name;
	uint32_t id;
};

static int cmp_named(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return a->id < b->id ? -1 : a->id > b->id;
}

static bool host_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-';
}

/* The derived host name of the @n bytes at @full. */
static const char *derived_name_n(struct arena *a, const char *full, size_t n)
{
	char *s = arena_alloc(a, n + 1);
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		char c = host_char(full[i]) ? full[i] : '-';

		if (c == '-' && (k == 0 || s[k - 1] == '-'))
			continue;
		s[k++] = c;
	}
	while (k && s[k - 1] == '-')
		k--;
	s[k] = '\0';
	return s;
}

const char *be_derived_name(struct arena *a, const char *full)
{
	return derived_name_n(a, full, strlen(full));
}

/* What a hostname attribute may hold: [A-Za-z0-9._-], 1 to 253 bytes. */
static bool hostname_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 253 || s[0] == '-' || s[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!host_char(s[i]) && s[i] != '.' && s[i] != '_')
			return false;
	return true;
}

/*
 * Whether two of the @n names are equal: the names sorted by the top 32
 * bits of their FNV-1a hash (an LSD radix sort, 11 bits a pass, each pass
 * in order through memory), then compared within each run of equal
 * hashes.  A hash set did the same with a probe into a table and often
 * a comparison with a name far away in memory per name: at a million
 * GPUs neither stays in the cache, and it took 40 to 70 times as long as
 * at 100,000.
 */
static bool any_clash(const struct named *v, uint32_t n)
{
	uint64_t *k = xmalloc(((size_t)n + 1) * sizeof(*k));
	uint64_t *t = xmalloc(((size_t)n + 1) * sizeof(*t)), *x;
	bool clash = false;

	for (uint32_t i = 0; i < n; i++)
		k[i] = (be_fnv1a(v[i].name) & 0xffffffff00000000ULL) | i;
	for (unsigned shift = 32; shift < 64; shift += 11) {
		uint32_t count[2049] = { 0 };

		for (uint32_t i = 0; i < n; i++)
			count[((k[i] >> shift) & 0x7ff) + 1]++;
		for (unsigned b = 0; b < 2048; b++)
			count[b + 1] += count[b];
		for (uint32_t i = 0; i < n; i++)
			t[count[(k[i] >> shift) & 0x7ff]++] = k[i];
		x = k;
		k = t;
		t = x;
	}
	for (uint32_t i = 0; i < n && !clash;) {
		uint32_t j = i + 1;

		while (j < n && k[j] >> 32 == k[i] >> 32)
			j++;
		for (uint32_t a = i; a < j && !clash; a++)
			for (uint32_t b = a + 1; b < j && !clash; b++)
				clash = streq(v[(uint32_t)k[a]].name,
					      v[(uint32_t)k[b]].name);
		i = j;
	}
	free(k);
	free(t);
	return clash;
}

static const char **compute_host_names(const struct rk_design *d,
				       struct arena *a,
				       struct diag_engine *diag, bool *ok)
{
	const char **names = xcalloc(d->nobjs ? d->nobjs : 1, sizeof(*names));
	struct named *v = NULL;
	uint32_t n = 0;

	*ok = true;
	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];
		const struct rk_value *h;

		if (o->kind != K_DEVICE)
			continue;
		h = ir_attr(d, i, A_HOSTNAME);
		if (h && h->type == VT_STR) {
			const char *s = str_of(d->arena, h->a);

			if (!hostname_ok(s)) {
				diag_error(diag, &h->loc, "hostname",
					   "hostname \"%s\" of %s cannot be "
					   "used in host lists: only letters, "
					   "digits, '.', '_' and '-' are "
					   "allowed",
					   s, ir_name(d, i));
				*ok = false;
				continue;
			}
			names[i] = s;
		} else {
			names[i] = derived_name_n(
			    a, ir_name(d, i),
			    strlen_of(d->arena, d->objs[i].name));
			if (!names[i][0])
				names[i] = "host";
		}
		if (!v)
			v = xmalloc(d->nobjs * sizeof(*v));
		v[n].name = names[i];
		v[n].id = i;
		n++;
	}
	/* names clash rarely: a hash set says whether any do, and only
	 * then are they sorted, to report each clash in name order */
	if (n > 1 && any_clash(v, n)) {
		qsort(v, n, sizeof(*v), cmp_named);
		for (uint32_t i = 1; i < n; i++) {
			if (!streq(v[i].name, v[i - 1].name))
				continue;
			diag_error(diag, &d->objs[v[i].id].loc, "hostname",
				   "%s and %s would both be host '%s'; give "
				   "one of them a hostname",
				   ir_name(d, v[i - 1].id), ir_name(d, v[i].id),
				   v[i].name);
			diag_note(diag, &d->objs[v[i - 1].id].loc,
				  "%s declared here", ir_name(d, v[i - 1].id));
			*ok = false;
		}
	}
	free(v);
	return names;
}

struct be_shared {
	pthread_mutex_t mu;
	bool hosts_done, hosts_ok;
	const char **hosts;
	struct arena arena;
	struct diag_engine diag; /* what computing them said (deferred) */
};

struct be_shared *be_shared_new(void)
{
	struct be_shared *sh = xcalloc(1, sizeof(*sh));

	pthread_mutex_init(&sh->mu, NULL);
	arena_init(&sh->arena);
	return sh;
}

void be_shared_free(struct be_shared *sh)
{
	if (!sh)
		return;
	free(sh->hosts);
	arena_destroy(&sh->arena);
	pthread_mutex_destroy(&sh->mu);
	free(sh);
}

const char *const *be_host_names(struct backend_ctx *ctx, bool *ok)
{
	struct be_shared *sh = ctx->shared;

	pthread_mutex_lock(&sh->mu);
	if (!sh->hosts_done) {
		diag_fork(&sh->diag, ctx->diag, &sh->arena);
		sh->hosts = compute_host_names(ctx->d, &sh->arena, &sh->diag,
					       &sh->hosts_ok);
		sh->hosts_done = true;
	}
	pthread_mutex_unlock(&sh->mu);
	/* every caller reports the problems, as if it had found them */
	diag_join(ctx->diag, &sh->diag);
	*ok = sh->hosts_ok;
	return sh->hosts;
}

uint32_t be_part_comps(const struct rk_design *d, uint32_t part, uint32_t **out)
{
	uint32_t chain[RK_MAX_PART_DEPTH + 1], n = 0, cap = 0;
	uint32_t nc = ir_part_chain(d, part, chain);

	*out = NULL;
	while (nc--) {
		for_each_child(d, chain[nc], c) {
			/* a derived part's redeclaration replaces the base's */
			if (d->objs[c].kind != K_COMP ||
			    !ir_member_effective(d, part, c))
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				*out = xrealloc(*out, cap * sizeof(**out));
			}
			(*out)[n++] = c;
		}
	}
	return n;
}

const char *be_port_protocol(const struct rk_design *d, uint32_t port)
{
	const char *p = ir_str(d, port, A_PROTOCOL);

	return p ? p : "";
}

const char *be_port_role(const struct rk_design *d, uint32_t port)
{
	const char *p = ir_str(d, port, A_ROLE);

	return p ? p : "";
}

uint64_t be_fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

char *be_file_name(struct arena *a, const char *name)
{
	size_t n = strlen(name);
	char *s = arena_alloc(a, n + 1);

	for (size_t i = 0; i <= n; i++) {
		char c = name[i];

		s[i] = !c || host_char(c) || c == '_' || c == '.' ? c : '-';
	}
	return s;
}

void be_json_str(FILE *fp, const char *s)
{
	if (!s) {
		fputs("null", fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c == '\t')
			fputs("\\t", fp);
		else if (c < 0x20 || c == 0x7f)
			fprintf(fp, "\\u%04x", c);
		else
			fputc(c, fp);
	}
	fputc('"', fp);
}

uint32_t be_part_number(const struct rk_design *d, uint32_t part,
			int64_t length)
{
	const struct rk_value *pns = ir_attr_inh(d, part, A_PART_NUMBERS);
	const struct rk_value *lens = ir_attr_inh(d, part, A_LENGTHS);
	const struct rk_value *v;

	if (!pns || pns->type != VT_LIST) {
		v = ir_attr_inh(d, part, A_PART_NUMBER);
		return v && v->type == VT_STR ? v->a : 0;
	}
	if (!lens || lens->type != VT_LIST || length < 0)
		return 0;
	for (uint32_t i = 0; i < (uint32_t)lens->n && i < (uint32_t)pns->n;
	     i++) {
		if (ir_list_at(d, lens, i)->n == length) {
			v = ir_list_at(d, pns, i);
			return v->type == VT_STR ? v->a : 0;
		}
	}
	return 0;
}

void be_cable_counts(const struct rk_design *d, const struct cable_plan *p,
		     uint32_t *cables, uint32_t *backplane)
{
	uint32_t c = p->ncables, b = 0;

	for (uint32_t i = 0; i < d->nlinks; i++) {
		const struct cp_link *l = &p->links[i];

		if (d->links[i].a_port == RK_NONE)
			continue;
		if (l->status == CP_NOT_CABLED)
			b++;
		else if (l->cable_no == RK_NONE)
			c++;
	}
	*cables = c;
	*backplane = b;
}

void be_pull_index(const struct rk_design *d, const struct cable_plan *p,
		   const uint32_t *rack, uint32_t **start, uint32_t **entry)
{
	uint32_t *st = xcalloc((size_t)d->nobjs + 2, sizeof(*st));
	uint32_t *fill = xmalloc(((size_t)d->nobjs + 1) * sizeof(*fill));
	uint32_t *ent = NULL, total = 0;

	/* pass 0 counts each rack's cables, prefix sums give the starts,
	 * pass 1 files them (fill[] from each rack's start) */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < d->nlinks; i++) {
			const struct rk_link *l = &d->links[i];
			uint32_t r[2] = { rack[l->a_dev], rack[l->b_dev] };

			if (!p->links[i].label_no)
				continue;
			for (int k = 0; k < 2; k++) {
				if (r[k] == RK_NONE || (k && r[1] == r[0]))
					continue;
				if (pass)
					ent[fill[r[k]]++] = i;
				else
					st[r[k] + 1]++;
			}
		}
		if (pass)
			break;
		for (uint32_t i = 0; i < d->nobjs; i++) {
			total += st[i + 1];
			st[i + 1] = total;
		}
		ent = xmalloc(((size_t)total + 1) * sizeof(*ent));
		memcpy(fill, st, (size_t)d->nobjs * sizeof(*fill));
	}
	free(fill);
	*start = st;
	*entry = ent;
}

int64_t be_pull_length(int64_t um)
{
	const int64_t cm = 10000;

	if (um <= 0 || um > INT64_MAX - cm)
		return um;
	return (um + cm - 1) / cm * cm;
}
