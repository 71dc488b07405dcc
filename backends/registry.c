/* SPDX-License-Identifier: MIT */
/* The table of back ends, in the order they run by default. */
#include "rackc.h"
#include "backend.h"

extern const struct backend backend_ir;
extern const struct backend backend_report;
extern const struct backend backend_cabling, backend_bom;
extern const struct backend backend_nccl;
extern const struct backend backend_ibnet;
extern const struct backend backend_slurm, backend_k8s;
extern const struct backend backend_elevations;
extern const struct backend backend_floor, backend_diagrams;
extern const struct backend backend_html;
extern const struct backend backend_netbox;
extern const struct backend backend_lldp, backend_ptm, backend_ufm;
#ifdef HAVE_XLSXWRITER
extern const struct backend backend_xlsx;
#endif

const struct backend *const backend_table[] = {
	&backend_ir,	     &backend_report, &backend_cabling,	 &backend_bom,
	&backend_nccl,	     &backend_ibnet,  &backend_slurm,	 &backend_k8s,
	&backend_elevations, &backend_floor,  &backend_diagrams, &backend_html,
	&backend_netbox,     &backend_lldp,   &backend_ptm,	 &backend_ufm,
#ifdef HAVE_XLSXWRITER
	&backend_xlsx,
#endif
};

const unsigned backend_table_len = ARRAY_SIZE(backend_table);

const struct backend *backend_find(const char *name)
{
	for (unsigned i = 0; i < backend_table_len; i++)
		if (streq(backend_table[i]->name, name))
			return backend_table[i];
	return NULL;
}
