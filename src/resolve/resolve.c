/* SPDX-License-Identifier: MIT */
/*
 * Name resolution: binds every reference recorded during elaboration to an
 * object or a port, once all objects exist.  A relative name is looked up
 * from the referring object outwards: the object itself, then (for a
 * device) the rack it is mounted in and that rack's ancestors, then its own
 * ancestors, then the top level; the first hit wins.  Names inside a part
 * (ports, components) are looked up in the part and its bases.  Patterns
 * with [*] match every name of the right kind, in declaration order.
 */
#include "rackc.h"

#include <stdio.h>
#include <stdlib.h>

#include "elab.h"
#include "resolve.h"
#include "suggest.h"

/* a name's scopes: its enclosing objects, or a part and its bases */
#define MAX_SCOPES (RK_MAX_PART_DEPTH + 2)

/* Offer @cand unless the budget is spent; false (and none offered) then. */
/*
 * Resolution's own state, from the first resolve_* call to resolve_fini()
 * (allocated on first use; elab.h knows it only by name).
 */
struct resolve_state {
	/* explicit links whose ends name objects a fabric generates,
	 * resolved once the fabrics are expanded */
	uint32_t *deferred_links;
	uint32_t ndeferred_links, deferred_links_cap;
	/* the last index range of a name, for messages (0: none) */
	uint32_t rng_base, rng_obj, rng_nobjs;
	bool rng_ports, rng_any;
	long long rng_lo, rng_hi;
	uint64_t match_steps; /* names tried by [*] patterns */
};

static struct resolve_state *rs_of(struct elab *e)
{
	if (!e->res)
		e->res = xcalloc(1, sizeof(*e->res));
	return e->res;
}

void resolve_fini(struct elab *e)
{
	if (e->res)
		free(e->res->deferred_links);
	free(e->res);
	e->res = NULL;
}

static bool offer(struct elab *e, struct suggest *sg, const char *cand)
{
	if (!elab_suggest_step(e))
		return false;
	suggest_offer(sg, cand);
	return true;
}

struct scopes {
	uint32_t name[MAX_SCOPES]; /* prefix names; 0 = top level */
	uint32_t n;
	bool part_ns; /* look in the part namespace */
};

static void add_chain(const struct rk_design *d, struct scopes *s, uint32_t obj)
{
	for (; obj != RK_NONE && s->n < MAX_SCOPES - 1;
	     obj = d->objs[obj].parent)
		s->name[s->n++] = d->objs[obj].name;
}

static void scopes_for(struct elab *e, uint32_t obj, struct scopes *s)
{
	const struct rk_design *d = e->d;

	s->n = 0;
	s->part_ns = false;
	if (obj == RK_NONE) {
		s->name[s->n++] = 0;
		return;
	}
	if (d->objs[obj].kind == K_PORT || d->objs[obj].kind == K_COMP) {
		/* members of a part: the part, then its bases */
		s->part_ns = true;
		for_each_base(d, p, d->objs[obj].parent)
			s->name[s->n++] = d->objs[p].name;
		return;
	}
	s->name[s->n++] = d->objs[obj].name;
	if (d->objs[obj].kind == K_DEVICE) {
		const struct rk_value *r = ir_attr(d, obj, A_RACK);

		if (r && r->type == VT_OBJ)
			add_chain(d, s, r->a);
	}
	add_chain(d, s, d->objs[obj].parent);
	s->name[s->n++] = 0;
}

static uint32_t lookup_in(struct elab *e, uint32_t prefix, const char *path,
			  size_t plen, bool part_ns)
{
	size_t a = prefix ? strlen_of(e->a, prefix) : 0;
	uint32_t id;

	if (a + plen + 1 >= 2 * RK_MAX_PATH + 2)
		return RK_NONE;
	/* "prefix.path", found without writing it out */
	id = intern_find_join(e->a, a ? prefix : 0, '.', path, plen);
	if (!id)
		return RK_NONE;
	return part_ns ? ir_find_part(e->d, id) : ir_find_name(e->d, id);
}

/*
 * For "base[i]" not found under @obj (a part and its bases when @ports, or
 * an object's children): the lowest and highest index of base[...] there.
 * The answer is kept for the next call (while no object is added), so
 * that many references to a missing index of one base do not each scan
 * every member.
 */
static bool index_range(struct elab *e, uint32_t obj, bool ports,
			const char *name, long long *lo, long long *hi)
{
	const struct rk_design *d = e->d;
	const char *br = strchr(name, '[');
	size_t blen;
	bool any = false;
	uint32_t base;

	if (!br || obj == RK_NONE || strchr(br + 1, '['))
		return false;
	blen = (size_t)(br - name);
	base = intern(e->a, name, blen);
	if (rs_of(e)->rng_base == base && rs_of(e)->rng_obj == obj &&
	    rs_of(e)->rng_ports == ports && rs_of(e)->rng_nobjs == d->nobjs) {
		*lo = rs_of(e)->rng_lo;
		*hi = rs_of(e)->rng_hi;
		return rs_of(e)->rng_any;
	}
	/* ports: the object's own, then its part's chain */
	for_each_base(d, q, obj) {
		if (q != obj && !ports)
			break;
		for_each_child(d, q, c) {
			const char *ln = str_of(e->a, d->objs[c].local);
			char *end;
			long long ix;

			if ((ports && d->objs[c].kind != K_PORT) ||
			    strncmp(ln, name, blen) != 0 || ln[blen] != '[')
				continue;
			ix = strtoll(ln + blen + 1, &end, 10);
			if (*end != ']' || end[1])
				continue;
			if (!any || ix < *lo)
				*lo = ix;
			if (!any || ix > *hi)
				*hi = ix;
			any = true;
		}
	}
	rs_of(e)->rng_base = base;
	rs_of(e)->rng_obj = obj;
	rs_of(e)->rng_ports = ports;
	rs_of(e)->rng_nobjs = d->nobjs;
	rs_of(e)->rng_any = any;
	rs_of(e)->rng_lo = any ? *lo : 0;
	rs_of(e)->rng_hi = any ? *hi : 0;
	return any;
}

static const char *kind_phrase(enum rk_kind k)
{
	switch (k) {
	case K_RACK:
		return "a rack";
	case K_DEVICE:
		return "a device";
	case K_FEED:
		return "a feed";
	case K_AIR:
		return "an air zone";
	case K_LOOP:
		return "a liquid loop";
	case K_COMP:
		return "a component";
	default:
		return "an object";
	}
}

static void report_undefined(struct elab *e, const char *path,
			     enum rk_kind want, const struct scopes *s,
			     const struct srcloc *loc, const char *what)
{
	const struct rk_design *d = e->d;
	struct suggest sg;
	uint32_t scanned = 0;
	const char *dot = strrchr(path, '.');
	bool cut = false;

	if (elab_repeat(e, loc))
		return;
	/* "hall.r[1].rk[3]": the parent exists and has other rk[...] */
	for (uint32_t k = 0; dot && k < s->n; k++) {
		uint32_t parent = lookup_in(e, s->name[k], path,
					    (size_t)(dot - path), s->part_ns);
		long long lo, hi;

		if (parent == RK_NONE)
			continue;
		if (index_range(e, parent, false, dot + 1, &lo, &hi)) {
			elab_error(e, loc, "undefined-name",
				   "%s '%s' is not defined (%.*s has "
				   "%.*s[%lld..%lld])",
				   what, path, (int)(dot - path), path,
				   (int)(strchr(dot + 1, '[') - dot - 1),
				   dot + 1, lo, hi);
			return;
		}
		break;
	}
	suggest_init(&sg, path);
	for (uint32_t i = 0; i < d->nobjs && scanned < 200000 && !cut; i++) {
		const struct rk_obj *o = &d->objs[i];
		const char *full;

		if (want != K_NONE ? o->kind != want
				   : (o->kind == K_PART || o->kind == K_PORT))
			continue;
		if ((o->kind == K_COMP) != s->part_ns)
			continue;
		scanned++;
		full = str_of(e->a, o->name);
		cut = !offer(e, &sg, full);
		/* the name relative to each scope the reference looked in */
		for (uint32_t k = 0; k < s->n && !cut; k++) {
			size_t pl;

			if (!s->name[k])
				continue;
			pl = strlen_of(e->a, s->name[k]);
			if (strncmp(full, str_of(e->a, s->name[k]), pl) == 0 &&
			    full[pl] == '.')
				cut = !offer(e, &sg, full + pl + 1);
		}
	}
	if (cut) /* the budget ran out: no suggestion */
		suggest_init(&sg, path);
	elab_error(e, loc, "undefined-name",
		   "%s '%s' is not defined" SUGGEST_FMT, what, path,
		   SUGGEST_ARGS(&sg));
}

/* Resolve an object reference; RK_NONE after reporting. */
static uint32_t resolve_obj(struct elab *e, uint32_t path, uint32_t from,
			    enum rk_kind want, const struct srcloc *loc)
{
	struct scopes s;
	const char *p = str_of(e->a, path);
	size_t plen = strlen_of(e->a, path);

	scopes_for(e, from, &s);
	for (uint32_t k = 0; k < s.n; k++) {
		uint32_t id = lookup_in(e, s.name[k], p, plen, s.part_ns);

		if (id == RK_NONE)
			continue;
		if (want != K_NONE && e->d->objs[id].kind != want) {
			elab_error(e, loc, "type-mismatch",
				   "'%s' is a %s, not %s", p,
				   rk_kind_name(e->d->objs[id].kind),
				   kind_phrase(want));
			return RK_NONE;
		}
		return id;
	}
	report_undefined(e, p, want, &s, loc,
			 want == K_NONE ? "name" : rk_kind_name(want));
	return RK_NONE;
}

/* Split "a.b[1].ib[3]" at its last '.' (outside brackets). */
static bool split_port(const char *p, size_t n, size_t *dot)
{
	int depth = 0;

	for (size_t i = n; i > 0; i--) {
		char c = p[i - 1];

		if (c == ']')
			depth++;
		else if (c == '[')
			depth--;
		else if (c == '.' && depth == 0) {
			*dot = i - 1;
			return true;
		}
	}
	return false;
}

static bool resolve_port(struct elab *e, uint32_t path, uint32_t from,
			 const struct srcloc *loc, uint32_t *dev,
			 uint32_t *port)
{
	const struct rk_design *d = e->d;
	const char *p = str_of(e->a, path);
	size_t n = strlen_of(e->a, path), dot;
	uint32_t dpath, pname, part;

	if (from != RK_NONE && d->objs[from].kind == K_COMP) {
		/* a NIC's ports: ports of the enclosing part */
		uint32_t owner = d->objs[from].parent;

		*port = ir_part_port(d, owner, path);
		if (*port == RK_NONE) {
			elab_error(e, loc, "undefined-name",
				   "part '%s' has no port '%s'",
				   ir_name(d, owner), p);
			return false;
		}
		*dev = owner;
		return true;
	}
	if (!split_port(p, n, &dot)) {
		elab_error(e, loc, "value",
			   "'%s' is not a port; write DEVICE.PORT", p);
		return false;
	}
	dpath = intern(e->a, p, dot);
	pname = intern(e->a, p + dot + 1, n - dot - 1);
	*dev = resolve_obj(e, dpath, from, K_DEVICE, loc);
	if (*dev == RK_NONE)
		return false;
	part = d->objs[*dev].part;
	*port = ir_part_port(d, part, pname);
	if (*port == RK_NONE) {
		struct suggest sg;
		const char *pn = str_of(e->a, pname);
		long long lo, hi;
		bool cut = false;

		if (elab_repeat(e, loc))
			return false;
		/* the right name with a wrong index: say which exist */
		if (index_range(e, part, true, pn, &lo, &hi)) {
			elab_error(e, loc, "undefined-name",
				   "%s '%s' (%s) has no port '%s' (its ports "
				   "are %.*s[%lld..%lld])",
				   rk_kind_name(d->objs[*dev].kind),
				   ir_name(d, *dev), ir_name(d, part), pn,
				   (int)(strchr(pn, '[') - pn), pn, lo, hi);
			return false;
		}
		suggest_init(&sg, pn);
		for_each_base(d, q, part) {
			if (cut)
				break;
			for_each_child(d, q, c)
				if (d->objs[c].kind == K_PORT &&
				    !offer(e, &sg,
					   str_of(e->a, d->objs[c].local))) {
					cut = true;
					break;
				}
		}
		if (cut) /* the budget ran out: no suggestion */
			suggest_init(&sg, pn);
		elab_error(e, loc, "undefined-name",
			   "%s '%s' (%s) has no port '%s'" SUGGEST_FMT,
			   rk_kind_name(d->objs[*dev].kind), ir_name(d, *dev),
			   ir_name(d, part), pn, SUGGEST_ARGS(&sg));
		return false;
	}
	return true;
}

/*
 * Append a value a pattern matched to the value table, counted against
 * the list element limit as it is made (a few bytes of patterns can name
 * every object many times over); false at the limit.
 */
static bool push_tmp(struct elab *e, struct rk_value **tmp, uint32_t *n,
		     uint32_t *cap, uint8_t type, uint32_t a, int64_t v,
		     const struct srcloc *loc)
{
	struct rk_value *r;

	if (!elab_check_table_limit(e, *n, RK_MAX_VALUES, loc, "list elements"))
		return false;
	r = VEC_PUSH(*tmp, *n, *cap);

	memset(r, 0, sizeof(*r));
	r->type = type;
	r->a = a;
	r->n = v;
	r->loc = *loc;
	return true;
}

static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return a < b ? -1 : a > b;
}

/* Whether @name matches the @plen bytes at @pat, where "[*]" matches any
 * "[digits]". */
static bool glob_match_n(const char *pat, size_t plen, const char *name)
{
	const char *end = pat + plen;

	while (pat < end) {
		if (end - pat >= 3 && pat[0] == '[' && pat[1] == '*' &&
		    pat[2] == ']') {
			if (*name != '[' || name[1] < '0' || name[1] > '9')
				return false;
			name++;
			while (*name >= '0' && *name <= '9')
				name++;
			if (*name != ']')
				return false;
			name++;
			pat += 3;
			continue;
		}
		if (*pat != *name)
			return false;
		pat++;
		name++;
	}
	return *name == '\0';
}

/*
 * Count one name a pattern tries (an object's or a port's): at the limit
 * an error at the pattern @loc, and the compilation stops (patterns that
 * each walk every object would otherwise take quadratic time).
 */
static bool match_step(struct elab *e, const struct srcloc *loc)
{
	if (e->stopped)
		return false;
	if (++rs_of(e)->match_steps <= RK_MAX_MATCH)
		return true;
	elab_error(e, loc, "limit",
		   "patterns try more than %u names (the pattern limit)",
		   RK_MAX_MATCH);
	e->stopped = true;
	return false;
}

/*
 * The objects whose full name matches @pat, where "[*]" matches any
 * "[digits]", in declaration order.  A full name is its parent's, a dot
 * and its own, and "[*]" never matches a dot, so the search walks down the
 * object tree a name component at a time: from the object the pattern's
 * literal leading components name (or the roots), to the children that
 * match the next component, and so on.  It visits only objects on the
 * way to a match, whatever the size of the design.
 */
static void match_tree(struct elab *e, const char *pat,
		       const struct srcloc *loc, uint32_t **hit, uint32_t *nhit,
		       uint32_t *hcap)
{
	const struct rk_design *d = e->d;
	const char *star = strstr(pat, "[*]"), *c;
	uint32_t *cur = NULL, ncur = 0, ccap = 0, *nxt = NULL, nnxt = 0;
	uint32_t ncap = 0;

	*nhit = 0;
	if (!star) {
		uint32_t id = intern_find(e->a, pat, strlen(pat));
		uint32_t o = id ? ir_find_name(d, id) : RK_NONE;

		if (o != RK_NONE)
			*VEC_PUSH(*hit, *nhit, *hcap) = o;
		return;
	}
	/* the literal components before the one with the first [*] */
	c = star;
	while (c > pat && c[-1] != '.')
		c--;
	if (c > pat) {
		uint32_t id = intern_find(e->a, pat, (size_t)(c - 1 - pat));
		uint32_t o = id ? ir_find_name(d, id) : RK_NONE;

		if (o == RK_NONE)
			return;
		*VEC_PUSH(cur, ncur, ccap) = o;
	}
	/* c: the next component; cur: the objects matched so far (none
	 * yet at the top: the roots are the candidates) */
	for (bool top = c == pat; *c; top = false) {
		const char *dot = strchr(c, '.');
		size_t n = dot ? (size_t)(dot - c) : strlen(c);
		uint32_t nfrom = top ? 1 : ncur;

		nnxt = 0;
		for (uint32_t k = 0; k < nfrom; k++) {
			uint32_t ch =
			    top ? d->first_root : d->objs[cur[k]].first_child;

			for (; ch != RK_NONE && match_step(e, loc);
			     ch = d->objs[ch].next_sibling)
				if (glob_match_n(
					c, n, str_of(e->a, d->objs[ch].local)))
					*VEC_PUSH(nxt, nnxt, ncap) = ch;
		}
		{
			uint32_t *t = cur, tc = ccap;

			cur = nxt;
			ncur = nnxt;
			ccap = ncap;
			nxt = t;
			ncap = tc;
		}
		c += n + (dot ? 1 : 0);
		if (!dot)
			break;
	}
	for (uint32_t k = 0; k < ncur; k++)
		*VEC_PUSH(*hit, *nhit, *hcap) = cur[k];
	/* declaration order: the walk gives it already when every
	 * subtree's objects were declared together (the usual case, checked
	 * in one pass instead of an n log n sort) */
	for (uint32_t k = 1; k < *nhit; k++)
		if ((*hit)[k - 1] > (*hit)[k]) {
			qsort(*hit, *nhit, sizeof(**hit), cmp_u32);
			break;
		}
	free(cur);
	free(nxt);
}

/*
 * The ports of @part whose names match @pat (@plen bytes, with "[*]"), in
 * declaration order, bases first; each is the port the part resolves that
 * name to (a derived part's port of the same name replaces its base's), at
 * the place of the name's first declaration.  Repeats (a name declared in
 * a base and again in a derived part) are dropped through a hash set of
 * the ports kept, so a part of many ports costs linear time.
 */
static void part_port_matches(struct elab *e, uint32_t part, const char *pat,
			      size_t plen, const struct srcloc *loc,
			      uint32_t **out, uint32_t *n, uint32_t *cap)
{
	const struct rk_design *d = e->d;
	uint32_t chain[RK_MAX_PART_DEPTH + 1], m = 0, hmask, *set;
	uint32_t nc = ir_part_chain(d, part, chain);

	*n = 0;
	while (nc--)
		for_each_child(d, chain[nc], c) {
			uint32_t port;

			if (!match_step(e, loc))
				goto dedup; /* the limit stops the walk */
			if (d->objs[c].kind != K_PORT ||
			    !glob_match_n(pat, plen,
					  str_of(e->a, d->objs[c].local)))
				continue;
			port = ir_part_port(d, part, d->objs[c].local);
			if (port != RK_NONE)
				*VEC_PUSH(*out, *n, *cap) = port;
		}
dedup:
	if (*n < 2)
		return;
	/* open addressing, at most half full; slots hold port + 1 */
	for (hmask = 1; hmask < *n; hmask <<= 1)
		;
	hmask = (hmask << 1) - 1;
	set = xcalloc((size_t)hmask + 1, sizeof(*set));
	for (uint32_t k = 0; k < *n; k++) {
		uint32_t port = (*out)[k];
		uint32_t i = (port * 2654435761u) & hmask;

		while (set[i] && set[i] != port + 1)
			i = (i + 1) & hmask;
		if (set[i])
			continue;
		set[i] = port + 1;
		(*out)[m++] = port;
	}
	*n = m;
	free(set);
}

/*
 * Expand a [*] pattern into objects (or ports) in declaration order: the
 * pattern is tried under each enclosing scope in turn, as a plain name
 * would be (match_tree), until one gives matches.  In a port pattern the
 * port name may hold [*] too (tray[*].nvl[*]): every matching port of
 * each device, in the part's declaration order.
 */
static bool resolve_pattern(struct elab *e, const struct rk_value *ref,
			    uint32_t from, enum rk_kind want, bool ports,
			    struct rk_value **tmp, uint32_t *n, uint32_t *cap)
{
	const struct rk_design *d = e->d;
	const char *p = str_of(e->a, ref->a);
	size_t plen = strlen_of(e->a, ref->a), dot = plen;
	uint32_t pname = 0, before = *n, *hit = NULL, nhit = 0, hcap = 0;
	uint32_t last_part = RK_NONE, last_port = RK_NONE;
	uint32_t *pports = NULL, npports = 0, ppcap = 0;
	bool pstar = false, ok = true;
	struct scopes s;

	if (ports) {
		if (!split_port(p, plen, &dot)) {
			elab_error(e, &ref->loc, "value",
				   "'%s' is not a port pattern; write "
				   "DEVICE.PORT",
				   p);
			return false;
		}
		pname = intern(e->a, p + dot + 1, plen - dot - 1);
		pstar = strstr(p + dot + 1, "[*]") != NULL;
		want = K_DEVICE;
	}
	scopes_for(e, from, &s);
	for (uint32_t k = 0; k < s.n && *n == before && ok; k++) {
		const char *pre = s.name[k] ? str_of(e->a, s.name[k]) : "";
		char *full = arena_printf(e->a, "%s%s%.*s", pre,
					  s.name[k] ? "." : "", (int)dot, p);
		uint32_t m = 0;

		match_tree(e, full, &ref->loc, &hit, &nhit, &hcap);
		for (uint32_t j = 0; j < nhit; j++) {
			const struct rk_obj *o = &d->objs[hit[j]];

			if (want != K_NONE
				? o->kind == want
				: o->kind != K_PART && o->kind != K_PORT &&
				      o->kind != K_COMP)
				hit[m++] = hit[j];
		}
		nhit = m;
		for (uint32_t j = 0; j < nhit && ok; j++) {
			uint32_t i = hit[j];

			if (ports) {
				uint32_t port;

				/* the devices are mostly of one part */
				if (d->objs[i].part != last_part) {
					last_part = d->objs[i].part;
					if (pstar)
						part_port_matches(
						    e, last_part, p + dot + 1,
						    plen - dot - 1, &ref->loc,
						    &pports, &npports, &ppcap);
					else
						last_port = ir_part_port(
						    d, last_part, pname);
				}
				port = last_port;

				if (pstar)
					for (uint32_t q = 0; q < npports && ok;
					     q++)
						ok = push_tmp(
						    e, tmp, n, cap, VT_PORT, i,
						    pports[q], &ref->loc);
				else if (port != RK_NONE)
					ok = push_tmp(e, tmp, n, cap, VT_PORT,
						      i, port, &ref->loc);
			} else {
				ok = push_tmp(e, tmp, n, cap, VT_OBJ, i, 0,
					      &ref->loc);
			}
		}
	}
	free(hit);
	free(pports);
	if (!ok)
		return false;
	if (*n == before) {
		elab_error(e, &ref->loc, "undefined-name", "'%s' matches no %s",
			   p, ports ? "port" : rk_kind_name(want));
		return false;
	}
	return true;
}

static bool resolve_one(struct elab *e, const struct attr_info *ai,
			struct rk_value *v, uint32_t from, bool ports)
{
	if (v->type != VT_REF)
		return true;
	if (ports) {
		uint32_t dev, port;

		if (!resolve_port(e, v->a, from, &v->loc, &dev, &port))
			return false;
		v->type = VT_PORT;
		v->a = dev;
		v->n = port;
		return true;
	}
	v->a = resolve_obj(e, v->a, from, ai->ref_kind, &v->loc);
	if (v->a == RK_NONE)
		return false;
	v->type = VT_OBJ;
	v->n = 0;
	return true;
}

static void resolve_attr(struct elab *e, uint32_t obj, struct rk_attr *at)
{
	const struct attr_info *ai = &attr_table[at->key];
	struct rk_design *d = e->d;
	bool ports = ai->type == T_PORTS;

	switch (ai->type) {
	case T_REF:
		resolve_one(e, ai, &at->val, obj, false);
		break;
	case T_REFS:
	case T_PORTS: {
		uint32_t cnt = (uint32_t)at->val.n, src = at->val.a;
		uint32_t start = d->nvals;
		bool any_pattern = false, ok = true;

		for (uint32_t i = 0; i < cnt; i++)
			if (d->vals[src + i].n &&
			    d->vals[src + i].type == VT_REF)
				any_pattern = true;
		if (!any_pattern) {
			for (uint32_t i = 0; i < cnt && !e->stopped; i++)
				resolve_one(e, ai, &d->vals[src + i], obj,
					    ports);
			break;
		}
		/* patterns grow the list: the resolved one is appended to the
		 * value table (indexes, not pointers, into it: it may move) */
		for (uint32_t i = 0; i < cnt && ok && !e->stopped; i++) {
			struct rk_value v = d->vals[src + i];

			if (v.type == VT_REF && v.n) {
				ok = resolve_pattern(e, &v, obj, ai->ref_kind,
						     ports, &d->vals, &d->nvals,
						     &d->vals_cap);
			} else {
				ok = resolve_one(e, ai, &v, obj, ports);
				*VEC_PUSH(d->vals, d->nvals, d->vals_cap) = v;
			}
		}
		if (ok) {
			at->val.a = start;
			at->val.n = d->nvals - start;
		} else {
			d->nvals = start;
		}
		break;
	}
	case T_PSUMAP: {
		struct rk_value *pdu = &d->vals[at->val.a + 1];

		if (pdu->type == VT_REF) {
			pdu->a =
			    resolve_obj(e, pdu->a, obj, K_DEVICE, &pdu->loc);
			if (pdu->a != RK_NONE) {
				pdu->type = VT_OBJ;
				if (d->objs[pdu->a].cls != C_PDU &&
				    d->objs[pdu->a].cls != C_POWER_SHELF)
					elab_error(
					    e, &pdu->loc, "type-mismatch",
					    "'%s' is a %s, not a PDU "
					    "or power shelf",
					    ir_name(d, pdu->a),
					    rk_class_name(d->objs[pdu->a].cls));
			}
		}
		break;
	}
	default:
		break;
	}
}

/*
 * The fabric whose generated objects reference @path names ("compute.leaf[0]",
 * "compute.leaf[*].mgmt": a name that is a fabric, then more after a dot),
 * looked up from @from as any name is; RK_NONE when it names none.  A
 * pattern before the fabric's name ("su[*].compute...") is not followed.
 */
static uint32_t ref_names_fabric(struct elab *e, uint32_t path, uint32_t from)
{
	const struct rk_design *d = e->d;
	const char *p = str_of(e->a, path);
	size_t n = strlen_of(e->a, path);
	struct scopes s;
	int depth = 0;

	if (from != RK_NONE &&
	    (d->objs[from].kind == K_PORT || d->objs[from].kind == K_COMP))
		return RK_NONE;
	scopes_for(e, from, &s);
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '[')
			depth++;
		else if (p[i] == ']')
			depth--;
		else if (p[i] == '*')
			return RK_NONE;
		if (p[i] != '.' || depth)
			continue;
		for (uint32_t k = 0; k < s.n; k++) {
			uint32_t id = lookup_in(e, s.name[k], p, i, false);

			if (id == RK_NONE)
				continue;
			if (d->objs[id].kind == K_FABRIC)
				return id;
			break;
		}
	}
	return RK_NONE;
}

/* The attributes of a fabric that may name another fabric's objects. */
static bool deferrable(const struct rk_design *d, uint32_t obj, uint32_t key)
{
	return d->objs[obj].kind == K_FABRIC &&
	       (key == A_ENDPOINTS || key == A_MEMBERS);
}

/* The first fabric, not @done (NULL: any), a list attribute names. */
static uint32_t attr_waits_for(struct elab *e, uint32_t obj,
			       const struct rk_attr *at, const uint8_t *done,
			       struct srcloc *loc)
{
	const struct rk_design *d = e->d;

	if (at->val.type != VT_LIST)
		return RK_NONE;
	for (uint32_t i = 0; i < (uint32_t)at->val.n; i++) {
		const struct rk_value *v = &d->vals[at->val.a + i];
		uint32_t f;

		if (v->type != VT_REF)
			continue;
		f = ref_names_fabric(e, v->a, obj);
		if (f != RK_NONE && (!done || !done[f])) {
			if (loc)
				*loc = v->loc;
			return f;
		}
	}
	return RK_NONE;
}

uint32_t resolve_fabric_waits_for(struct elab *e, uint32_t fab,
				  const uint8_t *done, struct srcloc *loc)
{
	const struct rk_design *d = e->d;
	const struct rk_obj *o = &d->objs[fab];

	for (uint32_t k = 0; k < o->attr_count; k++) {
		const struct rk_attr *at = &d->attrs[o->attr_first + k];
		uint32_t f;

		if (!deferrable(d, fab, at->key))
			continue;
		f = attr_waits_for(e, fab, at, done, loc);
		if (f != RK_NONE)
			return f;
	}
	return RK_NONE;
}

void resolve_fabric_refs(struct elab *e, uint32_t fab)
{
	struct rk_design *d = e->d;

	for (uint32_t k = 0; k < d->objs[fab].attr_count && !e->stopped; k++) {
		struct rk_attr *at = &d->attrs[d->objs[fab].attr_first + k];

		if (deferrable(d, fab, at->key) &&
		    attr_waits_for(e, fab, at, NULL, NULL) != RK_NONE)
			resolve_attr(e, fab, at);
	}
}

static void resolve_link(struct elab *e, uint32_t i)
{
	struct rk_link *l = &e->d->links[i];
	uint32_t from = l->scope;
	/* each end's own text, where elaboration recorded it */
	struct srcloc aloc = l->loc, bloc = l->loc;

	if (i < e->nlink_ends) {
		aloc.end = e->link_ends[2 * i];
		bloc.begin = e->link_ends[2 * i + 1];
	}

	if (!resolve_port(e, l->a_dev, from, &aloc, &l->a_dev, &l->a_port) ||
	    !resolve_port(e, l->b_dev, from, &bloc, &l->b_dev, &l->b_port))
		l->a_port = l->b_port = RK_NONE;
}

void resolve_deferred_links(struct elab *e)
{
	for (uint32_t k = 0; k < rs_of(e)->ndeferred_links && !e->stopped; k++)
		resolve_link(e, rs_of(e)->deferred_links[k]);
	free(rs_of(e)->deferred_links);
	rs_of(e)->deferred_links = NULL;
	rs_of(e)->ndeferred_links = rs_of(e)->deferred_links_cap = 0;
}

void resolve_design(struct elab *e)
{
	struct rk_design *d = e->d;

	/* racks first: they widen the scope of the devices mounted in them */
	for (uint32_t i = 0; i < d->nobjs && !e->stopped; i++) {
		struct rk_obj *o = &d->objs[i];

		for (uint32_t k = 0; k < o->attr_count; k++) {
			struct rk_attr *at = &d->attrs[o->attr_first + k];

			if (at->key == A_RACK)
				resolve_attr(e, i, at);
		}
	}
	for (uint32_t i = 0; i < d->nobjs && !e->stopped; i++) {
		struct rk_obj *o = &d->objs[i];

		for (uint32_t k = 0; k < o->attr_count && !e->stopped; k++) {
			struct rk_attr *at = &d->attrs[o->attr_first + k];

			/* one naming a fabric's objects waits for it */
			if (at->key != A_RACK &&
			    !(deferrable(d, i, at->key) &&
			      attr_waits_for(e, i, at, NULL, NULL) != RK_NONE))
				resolve_attr(e, i, at);
		}
	}
	for (uint32_t i = 0; i < d->nlinks && !e->stopped; i++) {
		struct rk_link *l = &d->links[i];

		if (l->a_port != RK_NONE)
			continue;
		if (ref_names_fabric(e, l->a_dev, l->scope) != RK_NONE ||
		    ref_names_fabric(e, l->b_dev, l->scope) != RK_NONE) {
			*VEC_PUSH(rs_of(e)->deferred_links,
				  rs_of(e)->ndeferred_links,
				  rs_of(e)->deferred_links_cap) = i;
			continue;
		}
		resolve_link(e, i);
	}
}
