/* SPDX-License-Identifier: MIT */
/*
 * Cable labels and faceplate names, formatted once per compilation for the
 * back ends that print them (the cut sheet and the pull list print every
 * label, the pull list twice for a cable between two racks; the patch
 * schedule prints the faceplate names): each then copies the bytes.
 *
 * Label.  A site's `label` template (default CABLE_LABEL_DEFAULT) is
 * expanded per cabled link (cableplan.h: label_no set): {id} the cable id
 * (cableplan_id_str()), and for each end (a., b.) {row} (the row's code:
 * its `label_code`, else the number its local name ends in, "r[2]" and
 * "r2": 2, else its local name), {rack} (the row's code, a point and the
 * rack's `slot`, "2.14"; outside rows the rack's `slot`, else the number
 * its name ends in, else its local name), {u} (lowest U, 1-based), {device} (full name) and {port}
 * (the faceplate name, below).  The template of a link is that of the site
 * of its a end's rack (of the device itself when it is in no rack).  A
 * field the template does not know is left as written (the cabling back
 * end reports it at the template).  No field depends on the order of the
 * declarations: declaring a row before another, or listing things in
 * another order, changes no label.
 *
 * Faceplate name of a port: its `faceplate` pattern expanded ({c} cage,
 * {p} port in the cage, {n} 1-based index, {i} index: the number in the
 * port's name, "p[12]": 12, cages of two for `cage twin`), else its local
 * name.  Every port at an end of a cabled link has one.
 */
#ifndef RACKC_CABLELABEL_H
#define RACKC_CABLELABEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir.h"

#define CABLE_LABEL_DEFAULT \
	"{id} {a.rack}U{a.u} {a.port}>{b.rack}U{b.u} {b.port}"

/**
 * struct cable_labels - every cabled link's label, every end port's
 * faceplate name, and the placement the back ends print beside them
 * @rack:  object -> its rack (layout_rack_of()), RK_NONE
 * @at:    object -> its lowest U (layout_at()), -1
 * @text, @off: link i's label is text[off[i] .. off[i + 1]) (empty when
 *         the link is not cabled)
 * @faces, @face, @face_len: port p's faceplate name is
 *         faces[face[p] .. face[p] + face_len[p]) (face_len UINT32_MAX:
 *         not at the end of a cabled link)
 */
struct cable_labels {
	uint32_t *rack;
	int64_t *at;
	char *text;
	size_t *off;
	char *faces;
	size_t *face;
	uint32_t *face_len;
};

struct cable_plan;
void cable_labels_build(const struct rk_design *d, const struct cable_plan *p,
			struct cable_labels *out);
void cable_labels_free(struct cable_labels *cl);

/* The label of link @li; its length in *@n. */
static inline const char *cable_label(const struct cable_labels *cl,
				      uint32_t li, size_t *n)
{
	*n = cl->off[li + 1] - cl->off[li];
	return cl->text + cl->off[li];
}

/* The faceplate name of @port (an end of a cabled link); its length in
 * *@n. */
static inline const char *cable_face(const struct cable_labels *cl,
				     uint32_t port, size_t *n)
{
	*n = cl->face_len[port];
	return cl->faces + cl->face[port];
}

/* The code of row @row in labels ({a.row}; above), in @buf when it is a
 * number, else in the design's strings; its length in *@n. */
#define CABLE_CODE_MAX 24
const char *cable_row_code(const struct rk_design *d, uint32_t row,
			   char buf[CABLE_CODE_MAX], size_t *n);

/* Whether template field @f (@n bytes, between the braces) is known. */
bool cable_label_field_known(const char *f, size_t n);

#endif
