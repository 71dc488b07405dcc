/* SPDX-License-Identifier: MIT */
/*
 * The observations of `rackc verify` (verify.h), and the mapping file.
 *
 * Each OBSERVED argument is a file, its kind found from its text:
 *  - `lldpcli -f json show neighbors` output (text starting with "{"),
 *    one document or several concatenated.  Its shape is lldpd's JSON
 *    writer's (src/client/json_writer.c and display.c of lldpd): a
 *    document {"lldp": {"interface": X}} where X is an object keyed by the
 *    local interface name, or, with several neighbours, an array of such
 *    one-key objects; each interface has "chassis" (an object keyed by
 *    the neighbour's system name, or, without a name, the chassis itself
 *    with its "id") and "port" ("id": {"type", "value"}, "descr").  The
 *    neighbour's port is the port ID when its type is "ifname" or "local",
 *    else its description (Linux hosts send the MAC as the port ID and the
 *    interface name as the description).  The output does not name the
 *    local system: `HOST=FILE` gives it, or a `lldpcli -f json show
 *    chassis` document before the neighbours ({"local-chassis":
 *    {"chassis": {NAME: ...}}}), else the file's name less its extension.
 *  - a CSV file whose header has the columns device, port, peer_device and
 *    peer_port (more columns are ignored): one observed link a row, seen
 *    from `device`.
 *  - ibdiagnet2's ibdiagnet2.db_csv (after blank and "#" lines, a line
 *    "START_NAME"): its NODES, PORTS and LINKS sections (read_db_csv).
 *  - otherwise ibnetdiscover topology output: node records (`Switch N
 *    "ID" # "DESC" ...`, `Ca N "ID" # "DESC"`) and their port lines
 *    (`[P](GUID) "PEER-ID"[Q](GUID) # "PEER-DESC" lid L 4xHDR`).
 *
 * The mapping file: one rule a line, `device PATTERN NAME` or `port
 * PATTERN NAME`; `#` starts a comment.  PATTERN is an exact name, or, after
 * `~`, a POSIX extended regular expression that must match the whole
 * name, NAME its replacement (\0 to \9 the groups).  The first rule that
 * matches decides.
 */
#include "rackc.h"

#include <errno.h>
#include <stdlib.h>

#include "textread.h"
#include "verify.h"

/* ---- strings and maps ---- */

static uint32_t str_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

uint32_t vf_intern(struct vf_strtab *t, const char *s, size_t len, bool add)
{
	uint32_t h, i;

	if (t->scap == 0) {
		if (!add)
			return RK_NONE;
		t->scap = 1024;
		t->slot = xcalloc(t->scap, sizeof(*t->slot));
	}
	h = str_hash(s, len);
	for (i = h & (t->scap - 1); t->slot[i]; i = (i + 1) & (t->scap - 1)) {
		const char *x = t->s[t->slot[i] - 1];

		if (strncmp(x, s, len) == 0 && x[len] == '\0')
			return t->slot[i] - 1;
	}
	if (!add)
		return RK_NONE;
	*VEC_PUSH(t->s, t->n, t->cap) = arena_strndup(t->a, s, len);
	t->slot[i] = t->n;
	if ((uint64_t)t->n * 2 > t->scap) {
		uint32_t nc = t->scap * 2, *ns = xcalloc(nc, sizeof(*ns));

		for (uint32_t k = 0; k < t->n; k++) {
			uint32_t j =
			    str_hash(t->s[k], strlen(t->s[k])) & (nc - 1);

			while (ns[j])
				j = (j + 1) & (nc - 1);
			ns[j] = k + 1;
		}
		free(t->slot);
		t->slot = ns;
		t->scap = nc;
	}
	return t->n - 1;
}

static uint32_t map_slot(const struct vf_map *m, uint64_t key)
{
	uint32_t i = (uint32_t)hash_mix64(key) & (m->cap - 1);

	while (m->val[i] != RK_NONE && m->key[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

uint32_t vf_map_get(const struct vf_map *m, uint64_t key)
{
	return m->cap ? m->val[map_slot(m, key)] : RK_NONE;
}

uint32_t vf_map_put(struct vf_map *m, uint64_t key, uint32_t val)
{
	uint32_t i, old;

	if ((uint64_t)(m->n + 1) * 2 > m->cap) {
		struct vf_map g = { NULL, NULL, 0, m->cap ? m->cap * 2 : 256 };

		g.key = xmalloc(g.cap * sizeof(*g.key));
		g.val = xmalloc(g.cap * sizeof(*g.val));
		memset(g.val, 0xff, g.cap * sizeof(*g.val));
		for (uint32_t k = 0; k < m->cap; k++)
			if (m->val[k] != RK_NONE) {
				uint32_t j = map_slot(&g, m->key[k]);

				g.key[j] = m->key[k];
				g.val[j] = m->val[k];
				g.n++;
			}
		vf_map_free(m);
		*m = g;
	}
	i = map_slot(m, key);
	old = m->val[i];
	if (old == RK_NONE)
		m->n++;
	m->key[i] = key;
	m->val[i] = val;
	return old;
}

void vf_map_free(struct vf_map *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}

/* A device known by @name (a second device of that name makes the name
 * ambiguous). */
void vf_name_dev(struct vf *v, const char *name, uint32_t d)
{
	uint32_t id = vf_intern(&v->str, name, strlen(name), true);
	uint32_t old = vf_map_put(&v->dev_by_name, id, d);

	if (old != RK_NONE && old != d)
		vf_map_put(&v->dev_by_name, id, VF_AMBIGUOUS);
}

/* ---- IB rates ---- */

static const char *const speeds[] = { "",    "SDR", "DDR", "QDR", "FDR10",
				      "FDR", "EDR", "HDR", "NDR", "XDR" };

const char *vf_ib_speed_name(uint8_t speed)
{
	return speed < ARRAY_SIZE(speeds) ? speeds[speed] : "";
}

bool vf_ib_rate(const char *s, uint8_t *width, uint8_t *speed)
{
	unsigned w = 0;

	while (*s >= '0' && *s <= '9' && w < 100)
		w = w * 10 + (unsigned)(*s++ - '0');
	if ((*s != 'x' && *s != 'X') ||
	    (w != 1 && w != 2 && w != 4 && w != 8 && w != 12))
		return false;
	s++;
	for (uint8_t k = 1; k < ARRAY_SIZE(speeds); k++)
		if (streq(s, speeds[k])) {
			*width = (uint8_t)w;
			*speed = k;
			return true;
		}
	return false;
}

/* ---- the mapping file ---- */

static char *next_word(char **p)
{
	char *s = *p, *w;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return NULL;
	w = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return w;
}

/* The most nodes a mapping pattern may expand to (rx_size). */
#define VF_RX_MAX 10000

/*
 * An upper estimate of the nodes the C library's regcomp builds for the
 * POSIX extended expression @p (capped at VF_RX_MAX + 1): an atom counts
 * one; a group, the sum of its branches; a repetition copies the atom
 * before it ('+' twice, '{n,m}' max(n, m) + 1 times), and a repetition of
 * a repetition copies the copies.  glibc expands repetitions that way
 * (parse_dup_op duplicates the tree), so "a+++...+" or "(a{99}){99}"
 * would take memory exponential in the pattern's bytes; rackc refuses
 * such patterns before they reach regcomp.  Linear in the pattern.
 * *@backref is set when the pattern holds a back-reference ("\\1" to
 * "\\9" outside a bracket expression): glibc matches those by search,
 * in time that grows faster than any power of the name's length.
 */
static uint64_t rx_size(const char *p, bool *backref)
{
	enum { DEPTH = 64 };
	uint64_t sum[DEPTH] = { 0 }, last[DEPTH] = { 0 };
	unsigned top = 0;
	const uint64_t cap = VF_RX_MAX + 1;

	for (; *p; p++) {
		uint64_t f = 0, atom = 1;

		switch (*p) {
		case '(':
			if (top + 1 >= DEPTH)
				return cap;
			top++;
			sum[top] = last[top] = 0;
			continue;
		case ')':
			if (!top)
				break;
			atom = sum[top] + last[top] + 1;
			top--;
			break;
		case '|':
			sum[top] += last[top] + 1;
			last[top] = 0;
			continue;
		case '*':
		case '?':
			f = 1;
			break;
		case '+':
			f = 2;
			break;
		case '{': {
			char *end;
			unsigned long n = strtoul(p + 1, &end, 10), m = n;

			if (*end == ',')
				m = end[1] == '}' ? n + 1
						  : strtoul(end + 1, &end, 10);
			end = strchr(p, '}');
			if (!end)
				break;
			f = (n > m ? n : m) + 1;
			p = end;
			break;
		}
		case '\\':
			if (p[1] >= '1' && p[1] <= '9')
				*backref = true;
			if (p[1])
				p++;
			break;
		case '[':
			p++;
			if (*p == '^')
				p++;
			if (*p == ']')
				p++;
			while (*p && *p != ']') {
				if (*p == '[' && (p[1] == ':' || p[1] == '.' ||
						  p[1] == '=')) {
					const char *c = strchr(p + 2, p[1]);

					p = c && c[1] == ']' ? c + 1 : p;
				}
				p++;
			}
			if (!*p)
				return sum[top] + last[top] + 1;
			break;
		default:
			break;
		}
		if (f) {
			/* copies of the last atom in place of it */
			uint64_t a = last[top];

			last[top] = a > cap / f ? cap : a * f + 1;
			continue;
		}
		sum[top] += last[top];
		last[top] = atom > cap ? cap : atom;
		if (sum[top] > cap)
			return cap;
	}
	while (top) {
		uint64_t in = sum[top] + last[top] + 1;

		top--;
		sum[top] += last[top];
		last[top] = in > cap ? cap : in;
	}
	return sum[0] + last[0] > cap ? cap : sum[0] + last[0];
}

bool vf_read_mapping(struct vf *v, const char *path)
{
	size_t n;
	char *text = rk_slurp(path, &n), *line, *save = NULL;
	uint32_t ln = 0;
	bool ok = true;

	if (!text) {
		fprintf(stderr, "rackc verify: error: cannot read '%s': %s\n",
			path, strerror(errno));
		return false;
	}
	for (line = text; line && ok; line = save) {
		char *nl = strchr(line, '\n'), *p = line, *kind, *pat, *repl;
		struct vf_rule *r;

		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		ln++;
		if ((nl = strchr(line, '#')) != NULL)
			*nl = '\0';
		if ((nl = strchr(line, '\r')) != NULL)
			*nl = '\0';
		kind = next_word(&p);
		if (!kind)
			continue;
		pat = next_word(&p);
		repl = next_word(&p);
		if ((!streq(kind, "device") && !streq(kind, "port")) || !pat ||
		    !repl || next_word(&p)) {
			fprintf(stderr,
				"%s:%u: error: a rule is 'device PATTERN NAME' "
				"or 'port PATTERN NAME'\n",
				path, ln);
			ok = false;
			break;
		}
		r = VEC_PUSH(v->rule, v->nrule, v->rulecap);
		memset(r, 0, sizeof(*r));
		r->port = streq(kind, "port");
		r->file = path;
		r->line = ln;
		r->repl = arena_strndup(v->a, repl, strlen(repl));
		if (pat[0] == '~') {
			char *anch = arena_printf(v->a, "^(%s)$", pat + 1);
			int e;

			bool backref = false;

			if (rx_size(anch, &backref) > VF_RX_MAX || backref) {
				fprintf(stderr,
					backref
					    ? "%s:%u: error: back-references "
					      "are not allowed in a "
					      "pattern: matching them can "
					      "take time exponential in a "
					      "name's length [limit]\n"
					    : "%s:%u: error: pattern too "
					      "complex: its repetitions "
					      "would expand to more than "
					      "10000 nodes [limit]\n",
					path, ln);
				v->nrule--;
				ok = false;
				break;
			}
			e = regcomp(&r->rx, anch, REG_EXTENDED);

			if (e) {
				char msg[256];

				regerror(e, &r->rx, msg, sizeof(msg));
				fprintf(stderr, "%s:%u: error: %s\n", path, ln,
					msg);
				v->nrule--;
				ok = false;
				break;
			}
			r->re = true;
		} else {
			r->exact = arena_strndup(v->a, pat, strlen(pat));
		}
	}
	free(text);
	return ok;
}

/* @name rewritten by the first rule of its kind that matches, or NULL. */
static const char *apply_rules(struct vf *v, bool port, const char *name)
{
	for (uint32_t i = 0; i < v->nrule; i++) {
		const struct vf_rule *r = &v->rule[i];
		/* group 1 is the whole name (the anchoring group) */
		regmatch_t m[11];
		char *out = NULL;
		size_t len = 0, cap = 0;

		if (r->port != port)
			continue;
		if (!r->re) {
			if (streq(r->exact, name))
				return r->repl;
			continue;
		}
		if (regexec(&r->rx, name, ARRAY_SIZE(m), m, 0))
			continue;
		for (const char *s = r->repl;; s++) {
			const char *piece = s;
			size_t pn = 1;

			if (*s == '\\' && s[1] >= '0' && s[1] <= '9') {
				unsigned g = (unsigned)(s[1] - '0') + 1;

				s++;
				pn = 0;
				if (g < ARRAY_SIZE(m) && m[g].rm_so >= 0) {
					piece = name + m[g].rm_so;
					pn = (size_t)(m[g].rm_eo - m[g].rm_so);
				}
			}
			if (len + pn + 1 > cap)
				out = xrealloc(out, cap = 2 * (len + pn + 1));
			memcpy(out + len, piece, pn);
			len += pn;
			if (!*s)
				break;
		}
		{
			const char *res = arena_strndup(v->a, out, len - 1);

			free(out);
			return res;
		}
	}
	return NULL;
}

/* ---- names ---- */

static uint32_t find_dev(struct vf *v, const char *name)
{
	uint32_t id = vf_intern(&v->str, name, strlen(name), false);

	return id == RK_NONE ? RK_NONE : vf_map_get(&v->dev_by_name, id);
}

static uint32_t pseudo_dev(struct vf *v, const char *name)
{
	uint32_t id = vf_intern(&v->str, name, strlen(name), true);
	uint32_t d = vf_map_get(&v->unknown, vf_key2(1, id));
	struct vf_dev *x;

	if (d != RK_NONE)
		return d;
	x = VEC_PUSH(v->dev, v->ndev, v->devcap);
	memset(x, 0, sizeof(*x));
	x->name = v->str.s[id];
	x->rack = x->u = "";
	vf_map_put(&v->unknown, vf_key2(1, id), v->ndev - 1);
	return v->ndev - 1;
}

uint32_t vf_observed_dev(struct vf *v, const char *name, const char *file,
			 uint32_t line)
{
	const char *mapped = apply_rules(v, false, name);
	uint32_t d = find_dev(v, mapped ? mapped : name);
	uint32_t id;
	struct vf_finding *f;

	if (d != RK_NONE && d != VF_AMBIGUOUS)
		return d;
	/* reported once per name */
	id = vf_intern(&v->str, name, strlen(name), true);
	if (vf_map_get(&v->unknown, vf_key2(0, id)) == RK_NONE) {
		vf_map_put(&v->unknown, vf_key2(0, id), v->nfd);
		f = VEC_PUSH(v->fd, v->nfd, v->fdcap);
		memset(f, 0, sizeof(*f));
		f->kind = VF_UNKNOWN_DEVICE;
		f->cable[0] = f->cable[1] = f->obs[0] = f->obs[1] = RK_NONE;
		f->what =
		    mapped ? arena_printf(v->a, "'%s' (mapped to '%s')%s", name,
					  mapped,
					  d == VF_AMBIGUOUS
					      ? ", which names several devices"
					      : "")
			   : arena_printf(v->a, "'%s'%s", name,
					  d == VF_AMBIGUOUS
					      ? ", which names several devices"
					      : "");
		f->file = file;
		f->line = line;
	}
	return pseudo_dev(v, name);
}

uint32_t vf_observed_port(struct vf *v, uint32_t dev, const char *name)
{
	const char *mapped = apply_rules(v, true, name);
	const char *nm = mapped ? mapped : name;
	uint32_t id = vf_intern(&v->str, nm, strlen(nm), true);
	uint32_t p = vf_map_get(&v->port_by_name, vf_key2(dev, id));
	struct vf_port *x;

	if (p != RK_NONE && p != VF_AMBIGUOUS)
		return p;
	if (p == VF_AMBIGUOUS)
		nm = arena_printf(v->a, "%s (names several ports)", nm);
	x = VEC_PUSH(v->port, v->nport, v->portcap);
	memset(x, 0, sizeof(*x));
	x->dev = dev;
	x->name = nm;
	x->faceplate = "";
	x->cable = RK_NONE;
	x->subnet = RK_NONE;
	if (p == RK_NONE)
		vf_map_put(&v->port_by_name, vf_key2(dev, id), v->nport - 1);
	return v->nport - 1;
}

void vf_add_obs(struct vf *v, uint32_t p, uint32_t q, const char *file,
		uint32_t line, uint8_t width, uint8_t speed)
{
	uint64_t k = p < q ? vf_key2(p, q) : vf_key2(q, p);
	uint32_t o = vf_map_get(&v->obs_pair, k);
	struct vf_obs *x;

	if (o != RK_NONE) {
		/* the other end's report: the lower rate counts */
		x = &v->obs[o];
		if (width && (!x->width || width < x->width))
			x->width = width;
		if (speed && (!x->speed || speed < x->speed))
			x->speed = speed;
		return;
	}
	vf_map_put(&v->obs_pair, k, v->nobs);
	x = VEC_PUSH(v->obs, v->nobs, v->obscap);
	memset(x, 0, sizeof(*x));
	x->end[0] = p;
	x->end[1] = q;
	x->file = file;
	x->line = line;
	x->width = width;
	x->speed = speed;
}

/* ---- ibnetdiscover ---- */

/* A quoted string at *@p (advanced past it), or NULL. */
static char *quoted(char **p)
{
	char *s = *p, *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '"' || !(e = strchr(s + 1, '"')))
		return NULL;
	*e = '\0';
	*p = e + 1;
	return s + 1;
}

static bool node_header(char *l, char **id, char **desc)
{
	char *p = l;

	if (strncmp(p, "Switch", 6) == 0)
		p += 6;
	else if (strncmp(p, "Hca", 3) == 0)
		p += 3;
	else if (strncmp(p, "Ca", 2) == 0 || strncmp(p, "Rt", 2) == 0)
		p += 2;
	else
		return false;
	if (*p != ' ' && *p != '\t')
		return false;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	if (!(*id = quoted(&p)))
		return false;
	*desc = *id;
	p = strchr(p, '#');
	if (p) {
		char *d;

		p++;
		if ((d = quoted(&p)) != NULL)
			*desc = d;
	}
	return true;
}

/* The IB node an observed description stands for (RK_NONE: none). */
static uint32_t ib_node_of(struct vf *v, const char *desc)
{
	const char *mapped = apply_rules(v, false, desc);
	const char *nm = mapped ? mapped : desc;
	uint32_t id = vf_intern(&v->str, nm, strlen(nm), false);
	uint32_t n;

	if (id == RK_NONE)
		return RK_NONE;
	n = vf_map_get(&v->ib_node, id);
	if (n != RK_NONE && n != VF_AMBIGUOUS)
		return n;
	/* a device name or host name with exactly one IB node */
	n = vf_map_get(&v->ib_node, vf_key2(1, id));
	return n == VF_AMBIGUOUS ? RK_NONE : n;
}

/* The observed port of IB port @num of the node described @desc. */
static uint32_t ib_end(struct vf *v, const char *desc, unsigned long num,
		       const char *path, uint32_t ln)
{
	uint32_t node = ib_node_of(v, desc), pt;

	if (node == RK_NONE)
		return vf_observed_port(v, vf_observed_dev(v, desc, path, ln),
					arena_printf(v->a, "IB port %lu", num));
	v->subnet_seen[v->ibn_subnet[node]] = true;
	v->dev[v->ibn_dev[node]].seen[VF_SRC_IB] = true;
	pt = vf_map_get(&v->ib_port, vf_key2(node, (uint32_t)num));
	if (pt == RK_NONE)
		pt = vf_observed_port(
		    v, v->ibn_dev[node],
		    arena_printf(v->a, "IB port %lu of '%s'", num, desc));
	return pt;
}

/*
 * The node records of ibnetdiscover output @text: node id -> description
 * (both interned) in @ids; how many.  The lines are left as they were.
 */
static uint32_t ibd_nodes(struct vf *v, char *text, struct vf_map *ids)
{
	uint32_t nodes = 0;
	char *l, *next;

	for (l = text; l; l = next) {
		char *nl = strchr(l, '\n'), *id, *desc;

		next = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		if (node_header(l, &id, &desc)) {
			uint32_t i = vf_intern(&v->str, id, strlen(id), true);

			vf_map_put(
			    ids, i,
			    vf_intern(&v->str, desc, strlen(desc), true));
			nodes++;
			/* the line as it was, for the second pass */
			id[strlen(id)] = '"';
			if (desc != id)
				desc[strlen(desc)] = '"';
		}
		if (nl)
			*nl = '\n';
	}
	return nodes;
}

/*
 * A port line @l (line @ln) of the node described @me: "[N](GUID)
 * "peer"[M](GUID) ... RATE", observed as a link at the rate of its last
 * word.  False after the error for a peer without a record (@ids); a line
 * of another shape is not a port line and is passed over.
 */
static bool ibd_port_line(struct vf *v, const char *path, uint32_t ln, char *l,
			  const char *me, const struct vf_map *ids)
{
	unsigned long num[2];
	uint32_t peer, dn, port;
	uint8_t w = 0, s = 0;
	char *id, *p, *e, *b;

	num[0] = strtoul(l + 1, &p, 10);
	if (*p != ']')
		return true;
	p++;
	if (*p == '(')
		p = strchr(p, ')') ? strchr(p, ')') + 1 : p;
	if (!(id = quoted(&p)) || *p != '[')
		return true;
	num[1] = strtoul(p + 1, &p, 10);
	peer = vf_intern(&v->str, id, strlen(id), false);
	dn = peer == RK_NONE ? RK_NONE : vf_map_get(ids, peer);
	if (dn == RK_NONE) {
		fprintf(stderr,
			"%s:%u: error: port line names node \"%s\", which has "
			"no record\n",
			path, ln, id);
		return false;
	}
	/* the rate: the last word */
	e = p + strlen(p);
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	b = e;
	while (b > p && b[-1] != ' ' && b[-1] != '\t')
		b--;
	vf_ib_rate(b, &w, &s);
	/* the ends in this order: each may add an observed device */
	port = ib_end(v, me, num[0], path, ln);
	vf_add_obs(v, port, ib_end(v, v->str.s[dn], num[1], path, ln), path, ln,
		   w, s);
	return true;
}

static bool read_ibnetdiscover(struct vf *v, const char *path, char *text)
{
	struct vf_map ids = { 0 }; /* node id -> desc id */
	uint32_t ln = 0;
	char *l, *next;
	const char *me = NULL;
	bool ok = true;

	/* the nodes first: port lines name peers recorded later */
	if (!ibd_nodes(v, text, &ids)) {
		fprintf(stderr,
			"rackc verify: error: '%s' is neither lldpcli JSON, a "
			"neighbour CSV nor ibnetdiscover output (no node "
			"records)\n",
			path);
		vf_map_free(&ids);
		return false;
	}
	v->have[VF_SRC_IB] = true;
	for (l = text; l && ok; l = next) {
		char *nl = strchr(l, '\n'), *id, *desc;

		next = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		ln++;
		if (node_header(l, &id, &desc)) {
			uint32_t n;

			me = v->str.s[vf_intern(&v->str, desc, strlen(desc),
						true)];
			n = ib_node_of(v, me);
			if (n != RK_NONE) {
				v->subnet_seen[v->ibn_subnet[n]] = true;
				v->dev[v->ibn_dev[n]].seen[VF_SRC_IB] = true;
			} else {
				vf_observed_dev(v, me, path, ln);
			}
		} else if (l[0] == '[' && me) {
			ok = ibd_port_line(v, path, ln, l, me, &ids);
		}
	}
	vf_map_free(&ids);
	return ok;
}

/* ---- ibdiagnet .lst ---- */

/*
 * One port record of an ibdiagnet.lst line at *@pp, "{ TYPE Ports:NN
 * SystemGUID:G NodeGUID:G PortGUID:G VenID:V DevID:D Rev:R {DESC} LID:L
 * PN:NN }" (ibdiagnet 1.5.7's writeLstFile and lstInfo, ibdebug.tcl: hex
 * fields, the port number PN two hex digits): its description (the text
 * between the inner braces, NUL-terminated in place) and port number.
 */
static bool lst_port(char **pp, char **desc, unsigned long *pn)
{
	char *p = *pp, *end;
	bool have_pn = false;

	*desc = NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != '{')
		return false;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return false;
		if (*p == '}') {
			p++;
			break;
		}
		if (*p == '{') {
			end = strchr(p + 1, '}');
			if (!end)
				return false;
			*end = '\0';
			*desc = p + 1;
			p = end + 1;
			continue;
		}
		if (strncmp(p, "PN:", 3) == 0) {
			*pn = strtoul(p + 3, &end, 16);
			if (end == p + 3)
				return false;
			have_pn = true;
			p = end;
		}
		while (*p && *p != ' ' && *p != '\t' && *p != '}')
			p++;
	}
	*pp = p;
	return *desc && have_pn;
}

/*
 * ibdiagnet's ibdiagnet.lst: a line per link, both ports' records, then
 * "PHY=4x LOG=ACT SPD=10" (the active width; the speed in Gb/s a lane, of
 * which ibdiagnet 1.5.7 names 2.5, 5 and 10: SDR, DDR, QDR).
 */
static bool read_lst(struct vf *v, const char *path, char *text)
{
	uint32_t ln = 0;
	char *l, *next;

	v->have[VF_SRC_IB] = true;
	for (l = text; l; l = next) {
		char *nl = strchr(l, '\n'), *p = l, *desc[2], *save = NULL;
		unsigned long pn[2];
		uint8_t w = 0, s = 0;
		uint32_t port[2];

		next = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		ln++;
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p)
			continue;
		if (!lst_port(&p, &desc[0], &pn[0]) ||
		    !lst_port(&p, &desc[1], &pn[1])) {
			fprintf(stderr,
				"%s:%u: error: not a link of ibdiagnet.lst "
				"(two port records in braces, each with its "
				"description and PN)\n",
				path, ln);
			return false;
		}
		for (char *t = strtok_r(p, " \t\r", &save); t;
		     t = strtok_r(NULL, " \t\r", &save)) {
			if (strncmp(t, "PHY=", 4) == 0) {
				char *e;
				unsigned long x = strtoul(t + 4, &e, 10);

				if (*e == 'x' && !e[1] &&
				    (x == 1 || x == 2 || x == 4 || x == 8 ||
				     x == 12))
					w = (uint8_t)x;
			} else if (strcmp(t, "SPD=2.5") == 0) {
				s = 1;
			} else if (strcmp(t, "SPD=5") == 0) {
				s = 2;
			} else if (strcmp(t, "SPD=10") == 0) {
				s = 3;
			}
		}
		for (int k = 0; k < 2; k++)
			port[k] = ib_end(v, desc[k], pn[k], path, ln);
		vf_add_obs(v, port[0], port[1], path, ln, w, s);
	}
	return true;
}

/* ---- ibdiagnet2.db_csv ---- */

/*
 * ibdiagnet2's database, ibdiagnet2.db_csv: sections "START_NAME" ..
 * "END_NAME", each a CSV header line then its rows; lines outside
 * sections are blank or "#" comments.  Read: NODES (NodeGUID, NodeDesc),
 * PORTS (NodeGuid, PortNum, LinkWidthActv where present) and LINKS
 * (NodeGuid1, PortNum1, NodeGuid2, PortNum2), columns found by name;
 * other sections are skipped.  The section and column names are those of
 * public readers of the file (NVIDIA's UFM SDK, plugins/UFM_NDT_Plugin;
 * CrackedPoly/Rapimt, crates/rapimt_io/src/ib/db_csv_parser/csv_parser.rs).
 * LinkWidthActv is PortInfo's LinkWidthActive code (1 1x, 2 4x, 4 8x, 8
 * 12x, 16 2x); the active speed is not read (the extended speeds of FDR
 * and above are not among the columns those readers name), so a link's
 * width is checked, not its speed.
 */
enum { DB_NODES, DB_PORTS, DB_LINKS, DB_OTHER };

struct db_link {
	uint64_t guid[2];
	uint32_t pn[2];
	uint32_t line;
};

struct db_port {
	uint64_t guid;
	uint32_t pn;
	uint8_t width;
};

static bool db_num(const char *s, uint64_t *out)
{
	char *e;

	while (*s == ' ')
		s++;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*out = strtoull(s, &e, 0);
	while (*e == ' ')
		e++;
	return !*e && errno == 0;
}

static uint8_t db_width(uint64_t code)
{
	return code == 1    ? 1
	       : code == 2  ? 4
	       : code == 4  ? 8
	       : code == 8  ? 12
	       : code == 16 ? 2
			    : 0;
}

/* the columns read, per section (DB_NODES, DB_PORTS, DB_LINKS) */
static const char *const db_need[3][4] = {
	{ "NodeGUID", "NodeDesc", NULL, NULL },
	{ "NodeGuid", "PortNum", NULL, NULL },
	{ "NodeGuid1", "PortNum1", "NodeGuid2", "PortNum2" },
};

/*
 * What read_db_csv knows while it reads: the section open (@name, from
 * line @start, of kind @sec; @head while its header row is to come), the
 * columns of that header (@col per db_need, @wcol LinkWidthActv), and
 * what the rows gave: the nodes (@node: GUID -> index in @desc), the
 * ports' widths and the links.
 */
struct db_read {
	struct vf *v;
	const char *path, *name;
	uint32_t start;
	int sec, col[4], wcol;
	bool head;
	struct vf_map node, width;
	const char **desc;
	uint32_t nn, ncap;
	struct db_port *ports;
	uint32_t np, pcap;
	struct db_link *links;
	uint32_t nl, lcap;
};

/*
 * A START_ or END_ line @c0 at line @at: 1 when it is one (and fits),
 * 0 when it is not one, -1 after the error for one out of place.
 */
static int db_marker(struct db_read *b, const char *c0, uint32_t at)
{
	if (strncmp(c0, "START_", 6) == 0) {
		if (b->name) {
			fprintf(stderr,
				"%s:%u: error: %s inside section %s (line "
				"%u), which END_%s has not closed\n",
				b->path, at, c0, b->name, b->start, b->name);
			return -1;
		}
		b->name = c0 + 6;
		b->start = at;
		b->sec = streq(b->name, "NODES")   ? DB_NODES
			 : streq(b->name, "PORTS") ? DB_PORTS
			 : streq(b->name, "LINKS") ? DB_LINKS
						   : DB_OTHER;
		b->head = true;
		return 1;
	}
	if (strncmp(c0, "END_", 4) != 0)
		return 0;
	if (!b->name || !streq(c0 + 4, b->name)) {
		fprintf(stderr, "%s:%u: error: %s closes no open section%s%s\n",
			b->path, at, c0, b->name ? ": open is " : "",
			b->name ? b->name : "");
		return -1;
	}
	b->name = NULL;
	return 1;
}

/* The header row @r of the section: its columns, all of db_need there. */
static bool db_header(struct db_read *b, const struct csv_record *r,
		      uint32_t at)
{
	bool ok = true;

	b->head = false;
	b->wcol = -1;
	for (int k = 0; k < 4; k++) {
		const char *want = db_need[b->sec][k];

		b->col[k] = -1;
		for (uint32_t i = 0; want && i < r->n; i++)
			if (streq(r->cell[i], want))
				b->col[k] = (int)i;
		if (want && b->col[k] < 0) {
			fprintf(stderr,
				"%s:%u: error: section %s has no column %s\n",
				b->path, at, b->name, want);
			ok = false;
		}
	}
	for (uint32_t i = 0; b->sec == DB_PORTS && i < r->n; i++)
		if (streq(r->cell[i], "LinkWidthActv"))
			b->wcol = (int)i;
	return ok;
}

/* A row @r of section NODES, PORTS or LINKS, kept for db_links. */
static bool db_row(struct db_read *b, const struct csv_record *r, uint32_t at)
{
	uint64_t x[4];

	for (int k = 0; k < 4 && db_need[b->sec][k]; k++) {
		const char *want = db_need[b->sec][k];
		bool is_desc = b->sec == DB_NODES && k == 1;

		if ((uint32_t)b->col[k] >= r->n) {
			fprintf(stderr, "%s:%u: error: no %s\n", b->path, at,
				want);
			return false;
		}
		if (!is_desc && (!db_num(r->cell[b->col[k]], &x[k]) ||
				 (k % 2 && x[k] > 255))) {
			fprintf(stderr,
				"%s:%u: error: %s '%s' is not a number\n",
				b->path, at, want, r->cell[b->col[k]]);
			return false;
		}
	}
	if (b->sec == DB_NODES) {
		if (vf_map_put(&b->node, x[0], b->nn) != RK_NONE) {
			fprintf(stderr,
				"%s:%u: error: node GUID %s listed twice\n",
				b->path, at, r->cell[b->col[0]]);
			return false;
		}
		*VEC_PUSH(b->desc, b->nn, b->ncap) = r->cell[b->col[1]];
	} else if (b->sec == DB_PORTS) {
		uint64_t w;

		if (b->wcol >= 0 && (uint32_t)b->wcol < r->n &&
		    db_num(r->cell[b->wcol], &w) && db_width(w)) {
			struct db_port *q = VEC_PUSH(b->ports, b->np, b->pcap);

			q->guid = x[0];
			q->pn = (uint32_t)x[1];
			q->width = db_width(w);
		}
	} else {
		struct db_link *k = VEC_PUSH(b->links, b->nl, b->lcap);

		k->guid[0] = x[0];
		k->pn[0] = (uint32_t)x[1];
		k->guid[1] = x[2];
		k->pn[1] = (uint32_t)x[3];
		k->line = at;
	}
	return true;
}

/* The record @r read from line @at; false after an error. */
static bool db_record(struct db_read *b, const struct csv_record *r,
		      uint32_t at)
{
	const char *c0 = r->cell[0];

	if (r->n == 1 && !c0[0])
		return true; /* a blank line */
	if (r->n == 1) {
		int m = db_marker(b, c0, at);

		if (m)
			return m > 0;
	}
	if (!b->name) {
		if (c0[0] == '#')
			return true;
		fprintf(stderr,
			"%s:%u: error: a line outside the sections of "
			"ibdiagnet2.db_csv (START_NAME ... END_NAME)\n",
			b->path, at);
		return false;
	}
	if (b->sec == DB_OTHER)
		return true;
	if (b->head)
		return db_header(b, r, at);
	return db_row(b, r, at);
}

/* The links as observations, once every node is known. */
static bool db_links(struct db_read *b)
{
	struct vf *v = b->v;

	/* the widths by (node, port) */
	for (uint32_t i = 0; i < b->np; i++) {
		uint32_t n = vf_map_get(&b->node, b->ports[i].guid);

		if (n != RK_NONE)
			vf_map_put(&b->width, vf_key2(n, b->ports[i].pn),
				   b->ports[i].width);
	}
	for (uint32_t i = 0; i < b->nl; i++) {
		const struct db_link *k = &b->links[i];
		uint32_t port[2], w;
		uint8_t wd = 0;

		for (int e = 0; e < 2; e++) {
			uint32_t n = vf_map_get(&b->node, k->guid[e]);

			if (n == RK_NONE) {
				fprintf(stderr,
					"%s:%u: error: node GUID 0x%016llx "
					"is not in section NODES\n",
					b->path, k->line,
					(unsigned long long)k->guid[e]);
				return false;
			}
			port[e] =
			    ib_end(v, b->desc[n], k->pn[e], b->path, k->line);
			w = vf_map_get(&b->width, vf_key2(n, k->pn[e]));
			if (!wd && w != RK_NONE)
				wd = (uint8_t)w;
		}
		vf_add_obs(v, port[0], port[1], b->path, k->line, wd, 0);
	}
	return true;
}

static bool read_db_csv(struct vf *v, const char *path, const char *text)
{
	struct db_read b = { .v = v, .path = path, .sec = -1, .wcol = -1 };
	struct csv_record r = { NULL, 0, 0, 0 };
	const char *p = text, *err = NULL;
	uint32_t line = 1;
	bool ok = true;

	v->have[VF_SRC_IB] = true;
	while (ok && *p) {
		uint32_t at = line;

		if (!csv_read_record(v->a, &p, &line, &r, &err)) {
			fprintf(stderr, "%s:%u: error: %s\n", path, at, err);
			ok = false;
		} else {
			ok = db_record(&b, &r, at);
		}
	}
	if (ok && b.name) {
		fprintf(stderr,
			"%s:%u: error: section %s is not closed by END_%s "
			"before the end of the file\n",
			path, b.start, b.name, b.name);
		ok = false;
	}
	ok = ok && db_links(&b);
	vf_map_free(&b.node);
	vf_map_free(&b.width);
	free(b.desc);
	free(b.links);
	free(b.ports);
	free(r.cell);
	return ok;
}

/* Whether @p, after blank and "#" lines, starts with a START_ line. */
static bool is_db_csv(const char *p)
{
	for (;;) {
		p += strspn(p, " \t\r\n");
		if (*p != '#')
			return strncmp(p, "START_", 6) == 0;
		p = strchr(p, '\n');
		if (!p)
			return false;
	}
}

/* ---- CSV ---- */

static bool read_csv(struct vf *v, const char *path, const char *text)
{
	const char *p = text, *err = NULL;
	uint32_t line = 1;
	struct csv_record r = { NULL, 0, 0, 0 };
	int col[4] = { -1, -1, -1, -1 };
	static const char *const names[4] = { "device", "port", "peer_device",
					      "peer_port" };
	bool ok = csv_read_record(v->a, &p, &line, &r, &err);

	for (uint32_t i = 0; ok && i < r.n; i++)
		for (int k = 0; k < 4; k++)
			if (streq(r.cell[i], names[k]))
				col[k] = (int)i;
	for (int k = 0; k < 4 && ok; k++)
		if (col[k] < 0) {
			fprintf(stderr,
				"%s:1: error: no column '%s' (a neighbour CSV "
				"has device,port,peer_device,peer_port)\n",
				path, names[k]);
			free(r.cell);
			return false;
		}
	v->have[VF_SRC_CSV] = true;
	while (ok && *p) {
		uint32_t at = line, d, e;
		const char *c[4];

		ok = csv_read_record(v->a, &p, &line, &r, &err);
		if (!ok)
			break;
		if (r.n == 1 && !r.cell[0][0])
			continue; /* an empty line */
		for (int k = 0; k < 4; k++) {
			if ((uint32_t)col[k] >= r.n || !r.cell[col[k]][0]) {
				fprintf(stderr, "%s:%u: error: no %s\n", path,
					at, names[k]);
				free(r.cell);
				return false;
			}
			c[k] = r.cell[col[k]];
		}
		d = vf_observed_dev(v, c[0], path, at);
		e = vf_observed_dev(v, c[2], path, at);
		v->dev[d].seen[VF_SRC_CSV] = true;
		vf_add_obs(v, vf_observed_port(v, d, c[1]),
			   vf_observed_port(v, e, c[3]), path, at, 0, 0);
	}
	if (!ok)
		fprintf(stderr, "%s:%u: error: %s\n", path, line, err);
	free(r.cell);
	return ok;
}

/* ---- lldpcli JSON ---- */

enum jt { J_OBJ, J_ARR, J_STR, J_OTHER };

struct jv {
	enum jt t;
	const char *s; /* J_STR */
	uint32_t line;
	uint32_t n;
	const char **k; /* J_OBJ keys */
	struct jv **v;
};

struct jp {
	const char *p;
	uint32_t line;
	struct arena *a;
	const char *err;
};

static void jws(struct jp *j)
{
	for (;; j->p++) {
		if (*j->p == '\n')
			j->line++;
		else if (*j->p != ' ' && *j->p != '\t' && *j->p != '\r')
			return;
	}
}

static const char *jstr(struct jp *j)
{
	char *out;
	size_t n = 0;
	const char *s = ++j->p;

	while (*s && *s != '"') {
		if (*s == '\\' && s[1])
			s++;
		s++;
	}
	if (*s != '"') {
		j->err = "unterminated string";
		return NULL;
	}
	out = arena_alloc(j->a, (size_t)(s - j->p) + 1);
	for (const char *q = j->p; q < s; q++) {
		if (*q != '\\') {
			out[n++] = *q;
			continue;
		}
		q++;
		switch (*q) {
		case 'n':
			out[n++] = '\n';
			break;
		case 't':
			out[n++] = '\t';
			break;
		case 'r':
			out[n++] = '\r';
			break;
		case 'b':
			out[n++] = '\b';
			break;
		case 'f':
			out[n++] = '\f';
			break;
		case 'u':
			/* names are ASCII; others become '?' */
			out[n++] = '?';
			for (int k = 0; k < 4 && q[1]; k++)
				q++;
			break;
		default:
			out[n++] = *q;
		}
	}
	out[n] = '\0';
	j->p = s + 1;
	return out;
}

static struct jv *jvalue(struct jp *j, unsigned depth)
{
	struct jv *v;

	jws(j);
	if (depth > 64) {
		j->err = "nested too deeply";
		return NULL;
	}
	v = arena_zalloc(j->a, sizeof(*v));
	v->line = j->line;
	if (*j->p == '{' || *j->p == '[') {
		bool obj = *j->p == '{';
		char close = obj ? '}' : ']';
		uint32_t cap = 0;

		v->t = obj ? J_OBJ : J_ARR;
		j->p++;
		jws(j);
		if (*j->p == close) {
			j->p++;
			return v;
		}
		for (;;) {
			const char *key = NULL;
			struct jv *x;

			jws(j);
			if (obj) {
				if (*j->p != '"') {
					j->err = "a key expected";
					return NULL;
				}
				if (!(key = jstr(j)))
					return NULL;
				jws(j);
				if (*j->p != ':') {
					j->err = "':' expected";
					return NULL;
				}
				j->p++;
			}
			if (!(x = jvalue(j, depth + 1)))
				return NULL;
			if (v->n == cap) {
				uint32_t nc = cap ? cap * 2 : 4;
				struct jv **nv =
				    arena_alloc(j->a, nc * sizeof(*nv));
				const char **nk =
				    arena_alloc(j->a, nc * sizeof(*nk));

				if (v->n) {
					memcpy(nv, v->v, v->n * sizeof(*nv));
					memcpy(nk, v->k, v->n * sizeof(*nk));
				}
				v->v = nv;
				v->k = nk;
				cap = nc;
			}
			v->k[v->n] = key;
			v->v[v->n++] = x;
			jws(j);
			if (*j->p == ',') {
				j->p++;
				continue;
			}
			if (*j->p == close) {
				j->p++;
				return v;
			}
			j->err = obj ? "',' or '}' expected"
				     : "',' or ']' "
				       "expected";
			return NULL;
		}
	}
	if (*j->p == '"') {
		v->t = J_STR;
		v->s = jstr(j);
		return v->s ? v : NULL;
	}
	if (strncmp(j->p, "true", 4) == 0 || strncmp(j->p, "null", 4) == 0) {
		v->t = J_OTHER;
		j->p += 4;
		return v;
	}
	if (strncmp(j->p, "false", 5) == 0) {
		v->t = J_OTHER;
		j->p += 5;
		return v;
	}
	if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9')) {
		v->t = J_OTHER;
		while (*j->p && strchr("+-.0123456789eE", *j->p))
			j->p++;
		return v;
	}
	j->err = "a value expected";
	return NULL;
}

static const struct jv *jget(const struct jv *o, const char *key)
{
	if (!o || o->t != J_OBJ)
		return NULL;
	for (uint32_t i = 0; i < o->n; i++)
		if (streq(o->k[i], key))
			return o->v[i];
	return NULL;
}

static const char *jstring(const struct jv *v)
{
	return v && v->t == J_STR ? v->s : NULL;
}

/* The system name of a "chassis" value: its one key other than the
 * chassis' own fields, or NULL (no name). */
static const char *chassis_name(const struct jv *c, const struct jv **inner)
{
	*inner = c;
	if (!c || c->t != J_OBJ || jget(c, "id"))
		return NULL;
	if (c->n >= 1 && c->v[0]->t == J_OBJ) {
		*inner = c->v[0];
		return c->k[0];
	}
	return NULL;
}

static bool lldp_iface(struct vf *v, const char *path, const char *host,
		       const char *ifname, const struct jv *x)
{
	const struct jv *inner, *port = jget(x, "port");
	const char *sys = chassis_name(jget(x, "chassis"), &inner);
	const struct jv *pid = jget(port, "id");
	const char *ptype = jstring(jget(pid, "type"));
	const char *pval =
	    pid && pid->t == J_STR ? pid->s : jstring(jget(pid, "value"));
	const char *pdescr = jstring(jget(port, "descr"));
	const char *rport;
	uint32_t d, e;

	if (!sys) {
		/* no system name: the chassis ID is all there is */
		const struct jv *cid = jget(inner, "id");

		sys = cid && cid->t == J_STR ? cid->s
					     : jstring(jget(cid, "value"));
		if (sys)
			sys = arena_printf(v->a, "chassis %s", sys);
	}
	if (ptype && (streq(ptype, "ifname") || streq(ptype, "local")))
		rport = pval;
	else
		rport = pdescr ? pdescr : pval;
	if (!sys || !rport) {
		fprintf(stderr,
			"%s:%u: error: interface '%s': no neighbour system or "
			"port\n",
			path, x->line, ifname);
		return false;
	}
	d = vf_observed_dev(v, host, path, x->line);
	e = vf_observed_dev(v, sys, path, x->line);
	v->dev[d].seen[VF_SRC_LLDP] = true;
	vf_add_obs(v, vf_observed_port(v, d, ifname),
		   vf_observed_port(v, e, rport), path, x->line, 0, 0);
	return true;
}

static bool read_lldp(struct vf *v, const char *path, const char *text,
		      const char *host)
{
	struct jp j = { text, 1, v->a, NULL };
	const char *cur = host;
	bool ok = true;

	v->have[VF_SRC_LLDP] = true;
	for (;;) {
		const struct jv *doc, *lc, *ifs;

		jws(&j);
		if (!*j.p)
			break;
		if (!(doc = jvalue(&j, 0)) || doc->t != J_OBJ) {
			fprintf(stderr, "%s:%u: error: %s\n", path, j.line,
				j.err ? j.err : "a JSON object expected");
			return false;
		}
		if ((lc = jget(doc, "local-chassis")) != NULL) {
			const struct jv *inner;
			const char *nm =
			    chassis_name(jget(lc, "chassis"), &inner);

			if (nm && !host)
				cur = nm;
		}
		ifs = jget(jget(doc, "lldp"), "interface");
		if (!ifs)
			continue;
		if (!cur) {
			/* the file's name, less its extension */
			const char *b = strrchr(path, '/');
			const char *dot;

			b = b ? b + 1 : path;
			dot = strrchr(b, '.');
			cur = arena_strndup(v->a, b,
					    dot && dot != b ? (size_t)(dot - b)
							    : strlen(b));
		}
		if (ifs->t == J_OBJ) {
			for (uint32_t i = 0; i < ifs->n && ok; i++)
				ok = lldp_iface(v, path, cur, ifs->k[i],
						ifs->v[i]);
		} else if (ifs->t == J_ARR) {
			for (uint32_t i = 0; i < ifs->n && ok; i++) {
				const struct jv *e = ifs->v[i];

				if (e->t != J_OBJ || e->n != 1) {
					fprintf(stderr,
						"%s:%u: error: an interface is "
						"an object of one key\n",
						path, e->line);
					return false;
				}
				ok = lldp_iface(v, path, cur, e->k[0], e->v[0]);
			}
		}
		if (!ok)
			return false;
	}
	return true;
}

bool vf_read_lldp_expected(struct vf *v, const char *path)
{
	size_t n;
	char *text = rk_slurp(path, &n);
	struct jp j = { text, 1, v->a, NULL };
	const struct jv *doc, *ports;

	if (!text) {
		fprintf(stderr, "rackc verify: error: cannot read '%s': %s\n",
			path, strerror(errno));
		return false;
	}
	doc = jvalue(&j, 0);
	ports = jget(doc, "ports");
	if (!doc || !ports || ports->t != J_ARR) {
		fprintf(stderr, "%s:%u: error: not an lldp export of rackc\n",
			path, j.line);
		free(text);
		return false;
	}
	for (uint32_t i = 0; i < ports->n; i++) {
		const char *dev = jstring(jget(ports->v[i], "device"));
		const char *sys = jstring(jget(ports->v[i], "system"));
		uint32_t id, d;

		if (!dev || !sys)
			continue;
		id = vf_intern(&v->str, dev, strlen(dev), false);
		d = id == RK_NONE ? RK_NONE
				  : vf_map_get(&v->unknown, vf_key2(2, id));
		if (d != RK_NONE)
			vf_name_dev(v, sys, d);
	}
	free(text);
	return true;
}

/* ---- dispatch ---- */

/* The formats of observed files, told apart by their first bytes. */
enum obs_format { OBS_DB_CSV, OBS_LST, OBS_LLDP, OBS_CSV, OBS_IBNETDISCOVER };

static enum obs_format obs_format(struct vf *v, const char *text)
{
	const char *p;

	for (p = text; *p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'; p++)
		;
	if (is_db_csv(text))
		return OBS_DB_CSV;
	if (*p == '{' && p[strspn(p + 1, " \t") + 1] >= 'A' &&
	    p[strspn(p + 1, " \t") + 1] <= 'Z')
		return OBS_LST; /* "{ SW Ports:..." (JSON has a key or '}') */
	if (*p == '{')
		return OBS_LLDP;
	{
		const char *nl = strchr(text, '\n');
		size_t hl = nl ? (size_t)(nl - text) : strlen(text);
		char *head = arena_strndup(v->a, text, hl);

		return strstr(head, "peer_device") || strstr(head, "peer_port")
			   ? OBS_CSV
			   : OBS_IBNETDISCOVER;
	}
}

bool vf_read_observed(struct vf *v, const char *arg)
{
	const char *eq = strchr(arg, '='), *path = arg, *host = NULL;
	enum obs_format fmt;
	char *text;
	size_t n;
	bool ok;

	if (eq && eq != arg && !memchr(arg, '/', (size_t)(eq - arg))) {
		host = arena_strndup(v->a, arg, (size_t)(eq - arg));
		path = eq + 1;
	}
	text = rk_slurp(path, &n);
	if (!text) {
		fprintf(stderr, "rackc verify: error: cannot read '%s': %s\n",
			path, strerror(errno));
		return false;
	}
	if (strlen(text) != n) {
		fprintf(stderr,
			"rackc verify: error: '%s' holds a NUL byte: not a "
			"text file\n",
			path);
		free(text);
		return false;
	}
	path = arena_strndup(v->a, path, strlen(path));
	fmt = obs_format(v, text);
	/* HOST=FILE names the local system of lldpcli JSON only */
	if (host && fmt != OBS_LLDP)
		fprintf(stderr,
			"rackc verify: warning: '%s' is not lldpcli JSON: the "
			"host name '%s' is not used\n",
			path, host);
	switch (fmt) {
	case OBS_DB_CSV:
		ok = read_db_csv(v, path, text);
		break;
	case OBS_LST:
		ok = read_lst(v, path, text);
		break;
	case OBS_LLDP:
		ok = read_lldp(v, path, text, host);
		break;
	case OBS_CSV:
		ok = read_csv(v, path, text);
		break;
	default:
		ok = read_ibnetdiscover(v, path, text);
		break;
	}
	free(text);
	return ok;
}
