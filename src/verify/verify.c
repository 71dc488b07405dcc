/* SPDX-License-Identifier: MIT */
/*
 * `rackc verify DESIGN OBSERVED...` (verify.h): the plan, the comparison
 * and the output.
 *
 * Comparison, linear in the plan and the observations (hash maps):
 *  1. an observed link between the two ends of a planned cable matches it
 *     (and is checked for its rate where both the input and the plan give
 *     one: wrong-rate when it trained narrower or slower);
 *  2. the cables left that the observations cover (an end on a device, or
 *     an InfiniBand subnet, that an input reports), or that share a port
 *     with a link left, are candidates;
 *  3. swapped: a link left joins an end of candidate c1 to an end of
 *     candidate c2, and a second link joins their other ends;
 *  4. wrong port: a link left joins an end of candidate c to a port of the
 *     device c's other end is planned on;
 *  5. moved: a link left joins two devices that one candidate left, and
 *     no other, joins, and no other link left joins them: that cable,
 *     re-landed at both ends (on the right devices, in other ports);
 *  6. the candidates left are missing, the links left unplanned.
 * Observed names that map to no device of the design are unknown-device
 * findings (their links stay, and are unplanned).
 */
#include "rackc.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cablecols.h"
#include "driver.h"
#include "opts.h"
#include "jobs.h"
#include "scratch.h"
#include "srcfile.h"
#include "textread.h"
#include "verify.h"

static const char *const kind_name[VF_KINDS] = {
	"missing", "unplanned",	 "swapped",	   "wrong-port",
	"moved",   "wrong-rate", "unknown-device",
};

/* ---- the plan ---- */

/* A device's default host name, derived from its name as the back ends
 * derive it (doc/language.md, `hostname`): every byte that is not a
 * letter, digit or '-' becomes '-', runs of '-' become one, and none
 * leads or trails ("su[0].dgx[3]" -> "su-0-dgx-3"). */
static const char *derived_host(struct arena *a, const char *full)
{
	size_t n = strlen(full), k = 0;
	char *s = arena_alloc(a, n + 1);

	for (size_t i = 0; i < n; i++) {
		char c = full[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9')))
			c = '-';
		if (c == '-' && (k == 0 || s[k - 1] == '-'))
			continue;
		s[k++] = c;
	}
	while (k && s[k - 1] == '-')
		k--;
	s[k] = '\0';
	return s;
}

static uint32_t plan_dev(struct vf *v, const char *name, const char *rack,
			 const char *u)
{
	uint32_t id = vf_intern(&v->str, name, strlen(name), true);
	uint32_t d = vf_map_get(&v->unknown, vf_key2(2, id));
	struct vf_dev *x;

	if (d != RK_NONE)
		return d;
	x = VEC_PUSH(v->dev, v->ndev, v->devcap);
	memset(x, 0, sizeof(*x));
	x->name = v->str.s[id];
	x->rack = arena_strndup(v->a, rack, strlen(rack));
	x->u = arena_strndup(v->a, u, strlen(u));
	x->planned = true;
	d = v->ndev - 1;
	vf_map_put(&v->unknown, vf_key2(2, id), d);
	vf_name_dev(v, x->name, d);
	vf_name_dev(v, derived_host(v->a, x->name), d);
	return d;
}

/* The port named @name of @dev: found, or made (@add). */
static uint32_t plan_port(struct vf *v, uint32_t dev, const char *name,
			  bool add)
{
	uint32_t id = vf_intern(&v->str, name, strlen(name), add);
	uint32_t p, full;
	struct vf_port *x;

	if (id == RK_NONE)
		return RK_NONE;
	p = vf_map_get(&v->port_by_name, vf_key2(dev, id));
	if (p != RK_NONE || !add)
		return p;
	x = VEC_PUSH(v->port, v->nport, v->portcap);
	memset(x, 0, sizeof(*x));
	x->dev = dev;
	x->name = v->str.s[id];
	x->faceplate = "";
	x->cable = RK_NONE;
	x->subnet = RK_NONE;
	p = v->nport - 1;
	vf_map_put(&v->port_by_name, vf_key2(dev, id), p);
	/* "device.port", as the net files name it */
	full = vf_intern(&v->str,
			 arena_printf(v->a, "%s.%s", v->dev[dev].name, name),
			 strlen(v->dev[dev].name) + 1 + strlen(name), true);
	vf_map_put(&v->unknown, vf_key2(3, full), p);
	return p;
}

static int col(char **head, uint32_t nh, const char *name)
{
	for (uint32_t i = 0; i < nh; i++)
		if (streq(head[i], name))
			return (int)i;
	return -1;
}

/* Every record of CSV file @path: @each(v, cells, col) with @cols
 * columns found by name (a missing one: false). */
static bool read_plan_csv(struct vf *v, const char *path,
			  const char *const *names, unsigned ncols,
			  void (*each)(struct vf *, char **, const int *))
{
	size_t n;
	char *text = rk_slurp(path, &n);
	const char *p = text, *err = NULL;
	uint32_t line = 1;
	struct csv_record head = { NULL, 0, 0, 0 }, r = { NULL, 0, 0, 0 };
	int c[24];
	bool ok;

	if (!text) {
		fprintf(stderr, "rackc verify: error: cannot read '%s': %s\n",
			path, strerror(errno));
		return false;
	}
	ok = csv_read_record(v->a, &p, &line, &head, &err);
	for (unsigned k = 0; k < ncols && ok; k++)
		if ((c[k] = col(head.cell, head.n, names[k])) < 0) {
			fprintf(
			    stderr,
			    "rackc verify: error: '%s' has no column '%s'\n",
			    path, names[k]);
			ok = false;
			err = NULL;
		}
	while (ok && *p) {
		bool full = true;

		ok = csv_read_record(v->a, &p, &line, &r, &err);
		if (!ok)
			break;
		for (unsigned k = 0; k < ncols; k++)
			if ((uint32_t)c[k] >= r.n)
				full = false;
		if (full)
			each(v, r.cell, c);
	}
	if (!ok && err)
		fprintf(stderr, "rackc verify: error: %s:%u: %s\n", path, line,
			err);
	free(head.cell);
	free(r.cell);
	free(text);
	return ok;
}

enum {
	CC_ID,
	CC_LABEL,
	CC_FABRIC,
	CC_A_RACK,
	CC_A_U,
	CC_A_DEV,
	CC_A_PORT,
	CC_B_RACK,
	CC_B_U,
	CC_B_DEV,
	CC_B_PORT,
	CC_N
};
/* The cabling.csv columns of the fields, in CC_ order. */
static const enum cabcol cable_cols[CC_N] = {
	CABCOL_CABLE_ID, CABCOL_LABEL,	  CABCOL_FABRIC, CABCOL_A_RACK,
	CABCOL_A_U,	 CABCOL_A_DEVICE, CABCOL_A_PORT, CABCOL_B_RACK,
	CABCOL_B_U,	 CABCOL_B_DEVICE, CABCOL_B_PORT,
};

static void cable_row(struct vf *v, char **cell, const int *c)
{
	struct vf_cable *x;
	uint32_t k = v->ncable, end[2];

	for (int s = 0; s < 2; s++) {
		int o = s ? CC_B_RACK - CC_A_RACK : 0;
		uint32_t d =
		    plan_dev(v, cell[c[CC_A_DEV + o]], cell[c[CC_A_RACK + o]],
			     cell[c[CC_A_U + o]]);

		end[s] = plan_port(v, d, cell[c[CC_A_PORT + o]], true);
	}
	x = VEC_PUSH(v->cable, v->ncable, v->cablecap);
	x->id = arena_strndup(v->a, cell[c[CC_ID]], strlen(cell[c[CC_ID]]));
	x->label =
	    arena_strndup(v->a, cell[c[CC_LABEL]], strlen(cell[c[CC_LABEL]]));
	x->fabric =
	    arena_strndup(v->a, cell[c[CC_FABRIC]], strlen(cell[c[CC_FABRIC]]));
	x->matched = false;
	for (int s = 0; s < 2; s++) {
		x->end[s] = end[s];
		/* a port twice in the plan keeps its first cable */
		if (v->port[end[s]].cable == RK_NONE)
			v->port[end[s]].cable = k;
	}
}

static const char *const patch_cols[3] = { "device", "port", "faceplate" };

static void patch_row(struct vf *v, char **cell, const int *c)
{
	uint32_t id = vf_intern(&v->str, cell[c[0]], strlen(cell[c[0]]), false);
	uint32_t d =
	    id == RK_NONE ? RK_NONE : vf_map_get(&v->unknown, vf_key2(2, id));
	uint32_t p, fid, old;
	const char *fp = cell[c[2]];

	if (d == RK_NONE || !*fp)
		return;
	p = plan_port(v, d, cell[c[1]], false);
	if (p == RK_NONE || *v->port[p].faceplate)
		return;
	v->port[p].faceplate = arena_strndup(v->a, fp, strlen(fp));
	fid = vf_intern(&v->str, fp, strlen(fp), true);
	old = vf_map_put(&v->port_by_name, vf_key2(d, fid), p);
	if (old != RK_NONE && old != p)
		vf_map_put(&v->port_by_name, vf_key2(d, fid), VF_AMBIGUOUS);
}

static void name_node(struct vf *v, uint64_t key, uint32_t node)
{
	uint32_t old = vf_map_put(&v->ib_node, key, node);

	if (old != RK_NONE && old != node)
		vf_map_put(&v->ib_node, key, VF_AMBIGUOUS);
}

/* One net file of the ibnet back end: its nodes and their ports. */
static bool read_net(struct vf *v, const char *path, uint32_t subnet)
{
	size_t n;
	char *text = rk_slurp(path, &n), *l, *next;
	uint32_t *pend = NULL, npend = 0, pcap = 0, node = RK_NONE;

	if (!text) {
		fprintf(stderr, "rackc verify: error: cannot read '%s': %s\n",
			path, strerror(errno));
		return false;
	}
	for (l = text; l; l = next) {
		char *nl = strchr(l, '\n');

		next = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		if (strncmp(l, "# [", 3) == 0) {
			char *e;
			unsigned long num = strtoul(l + 3, &e, 10);
			uint32_t id, p;

			if (strncmp(e, "] ", 2) != 0)
				continue;
			e += 2;
			id = vf_intern(&v->str, e, strlen(e), false);
			p = id == RK_NONE
				? RK_NONE
				: vf_map_get(&v->unknown, vf_key2(3, id));
			if (p == RK_NONE)
				continue; /* a port no cable plugs into */
			*VEC_PUSH(pend, npend, pcap) = (uint32_t)num;
			*VEC_PUSH(pend, npend, pcap) = p;
			continue;
		}
		if (strncmp(l, "Switch", 6) == 0 || strncmp(l, "Hca", 3) == 0 ||
		    strncmp(l, "Ca", 2) == 0) {
			char *q = strchr(l, '"'), *id, *desc = NULL, *e;
			uint32_t dev = RK_NONE;

			if (!q || !(e = strchr(q + 1, '"')))
				continue;
			id = q + 1;
			*e = '\0';
			if ((q = strchr(e + 1, '#')) && (q = strchr(q, '"')) &&
			    (e = strchr(q + 1, '"'))) {
				desc = q + 1;
				*e = '\0';
			}
			if (!desc)
				desc = id;
			node = v->nibn;
			*VEC_PUSH(v->ibn_dev, v->nibn, v->ibncap) = RK_NONE;
			v->ibn_subnet = xrealloc(
			    v->ibn_subnet, v->ibncap * sizeof(*v->ibn_subnet));
			v->ibn_subnet[node] = subnet;
			for (uint32_t i = 0; i + 1 < npend; i += 2) {
				uint32_t p = pend[i + 1];

				vf_map_put(&v->ib_port, vf_key2(node, pend[i]),
					   p);
				v->port[p].subnet = subnet;
				dev = v->port[p].dev;
			}
			npend = 0;
			v->ibn_dev[node] = dev;
			name_node(v,
				  vf_intern(&v->str, desc, strlen(desc), true),
				  node);
			name_node(v,
				  vf_key2(1, vf_intern(&v->str, id, strlen(id),
						       true)),
				  node);
			if (dev != RK_NONE) {
				/* the host name: the description's first
				 * word */
				size_t hl = strcspn(desc, " ");
				uint32_t h = vf_intern(&v->str, desc, hl, true);

				vf_name_dev(v, v->str.s[h], dev);
				name_node(v, vf_key2(1, h), node);
				name_node(
				    v,
				    vf_key2(1,
					    vf_intern(&v->str, v->dev[dev].name,
						      strlen(v->dev[dev].name),
						      true)),
				    node);
			}
			continue;
		}
		if (l[0] == '[' && node != RK_NONE) {
			char *e;
			unsigned long num = strtoul(l + 1, &e, 10);
			uint32_t p = vf_map_get(&v->ib_port,
						vf_key2(node, (uint32_t)num));
			char *b = l + strlen(l);

			if (p == RK_NONE)
				continue;
			while (b > l && b[-1] != ' ' && b[-1] != '\t')
				b--;
			vf_ib_rate(b, &v->port[p].width, &v->port[p].speed);
		}
	}
	free(pend);
	free(text);
	return true;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool load_plan(struct vf *v, const char *dir)
{
	const char *ib = arena_printf(v->a, "%s/ib", dir);
	DIR *dp;
	const char **names = NULL;
	uint32_t nn = 0, nc = 0;
	const char *cc[CC_N];
	bool ok;

	for (int k = 0; k < CC_N; k++)
		cc[k] = cabcol_name(cable_cols[k]);
	ok = read_plan_csv(v, arena_printf(v->a, "%s/cabling.csv", dir), cc,
			   CC_N, cable_row) &&
	     read_plan_csv(v, arena_printf(v->a, "%s/cabling/patch.csv", dir),
			   patch_cols, 3, patch_row);
	if (!ok)
		return false;
	if ((dp = opendir(ib)) != NULL) {
		struct dirent *e;

		while ((e = readdir(dp)) != NULL) {
			size_t l = strlen(e->d_name);

			if (l > 4 && streq(e->d_name + l - 4, ".net"))
				*VEC_PUSH(names, nn, nc) =
				    arena_strndup(v->a, e->d_name, l);
		}
		closedir(dp);
	}
	if (nn)
		qsort(names, nn, sizeof(*names), str_cmp);
	/* host names (a `hostname` of the design) from the lldp export */
	{
		const char *lj =
		    arena_printf(v->a, "%s/lldp/expected.json", dir);

		if (access(lj, F_OK) == 0 && !vf_read_lldp_expected(v, lj))
			return free(names), false;
	}
	v->subnet = names;
	v->nsubnet = nn;
	v->subnet_seen = xcalloc(nn + 1, sizeof(*v->subnet_seen));
	for (uint32_t i = 0; i < nn && ok; i++)
		ok = read_net(v, arena_printf(v->a, "%s/%s", ib, names[i]), i);
	return ok;
}

/* ---- compiling the design ---- */

struct vopts {
	struct rackc_define *defines;
	uint32_t ndefines;
	const char **incdirs;
	uint32_t nincdirs;
	const char *stddir;
	uint32_t max_source, max_links;
};

static bool compile_design(const char *path, const struct vopts *vo,
			   const char *dir)
{
	struct rackc_options o;

	memset(&o, 0, sizeof(o));
	o.input = path;
	o.outdir = dir;
	o.backends = "cabling,ibnet,lldp";
	o.defines = vo->defines;
	o.ndefines = vo->ndefines;
	o.incdirs = vo->incdirs;
	o.nincdirs = vo->nincdirs;
	o.stddir = vo->stddir;
	o.max_source = vo->max_source;
	o.max_links = vo->max_links;
	return scratch_compile(&o, "cabling.csv", "rackc verify");
}

/* ---- comparison ---- */

static uint32_t other_end(const struct vf *v, uint32_t c, uint32_t p)
{
	return v->cable[c].end[0] == p ? v->cable[c].end[1]
				       : v->cable[c].end[0];
}

static bool covered(const struct vf *v, uint32_t p)
{
	const struct vf_port *x = &v->port[p];
	const struct vf_dev *d = &v->dev[x->dev];

	if (d->seen[VF_SRC_CSV])
		return true;
	if (x->subnet != RK_NONE)
		return v->subnet_seen[x->subnet];
	return d->seen[VF_SRC_LLDP];
}

static struct vf_finding *add_finding(struct vf *v, enum vf_kind k)
{
	struct vf_finding *f = VEC_PUSH(v->fd, v->nfd, v->fdcap);

	memset(f, 0, sizeof(*f));
	f->kind = k;
	f->cable[0] = f->cable[1] = f->obs[0] = f->obs[1] = RK_NONE;
	return f;
}

/* cand[p]: the candidate cable at port p that nothing explained yet */
static uint32_t cand_at(const struct vf *v, const uint8_t *cand, uint32_t p)
{
	uint32_t c = p < v->nport ? v->port[p].cable : RK_NONE;

	return c != RK_NONE && cand[c] == 1 ? c : RK_NONE;
}

static uint32_t find_obs(const struct vf *v, uint32_t p, uint32_t q)
{
	return vf_map_get(&v->obs_pair, p < q ? vf_key2(p, q) : vf_key2(q, p));
}

/* Both ends' devices of @p and @q, the smaller first, as a map key. */
static uint64_t dev_pair(const struct vf *v, uint32_t p, uint32_t q)
{
	uint32_t a = v->port[p].dev, b = v->port[q].dev;

	return a < b ? vf_key2(a, b) : vf_key2(b, a);
}

/*
 * Step 5: a cable moved at both ends.  Between each pair of devices, the
 * candidates left and the links left are counted (the value: the one
 * there is, VF_AMBIGUOUS when several); a pair with exactly one of each
 * is that cable re-landed.  Linear: two passes, hash maps.
 */
static void moved(struct vf *v, uint8_t *cand)
{
	struct vf_map cab = { 0 }, obs = { 0 };

	for (uint32_t c = 0; c < v->ncable; c++) {
		const struct vf_cable *x = &v->cable[c];
		uint64_t k;

		if (cand[c] != 1 ||
		    v->port[x->end[0]].dev == v->port[x->end[1]].dev)
			continue;
		k = dev_pair(v, x->end[0], x->end[1]);
		if (vf_map_put(&cab, k, c) != RK_NONE)
			vf_map_put(&cab, k, VF_AMBIGUOUS);
	}
	for (uint32_t o = 0; o < v->nobs; o++) {
		const struct vf_obs *x = &v->obs[o];
		uint64_t k;

		if (x->used || !v->dev[v->port[x->end[0]].dev].planned ||
		    !v->dev[v->port[x->end[1]].dev].planned)
			continue;
		k = dev_pair(v, x->end[0], x->end[1]);
		if (vf_map_get(&cab, k) == RK_NONE)
			continue;
		if (vf_map_put(&obs, k, o) != RK_NONE)
			vf_map_put(&obs, k, VF_AMBIGUOUS);
	}
	for (uint32_t o = 0; o < v->nobs; o++) {
		struct vf_obs *x = &v->obs[o];
		uint64_t k;
		uint32_t c;
		struct vf_finding *f;

		if (x->used || !v->dev[v->port[x->end[0]].dev].planned ||
		    !v->dev[v->port[x->end[1]].dev].planned)
			continue;
		k = dev_pair(v, x->end[0], x->end[1]);
		c = vf_map_get(&cab, k);
		if (c == RK_NONE || c == VF_AMBIGUOUS ||
		    vf_map_get(&obs, k) != o || cand[c] != 1)
			continue;
		f = add_finding(v, VF_MOVED);
		f->cable[0] = c;
		f->obs[0] = o;
		cand[c] = 2;
		x->used = true;
	}
	vf_map_free(&cab);
	vf_map_free(&obs);
}

static void compare(struct vf *v)
{
	/* 0: not a candidate, 1: candidate, 2: explained */
	uint8_t *cand = xcalloc(v->ncable + 1, 1);

	for (uint32_t o = 0; o < v->nobs; o++) {
		struct vf_obs *x = &v->obs[o];
		uint32_t c = v->port[x->end[0]].cable;

		if (c == RK_NONE || c != v->port[x->end[1]].cable ||
		    x->end[0] == x->end[1])
			continue;
		x->used = true;
		v->cable[c].matched = true;
		{
			const struct vf_port *p = &v->port[x->end[0]];
			const struct vf_port *q = &v->port[x->end[1]];
			uint8_t pw =
			    p->width && q->width
				? (p->width < q->width ? p->width : q->width)
				: (p->width | q->width);
			uint8_t ps =
			    p->speed && q->speed
				? (p->speed < q->speed ? p->speed : q->speed)
				: (p->speed | q->speed);

			if ((x->width && pw && x->width < pw) ||
			    (x->speed && ps && x->speed < ps)) {
				struct vf_finding *f =
				    add_finding(v, VF_WRONG_RATE);

				f->cable[0] = c;
				f->obs[0] = o;
			}
		}
	}
	for (uint32_t c = 0; c < v->ncable; c++)
		if (!v->cable[c].matched && (covered(v, v->cable[c].end[0]) ||
					     covered(v, v->cable[c].end[1])))
			cand[c] = 1;
	for (uint32_t o = 0; o < v->nobs; o++)
		for (int k = 0; k < 2 && !v->obs[o].used; k++) {
			uint32_t c = v->port[v->obs[o].end[k]].cable;

			if (c != RK_NONE && !v->cable[c].matched)
				cand[c] = 1;
		}
	/* swapped */
	for (uint32_t o = 0; o < v->nobs; o++) {
		struct vf_obs *x = &v->obs[o];
		uint32_t c1, c2, o2;

		if (x->used)
			continue;
		c1 = cand_at(v, cand, x->end[0]);
		c2 = cand_at(v, cand, x->end[1]);
		if (c1 == RK_NONE || c2 == RK_NONE || c1 == c2)
			continue;
		o2 = find_obs(v, other_end(v, c1, x->end[0]),
			      other_end(v, c2, x->end[1]));
		if (o2 == RK_NONE || o2 == o || v->obs[o2].used)
			continue;
		{
			struct vf_finding *f = add_finding(v, VF_SWAPPED);

			f->cable[0] = c1 < c2 ? c1 : c2;
			f->cable[1] = c1 < c2 ? c2 : c1;
			f->obs[0] = o;
			f->obs[1] = o2;
			cand[c1] = cand[c2] = 2;
			x->used = v->obs[o2].used = true;
		}
	}
	/* wrong port */
	for (uint32_t o = 0; o < v->nobs; o++) {
		struct vf_obs *x = &v->obs[o];

		for (int k = 0; k < 2 && !x->used; k++) {
			uint32_t c = cand_at(v, cand, x->end[k]), pp;

			if (c == RK_NONE)
				continue;
			pp = other_end(v, c, x->end[k]);
			if (v->port[pp].dev != v->port[x->end[!k]].dev)
				continue;
			{
				struct vf_finding *f =
				    add_finding(v, VF_WRONG_PORT);

				f->cable[0] = c;
				f->obs[0] = o;
				cand[c] = 2;
				x->used = true;
			}
		}
	}
	moved(v, cand);
	for (uint32_t c = 0; c < v->ncable; c++)
		if (cand[c] == 1)
			add_finding(v, VF_MISSING)->cable[0] = c;
	for (uint32_t o = 0; o < v->nobs; o++)
		if (!v->obs[o].used)
			add_finding(v, VF_UNPLANNED)->obs[0] = o;
	free(cand);
}

/* ---- output ---- */

enum fmt { F_TEXT = OPTS_TEXT, F_JSON = OPTS_JSON, F_MD = OPTS_MARKDOWN };

static const char *end_str(const struct vf *v, uint32_t p)
{
	const struct vf_port *x = &v->port[p];
	const struct vf_dev *d = &v->dev[x->dev];
	const char *where =
	    !d->planned ? arena_printf(v->a, "(unknown device) ")
	    : *d->rack
		? arena_printf(v->a, "%s U%s ", d->rack, *d->u ? d->u : "?")
		: "";

	if (*x->faceplate)
		return arena_printf(v->a, "%s%s %s (%s)", where, d->name,
				    x->faceplate, x->name);
	return arena_printf(v->a, "%s%s %s", where, d->name, x->name);
}

static const char *cable_str(const struct vf *v, uint32_t c)
{
	const struct vf_cable *x = &v->cable[c];

	return arena_printf(v->a, "%s \"%s\": %s -- %s", x->id, x->label,
			    end_str(v, x->end[0]), end_str(v, x->end[1]));
}

static const char *port_short(const struct vf *v, uint32_t p)
{
	const struct vf_port *x = &v->port[p];

	return arena_printf(v->a, "%s %s", v->dev[x->dev].name,
			    *x->faceplate ? x->faceplate : x->name);
}

static const char *rate_str(const struct vf *v, uint8_t w, uint8_t s)
{
	return arena_printf(v->a, "%ux%s", w ? w : 4u, vf_ib_speed_name(s));
}

/* A port's faceplate name, else its name. */
static const char *port_face(const struct vf *v, uint32_t p)
{
	return *v->port[p].faceplate ? v->port[p].faceplate : v->port[p].name;
}

/* The headline and the action of a finding. */
static void describe(const struct vf *v, const struct vf_finding *f,
		     const char **head, const char **todo)
{
	const struct vf_cable *c0 =
	    f->cable[0] != RK_NONE ? &v->cable[f->cable[0]] : NULL;
	const struct vf_obs *o0 =
	    f->obs[0] != RK_NONE ? &v->obs[f->obs[0]] : NULL;

	switch (f->kind) {
	case VF_MISSING:
		*head = arena_printf(v->a, "cable %s is missing", c0->id);
		*todo = arena_printf(
		    v->a,
		    "install %s between %s and %s (if it is in, reseat both "
		    "ends and check that the link comes up)",
		    c0->id, port_short(v, c0->end[0]),
		    port_short(v, c0->end[1]));
		break;
	case VF_UNPLANNED:
		*head = arena_printf(v->a, "unplanned cable between %s and %s",
				     port_short(v, o0->end[0]),
				     port_short(v, o0->end[1]));
		*todo = "remove it: the plan has no cable there";
		break;
	case VF_SWAPPED: {
		const struct vf_cable *c1 = &v->cable[f->cable[1]];
		const struct vf_obs *o1 = &v->obs[f->obs[1]];
		/* the two plugs to exchange: on one device where we can */
		uint32_t a = o0->end[0], b = o0->end[1];
		uint32_t x = other_end(v, (uint32_t)(c0 - v->cable), a);
		uint32_t y;

		(void)o1;
		if (v->port[a].cable != (uint32_t)(c0 - v->cable) &&
		    v->port[b].cable == (uint32_t)(c0 - v->cable)) {
			uint32_t t = a;

			a = b;
			b = t;
			x = other_end(v, (uint32_t)(c0 - v->cable), a);
		}
		/* observed a--b and x--y; planned a--x and b--y */
		y = other_end(v, v->port[b].cable, b);
		*head = arena_printf(v->a, "cables %s and %s are swapped",
				     c0->id, c1->id);
		if (v->port[b].dev == v->port[x].dev)
			*todo = arena_printf(
			    v->a, "exchange the plugs in %s and %s",
			    port_short(v, b), port_short(v, x));
		else
			*todo = arena_printf(
			    v->a, "exchange the plugs in %s and %s",
			    port_short(v, a), port_short(v, y));
		break;
	}
	case VF_WRONG_PORT: {
		uint32_t c = (uint32_t)(c0 - v->cable), at, right;
		int k = v->port[o0->end[0]].cable == c &&
				other_end(v, c, o0->end[0]) != o0->end[1]
			    ? 1
			    : 0;

		at = o0->end[k];
		right = other_end(v, c, o0->end[!k]);
		*head =
		    arena_printf(v->a, "cable %s is in the wrong port", c0->id);
		*todo = arena_printf(
		    v->a, "move its plug at %s from %s to %s",
		    v->dev[v->port[at].dev].name,
		    *v->port[at].faceplate ? v->port[at].faceplate
					   : v->port[at].name,
		    *v->port[right].faceplate ? v->port[right].faceplate
					      : v->port[right].name);
		break;
	}
	case VF_MOVED: {
		/* the planned end on the found end's device, for each end */
		uint32_t a = o0->end[0], b = o0->end[1];
		uint32_t pa = c0->end[0], pb = c0->end[1];

		if (v->port[pa].dev != v->port[a].dev) {
			pa = c0->end[1];
			pb = c0->end[0];
		}
		*head = arena_printf(v->a, "cable %s was moved at both ends",
				     c0->id);
		*todo = arena_printf(
		    v->a,
		    "move its plug at %s from %s to %s, and at %s from "
		    "%s to %s",
		    v->dev[v->port[a].dev].name, port_face(v, a),
		    port_face(v, pa), v->dev[v->port[b].dev].name,
		    port_face(v, b), port_face(v, pb));
		break;
	}
	case VF_WRONG_RATE: {
		const struct vf_port *p = &v->port[c0->end[0]];
		const struct vf_port *q = &v->port[c0->end[1]];
		uint8_t pw = p->width ? p->width : q->width;
		uint8_t ps = p->speed > q->speed && q->speed ? q->speed
			     : p->speed			     ? p->speed
							     : q->speed;

		if (q->width && q->width < pw)
			pw = q->width;
		*head = arena_printf(v->a, "cable %s is up at %s, planned %s",
				     c0->id, rate_str(v, o0->width, o0->speed),
				     rate_str(v, pw, ps));
		*todo = "reseat both ends; if the rate stays low, replace the "
			"cable (or its transceivers)";
		break;
	}
	case VF_UNKNOWN_DEVICE:
		*head = arena_printf(v->a, "unknown device %s", f->what);
		*todo = "correct the name on the device, or map it with a rule "
			"in the mapping file (--map)";
		break;
	case VF_KINDS:
		break;
	}
}

struct cov {
	uint64_t devs, devs_seen, ports, ports_seen, cables, cables_seen;
};

static void coverage(const struct vf *v, struct cov *c)
{
	uint8_t *seen = xcalloc(v->ndev + 1, 1);

	memset(c, 0, sizeof(*c));
	for (uint32_t p = 0; p < v->nport; p++)
		if (v->port[p].cable != RK_NONE) {
			c->ports++;
			if (covered(v, p)) {
				c->ports_seen++;
				seen[v->port[p].dev] = 1;
			}
		}
	for (uint32_t d = 0; d < v->ndev; d++)
		if (v->dev[d].planned) {
			c->devs++;
			c->devs_seen += seen[d];
		}
	for (uint32_t k = 0; k < v->ncable; k++) {
		c->cables++;
		c->cables_seen += covered(v, v->cable[k].end[0]) ||
				  covered(v, v->cable[k].end[1]);
	}
	free(seen);
}

static void text_out(FILE *fp, const struct vf *v, const char *design)
{
	struct cov c;

	for (uint32_t i = 0; i < v->nfd; i++) {
		const struct vf_finding *f = &v->fd[i];
		const char *head, *todo;
		const struct vf_obs *o0 =
		    f->obs[0] != RK_NONE ? &v->obs[f->obs[0]] : NULL;

		describe(v, f, &head, &todo);
		if (f->file)
			fprintf(fp, "%s:%u: ", f->file, f->line);
		else if (o0)
			fprintf(fp, "%s:%u: ", o0->file, o0->line);
		else
			fprintf(fp, "%s: ", design);
		fprintf(fp, "error: %s [%s]\n", head, kind_name[f->kind]);
		for (int k = 0; k < 2; k++)
			if (f->cable[k] != RK_NONE)
				fprintf(fp, "  note: planned: %s\n",
					cable_str(v, f->cable[k]));
		for (int k = 0; k < 2; k++)
			if (f->obs[k] != RK_NONE) {
				const struct vf_obs *o = &v->obs[f->obs[k]];

				fprintf(fp, "  note: found: %s -- %s",
					end_str(v, o->end[0]),
					end_str(v, o->end[1]));
				if (o->width || o->speed)
					fprintf(
					    fp, " at %s",
					    rate_str(v, o->width, o->speed));
				fprintf(fp, " (%s:%u)\n", o->file, o->line);
			}
		fprintf(fp, "  note: to do: %s\n", todo);
	}
	coverage(v, &c);
	fprintf(fp,
		"rackc verify: %" PRIu64 " of %" PRIu64 " devices, %" PRIu64
		" of %" PRIu64 " cabled ports and %" PRIu64 " of %" PRIu64
		" cables observed\n",
		c.devs_seen, c.devs, c.ports_seen, c.ports, c.cables_seen,
		c.cables);
	if (!v->nfd) {
		fputs("rackc verify: the observed cabling is as planned\n", fp);
	} else {
		uint32_t n[VF_KINDS] = { 0 };
		bool first = true;

		for (uint32_t i = 0; i < v->nfd; i++)
			n[v->fd[i].kind]++;
		fprintf(fp, "rackc verify: %u finding%s:", v->nfd,
			v->nfd == 1 ? "" : "s");
		for (int k = 0; k < VF_KINDS; k++)
			if (n[k]) {
				fprintf(fp, "%s %u %s", first ? "" : ",", n[k],
					kind_name[k]);
				first = false;
			}
		fputc('\n', fp);
	}
}

static void jstr(FILE *fp, const char *s)
{
	putc('"', fp);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(fp, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(fp, "\\u%04x", ch);
		else
			putc(ch, fp);
	}
	putc('"', fp);
}

static void json_end(FILE *fp, const struct vf *v, uint32_t p)
{
	const struct vf_port *x = &v->port[p];
	const struct vf_dev *d = &v->dev[x->dev];

	fputs("{\"rack\": ", fp);
	if (d->planned && *d->rack)
		jstr(fp, d->rack);
	else
		fputs("null", fp);
	fputs(", \"u\": ", fp);
	if (d->planned && *d->u && strspn(d->u, "0123456789") == strlen(d->u))
		fputs(d->u, fp);
	else if (d->planned && *d->u)
		jstr(fp, d->u);
	else
		fputs("null", fp);
	fputs(", \"device\": ", fp);
	jstr(fp, d->name);
	fputs(", \"port\": ", fp);
	jstr(fp, x->name);
	fputs(", \"faceplate\": ", fp);
	if (*x->faceplate)
		jstr(fp, x->faceplate);
	else
		fputs("null", fp);
	fprintf(fp, ", \"known\": %s}", d->planned ? "true" : "false");
}

static void json_out(FILE *fp, const struct vf *v, const char *design,
		     char **observed, int nobserved)
{
	struct cov c;
	uint32_t n[VF_KINDS] = { 0 };

	coverage(v, &c);
	for (uint32_t i = 0; i < v->nfd; i++)
		n[v->fd[i].kind]++;
	fputs("{\n  \"design\": ", fp);
	jstr(fp, design);
	fputs(",\n  \"observed\": [", fp);
	for (int i = 0; i < nobserved; i++) {
		fputs(i ? ", " : "", fp);
		jstr(fp, observed[i]);
	}
	fprintf(fp, "],\n  \"as_planned\": %s,\n", v->nfd ? "false" : "true");
	fprintf(fp,
		"  \"coverage\": {\"devices\": %" PRIu64
		", \"devices_observed\": %" PRIu64 ", \"ports\": %" PRIu64
		", \"ports_observed\": %" PRIu64 ", \"cables\": %" PRIu64
		", \"cables_observed\": %" PRIu64 "},\n",
		c.devs, c.devs_seen, c.ports, c.ports_seen, c.cables,
		c.cables_seen);
	fputs("  \"counts\": {", fp);
	for (int k = 0; k < VF_KINDS; k++)
		fprintf(fp, "%s\"%s\": %u", k ? ", " : "", kind_name[k], n[k]);
	fputs("},\n  \"findings\": [", fp);
	for (uint32_t i = 0; i < v->nfd; i++) {
		const struct vf_finding *f = &v->fd[i];
		const char *head, *todo;
		bool first = true;

		describe(v, f, &head, &todo);
		fprintf(fp, "%s\n    {\"kind\": \"%s\", \"message\": ",
			i ? "," : "", kind_name[f->kind]);
		jstr(fp, head);
		fputs(", \"cables\": [", fp);
		for (int k = 0; k < 2; k++)
			if (f->cable[k] != RK_NONE) {
				const struct vf_cable *x =
				    &v->cable[f->cable[k]];

				fputs(first ? "" : ", ", fp);
				first = false;
				fputs("{\"id\": ", fp);
				jstr(fp, x->id);
				fputs(", \"label\": ", fp);
				jstr(fp, x->label);
				fputs(", \"fabric\": ", fp);
				jstr(fp, x->fabric);
				fputs(", \"a\": ", fp);
				json_end(fp, v, x->end[0]);
				fputs(", \"b\": ", fp);
				json_end(fp, v, x->end[1]);
				fputs("}", fp);
			}
		fputs("], \"found\": [", fp);
		first = true;
		for (int k = 0; k < 2; k++)
			if (f->obs[k] != RK_NONE) {
				const struct vf_obs *o = &v->obs[f->obs[k]];

				fputs(first ? "" : ", ", fp);
				first = false;
				fputs("{\"a\": ", fp);
				json_end(fp, v, o->end[0]);
				fputs(", \"b\": ", fp);
				json_end(fp, v, o->end[1]);
				fputs(", \"rate\": ", fp);
				if (o->width || o->speed) {
					putc('"', fp);
					fputs(rate_str(v, o->width, o->speed),
					      fp);
					putc('"', fp);
				} else {
					fputs("null", fp);
				}
				fputs(", \"file\": ", fp);
				jstr(fp, o->file);
				fprintf(fp, ", \"line\": %u}", o->line);
			}
		fputs("]", fp);
		if (f->kind == VF_UNKNOWN_DEVICE) {
			fputs(", \"name\": ", fp);
			jstr(fp, f->what);
			fputs(", \"file\": ", fp);
			jstr(fp, f->file);
			fprintf(fp, ", \"line\": %u", f->line);
		}
		fputs(", \"action\": ", fp);
		jstr(fp, todo);
		fputs("}", fp);
	}
	fputs(v->nfd ? "\n  ]\n}\n" : "]\n}\n", fp);
}

/* Markdown: the work order, one section per rack, each finding under the
 * rack of every end it touches. */
struct wo_item {
	const char *rack;
	uint32_t fd;
};

static int wo_cmp(const void *a, const void *b)
{
	const struct wo_item *x = a, *y = b;
	int c = strcmp(x->rack, y->rack);

	return c ? c : (x->fd > y->fd) - (x->fd < y->fd);
}

static const char *md_cell(const struct vf *v, const char *s)
{
	size_t n = 0;
	char *o;

	for (const char *p = s; *p; p++)
		n += *p == '|' ? 2 : 1;
	o = arena_alloc(v->a, n + 1);
	n = 0;
	for (const char *p = s; *p; p++) {
		if (*p == '|')
			o[n++] = '\\';
		o[n++] = *p == '\n' ? ' ' : *p;
	}
	o[n] = '\0';
	return o;
}

static void md_out(FILE *fp, const struct vf *v, const char *design)
{
	struct wo_item *it = NULL;
	uint32_t n = 0, cap = 0;
	struct cov c;

	for (uint32_t i = 0; i < v->nfd; i++) {
		const struct vf_finding *f = &v->fd[i];
		uint32_t ports[8], np = 0;

		for (int k = 0; k < 2; k++) {
			if (f->cable[k] != RK_NONE) {
				ports[np++] = v->cable[f->cable[k]].end[0];
				ports[np++] = v->cable[f->cable[k]].end[1];
			}
			if (f->obs[k] != RK_NONE) {
				ports[np++] = v->obs[f->obs[k]].end[0];
				ports[np++] = v->obs[f->obs[k]].end[1];
			}
		}
		if (!np) {
			struct wo_item *w = VEC_PUSH(it, n, cap);

			w->rack = "(not in the design)";
			w->fd = i;
		}
		for (uint32_t k = 0; k < np; k++) {
			const struct vf_dev *d = &v->dev[v->port[ports[k]].dev];
			const char *r = d->planned && *d->rack
					    ? d->rack
					    : "(not in the design)";
			bool dup = false;

			for (uint32_t j = 0; j < k; j++) {
				const struct vf_dev *e =
				    &v->dev[v->port[ports[j]].dev];

				if (streq(e->planned && *e->rack
					      ? e->rack
					      : "(not in the design)",
					  r))
					dup = true;
			}
			if (!dup) {
				struct wo_item *w = VEC_PUSH(it, n, cap);

				w->rack = r;
				w->fd = i;
			}
		}
	}
	if (n)
		qsort(it, n, sizeof(*it), wo_cmp);
	coverage(v, &c);
	fprintf(fp, "# Cabling work order: %s\n\n", md_cell(v, design));
	fprintf(fp,
		"Observed: %" PRIu64 " of %" PRIu64 " devices, %" PRIu64
		" of %" PRIu64 " cabled ports, %" PRIu64 " of %" PRIu64
		" cables.  Findings: %u.\n",
		c.devs_seen, c.devs, c.ports_seen, c.ports, c.cables_seen,
		c.cables, v->nfd);
	if (!v->nfd)
		fputs("\nThe observed cabling is as planned: nothing to do.\n",
		      fp);
	for (uint32_t i = 0; i < n; i++) {
		const struct vf_finding *f = &v->fd[it[i].fd];
		const char *head, *todo, *cables = "", *where = "";
		const char *labels = "";

		if (i == 0 || !streq(it[i].rack, it[i - 1].rack))
			fprintf(fp,
				"\n## Rack %s\n\n| done | finding | cable | "
				"label | ends | to do |\n| --- | --- | --- | "
				"--- | --- | --- |\n",
				md_cell(v, it[i].rack));
		describe(v, f, &head, &todo);
		for (int k = 0; k < 2; k++)
			if (f->cable[k] != RK_NONE) {
				const struct vf_cable *x =
				    &v->cable[f->cable[k]];

				cables = arena_printf(v->a, "%s%s%s", cables,
						      k ? ", " : "", x->id);
				labels = arena_printf(v->a, "%s%s%s", labels,
						      k ? "; " : "", x->label);
				where = arena_printf(
				    v->a, "%s%splanned %s -- %s", where,
				    *where ? "; " : "", end_str(v, x->end[0]),
				    end_str(v, x->end[1]));
			}
		for (int k = 0; k < 2; k++)
			if (f->obs[k] != RK_NONE) {
				const struct vf_obs *o = &v->obs[f->obs[k]];

				where = arena_printf(v->a, "%s%sfound %s -- %s",
						     where, *where ? "; " : "",
						     end_str(v, o->end[0]),
						     end_str(v, o->end[1]));
			}
		fprintf(fp, "| [ ] | %s: %s | %s | %s | %s | %s |\n",
			kind_name[f->kind], md_cell(v, head),
			md_cell(v, cables), md_cell(v, labels),
			md_cell(v, where), md_cell(v, todo));
	}
	free(it);
}

/* ---- the command ---- */

enum {
	O_FORMAT = OPT__SHARED,
	O_MAP,
	O_WORK_ORDER,
};

static const struct option verify_opts[] = {
	OPTS_DESIGN,
	{ "format", required_argument, NULL, O_FORMAT },
	{ "map", required_argument, NULL, O_MAP },
	{ "work-order", required_argument, NULL, O_WORK_ORDER },
	{ NULL, 0, NULL, 0 },
};

static void verify_usage(FILE *fp)
{
	fputs("Usage: rackc verify [OPTION]... DESIGN OBSERVED...\n"
	      "Compare the cabling the fabric reports with the design's plan.\n"
	      "DESIGN is a design file or an output directory (cabling.csv,\n"
	      "cabling/patch.csv, ib/*.net); each OBSERVED is ibnetdiscover\n"
	      "output, ibdiagnet.lst, ibdiagnet2.db_csv, `lldpcli -f json\n"
	      "show neighbors` output ([HOST=]FILE),\n"
	      "or a CSV of device,port,peer_device,peer_port.\n"
	      "\n"
	      "  -D, --define=NAME=VALUE override param NAME\n"
	      "  -I, --include=DIR       search DIR for imports\n"
	      "      --stdlib=DIR        standard library directory\n"
	      "      --map=FILE          rules that map observed names to the\n"
	      "                          design's ('device PATTERN NAME',\n"
	      "                          'port PATTERN NAME'; ~ERE patterns)\n"
	      "  -f, --format=text|json|markdown\n"
	      "                          output format (default text)\n"
	      "      --work-order=FILE   also write the Markdown work order,\n"
	      "                          grouped by rack, to FILE\n"
	      "      --help              show this help and exit\n"
	      "\n"
	      "Findings: missing, unplanned, swapped, wrong-port, moved,\n"
	      "wrong-rate, unknown-device.  Exit status: 0 as planned, 1 "
	      "differences,\n"
	      "2 usage error or unreadable input.\n",
	      fp);
}

static void vf_free(struct vf *v)
{
	for (uint32_t i = 0; i < v->nrule; i++)
		if (v->rule[i].re)
			regfree(&v->rule[i].rx);
	free(v->rule);
	free(v->str.s);
	free(v->str.slot);
	free(v->dev);
	free(v->port);
	free(v->cable);
	free(v->obs);
	free(v->fd);
	free(v->subnet);
	free(v->subnet_seen);
	free(v->ibn_dev);
	free(v->ibn_subnet);
	vf_map_free(&v->dev_by_name);
	vf_map_free(&v->port_by_name);
	vf_map_free(&v->ib_node);
	vf_map_free(&v->ib_port);
	vf_map_free(&v->obs_pair);
	vf_map_free(&v->unknown);
}

/* What the command line asks of verify_main. */
struct vargs {
	struct vopts vo;
	enum fmt f;
	const char *map, *work;
};

/*
 * Option @c of the command line @argv: -1 to go on, else the exit status
 * (0 after --help, 2 after the error).
 */
static int verify_opt(int c, char **argv, struct vargs *va)
{
	struct vopts *vo = &va->vo;
	enum opts_format of;
	char *arg;

	switch (c) {
	case 'D':
		arg = xstrdup(optarg); /* freed by name */
		vo->defines = xrealloc(vo->defines, (vo->ndefines + 1) *
							sizeof(*vo->defines));
		if (!opts_define(arg, &vo->defines[vo->ndefines])) {
			free(arg);
			fprintf(stderr,
				"rackc verify: error: " OPTS_DEFINE_ERR "\n",
				optarg);
			return 2;
		}
		vo->ndefines++;
		return -1;
	case 'I':
		vo->incdirs = xrealloc(vo->incdirs, (vo->nincdirs + 1) *
							sizeof(*vo->incdirs));
		vo->incdirs[vo->nincdirs++] = optarg;
		return -1;
	case OPT_STDLIB:
		vo->stddir = optarg;
		return -1;
	case OPT_MAX_SOURCE:
		if (srcmgr_parse_max(optarg, &vo->max_source))
			return -1;
		fprintf(stderr,
			"rackc verify: error: " OPTS_MAX_SOURCE_ERR "\n",
			optarg);
		return 2;
	case OPT_MAX_LINKS:
		if (opts_max_links(optarg, &vo->max_links))
			return -1;
		fprintf(stderr, "rackc verify: error: " OPTS_MAX_LINKS_ERR "\n",
			optarg);
		return 2;
	case 'f':
	case O_FORMAT:
		if (!opts_format(optarg, &of)) {
			fprintf(stderr,
				"rackc verify: error: " OPTS_FORMAT_ERR "\n",
				optarg);
			return 2;
		}
		va->f = (enum fmt)of;
		return -1;
	case O_MAP:
		va->map = optarg;
		return -1;
	case O_WORK_ORDER:
		va->work = optarg;
		return -1;
	case OPT_HELP:
		verify_usage(stdout);
		return 0;
	case ':':
		fprintf(stderr,
			"rackc verify: error: option '%s' needs an argument\n",
			argv[optind - 1]);
		return 2;
	default:
		fprintf(stderr, "rackc verify: error: unknown option '%s'\n",
			argv[optind - 1]);
		return 2;
	}
}

/*
 * The plan of @design (an output directory, or a design file compiled
 * into a scratch directory first) into @v.
 */
static bool load_design(struct vf *v, const char *design,
			const struct vopts *vo)
{
	const char *dir = design;
	char *tmp = NULL;
	struct stat st;
	bool ok = true;

	if (stat(dir, &st) != 0) {
		fprintf(stderr, "rackc verify: error: cannot read '%s': %s\n",
			dir, strerror(errno));
		ok = false;
	} else if (!S_ISDIR(st.st_mode)) {
		tmp = scratch_make(v->a, "rackc verify", "rackc-verify");
		if (!tmp) {
			ok = false;
		} else {
			ok = compile_design(dir, vo, tmp);
			dir = tmp;
		}
	}
	ok = ok && load_plan(v, dir);
	if (tmp)
		scratch_remove(tmp);
	return ok;
}

/* The Markdown work order of @design's comparison, into file @path. */
static bool write_work_order(const struct vf *v, const char *path,
			     const char *design)
{
	FILE *wf = fopen(path, "w");

	if (!wf) {
		fprintf(stderr, "rackc verify: error: cannot write '%s': %s\n",
			path, strerror(errno));
		return false;
	}
	md_out(wf, v, design);
	if (fclose(wf)) {
		fprintf(stderr, "rackc verify: error: cannot write '%s'\n",
			path);
		return false;
	}
	return true;
}

int verify_main(int argc, char **argv)
{
	struct vargs va;
	struct arena a;
	struct vf v;
	int c, rc = -1;
	bool ok;

	memset(&va, 0, sizeof(va));
	va.f = F_TEXT;
	optind = 1;
	opterr = 0;
	while (rc < 0 &&
	       (c = getopt_long(argc, argv, ":" OPTS_DESIGN_SHORT "f:",
				verify_opts, NULL)) != -1)
		rc = verify_opt(c, argv, &va);
	if (rc < 0 && argc - optind < 2) {
		fputs("rackc verify: error: give a design (or an output "
		      "directory) and at least one observation\nTry 'rackc "
		      "verify --help' for more information.\n",
		      stderr);
		rc = 2;
	}
	if (rc >= 0)
		goto out;
	rc = 2;
	arena_init(&a);
	memset(&v, 0, sizeof(v));
	v.a = &a;
	v.str.a = &a;
	ok = load_design(&v, argv[optind], &va.vo);
	if (ok && va.map)
		ok = vf_read_mapping(&v, va.map);
	for (int i = optind + 1; i < argc && ok; i++)
		ok = vf_read_observed(&v, argv[i]);
	if (ok) {
		compare(&v);
		if (va.f == F_JSON)
			json_out(stdout, &v, argv[optind], argv + optind + 1,
				 argc - optind - 1);
		else if (va.f == F_MD)
			md_out(stdout, &v, argv[optind]);
		else
			text_out(stdout, &v, argv[optind]);
		if (va.work)
			ok = write_work_order(&v, va.work, argv[optind]);
		rc = !ok || fflush(stdout) || ferror(stdout) ? 2
		     : v.nfd				     ? 1
							     : 0;
	}
	vf_free(&v);
	arena_destroy(&a);
out:
	for (uint32_t i = 0; i < va.vo.ndefines; i++)
		free((void *)(uintptr_t)va.vo.defines[i].name);
	free(va.vo.defines);
	free(va.vo.incdirs);
	return rc;
}
