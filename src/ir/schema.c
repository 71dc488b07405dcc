/* SPDX-License-Identifier: MIT */
/*
 * The schema tables (see schema.h): statement words that declare objects,
 * and every attribute with its type, unit and the contexts it may appear in.
 */
#include "rackc.h"
#include "schema.h"

#define X_HOLDS_DEVICES (X_TOP | X_RACK | X_GROUP)

const struct kind_info kind_table[] = {
	{ "part", K_PART, C_NONE, 0, X_TOP | X_GROUP, X_PART, 2,
	  "a catalog part: part NAME : CLASS-or-BASE-PART { ... }" },
	{ "site", K_SITE, C_NONE, 0, X_TOP | X_GROUP, X_SITE, 0,
	  "a site or data hall holding rows, feeds and cooling" },
	{ "row", K_ROW, C_NONE, 0, X_SITE, X_ROW, 0, "a row of racks" },
	{ "rack", K_RACK, C_RACK, 0, X_ROW, X_RACK, 2,
	  "a rack position in a row: rack NAME : RACK-PART" },
	{ "feed", K_FEED, C_NONE, 0, X_SITE, X_FEED, 0,
	  "a utility or UPS power feed (A, B, ...)" },
	{ "air", K_AIR, C_NONE, 0, X_SITE, X_AIR, 0,
	  "an air-cooling zone (CRAH/CRAC capacity)" },
	{ "loop", K_LOOP, C_NONE, 0, X_SITE, X_LOOP, 0,
	  "a liquid-cooling loop served by CDUs" },
	{ "group", K_GROUP, C_NONE, 0, X_TOP | X_GROUP, X_GROUP, 0,
	  "a namespace for the objects in its body" },
	{ "instance", K_GROUP, C_NONE, 0, X_TOP | X_GROUP, X_GROUP, 2,
	  "instantiate a module: instance NAME : MODULE(ARG = VALUE, ...)" },
	{ "node", K_DEVICE, C_SERVER, 0, X_HOLDS_DEVICES, X_DEVICE, 2,
	  "a server: node NAME : SERVER-PART" },
	{ "switch", K_DEVICE, C_SWITCH, 0, X_HOLDS_DEVICES, X_DEVICE, 2,
	  "a network switch: switch NAME : SWITCH-PART" },
	{ "pdu", K_DEVICE, C_PDU, 0, X_HOLDS_DEVICES, X_DEVICE, 2,
	  "a power distribution unit: pdu NAME : PDU-PART" },
	{ "cdu", K_DEVICE, C_CDU, 0, X_HOLDS_DEVICES | X_ROW, X_DEVICE, 2,
	  "a coolant distribution unit: cdu NAME : CDU-PART" },
	{ "shelf", K_DEVICE, C_POWER_SHELF, 0, X_HOLDS_DEVICES, X_DEVICE, 2,
	  "a power shelf: shelf NAME : POWER-SHELF-PART" },
	{ "device", K_DEVICE, C_NONE, 0, X_HOLDS_DEVICES | X_ROW, X_DEVICE, 2,
	  "any other part, rack-mounted or standing in a row: device NAME : "
	  "PART" },
	{ "fabric", K_FABRIC, C_NONE, 0, X_TOP | X_GROUP, X_FABRIC, 2,
	  "a fabric generator: fabric NAME : fat_tree|nvlink|star" },
	{ "link", K_NONE, C_NONE, 0, X_TOP | X_GROUP, X_LINK, 0,
	  "an explicit cable: link DEV.PORT -- DEV.PORT" },
	{ "port", K_PORT, C_NONE, 0, X_PART, X_PORT, 0,
	  "a port (or range of ports) of a part" },
	{ "cpu", K_COMP, C_CPU, COMP_CPU, X_PART, X_COMP, 1,
	  "a CPU socket inside a server part: cpu NAME [: CPU-PART]" },
	{ "pcie_switch", K_COMP, C_NONE, COMP_PCIE_SWITCH, X_PART, X_COMP, 0,
	  "a PCIe switch inside a server part" },
	{ "gpu", K_COMP, C_GPU, COMP_GPU, X_PART, X_COMP, 2,
	  "a GPU inside a server part: gpu NAME : GPU-PART" },
	{ "nic", K_COMP, C_NIC, COMP_NIC, X_PART, X_COMP, 2,
	  "a NIC inside a server part: nic NAME : NIC-PART" },
};

const uint32_t kind_table_len = ARRAY_SIZE(kind_table);

const struct attr_info attr_table[] = {
	[A_NONE] = { "", T_ANY, DIM_NONE, NULL, K_NONE, 0, 0, "" },
#define ATTR(id, name, type, dim, words, ref, where, multi, summary) \
	[id] = { name, type, dim, words, ref, where, multi, summary },
#include "schema_attrs.def"
#undef ATTR
};

static const char *const class_words[C__COUNT] = {
	[C_NONE] = "",
	[C_SERVER] = "server",
	[C_SWITCH] = "switch",
	[C_GPU] = "gpu",
	[C_CPU] = "cpu",
	[C_NIC] = "nic",
	[C_TRANSCEIVER] = "transceiver",
	[C_CABLE] = "cable",
	[C_PDU] = "pdu",
	[C_CDU] = "cdu",
	[C_RACK] = "rack",
	[C_RDHX] = "rdhx",
	[C_POWER_SHELF] = "power_shelf",
	[C_DEVICE] = "device",
};

uint32_t schema_attr(const char *name)
{
	for (uint32_t i = 1; i < A__COUNT; i++)
		if (streq(attr_table[i].name, name))
			return i;
	return A_NONE;
}

enum rk_class schema_class(const char *word)
{
	for (uint32_t i = 1; i < C__COUNT; i++)
		if (streq(class_words[i], word))
			return (enum rk_class)i;
	return C_NONE;
}

const char *rk_class_name(enum rk_class c)
{
	return (unsigned)c < C__COUNT ? class_words[c] : "?";
}

const char *schema_ctx_name(uint32_t bit)
{
	switch (bit) {
	case X_TOP:
		return "the top level";
	case X_PART:
		return "a part";
	case X_SITE:
		return "a site";
	case X_ROW:
		return "a row";
	case X_RACK:
		return "a rack";
	case X_DEVICE:
		return "a device";
	case X_FEED:
		return "a feed";
	case X_AIR:
		return "an air zone";
	case X_LOOP:
		return "a liquid loop";
	case X_FABRIC:
		return "a fabric";
	case X_PORT:
		return "a port";
	case X_COMP:
		return "a component";
	case X_LINK:
		return "a link";
	case X_GROUP:
		return "a group";
	default:
		return "here";
	}
}

const char *rk_kind_name(enum rk_kind k)
{
	static const char *const names[K__COUNT] = {
		[K_NONE] = "object", [K_PART] = "part",
		[K_PORT] = "port",   [K_COMP] = "component",
		[K_SITE] = "site",   [K_ROW] = "row",
		[K_RACK] = "rack",   [K_DEVICE] = "device",
		[K_FEED] = "feed",   [K_AIR] = "air zone",
		[K_LOOP] = "loop",   [K_FABRIC] = "fabric",
		[K_GROUP] = "group",
	};

	return (unsigned)k < K__COUNT ? names[k] : "object";
}
