/* SPDX-License-Identifier: MIT */
/*
 * The "k8s" back end (on request): the network topology for Kubernetes
 * schedulers that place pods by it.
 *
 *   k8s/node-labels.yaml        one partial Node object per compute node,
 *                               holding its topology labels (kubectl apply
 *                               --server-side, or kubectl patch)
 *   k8s/label-nodes.sh          the same labels as `kubectl label
 *                               --overwrite` commands (idempotent)
 *   k8s/kueue-topology.yaml     a Kueue Topology (kueue.x-k8s.io/v1beta2)
 *                               whose levels are those labels
 *   k8s/volcano-hypernodes.yaml Volcano HyperNodes (topology.volcano.sh/
 *                               v1alpha1), one per switch of the tree and
 *                               per NVLink domain, members by exact name
 *
 * The labels follow NVIDIA topograph 1.0: fabric.topograph.run/tier-N
 * names the switch N tiers above the node (tier 0 the leaf), and
 * accelerator.topograph.run/domain the NVLink domain.  The switches and
 * domains are exactly those of slurm/topology.conf and slurm/block.conf
 * (sched_topo.h): a leaf entry there is tier 0, an entry one tier above its
 * highest child is the next tier, and a domain is a block.  A node under
 * switches whose parents are not one entry (no tree) is labelled up to
 * the last tier it has one switch of.
 *
 * Names (doc/k8s.md):
 *   node         the host name in lower case, as the kubelet registers it;
 *                it must be an RFC 1123 subdomain, and two hosts may not
 *                fold to one name (errors otherwise)
 *   label value  the switch host name or block name when it is a valid
 *                label value (63 characters at most), else topograph's own
 *                form: "x" and the hex FNV-1a 64 hash of the name; two
 *                names with one value are an error
 *   HyperNode    the name in lower case with '_' as '-' when that is an
 *                RFC 1123 subdomain of 63 characters at most that no other
 *                HyperNode gets, else "hn-" and the 16-digit hex FNV-1a 64
 *                hash of the kind and name
 * Everything is ordered by host name (switches, domains and nodes).
 */
#include "rackc.h"

#include <inttypes.h>
#include <stdlib.h>

#include "backend.h"
#include "be_common.h"
#include "sched_topo.h"

#define KEY_TIER "fabric.topograph.run/tier-"
#define KEY_DOMAIN "accelerator.topograph.run/domain"
#define KEY_HOST "kubernetes.io/hostname"
#define MULTI (RK_NONE - 1)

static bool lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static bool alnum(char c)
{
	return lower_alnum(c) || (c >= 'A' && c <= 'Z');
}

/* A label value: empty or [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?, 63 at
 * most. */
static bool label_value_ok(const char *s)
{
	size_t n = strlen(s);

	if (n > 63)
		return false;
	if (!n)
		return true;
	if (!alnum(s[0]) || !alnum(s[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

/* An RFC 1123 subdomain of @max characters at most. */
static bool subdomain_ok(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (!n || n > max)
		return false;
	for (size_t i = 0; i < n; i++) {
		bool start = !i || s[i - 1] == '.',
		     end = i + 1 == n || s[i + 1] == '.';

		if (s[i] == '.') {
			if (start || end)
				return false;
		} else if (!lower_alnum(s[i]) &&
			   (s[i] != '-' || start || end)) {
			return false;
		}
	}
	return true;
}

static char *lower(struct arena *a, const char *s, bool dash)
{
	size_t n = strlen(s);
	char *r = arena_alloc(a, n + 1);

	for (size_t i = 0; i <= n; i++) {
		char c = s[i];

		r[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a')
		       : dash && c == '_'   ? '-'
					    : c;
	}
	return r;
}

/* The label value of a switch or domain name (topograph's checkLabel). */
static const char *label_value(struct arena *a, const char *name)
{
	char buf[24];

	if (label_value_ok(name))
		return name;
	snprintf(buf, sizeof(buf), "x%" PRIx64, be_fnv1a(name));
	return arena_strndup(a, buf, strlen(buf));
}

/* One name given to one source, to find clashes. */
struct nm {
	const char *name, *src;
	uint32_t idx;
};

static int cmp_nm(const void *pa, const void *pb)
{
	const struct nm *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	return c ? c : strcmp(a->src, b->src);
}

/* Host-name order: runs of digits by value (dgx-2 before dgx-10). */
static int natcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			const char *x = a, *y = b;

			while (*x == '0' && x[1] >= '0' && x[1] <= '9')
				x++;
			while (*y == '0' && y[1] >= '0' && y[1] <= '9')
				y++;
			a = x, b = y;
			while (*x >= '0' && *x <= '9')
				x++;
			while (*y >= '0' && *y <= '9')
				y++;
			if (x - a != y - b)
				return x - a < y - b ? -1 : 1;
			for (; a < x; a++, b++)
				if (*a != *b)
					return *a < *b ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++, b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int cmp_str(const void *pa, const void *pb)
{
	const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
	int c = natcmp(a, b);

	return c ? c : strcmp(a, b);
}

/* What is known of each labelled node. */
struct knode {
	uint32_t dev;
	const char *name; /* Kubernetes node name */
	uint32_t leaf;	  /* tree entry, RK_NONE, or MULTI */
	uint32_t block;	  /* block, or RK_NONE */
};

static int cmp_knode(const void *pa, const void *pb)
{
	const char *a = ((const struct knode *)pa)->name,
		   *b = ((const struct knode *)pb)->name;
	int c = natcmp(a, b);

	return c ? c : strcmp(a, b);
}

struct hn {
	const char *name; /* HyperNode name */
	const char *tier_name;
	unsigned tier;
	bool is_block;
	uint32_t idx; /* tree entry or block */
};

struct k8s {
	struct backend_ctx *ctx;
	struct sched_topo t;
	struct knode *nodes;
	uint32_t nn;
	uint32_t *node_of;  /* device -> index in nodes, or RK_NONE */
	uint32_t *entry_of; /* switch device -> tree entry, or RK_NONE */
	uint32_t *parent;   /* tree entry -> parent entry, RK_NONE, MULTI */
	unsigned *tier;	    /* tree entry -> tier (0: leaf) */
	const char **tval;  /* tree entry -> label value */
	const char **bval;  /* block -> label value */
	const char **thn;   /* tree entry -> HyperNode name */
	const char **bhn;   /* block -> HyperNode name */
	unsigned depth;	    /* tiers every node has (Kueue levels) */
	bool domain_level;  /* the NVLink domain is a level below tier 0 */
	unsigned max_tier;  /* highest tier + 1 */
};

static const char *tier_word(int level)
{
	static const char *const w[] = { "leaf", "spine", "core", "top" };

	return level >= 0 && level < 4 ? w[level] : "switch";
}

/* Two sources with one name in @v[0..n): an error each. */
static bool clashes(struct k8s *k, struct nm *v, uint32_t n, const char *what)
{
	bool ok = true;

	qsort(v, n, sizeof(*v), cmp_nm);
	for (uint32_t i = 1; i < n; i++)
		if (streq(v[i].name, v[i - 1].name) &&
		    !streq(v[i].src, v[i - 1].src)) {
			diag_error(k->ctx->diag, NULL, "k8s",
				   "cannot write Kubernetes topology: '%s' and "
				   "'%s' would both be %s '%s'",
				   v[i - 1].src, v[i].src, what, v[i].name);
			ok = false;
		}
	return ok;
}

/* The nodes, their leaf and block, and their names. */
static bool collect_nodes(struct k8s *k)
{
	const struct rk_design *d = k->ctx->d;
	const struct sched_topo *t = &k->t;
	struct nm *v;
	bool ok = true;

	for (uint32_t e = 0; e < t->ntree; e++) {
		if (t->tree[e].level != 0)
			continue;
		for (uint32_t i = 0; i < t->tree[e].nkids; i++) {
			uint32_t dev = t->tree[e].kids[i];
			struct knode *kn;

			if (k->node_of[dev] == RK_NONE) {
				k->node_of[dev] = k->nn;
				kn = &k->nodes[k->nn++];
				kn->dev = dev;
				kn->leaf = e;
				kn->block = RK_NONE;
				continue;
			}
			kn = &k->nodes[k->node_of[dev]];
			if (kn->leaf != e && kn->leaf != MULTI) {
				diag_error(
				    k->ctx->diag, &d->objs[dev].loc, "k8s",
				    "cannot write Kubernetes topology labels: "
				    "%s is under leaf switches %s (fabric "
				    "'%s') "
				    "and %s (fabric '%s'), a node has one "
				    "tier-0 "
				    "label",
				    ir_name(d, dev), t->tree[kn->leaf].name,
				    t->tree[kn->leaf].fabric, t->tree[e].name,
				    t->tree[e].fabric);
				kn->leaf = MULTI;
				ok = false;
			}
		}
	}
	for (uint32_t b = 0; b < t->nblocks; b++)
		for (uint32_t i = 0; i < t->blocks[b].nkids; i++) {
			uint32_t dev = t->blocks[b].kids[i];
			struct knode *kn;

			if (k->node_of[dev] == RK_NONE) {
				k->node_of[dev] = k->nn;
				kn = &k->nodes[k->nn++];
				kn->dev = dev;
				kn->leaf = RK_NONE;
			}
			/* one block per node: sched_topology() checked */
			k->nodes[k->node_of[dev]].block = b;
		}
	v = xmalloc(((size_t)k->nn + 1) * sizeof(*v));
	for (uint32_t i = 0; i < k->nn; i++) {
		struct knode *kn = &k->nodes[i];
		const char *h = t->host[kn->dev];

		kn->name = lower(k->ctx->arena, h, false);
		if (!subdomain_ok(kn->name, 253)) {
			diag_error(
			    k->ctx->diag, &d->objs[kn->dev].loc, "k8s",
			    "cannot write Kubernetes topology: host '%s' "
			    "of %s is no Kubernetes node name (an RFC "
			    "1123 subdomain: lower-case letters, digits, "
			    "'-' and '.'); give it a hostname that is one",
			    h, ir_name(d, kn->dev));
			ok = false;
		}
		v[i].name = kn->name;
		v[i].src = h;
		v[i].idx = i;
	}
	ok = clashes(k, v, k->nn, "Kubernetes node") && ok;
	free(v);
	return ok;
}

/* Parents and tiers of the tree entries. */
static void tree_shape(struct k8s *k)
{
	const struct sched_topo *t = &k->t;

	for (uint32_t e = 0; e < t->ntree; e++)
		k->entry_of[t->tree[e].dev] = e;
	/* entries come level by level, children first (slurm.c) */
	for (uint32_t e = 0; e < t->ntree; e++) {
		const struct sched_entry *x = &t->tree[e];
		unsigned tier = 0;

		if (x->level > 0)
			for (uint32_t i = 0; i < x->nkids; i++) {
				uint32_t c = k->entry_of[x->kids[i]];

				if (c == RK_NONE)
					continue;
				if (k->tier[c] + 1 > tier)
					tier = k->tier[c] + 1;
				k->parent[c] = k->parent[c] == RK_NONE ? e
					       : k->parent[c] == e     ? e
								       : MULTI;
			}
		k->tier[e] = tier;
		if (tier + 1 > k->max_tier)
			k->max_tier = tier + 1;
	}
}

/* The label values and HyperNode names. */
static bool names(struct k8s *k)
{
	struct arena *a = k->ctx->arena;
	const struct sched_topo *t = &k->t;
	uint32_t n = t->ntree + t->nblocks;
	struct nm *v = xmalloc(((size_t)n + 1) * sizeof(*v));
	uint32_t m = 0;
	bool ok = true;

	for (uint32_t e = 0; e < t->ntree; e++)
		k->tval[e] = label_value(a, t->tree[e].name);
	for (uint32_t b = 0; b < t->nblocks; b++)
		k->bval[b] = label_value(a, t->blocks[b].name);
	/* values clash only within one key: the tiers' names are host
	 * names (distinct), so only hashed values can */
	for (unsigned tier = 0; tier < k->max_tier; tier++) {
		m = 0;
		for (uint32_t e = 0; e < t->ntree; e++)
			if (k->tier[e] == tier)
				v[m++] = (struct nm){ k->tval[e],
						      t->tree[e].name, e };
		ok = clashes(k, v, m, "label value") && ok;
	}
	m = 0;
	for (uint32_t b = 0; b < t->nblocks; b++)
		v[m++] = (struct nm){ k->bval[b], t->blocks[b].name, b };
	ok = clashes(k, v, m, "label value") && ok;

	/* HyperNode names: one namespace for all of them */
	m = 0;
	for (uint32_t e = 0; e < t->ntree; e++)
		v[m++] = (struct nm){ lower(a, t->tree[e].name, true),
				      t->tree[e].name, e };
	for (uint32_t b = 0; b < t->nblocks; b++)
		v[m++] = (struct nm){ lower(a, t->blocks[b].name, true),
				      t->blocks[b].name, t->ntree + b };
	qsort(v, m, sizeof(*v), cmp_nm);
	for (uint32_t i = 0; i < m; i++) {
		bool dup = (i > 0 && streq(v[i].name, v[i - 1].name)) ||
			   (i + 1 < m && streq(v[i].name, v[i + 1].name));
		const char **slot = v[i].idx < t->ntree
					? &k->thn[v[i].idx]
					: &k->bhn[v[i].idx - t->ntree];

		if (dup || !subdomain_ok(v[i].name, 63)) {
			char buf[64];

			snprintf(buf, sizeof(buf), "hn-%016" PRIx64,
				 be_fnv1a(v[i].src) ^
				     (v[i].idx < t->ntree ? 0 : 1));
			*slot = arena_strndup(a, buf, strlen(buf));
		} else {
			*slot = v[i].name;
		}
	}
	for (uint32_t i = 0; i < m; i++) {
		v[i].name = v[i].idx < t->ntree ? k->thn[v[i].idx]
						: k->bhn[v[i].idx - t->ntree];
		v[i].src = v[i].idx < t->ntree
			       ? t->tree[v[i].idx].name
			       : t->blocks[v[i].idx - t->ntree].name;
	}
	ok = clashes(k, v, m, "HyperNode") && ok;
	free(v);
	return ok;
}

/* The tier-N switch of node @i (tree entry), or RK_NONE. */
static uint32_t tier_entry(const struct k8s *k, const struct knode *kn,
			   unsigned tier)
{
	uint32_t e = kn->leaf;

	while (e != RK_NONE && e != MULTI && k->tier[e] < tier)
		e = k->parent[e];
	return e != MULTI && e != RK_NONE && k->tier[e] == tier ? e : RK_NONE;
}

/* The levels: the tiers every node has, the domain where it nests. */
static void levels(struct k8s *k)
{
	bool all_blocks = k->t.nblocks > 0;

	k->depth = k->max_tier;
	for (uint32_t i = 0; i < k->nn; i++) {
		unsigned dp = 0;

		while (dp < k->depth &&
		       tier_entry(k, &k->nodes[i], dp) != RK_NONE)
			dp++;
		k->depth = dp;
		all_blocks = all_blocks && k->nodes[i].block != RK_NONE;
	}
	/* the NVLink domain is a level when every node has one and every
	 * domain lies under one leaf (or there is no tree) */
	k->domain_level = all_blocks;
	if (all_blocks && k->depth) {
		uint32_t *leaf_of_block =
		    xmalloc(((size_t)k->t.nblocks + 1) * sizeof(uint32_t));

		memset(leaf_of_block, 0xff,
		       ((size_t)k->t.nblocks + 1) * sizeof(uint32_t));
		for (uint32_t i = 0; i < k->nn && k->domain_level; i++) {
			uint32_t *l = &leaf_of_block[k->nodes[i].block];

			if (*l == RK_NONE)
				*l = k->nodes[i].leaf;
			else if (*l != k->nodes[i].leaf)
				k->domain_level = false;
		}
		free(leaf_of_block);
	}
}

static void yq(FILE *fp, const char *s)
{
	/* every string written is [A-Za-z0-9._/-]: no escapes needed */
	fprintf(fp, "\"%s\"", s);
}

static void header(FILE *fp, const struct k8s *k, const char *what)
{
	fprintf(fp, "# rackc: %s of %s\n", what, k->ctx->input);
}

static void write_labels(struct k8s *k, struct knode **ord)
{
	FILE *fp = out_open(k->ctx, "k8s/node-labels.yaml");

	if (fp) {
		header(fp, k, "topology labels (NVIDIA topograph 1.0 keys)");
		fputs("# kubectl apply --server-side --field-manager=rackc "
		      "-f node-labels.yaml\n",
		      fp);
		for (uint32_t i = 0; i < k->nn; i++) {
			const struct knode *kn = ord[i];

			fputs("---\napiVersion: v1\nkind: Node\nmetadata:\n"
			      "  name: ",
			      fp);
			yq(fp, kn->name);
			fputs("\n  labels:\n", fp);
			if (kn->block != RK_NONE) {
				fputs("    " KEY_DOMAIN ": ", fp);
				yq(fp, k->bval[kn->block]);
				fputc('\n', fp);
			}
			for (unsigned tr = 0; tr < k->max_tier; tr++) {
				uint32_t e = tier_entry(k, kn, tr);

				if (e == RK_NONE)
					break;
				fprintf(fp, "    " KEY_TIER "%u: ", tr);
				yq(fp, k->tval[e]);
				fputc('\n', fp);
			}
		}
	}
	fp = out_open(k->ctx, "k8s/label-nodes.sh");
	if (fp) {
		fputs("#!/bin/sh\n", fp);
		header(fp, k, "topology labels (NVIDIA topograph 1.0 keys)");
		fputs("# Idempotent: labels are overwritten with the same "
		      "values.  KUBECTL overrides the\n# command (e.g. "
		      "KUBECTL=\"kubectl --context prod\").\nset -eu\n"
		      "kubectl=${KUBECTL:-kubectl}\n",
		      fp);
		for (uint32_t i = 0; i < k->nn; i++) {
			const struct knode *kn = ord[i];

			fprintf(fp, "$kubectl label --overwrite node %s",
				kn->name);
			if (kn->block != RK_NONE)
				fprintf(fp, " \\\n\t" KEY_DOMAIN "=%s",
					k->bval[kn->block]);
			for (unsigned tr = 0; tr < k->max_tier; tr++) {
				uint32_t e = tier_entry(k, kn, tr);

				if (e == RK_NONE)
					break;
				fprintf(fp, " \\\n\t" KEY_TIER "%u=%s", tr,
					k->tval[e]);
			}
			fputc('\n', fp);
		}
	}
}

static void write_kueue(struct k8s *k)
{
	FILE *fp = out_open(k->ctx, "k8s/kueue-topology.yaml");
	char *nm;
	const char *name;

	if (!fp)
		return;
	/* the design's base name, as a HyperNode-style name */
	nm = lower(k->ctx->arena, k->ctx->input, true);
	{
		size_t n = strlen(nm);

		if (n > 5 && streq(nm + n - 5, ".rack"))
			nm[n - 5] = '\0';
		for (char *p = nm; *p; p++)
			if (!lower_alnum(*p) && *p != '-')
				*p = '-';
		name = subdomain_ok(nm, 253) ? nm : "rackc";
	}
	header(fp, k, "Kueue Topology (kueue.x-k8s.io/v1beta2)");
	fputs("# levels from the coarsest to the finest; a ResourceFlavor "
	      "names it in\n# spec.topologyName\n"
	      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Topology\n"
	      "metadata:\n  name: ",
	      fp);
	yq(fp, name);
	fputs("\nspec:\n  levels:\n", fp);
	for (unsigned tr = k->depth; tr-- > 0;)
		fprintf(fp, "    - nodeLabel: \"" KEY_TIER "%u\"\n", tr);
	if (k->domain_level)
		fputs("    - nodeLabel: \"" KEY_DOMAIN "\"\n", fp);
	fputs("    - nodeLabel: \"" KEY_HOST "\"\n", fp);
}

static int cmp_hn(const void *pa, const void *pb)
{
	const struct hn *a = pa, *b = pb;

	if (a->tier != b->tier)
		return a->tier < b->tier ? -1 : 1;
	return cmp_str(&a->name, &b->name);
}

static void write_volcano(struct k8s *k, struct knode **ord)
{
	const struct sched_topo *t = &k->t;
	FILE *fp = out_open(k->ctx, "k8s/volcano-hypernodes.yaml");
	uint32_t nh = 0, base = k->domain_level ? 2 : 1;
	struct hn *h;
	const char **mem;

	if (!fp)
		return;
	h = xmalloc(((size_t)t->ntree + t->nblocks + 1) * sizeof(*h));
	if (k->domain_level)
		for (uint32_t b = 0; b < t->nblocks; b++)
			h[nh++] =
			    (struct hn){ k->bhn[b], "nvlink", 1, true, b };
	for (uint32_t e = 0; e < t->ntree; e++)
		h[nh++] = (struct hn){ k->thn[e], tier_word(t->tree[e].level),
				       base + k->tier[e], false, e };
	qsort(h, nh, sizeof(*h), cmp_hn);
	/* the nodes of each block and of each leaf, by name */
	mem =
	    xmalloc(((size_t)k->nn + t->ntree + t->nblocks + 1) * sizeof(*mem));
	header(fp, k, "Volcano HyperNodes (topology.volcano.sh/v1alpha1)");
	fputs("# tier 1 is the closest to the nodes\n", fp);
	for (uint32_t i = 0; i < nh; i++) {
		const struct hn *x = &h[i];
		uint32_t nm = 0;
		const char *type = "Node";

		if (x->is_block) {
			for (uint32_t j = 0; j < k->nn; j++)
				if (ord[j]->block == x->idx)
					mem[nm++] = ord[j]->name;
		} else if (t->tree[x->idx].level == 0 && k->domain_level) {
			type = "HyperNode";
			for (uint32_t j = 0; j < k->nn; j++)
				if (ord[j]->leaf == x->idx)
					mem[nm++] = k->bhn[ord[j]->block];
			qsort(mem, nm, sizeof(*mem), cmp_str);
		} else if (t->tree[x->idx].level == 0) {
			for (uint32_t j = 0; j < k->nn; j++)
				if (ord[j]->leaf == x->idx)
					mem[nm++] = ord[j]->name;
		} else {
			const struct sched_entry *se = &t->tree[x->idx];

			type = "HyperNode";
			for (uint32_t j = 0; j < se->nkids; j++) {
				uint32_t c = k->entry_of[se->kids[j]];

				if (c != RK_NONE)
					mem[nm++] = k->thn[c];
			}
			qsort(mem, nm, sizeof(*mem), cmp_str);
		}
		/* without duplicates (a leaf's nodes share blocks) */
		{
			uint32_t q = 0;

			for (uint32_t j = 0; j < nm; j++)
				if (!q || !streq(mem[j], mem[q - 1]))
					mem[q++] = mem[j];
			nm = q;
		}
		if (!nm)
			continue;
		fputs("---\napiVersion: topology.volcano.sh/v1alpha1\n"
		      "kind: HyperNode\nmetadata:\n  name: ",
		      fp);
		yq(fp, x->name);
		fprintf(fp, "\nspec:\n  tier: %u\n  tierName: ", x->tier);
		yq(fp, x->tier_name);
		fputs("\n  members:\n", fp);
		for (uint32_t j = 0; j < nm; j++) {
			fprintf(fp,
				"    - type: %s\n      selector:\n"
				"        exactMatch:\n          name: ",
				type);
			yq(fp, mem[j]);
			fputc('\n', fp);
		}
	}
	free(mem);
	free(h);
}

static bool emit_k8s(struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	size_t n = d->nobjs ? d->nobjs : 1;
	struct k8s k;
	struct knode **ord;
	bool ok;

	memset(&k, 0, sizeof(k));
	k.ctx = ctx;
	ok = sched_topology(ctx, &k.t);
	k.nodes = xcalloc(n + 1, sizeof(*k.nodes));
	k.node_of = xmalloc(n * sizeof(*k.node_of));
	k.entry_of = xmalloc(n * sizeof(*k.entry_of));
	memset(k.node_of, 0xff, n * sizeof(*k.node_of));
	memset(k.entry_of, 0xff, n * sizeof(*k.entry_of));
	k.parent = xmalloc(((size_t)k.t.ntree + 1) * sizeof(*k.parent));
	memset(k.parent, 0xff, ((size_t)k.t.ntree + 1) * sizeof(*k.parent));
	k.tier = xcalloc((size_t)k.t.ntree + 1, sizeof(*k.tier));
	k.tval = xcalloc((size_t)k.t.ntree + 1, sizeof(*k.tval));
	k.thn = xcalloc((size_t)k.t.ntree + 1, sizeof(*k.thn));
	k.bval = xcalloc((size_t)k.t.nblocks + 1, sizeof(*k.bval));
	k.bhn = xcalloc((size_t)k.t.nblocks + 1, sizeof(*k.bhn));
	ord = xmalloc(n * sizeof(*ord));
	if (ok) {
		ok = collect_nodes(&k);
		tree_shape(&k);
		ok = names(&k) && ok;
	}
	if (ok && !k.nn && !ctx->dry)
		diag_warning(ctx->diag, NULL, "k8s",
			     "no fat-tree or NVLink fabric with compute nodes: "
			     "no Kubernetes topology written");
	if (ok && k.nn) {
		levels(&k);
		for (uint32_t i = 0; i < k.nn; i++)
			ord[i] = &k.nodes[i];
		qsort(k.nodes, k.nn, sizeof(*k.nodes), cmp_knode);
		write_labels(&k, ord);
		write_kueue(&k);
		write_volcano(&k, ord);
	}
	free(ord);
	free(k.nodes);
	free(k.node_of);
	free(k.entry_of);
	free(k.parent);
	free(k.tier);
	free(k.tval);
	free(k.thn);
	free(k.bval);
	free(k.bhn);
	sched_topo_free(&k.t);
	return ok && !ctx->failed;
}

const struct backend backend_k8s = {
	.name = "k8s",
	.summary = "k8s/: topograph node labels (YAML and kubectl script), a "
		   "Kueue Topology and Volcano HyperNodes",
	.emit = emit_k8s,
	.weight = 1,
	.preflight = emit_k8s, /* dry: nothing is written */
	.on_request = true,
};
