/* SPDX-License-Identifier: MIT */
/*
 * The "ibnet" back end: every InfiniBand subnet of the design as an
 * ibsim/ibnetdiscover net file, ib/<subnet>.net, so that real IB software
 * (ibsim + OpenSM + ibnetdiscover, see ibsim's and OpenSM's documentation)
 * can load, route and rediscover the planned cabling.
 *
 * What a subnet is: the devices joined by InfiniBand links, one file per
 * connected set.  A link is InfiniBand when one end's port has protocol ib
 * and the other end's is ib, any or unset; fabric-generated links and
 * explicit link statements count alike.  A link neither of whose ports
 * gives a speed has no rate that traces to the design: it is left out (of
 * the files and of the subnets), with an [ibnet] warning per link
 * statement, at it.  Links join into one subnet through a switch or
 * through one HCA, never through a server: a server with a compute HCA
 * and a storage HCA is on two subnets.  A subnet takes the name
 * of the fabric of its first generated link (as a host name: rack[0].ib is
 * rack-0-ib), or else the host name of its first switch (or first device);
 * clashing names get -2, -3, ...
 *
 * Records (ibsim 0.10 grammar, ref section 3):
 *  - switches first, in declaration order: `Switch N "id" # "desc" enhanced
 *    port 0`, N = the part's fabric ports (role not mgmt/console/oob,
 *    protocol ib or unset, as the fat-tree generator counts them), port k
 *    = the k-th of those (1-based);
 *  - then, per device, one `Hca N "id" # "host devname"` per NIC component
 *    with a linked port (N = ports the NIC lists, port k = its k-th), and a
 *    one-port Hca for each linked port that no NIC claims;
 *  - node ids are the rackc names (dev or dev/nic); descriptions are what
 *    the hardware reports: the switch host name, "<host> <devname>" (the
 *    NIC's name when it has no devname), at most 64 bytes;
 *  - every record is preceded by `# [port] rackc-port-name` comment lines
 *    for its connected ports (for comparisons by name) and ends with a blank
 *    line; each link is written at both ends;
 *  - GUIDs are explicit and deterministic: prefix 0x02 and 24 bits of the
 *    subnet name's FNV-1a hash, then 0x1 + switch number or 0x2 + HCA
 *    number << 8 (HCA port p is base + p);
 *  - `# lid 0 4x<SPEED>` from the slower port's rate per lane (the one
 *    port's where only one gives a speed): SDR..HDR; NDR and XDR are
 *    written as HDR, the fastest ibsim 0.10 parses.
 */
#include "rackc.h"

#include <stdlib.h>

#include "backend.h"
#include "be_common.h"
#include "metrics.h"
#include "portindex.h"
#include "expect.h"
#include "schema.h"
#include "wbuf.h"

#define IB_MAX_PORTS 254 /* ibsim stores the port count in 8 bits */
#define IB_DESC_MAX 64	 /* NodeDescription is 64 bytes */

struct end {
	uint32_t dev, port; /* rackc device and port objects */
	uint32_t node;	    /* ibnode index */
	uint32_t num;	    /* IB port number */
	/* 2 * (index in the subnet's links) + (0 a, 1 b) */
	uint32_t orig;
};

struct ibnode {
	uint32_t dev;
	uint32_t sub; /* NIC component, or port object (standalone) */
	bool sw, standalone;
	uint32_t nports;
	uint64_t guid;
	const char *id, *desc;
	uint32_t idn, descn; /* their lengths */
};

/* What nic_of() knows of a port object, valid when @gen is current. */
struct nic_ent {
	uint32_t gen, comp, k, n;
};

struct ibnet {
	struct backend_ctx *ctx;
	const struct rk_design *d;
	const char *const *host;
	int32_t *port_num;   /* switch port object -> IB port number, 0 none */
	uint8_t *numbered;   /* switch part -> port_num filled */
	uint32_t *sw_nports; /* switch part -> port count */
	int64_t *speed;	     /* port object -> speed (0 unknown) */
	uint8_t *proto;	     /* port object -> PROTO_* */
	struct nic_ent *nic; /* port object -> NIC of part nic_part */
	uint32_t nic_part, nic_gen;
	bool ufm; /* write ufm/<subnet>.topo instead of ib/<subnet>.net */
};

/* A port's protocol, as far as InfiniBand is concerned. */
enum { PROTO_NONE, PROTO_IB, PROTO_ANY, PROTO_OTHER };

static uint8_t proto_of(const struct rk_design *d, uint32_t port)
{
	const char *p = be_port_protocol(d, port);

	return !p[0]		 ? PROTO_NONE
	       : streq(p, "ib")	 ? PROTO_IB
	       : streq(p, "any") ? PROTO_ANY
				 : PROTO_OTHER;
}

/* An InfiniBand link: one end says ib, the other ib, any or nothing. */
static bool ib_link(const struct ibnet *x, const struct rk_link *l)
{
	uint8_t a = x->proto[l->a_port], b = x->proto[l->b_port];

	return a != PROTO_OTHER && b != PROTO_OTHER &&
	       (a == PROTO_IB || b == PROTO_IB);
}

static uint32_t uf_find(uint32_t *up, uint32_t x)
{
	while (up[x] != x) {
		up[x] = up[up[x]];
		x = up[x];
	}
	return x;
}

static void uf_union(uint32_t *up, uint32_t a, uint32_t b)
{
	a = uf_find(up, a);
	b = uf_find(up, b);
	if (a != b)
		up[a < b ? b : a] = a < b ? a : b;
}

static void number_switch_ports(struct ibnet *x, uint32_t part)
{
	const struct rk_design *d = x->d;
	uint32_t chain[RK_MAX_PART_DEPTH + 1], nc, n = 0;

	if (x->numbered[part])
		return;
	x->numbered[part] = 1;
	nc = ir_part_chain(d, part, chain);
	/* base first; a port a derived part declares again (same name) is
	 * that one port, numbered where the base has it */
	while (nc--) {
		for_each_child(d, chain[nc], c) {
			const char *role, *pr;
			uint32_t t = c;

			if (d->objs[c].kind != K_PORT || x->port_num[c])
				continue;
			for (uint32_t k = 0; k < nc && t == c; k++)
				for_each_child(d, chain[k], c2) {
					if (d->objs[c2].kind == K_PORT &&
					    d->objs[c2].local ==
						d->objs[c].local) {
						t = c2;
						break;
					}
				}
			role = be_port_role(d, t);
			pr = be_port_protocol(d, t);
			if (streq(role, "mgmt") || streq(role, "console") ||
			    streq(role, "oob") || (pr[0] && !streq(pr, "ib")))
				continue;
			x->port_num[t] = (int32_t)++n;
		}
	}
	x->sw_nports[part] = n;
}

static const char *local(const struct ibnet *x, uint32_t obj)
{
	return str_of(x->d->arena, x->d->objs[obj].local);
}

/* "@a@sep@b" (@na and @nb bytes) in the arena; *n gets its length. */
static const char *join(struct arena *ar, const char *a, size_t na, char sep,
			const char *b, size_t nb, uint32_t *n)
{
	char *s = arena_alloc(ar, na + nb + 2), *o;

	o = rk_put(s, a, na);
	*o++ = sep;
	o = rk_put(o, b, nb);
	*o = '\0';
	*n = (uint32_t)(na + 1 + nb);
	return s;
}

static void wb_name(struct wbuf *w, const struct rk_design *d, uint32_t id)
{
	wb_mem(w, str_of(d->arena, id), strlen_of(d->arena, id));
}

/* "# [num] device.port" (a record when it fits the buffer). */
static void port_comment(struct wbuf *w, const struct rk_design *d,
			 const struct end *e)
{
	uint32_t dn = d->objs[e->dev].name, pn = d->objs[e->port].local;
	size_t a = strlen_of(d->arena, dn), b = strlen_of(d->arena, pn);
	char *o;

	if (a + b + 32 > WBUF_SIZE) {
		wb_str(w, "# [");
		wb_u64(w, e->num);
		wb_str(w, "] ");
		wb_name(w, d, dn);
		wb_ch(w, '.');
		wb_name(w, d, pn);
		wb_ch(w, '\n');
		return;
	}
	o = wb_room(w, a + b + 32);
	o = rk_put(o, "# [", 3);
	o = wb_put_u64(o, e->num);
	o = rk_put(o, "] ", 2);
	o = rk_put(o, str_of(d->arena, dn), a);
	*o++ = '.';
	o = rk_put(o, str_of(d->arena, pn), b);
	*o++ = '\n';
	wb_end(w, o);
}

/* "[num]\t"peer"[pnum]\t# lid 0 4xSPEED" (a record when it fits). */
static void port_line(struct wbuf *w, uint32_t num, const struct ibnode *peer,
		      uint32_t pnum, const char *speed)
{
	size_t sn = strlen(speed), n = peer->idn + sn + 64;
	char *o;

	if (n > WBUF_SIZE) {
		wb_ch(w, '[');
		wb_u64(w, num);
		wb_str(w, "]\t\"");
		wb_mem(w, peer->id, peer->idn);
		wb_str(w, "\"[");
		wb_u64(w, pnum);
		wb_str(w, "]\t# lid 0 4x");
		wb_str(w, speed);
		wb_ch(w, '\n');
		return;
	}
	o = wb_room(w, n);
	*o++ = '[';
	o = wb_put_u64(o, num);
	o = rk_put(o, "]\t\"", 3);
	o = rk_put(o, peer->id, peer->idn);
	o = rk_put(o, "\"[", 2);
	o = wb_put_u64(o, pnum);
	o = rk_put(o, "]\t# lid 0 4x", 12);
	o = rk_put(o, speed, sn);
	*o++ = '\n';
	wb_end(w, o);
}

static const char *speed_word(int64_t rate)
{
	int64_t lane = rate / 4;

	if (lane >= 50000000000LL)
		return "HDR";
	if (lane >= 25000000000LL)
		return "EDR";
	if (lane >= 14000000000LL)
		return "FDR";
	if (lane >= 10000000000LL)
		return "QDR";
	if (lane >= 5000000000LL)
		return "DDR";
	return "SDR";
}

/*
 * The NIC component of device part @part (or a base) listing @port, its
 * 1-based index there (*@k_out) and the NIC's port count (*@n_out); RK_NONE
 * when no NIC lists it.  The first NIC (in component order) wins.  The
 * map of the last part asked for is kept: devices come in runs of one part.
 */
static uint32_t nic_of(struct ibnet *x, uint32_t part, uint32_t port,
		       uint32_t *k_out, uint32_t *n_out)
{
	const struct rk_design *d = x->d;

	if (part == RK_NONE)
		return RK_NONE;
	if (part != x->nic_part) {
		uint32_t *comps = NULL, nc = be_part_comps(d, part, &comps);

		x->nic_part = part;
		x->nic_gen++;
		for (uint32_t i = 0; i < nc; i++) {
			const struct rk_value *pv;

			if (d->objs[comps[i]].cls != COMP_NIC)
				continue;
			pv = ir_attr_inh(d, comps[i], A_PORTS);
			if (!pv || pv->type != VT_LIST)
				continue;
			for (uint32_t k = 0; k < (uint32_t)pv->n; k++) {
				const struct rk_value *e = ir_list_at(d, pv, k);
				struct nic_ent *ne;

				if (e->type != VT_PORT)
					continue;
				ne = &x->nic[e->n];
				if (ne->gen == x->nic_gen)
					continue;
				ne->gen = x->nic_gen;
				ne->comp = comps[i];
				ne->k = k + 1;
				ne->n = (uint32_t)pv->n;
			}
		}
		free(comps);
	}
	if (x->nic[port].gen != x->nic_gen)
		return RK_NONE;
	*k_out = x->nic[port].k;
	*n_out = x->nic[port].n;
	return x->nic[port].comp;
}

/*
 * The HCA that port @port of device @dev (not a switch) belongs to: the
 * NIC component listing it, or the port itself when no NIC does.
 */
static uint32_t hca_of(struct ibnet *x, uint32_t dev, uint32_t port)
{
	uint32_t num, np;
	uint32_t sub = nic_of(x, x->d->objs[dev].part, port, &num, &np);

	return sub != RK_NONE ? sub : port;
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/*
 * The @n ends in (node, num) order, stably (ties keep their index order):
 * their indices counting-sorted by node (@nb nodes; an end without one, after
 * an error, sorts last), then each node's run by num where it is not in
 * order already (a node's ends mostly are): an insertion sort for a short
 * run, a sort of (num, index) keys for a long one.
 */
static uint32_t *order_ends(const struct end *ends, uint32_t n, uint32_t nb)
{
	uint32_t *start = xcalloc((size_t)nb + 2, sizeof(*start));
	uint32_t *ord = xmalloc(((size_t)n + 1) * sizeof(*ord));

	for (uint32_t i = 0; i < n; i++)
		start[(ends[i].node < nb ? ends[i].node : nb) + 1]++;
	for (uint32_t b = 0; b <= nb; b++)
		start[b + 1] += start[b];
	for (uint32_t i = 0; i < n; i++)
		ord[start[ends[i].node < nb ? ends[i].node : nb]++] = i;
	free(start);
	for (uint32_t i = 0; i < n;) {
		uint32_t node = ends[ord[i]].node, j = i + 1;
		bool in_order = true;

		for (; j < n && ends[ord[j]].node == node; j++)
			if (ends[ord[j]].num < ends[ord[j - 1]].num)
				in_order = false;
		if (!in_order && j - i <= 32) {
			for (uint32_t a = i + 1; a < j; a++) {
				uint32_t v = ord[a], b = a;

				for (; b > i &&
				       ends[ord[b - 1]].num > ends[v].num;
				     b--)
					ord[b] = ord[b - 1];
				ord[b] = v;
			}
		} else if (!in_order) {
			uint64_t *key = xmalloc((j - i) * sizeof(*key));

			for (uint32_t a = i; a < j; a++)
				key[a - i] =
				    (uint64_t)ends[ord[a]].num << 32 | ord[a];
			qsort(key, j - i, sizeof(*key), cmp_u64);
			for (uint32_t a = i; a < j; a++)
				ord[a] = (uint32_t)key[a - i];
			free(key);
		}
		i = j;
	}
	return ord;
}

static const char *what(const struct ibnet *x)
{
	return x->ufm ? "a UFM topo file" : "an ibsim net file";
}

/*
 * The rate of a link between ports @a and @b, as metrics_link_rate() (metrics.h)
 * has it, from the speeds read once: the slower end's speed where both
 * give one, the one given, else 0 (unknown: such a link is not written,
 * ib_links).
 */
static int64_t pair_rate(const struct ibnet *x, uint32_t a, uint32_t b)
{
	int64_t ra = x->speed[a], rb = x->speed[b];

	return !ra ? rb : !rb ? ra : ra < rb ? ra : rb;
}

/* a port's InfiniBand width: its lanes where IB has such a width, else 4 */
static int64_t ib_lanes(const struct rk_design *d, uint32_t port)
{
	int64_t n = ir_num(d, port, A_LANES, 4);

	return n == 1 || n == 2 || n == 8 || n == 12 ? n : 4;
}

/* ibdm's link width word (width2char) */
static const char *width_word(int64_t lanes)
{
	return lanes == 1    ? "1x"
	       : lanes == 2  ? "2x"
	       : lanes == 8  ? "8x"
	       : lanes == 12 ? "12x"
			     : "4x";
}

/* ibdm's per-lane speed word in Gb/s (speed2char): SDR 2.5 .. XDR 200 */
static const char *lane_word(int64_t rate, int64_t lanes)
{
	int64_t lane = rate / (lanes > 0 ? lanes : 4);

	return lane >= 200000000000LL	? "200"
	       : lane >= 100000000000LL ? "100"
	       : lane >= 50000000000LL	? "50"
	       : lane >= 25000000000LL	? "25"
	       : lane >= 14000000000LL	? "14"
	       : lane >= 10000000000LL	? "10"
	       : lane >= 5000000000LL	? "5"
					: "2.5";
}

/* a name as one whitespace-free token ('_' for blanks) */
static const char *token(struct arena *ar, const char *s)
{
	char *t = arena_strndup(ar, s, strlen(s));

	for (char *c = t; *c; c++)
		if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r')
			*c = '_';
	return t;
}

/* the system type: a switch's catalog model (or part name), else HCA */
static const char *sys_type(const struct ibnet *x, const struct ibnode *in)
{
	const struct rk_design *d = x->d;
	uint32_t part = d->objs[in->dev].part;
	const char *m;

	if (!in->sw)
		return "HCA";
	if (part == RK_NONE)
		return "Switch";
	m = ir_str(d, part, A_MODEL);
	return token(x->ctx->arena, m && *m ? m : local(x, part));
}

/* a port's name in the topo file: P<num> on a switch, DEV/P<num> on HCA */
static const char *topo_port(const struct ibnet *x, const struct ibnode *in,
			     const struct end *e)
{
	const char *dn;

	if (in->sw)
		return arena_printf(x->ctx->arena, "P%u", e->num);
	dn = in->standalone ? NULL : ir_str(x->d, in->sub, A_DEVNAME);
	return arena_printf(
	    x->ctx->arena, "%s/P%u",
	    token(x->ctx->arena, dn && *dn ? dn : local(x, in->sub)), e->num);
}

/*
 * The subnet as the topo file NVIDIA's UFM Cable Validation Tool loads
 * (ibdm's topology format): a section per switch, "TYPE NAME", then one
 * line per cabled port, "   PORT -<width>-<lane speed>G-> TYPE NAME PORT";
 * a link between two switches is written in both sections, a link between
 * two HCAs in a section of the first HCA's host.
 */
static bool write_topo(struct ibnet *x, const char *name,
		       const struct ibnode *nodes, uint32_t nn,
		       const struct end *ends, const uint32_t *ord,
		       const uint32_t *peer, uint32_t nl)
{
	const struct rk_design *d = x->d;
	uint32_t nsw = 0, sect = RK_NONE;
	FILE *fp;

	for (uint32_t m = 0; m < nn; m++)
		nsw += nodes[m].sw;
	fp = out_open(x->ctx, arena_printf(x->ctx->arena, "ufm/%s.topo", name));
	if (!fp)
		return false;
	fprintf(fp,
		"# rackc: InfiniBand subnet %s (%s), %u %s, %u %s, %u %s\n"
		"# UFM Cable Validation Tool topo file (ibdm topology "
		"format)\n",
		name, x->ctx->input, nsw, nsw == 1 ? "switch" : "switches",
		nn - nsw, nn - nsw == 1 ? "HCA" : "HCAs", nl,
		nl == 1 ? "link" : "links");
	for (uint32_t i = 0; i < 2 * nl && !be_cancelled(x->ctx); i++) {
		const struct end *e = &ends[ord[i]], *p = &ends[peer[i]];
		const struct ibnode *in = &nodes[e->node];
		const struct ibnode *pn = &nodes[p->node];
		int64_t r = pair_rate(x, e->port, p->port);
		int64_t la = ib_lanes(d, e->port), lb = ib_lanes(d, p->port);
		int64_t lanes = la < lb ? la : lb;

		if (!in->sw && pn->sw)
			continue;
		if (!in->sw && !pn->sw && ord[i] > peer[i])
			continue;
		if (sect != in->dev) {
			sect = in->dev;
			fprintf(fp, "\n%s %s\n", sys_type(x, in),
				token(x->ctx->arena, x->host[in->dev]));
		}
		fprintf(fp, "   %s -%s-%sG-> %s %s %s\n", topo_port(x, in, e),
			width_word(lanes), lane_word(r, lanes), sys_type(x, pn),
			token(x->ctx->arena, x->host[pn->dev]),
			topo_port(x, pn, p));
	}
	return out_close(x->ctx, fp) && !be_cancelled(x->ctx);
}

/*
 * One subnet being written: its links @links[0..nl) and their 2 * @nl
 * ends @ends, ordered by (dev, port, link) as the port index has them;
 * the nodes made of them (switches first, @nsw of them); @ord, the ends
 * in the order written (order_ends: (node, num), ties in link order; equal
 * (node, num) means the same port), and @peer, for each end written, the
 * other end of its link (an index into @ends).
 */
struct subnet {
	const char *name;
	const uint32_t *links;
	uint32_t nl;
	struct end *ends;
	struct ibnode *nodes;
	uint32_t nn, ncap, nsw;
	uint32_t *ord, *peer;
};

/*
 * The node of end @e, a port of device @dev (a switch when @sw), among the
 * device's nodes made so far (@first onwards), made when new; sets the
 * end's node and IB port number.  False after an error: a switch port that
 * is not one of its InfiniBand ports.
 */
static bool place_end(struct ibnet *x, struct subnet *s, struct end *e,
		      uint32_t dev, bool sw, uint32_t first)
{
	const struct rk_design *d = x->d;
	uint32_t sub = RK_NONE, num = 0, np = 0, m;

	if (sw) {
		number_switch_ports(x, d->objs[dev].part);
		num = (uint32_t)x->port_num[e->port];
		np = x->sw_nports[d->objs[dev].part];
		if (!num) {
			diag_error(x->ctx->diag,
				   &d->links[s->links[e->orig >> 1]].loc,
				   "ibnet",
				   "cannot express subnet '%s' as %s: port %s "
				   "of switch %s is not one of its InfiniBand "
				   "ports",
				   s->name, what(x), local(x, e->port),
				   ir_name(d, dev));
			return false;
		}
	} else {
		sub = nic_of(x, d->objs[dev].part, e->port, &num, &np);
	}
	for (m = first; m < s->nn; m++)
		if (sw || s->nodes[m].sub == (sub != RK_NONE ? sub : e->port))
			break;
	if (m == s->nn) {
		struct ibnode *in = VEC_PUSH(s->nodes, s->nn, s->ncap);

		memset(in, 0, sizeof(*in));
		in->dev = dev;
		in->sw = sw;
		in->sub = sub != RK_NONE ? sub : e->port;
		in->standalone = !sw && sub == RK_NONE;
		in->nports = in->standalone ? 1 : np;
	}
	if (!sw && sub == RK_NONE)
		num = 1;
	e->node = m;
	e->num = num;
	return true;
}

/* The subnet's nodes: switches first (pass 0), then HCAs (pass 1). */
static bool make_nodes(struct ibnet *x, struct subnet *s)
{
	const struct rk_design *d = x->d;
	bool ok = true;

	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < 2 * s->nl;) {
			uint32_t dev = s->ends[i].dev, j = i, first = s->nn;
			bool sw = d->objs[dev].cls == C_SWITCH;

			while (j < 2 * s->nl && s->ends[j].dev == dev)
				j++;
			for (uint32_t k = i; k < j && sw == (pass == 0); k++)
				if (!place_end(x, s, &s->ends[k], dev, sw,
					       first))
					ok = false;
			i = j;
		}
		if (pass == 0)
			s->nsw = s->nn;
	}
	return ok;
}

/*
 * The nodes' ids, descriptions and GUIDs; false (after an error) when one
 * is beyond what an ibsim net file holds.
 */
static bool name_nodes(struct ibnet *x, struct subnet *s)
{
	const struct rk_design *d = x->d;
	uint64_t base = (uint64_t)0x02 << 56 | (be_fnv1a(s->name) & 0xffffff)
						   << 32;
	bool ok = true;

	for (uint32_t m = 0; m < s->nn; m++) {
		struct ibnode *in = &s->nodes[m];
		const char *h = x->host[in->dev];

		if (in->sw) {
			in->id = ir_name(d, in->dev);
			in->idn = strlen_of(d->arena, d->objs[in->dev].name);
			in->desc = h;
			in->descn = (uint32_t)strlen(h);
			in->guid = base | 0x10000000 | (m + 1);
		} else {
			const char *dn = in->standalone
					     ? NULL
					     : ir_str(d, in->sub, A_DEVNAME);

			const char *sub = local(x, in->sub);
			size_t subn =
			    strlen_of(d->arena, d->objs[in->sub].local);

			in->id =
			    join(x->ctx->arena, ir_name(d, in->dev),
				 strlen_of(d->arena, d->objs[in->dev].name),
				 '/', sub, subn, &in->idn);
			in->desc = join(x->ctx->arena, h, strlen(h), ' ',
					dn ? dn : sub, dn ? strlen(dn) : subn,
					&in->descn);
			in->guid =
			    base | 0x20000000 | (uint64_t)(m - s->nsw + 1) << 8;
		}
		if (!x->ufm &&
		    (in->nports > IB_MAX_PORTS || in->descn > IB_DESC_MAX)) {
			diag_error(x->ctx->diag, &d->objs[in->dev].loc, "ibnet",
				   "cannot express subnet '%s' as an ibsim net "
				   "file: %s %s",
				   s->name, in->id,
				   in->nports > IB_MAX_PORTS
				       ? "has more than 254 ports"
				       : "has a node description longer "
					 "than 64 bytes");
			ok = false;
		}
	}
	return ok;
}

/* No port carries two links: false after the error for the first that does */
static bool ports_unique(struct ibnet *x, const struct subnet *s)
{
	for (uint32_t i = 1; i < 2 * s->nl; i++) {
		const struct end *a = &s->ends[s->ord[i - 1]];
		const struct end *b = &s->ends[s->ord[i]];

		if (a->node == b->node && a->num == b->num) {
			diag_error(
			    x->ctx->diag,
			    &x->d->links[s->links[b->orig >> 1]].loc, "ibnet",
			    "cannot express subnet '%s' as %s: port %u "
			    "of %s carries two links",
			    s->name, what(x), b->num, s->nodes[b->node].id);
			return false;
		}
	}
	return true;
}

/*
 * peer[i]: the other end of the link of the i-th end written (an index
 * into ends), found through orig -> written position.
 */
static uint32_t *end_peers(const struct subnet *s)
{
	uint32_t *pos = xmalloc((size_t)2 * s->nl * sizeof(*pos));
	uint32_t *peer = xmalloc((size_t)2 * s->nl * sizeof(*peer));

	for (uint32_t i = 0; i < 2 * s->nl; i++)
		pos[s->ends[s->ord[i]].orig] = i;
	for (uint32_t i = 0; i < 2 * s->nl; i++)
		peer[i] = s->ord[pos[s->ends[s->ord[i]].orig ^ 1]];
	free(pos);
	return peer;
}

/* The subnet as ib/<name>.net: a header, then a record per node. */
static bool write_net(struct ibnet *x, const struct subnet *s)
{
	const struct rk_design *d = x->d;
	uint32_t nhca = s->nn - s->nsw;
	struct wbuf *wb;
	FILE *fp;

	fp =
	    out_open(x->ctx, arena_printf(x->ctx->arena, "ib/%s.net", s->name));
	if (!fp)
		return false;
	wb = xmalloc(sizeof(*wb));
	wb_init(wb, fp);
	wb_str(wb, "# rackc: InfiniBand subnet ");
	wb_str(wb, s->name);
	wb_str(wb, " (");
	wb_str(wb, x->ctx->input);
	wb_str(wb, "), ");
	wb_u64(wb, s->nsw);
	wb_str(wb, s->nsw == 1 ? " switch, " : " switches, ");
	wb_u64(wb, nhca);
	wb_str(wb, nhca == 1 ? " HCA, " : " HCAs, ");
	wb_u64(wb, s->nl);
	wb_str(wb, s->nl == 1 ? " link\n" : " links\n");
	wb_str(wb, "# ibsim/ibnetdiscover net file; rates above HDR are "
		   "written as 4xHDR\n\n");
	for (uint32_t i = 0, m = 0; m < s->nn && !be_cancelled(x->ctx); m++) {
		const struct ibnode *in = &s->nodes[m];
		uint32_t k;

		for (k = i; k < 2 * s->nl && s->ends[s->ord[k]].node == m; k++)
			port_comment(wb, d, &s->ends[s->ord[k]]);
		wb_str(wb, in->sw ? "switchguid=0x" : "caguid=0x");
		wb_hex(wb, in->guid, 16);
		wb_str(wb, in->sw ? "\nSwitch\t" : "\nHca\t");
		wb_u64(wb, in->nports);
		wb_str(wb, " \"");
		wb_mem(wb, in->id, in->idn);
		wb_str(wb, "\"\t# \"");
		wb_mem(wb, in->desc, in->descn);
		wb_str(wb, in->sw ? "\" enhanced port 0\n" : "\"\n");
		for (; i < k; i++) {
			const struct end *e = &s->ends[s->ord[i]];
			const struct end *p = &s->ends[s->peer[i]];

			port_line(wb, e->num, &s->nodes[p->node], p->num,
				  speed_word(pair_rate(x, e->port, p->port)));
		}
		wb_ch(wb, '\n');
	}
	wb_flush(wb);
	free(wb);
	return true;
}

/*
 * Write one subnet: the IB links @links[0..nl) joining its devices, whose
 * 2 * @nl ends @ends come ordered by (dev, port, link), as the port index
 * has them (struct subnet).
 */
static bool emit_subnet(struct ibnet *x, const char *name,
			const uint32_t *links, uint32_t nl, struct end *ends)
{
	struct subnet s = {
		.name = name, .links = links, .nl = nl, .ends = ends
	};
	bool ok = make_nodes(x, &s);

	ok = name_nodes(x, &s) && ok;
	s.ord = order_ends(ends, 2 * nl, s.nn);
	ok = ok && ports_unique(x, &s);
	if (ok) {
		s.peer = end_peers(&s);
		ok = x->ufm ? write_topo(x, name, s.nodes, s.nn, ends, s.ord,
					 s.peer, nl)
			    : write_net(x, &s);
	}
	free(s.nodes);
	free(s.ord);
	free(s.peer);
	return ok;
}

/*
 * The subnet names given so far: an open-addressing set (at most half
 * full), each name with the next suffix to try when it comes up again as
 * a base, so that naming n subnets after one fabric takes time linear in
 * n rather than a scan of every name per suffix tried.
 */
struct name_slot {
	const char *name;
	uint32_t next;
};

static struct name_slot *name_slot(struct name_slot *set, uint32_t mask,
				   const char *nm)
{
	uint64_t h = 14695981039346656037ULL; /* FNV-1a */

	for (const char *c = nm; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ULL;
	for (uint32_t i = (uint32_t)hash_mix64(h) & mask;; i = (i + 1) & mask)
		if (!set[i].name || streq(set[i].name, nm))
			return &set[i];
}

/*
 * The subnets of the design: @n of them, holding @nib InfiniBand links;
 * @sub_of: link -> its subnet (RK_NONE: in none), @pos: link -> its index
 * in its subnet; subnet s has the links @links[@start[s] .. + @cnt[s]), in
 * link order, their ends from @ends[2 * @start[s]] on (emit_subnet), and
 * the name @names[s].
 */
struct subnets {
	uint32_t n, nib;
	uint32_t *sub_of, *pos;
	uint32_t *cnt, *start, *links;
	struct end *ends;
	const char **names;
};

static bool ibnet_init(struct ibnet *x, struct backend_ctx *ctx, bool ufm)
{
	const struct rk_design *d = ctx->d;
	uint32_t n = d->nobjs ? d->nobjs : 1;
	bool ok;

	memset(x, 0, sizeof(*x));
	x->ctx = ctx;
	x->d = d;
	x->host = be_host_names(ctx, &ok);
	x->port_num = xcalloc(n, sizeof(*x->port_num));
	x->numbered = xcalloc(n, 1);
	x->sw_nports = xcalloc(n, sizeof(*x->sw_nports));
	x->speed = xcalloc(n, sizeof(*x->speed));
	x->proto = xcalloc(n, sizeof(*x->proto));
	x->nic = xcalloc(n, sizeof(*x->nic));
	x->nic_part = RK_NONE;
	x->ufm = ufm;
	for (uint32_t i = 0; i < d->nobjs; i++)
		if (d->objs[i].kind == K_PORT) {
			int64_t v = ir_num(d, i, A_SPEED, 0);

			x->speed[i] = v > 0 ? v : 0;
			x->proto[i] = proto_of(d, i);
		}
	return ok;
}

static void ibnet_free(struct ibnet *x)
{
	free(x->port_num);
	free(x->numbered);
	free(x->sw_nports);
	free(x->speed);
	free(x->proto);
	free(x->nic);
}

/* "port NAME of part P gives no speed", at the port's declaration */
static void note_no_speed(struct ibnet *x, uint32_t port)
{
	const struct rk_design *d = x->d;
	uint32_t owner = d->objs[port].parent;

	if (owner == RK_NONE)
		diag_note(x->ctx->diag, &d->objs[port].loc,
			  "port %s gives no speed", local(x, port));
	else
		diag_note(x->ctx->diag, &d->objs[port].loc,
			  "port %s of %s%s gives no speed", local(x, port),
			  d->objs[owner].kind == K_PART ? "part " : "",
			  ir_name(d, owner));
}

/*
 * Link @l and @more others of its statement (or generator) are left out:
 * neither port of each gives a speed.
 */
static void warn_unrated(struct ibnet *x, uint32_t l, uint32_t more)
{
	const struct rk_design *d = x->d;
	const struct rk_link *k = &d->links[l];
	const char *files = x->ufm ? "UFM topo files" : "ibsim net files";

	if (more)
		diag_warning(x->ctx->diag, &k->loc, "ibnet",
			     "links %s.%s -- %s.%s and %u more of this "
			     "statement are left out of the %s: neither port "
			     "gives a speed, so their rate is unknown",
			     ir_name(d, k->a_dev), local(x, k->a_port),
			     ir_name(d, k->b_dev), local(x, k->b_port), more,
			     files);
	else
		diag_warning(x->ctx->diag, &k->loc, "ibnet",
			     "link %s.%s -- %s.%s is left out of the %s: "
			     "neither port gives a speed, so its rate is "
			     "unknown",
			     ir_name(d, k->a_dev), local(x, k->a_port),
			     ir_name(d, k->b_dev), local(x, k->b_port), files);
	note_no_speed(x, k->a_port);
	if (k->b_port != k->a_port)
		note_no_speed(x, k->b_port);
}

/* a link left out, by its statement's place */
struct unrated {
	uint32_t file, begin, link;
};

static int cmp_unrated(const void *pa, const void *pb)
{
	const struct unrated *a = pa, *b = pb;

	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	if (a->begin != b->begin)
		return a->begin < b->begin ? -1 : 1;
	return a->link < b->link ? -1 : a->link > b->link;
}

/*
 * The warnings for the links @bad[0..n) left out for want of a rate: one
 * per link statement (or fabric generator), at its first such link, in
 * link order, so that a generator of a million links of unknown speed
 * gives one warning.
 */
static void report_unrated(struct ibnet *x, const uint32_t *bad, uint32_t n)
{
	struct unrated *u = xmalloc(((size_t)n + 1) * sizeof(*u));
	uint64_t *grp = xmalloc(((size_t)n + 1) * sizeof(*grp));
	uint32_t ng = 0;

	for (uint32_t i = 0; i < n; i++) {
		const struct srcloc *loc = &x->d->links[bad[i]].loc;

		u[i] = (struct unrated){ loc->file, loc->begin, bad[i] };
	}
	qsort(u, n, sizeof(*u), cmp_unrated);
	for (uint32_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && u[j].file == u[i].file &&
				u[j].begin == u[i].begin;
		     j++)
			;
		/* its first link, and how many more */
		grp[ng++] = (uint64_t)u[i].link << 32 | (j - i - 1);
	}
	qsort(grp, ng, sizeof(*grp), cmp_u64);
	for (uint32_t g = 0; g < ng; g++)
		warn_unrated(x, (uint32_t)(grp[g] >> 32), (uint32_t)grp[g]);
	free(u);
	free(grp);
}

/*
 * Which links go in the files: the InfiniBand ones (ib_link) of known
 * rate.  A link neither of whose ports gives a speed has no rate that
 * traces to the design: it is left out, with a warning, rather than
 * written at a rate of our own.
 */
static uint8_t *ib_links(struct ibnet *x)
{
	const struct rk_design *d = x->d;
	uint8_t *isib = xmalloc(d->nlinks ? d->nlinks : 1);
	uint32_t *bad = NULL, nbad = 0, cap = 0;

	for (uint32_t l = 0; l < d->nlinks; l++) {
		const struct rk_link *k = &d->links[l];

		isib[l] = ib_link(x, k);
		if (isib[l] && !pair_rate(x, k->a_port, k->b_port)) {
			isib[l] = 0;
			*VEC_PUSH(bad, nbad, cap) = l;
		}
	}
	if (nbad)
		report_unrated(x, bad, nbad);
	free(bad);
	return isib;
}

/*
 * Join the links @isib marks into subnets (@up, a union-find over links):
 * links are joined through a switch, or through one HCA (a NIC component
 * of a device, or a port no NIC claims).  A server with a compute HCA and
 * a storage HCA is on two subnets.  The port index has each device's link
 * ends together; @last holds, per HCA (its NIC or port object), the last
 * link seen on the device at hand.
 */
static void join_links(struct ibnet *x, const struct port_index *pi,
		       const uint8_t *isib, uint32_t *up)
{
	const struct rk_design *d = x->d;
	uint32_t n = d->nobjs ? d->nobjs : 1;
	uint32_t *last = xmalloc(n * sizeof(*last));

	memset(last, 0xff, n * sizeof(*last));
	for (uint32_t dev = 0; dev < d->nobjs; dev++) {
		uint32_t lo = pi->start[dev], hi = pi->start[dev + 1];
		bool sw = d->objs[dev].cls == C_SWITCH;
		uint32_t swl = RK_NONE;

		for (uint32_t k = lo; k < hi; k++) {
			uint32_t l = pi->e[k].link, *prev;

			if (!isib[l])
				continue;
			prev = sw ? &swl : &last[hca_of(x, dev, pi->e[k].port)];
			if (*prev != RK_NONE)
				uf_union(up, *prev, l);
			*prev = l;
		}
		for (uint32_t k = lo; k < hi && !sw; k++)
			if (isib[pi->e[k].link])
				last[hca_of(x, dev, pi->e[k].port)] = RK_NONE;
	}
	free(last);
}

/*
 * The subnets, numbered by their first link, and each one's links in
 * link order (struct subnets) from the joined links @up.
 */
static void group_links(const struct rk_design *d, const uint8_t *isib,
			uint32_t *up, struct subnets *sn)
{
	uint32_t nl = d->nlinks ? d->nlinks : 1;
	uint32_t *first = xmalloc(nl * sizeof(*first)); /* root -> subnet */

	sn->sub_of = xmalloc(nl * sizeof(*sn->sub_of));
	for (uint32_t l = 0; l < nl; l++)
		first[l] = RK_NONE;
	for (uint32_t l = 0; l < d->nlinks; l++) {
		uint32_t r;

		sn->sub_of[l] = RK_NONE;
		if (!isib[l])
			continue;
		sn->nib++;
		r = uf_find(up, l);
		if (first[r] == RK_NONE)
			first[r] = sn->n++;
		sn->sub_of[l] = first[r];
	}
	free(first);
	sn->cnt = xcalloc(sn->n + 1, sizeof(*sn->cnt));
	sn->start = xcalloc(sn->n + 1, sizeof(*sn->start));
	sn->links = xmalloc((sn->nib + 1) * sizeof(*sn->links));
	for (uint32_t l = 0; l < d->nlinks; l++)
		if (sn->sub_of[l] != RK_NONE)
			sn->cnt[sn->sub_of[l]]++;
	for (uint32_t s = 1; s <= sn->n; s++)
		sn->start[s] = sn->start[s - 1] + sn->cnt[s - 1];
	memset(sn->cnt, 0, (sn->n + 1) * sizeof(*sn->cnt));
	sn->pos = xmalloc(nl * sizeof(*sn->pos));
	for (uint32_t l = 0; l < d->nlinks; l++)
		if (sn->sub_of[l] != RK_NONE) {
			uint32_t s = sn->sub_of[l];

			sn->pos[l] = sn->cnt[s]++;
			sn->links[sn->start[s] + sn->pos[l]] = l;
		}
}

/*
 * Each subnet's link ends, 2 * start[s] onwards, in port-index order
 * (device, port, link, end); orig numbers them within the subnet.
 */
static void collect_ends(const struct rk_design *d, const struct port_index *pi,
			 struct subnets *sn)
{
	uint32_t *fill = xmalloc((sn->n + 1) * sizeof(*fill));

	sn->ends = xmalloc(((size_t)2 * sn->nib + 1) * sizeof(*sn->ends));
	for (uint32_t s = 0; s < sn->n; s++)
		fill[s] = 2 * sn->start[s];
	for (uint32_t dev = 0; dev < d->nobjs; dev++)
		for (uint32_t k = pi->start[dev]; k < pi->start[dev + 1]; k++) {
			const struct port_end *pe = &pi->e[k];
			uint32_t sb = sn->sub_of[pe->link];

			if (sb != RK_NONE)
				sn->ends[fill[sb]++] =
				    (struct end){ dev, pe->port, RK_NONE, 0,
						  2 * sn->pos[pe->link] +
						      pe->end };
		}
	free(fill);
}

/* Subnet @s's name before clashes: its first generating fabric (as a host
 * name), else its first switch's host name, else its first device's. */
static const char *subnet_base(const struct ibnet *x, const struct subnets *sn,
			       uint32_t s)
{
	const struct rk_design *d = x->d;
	uint32_t best = RK_NONE, sw = RK_NONE;
	const char *base;

	for (uint32_t i = sn->start[s]; i < sn->start[s] + sn->cnt[s]; i++) {
		const struct rk_link *k = &d->links[sn->links[i]];

		if (k->fabric != RK_NONE) {
			best = k->fabric;
			break;
		}
		for (int e = 0; e < 2; e++) {
			uint32_t dv = e ? k->b_dev : k->a_dev;

			if (d->objs[dv].cls == C_SWITCH &&
			    (sw == RK_NONE || dv < sw))
				sw = dv;
			if (best == RK_NONE || dv < best)
				best = dv;
		}
	}
	if (d->objs[best].kind != K_FABRIC && sw != RK_NONE)
		best = sw;
	base = d->objs[best].kind == K_FABRIC
		   ? be_derived_name(x->ctx->arena, ir_name(d, best))
		   : x->host[best];
	return base && base[0] ? base : "subnet";
}

/* The subnets' names: each one's base, clashing names get -2, -3, ... */
static void name_subnets(struct ibnet *x, struct subnets *sn)
{
	struct name_slot *set;
	uint32_t mask;

	sn->names = xcalloc(sn->n + 1, sizeof(*sn->names));
	for (mask = 1; mask < 2 * sn->n + 2; mask *= 2)
		;
	set = xcalloc(mask, sizeof(*set));
	mask--;
	for (uint32_t s = 0; s < sn->n; s++) {
		const char *base = subnet_base(x, sn, s), *nm = base;
		struct name_slot *slot = name_slot(set, mask, base);

		if (slot->name) {
			/* base-2, base-3, ...: the first one not given */
			struct name_slot *b = slot;
			uint32_t k = b->next;

			do {
				nm = arena_printf(x->ctx->arena, "%s-%u", base,
						  k++);
				slot = name_slot(set, mask, nm);
			} while (slot->name);
			b->next = k;
		}
		slot->name = nm;
		slot->next = 2;
		sn->names[s] = nm;
	}
	free(set);
}

static void subnets_free(struct subnets *sn)
{
	free(sn->sub_of);
	free(sn->pos);
	free(sn->cnt);
	free(sn->start);
	free(sn->links);
	free(sn->ends);
	free(sn->names);
}

static bool run_ibnet(struct backend_ctx *ctx, bool ufm)
{
	const struct rk_design *d = ctx->d;
	uint32_t nl = d->nlinks ? d->nlinks : 1;
	uint32_t *up = xmalloc(nl * sizeof(*up));
	const struct port_index *pi = derived_ports(ctx->dv);
	struct subnets sn;
	struct ibnet x;
	uint8_t *isib; /* link -> in the files (ib_links) */
	bool ok = ibnet_init(&x, ctx, ufm);

	memset(&sn, 0, sizeof(sn));
	for (uint32_t i = 0; i < nl; i++)
		up[i] = i;
	isib = ib_links(&x);
	join_links(&x, pi, isib, up);
	group_links(d, isib, up, &sn);
	collect_ends(d, pi, &sn);
	name_subnets(&x, &sn);
	if (ok)
		for (uint32_t s = 0; s < sn.n && !ctx->failed; s++)
			if (!emit_subnet(&x, sn.names[s],
					 sn.links + sn.start[s], sn.cnt[s],
					 sn.ends + (size_t)2 * sn.start[s]))
				ok = false;
	free(up);
	free(isib);
	subnets_free(&sn);
	ibnet_free(&x);
	return ok && !ctx->failed;
}

static bool emit_ibnet(struct backend_ctx *ctx)
{
	return run_ibnet(ctx, false);
}

static bool emit_ufm_ib(struct backend_ctx *ctx)
{
	return run_ibnet(ctx, true);
}

/* ufm: the IB subnets' topo files, then the Ethernet fabrics' dot files */
static bool emit_ufm(struct backend_ctx *ctx)
{
	bool ok = emit_ufm_ib(ctx);

	return expect_ufm_dot(ctx) && ok;
}

const struct backend backend_ufm = {
	.name = "ufm",
	.summary = "ufm/SUBNET.topo and ufm/FABRIC.dot: the topology files "
		   "of NVIDIA's UFM Cable Validation Tool (only when -O names "
		   "it)",
	.emit = emit_ufm,
	.needs = BE_NEEDS_PLAN | BE_NEEDS_LABELS,
	.weight = 2,
	.preflight = emit_ufm_ib, /* dry: nothing is written */
	.on_request = true,
};

const struct backend backend_ibnet = {
	.name = "ibnet",
	.summary = "ib/<subnet>.net: each InfiniBand subnet as an ibsim / "
		   "ibnetdiscover net file",
	.emit = emit_ibnet,
	.needs = BE_NEEDS_PLAN, /* the port index */
	.weight = 9,
	.preflight = emit_ibnet, /* dry: nothing is written */
};
