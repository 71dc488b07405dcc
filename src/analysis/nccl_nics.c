/* SPDX-License-Identifier: MIT */
/* Which NICs carry NCCL traffic (nccl_nics.h). */
#include "rackc.h"

#include "nccl_nics.h"
#include "schema.h"

bool nccl_nic_carries(const struct rk_design *d, uint32_t nic)
{
	const struct rk_value *pv = ir_attr_inh(d, nic, A_PORTS);

	if (!pv || pv->type != VT_LIST)
		return false;
	for (uint32_t k = 0; k < (uint32_t)pv->n; k++) {
		const struct rk_value *e = ir_list_at(d, pv, k);
		const char *role;

		if (e->type != VT_PORT)
			continue;
		role = ir_str(d, (uint32_t)e->n, A_ROLE);
		if (!role || !role[0] || streq(role, "compute"))
			return true;
	}
	return false;
}
