/* SPDX-License-Identifier: MIT */
/*
 * What the files of the elaboration share (elab.c: statements; elab_attr.c:
 * attributes; elab_decl.c: declarations and the bodies they run;
 * elab_import.c: files, imports and modules; elab_diag.c: errors and
 * notes).  Internal to the elaboration stage: the stages after it see
 * elab.h only.
 *
 * elab.c dispatches the statements; the others are its leaves, and run
 * the statements of a body or a file through e->run_stmt, never calling
 * back into elab.c (doc/internals.md).
 */
#ifndef RACKC_ELAB_INT_H
#define RACKC_ELAB_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "elab.h"

/* elab_diag.c */
void elab_note(struct elab *e, const struct srcloc *loc, const char *fmt, ...)
    PRINTF(3, 4);

/* At the top level of a file: outside every object, group, module, block
 * and frame, no variable bound but the file-level ones. */
static inline bool elab_at_file_top(const struct elab *e)
{
	return e->obj == RK_NONE && e->group == RK_NONE && e->mod_depth == 0 &&
	       e->nvars == e->nglobals && e->ctx == X_TOP && e->blocks == 0;
}

/* One statement of a list, through elab.c's dispatcher (e->run_stmt). */
static inline void elab_exec_one(struct elab *e, const struct ast *st)
{
	e->run_stmt(e, st);
}

/* elab_attr.c */
void elab_finish_attrs(struct elab *e, uint32_t mark, uint32_t *first,
		       uint32_t *count);
uint32_t elab_bare_word(const struct val *v);
bool elab_want_word(struct elab *e, const struct val *v, const char *what,
		    const char *words, uint32_t *out);
uint32_t elab_find_part(struct elab *e, uint32_t name,
			const struct srcloc *loc);
void elab_set_attr(struct elab *e, uint32_t key, const struct ast *st,
		   const struct val *args, uint32_t argc);

/* elab_decl.c */
/* The statements of @list, then the end of the list: elab_exec_one() on
 * each, then elab_exec_list_end() (@base: e->nvars before the first). */
void elab_exec_list(struct elab *e, const struct ast *list);
void elab_exec_list_end(struct elab *e, uint32_t base);
bool elab_decl_names(struct elab *e, const struct ast *st, uint32_t **names,
		     uint32_t *count);
uint32_t elab_new_object(struct elab *e, const struct kind_info *ki,
			 const struct ast *st, uint32_t local, bool part_ns);
void elab_exec_body(struct elab *e, uint32_t obj, uint32_t ctx, uint32_t prefix,
		    const struct ast *body, enum elab_mode mode);
bool elab_is_instance_kind(const struct kind_info *ki);
void elab_decl_part(struct elab *e, const struct kind_info *ki,
		    const struct ast *st);
void elab_decl_part_member(struct elab *e, const struct kind_info *ki,
			   const struct ast *st);
void elab_decl_object(struct elab *e, const struct kind_info *ki,
		      const struct ast *st);
void elab_decl_link(struct elab *e, const struct ast *st);

/* elab_import.c */
void elab_decl_instance(struct elab *e, const struct kind_info *ki,
			const struct ast *st);
void elab_exec_import(struct elab *e, const struct ast *st);

#endif
