/* SPDX-License-Identifier: MIT */
/*
 * total-overflow: a rack's power or heat total, or the site's, whose true
 * value does not fit the 64-bit range of figures (9223372036854775807 mW).
 * The sums saturate (metrics.h, struct rack_totals) and such a total has
 * no figure: it is reported here, where the device (for a rack) or the rack
 * (for the site) whose figure pushed it over is declared, so that the
 * compilation fails; the requirements that read it fail as well, and with
 * --force the back ends print it as out of range, never as a number.
 */
#include "rackc.h"

#include <stdio.h>

#include "checks.h"
#include "metrics.h"
#include "schema.h"

/* "power and heat", "heat to liquid", ... for the bits of @bits */
static const char *figures_text(unsigned bits, char *buf, size_t n)
{
	static const char *const names[] = { "power", "heat", "heat to liquid",
					     "heat to air" };
	unsigned count = 0, total = 0;
	size_t len = 0;

	for (unsigned k = 0; k < ARRAY_SIZE(names); k++)
		total += (bits >> k) & 1;
	buf[0] = '\0';
	for (unsigned k = 0; k < ARRAY_SIZE(names) && len < n; k++) {
		if (!((bits >> k) & 1))
			continue;
		count++;
		len += (size_t)snprintf(buf + len, n - len, "%s%s",
					count == 1	 ? ""
					: count == total ? " and "
							 : ", ",
					names[k]);
	}
	return buf;
}

static void rack_over(struct check_ctx *c, const struct rack_totals *t,
		      uint32_t r)
{
	const struct rk_design *d = c->d;
	uint32_t dev = t->over_by[r];
	unsigned bits = rack_total_over(t, r);
	/* the figure that pushed it over: power_max, or a larger heat */
	const struct rk_value *pm =
	    ir_attr_inh(d, dev, bits & TOTAL_POWER ? A_POWER_MAX : A_HEAT);
	char figs[80];

	figures_text(bits, figs, sizeof(figs));
	check_fail(c, r, &d->objs[dev].loc,
		   "the %s total%s of rack '%s' exceed%s the 64-bit range "
		   "once '%s' is added: %s no figure",
		   figs, bits & (bits - 1) ? "s" : "", ir_name(d, r),
		   bits & (bits - 1) ? "" : "s", ir_name(d, dev),
		   bits & (bits - 1) ? "they have" : "it has");
	if (pm && pm->type == VT_NUM)
		check_note(c, &pm->loc, "'%s' has %s %lld mW", ir_name(d, dev),
			   bits & TOTAL_POWER ? "power_max" : "heat",
			   (long long)pm->n);
	check_note(c, &d->objs[r].loc, "rack '%s' is declared here",
		   ir_name(d, r));
}

/* The site's figure @k (0 power, 1 heat) ran over at rack @r. */
static void site_over(struct check_ctx *c, const struct rack_totals *t,
		      unsigned bits, uint32_t r)
{
	const struct rk_design *d = c->d;
	const int64_t *fig = bits & TOTAL_POWER ? t->power : t->heat;
	int64_t before = 0;
	char figs[80];

	/* the racks before @r, in range by construction */
	for (uint32_t i = 0; i < r; i++)
		if (d->objs[i].kind == K_RACK &&
		    !q_add(before, fig[i], &before))
			break;
	figures_text(bits, figs, sizeof(figs));
	check_fail(c, r, &d->objs[r].loc,
		   "the site's %s total%s exceed%s the 64-bit range once rack "
		   "'%s' is added: %s no figure",
		   figs, bits & (bits - 1) ? "s" : "",
		   bits & (bits - 1) ? "" : "s", ir_name(d, r),
		   bits & (bits - 1) ? "they have" : "it has");
	check_note(c, &d->objs[r].loc,
		   "rack '%s' has %s %lld mW; the racks before it %lld mW",
		   ir_name(d, r), bits & TOTAL_POWER ? "power" : "heat",
		   (long long)fig[r], (long long)before);
}

static void run_total_overflow(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct rack_totals *t = derived_racks(c->dv);
	uint32_t p = t->site_over_by[0], h = t->site_over_by[1];

	for (uint32_t r = 0; t->over && r < d->nobjs && !check_stop(c); r++)
		if (d->objs[r].kind == K_RACK && t->over[r])
			rack_over(c, t, r);
	if (p != RK_NONE)
		site_over(c, t, TOTAL_POWER | (h == p ? TOTAL_HEAT : 0), p);
	if (h != RK_NONE && h != p)
		site_over(c, t, TOTAL_HEAT, h);
}

CHECK_DEFINE(total_overflow, "total-overflow", CHECK_ERROR,
	     "no rack or site power or heat total exceeds the 64-bit range",
	     run_total_overflow);
