/* SPDX-License-Identifier: MIT */
/*
 * What the files of the elaboration share (elab.c: statements, variables
 * and errors; elab_attr.c: attributes; elab_decl.c: declarations;
 * elab_import.c: files, imports and modules).  Internal to the
 * elaboration stage: the stages after it see elab.h only.
 */
#ifndef RACKC_ELAB_INT_H
#define RACKC_ELAB_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "elab.h"

/* elab.c */
void elab_note(struct elab *e, const struct srcloc *loc, const char *fmt, ...)
    PRINTF(3, 4);
void elab_push_var(struct elab *e, uint32_t name, const struct val *v,
		   const struct srcloc *loc);
bool elab_at_file_top(const struct elab *e);
uint32_t elab_join_name(struct elab *e, uint32_t prefix, uint32_t local,
			const struct srcloc *loc);
void elab_exec_list(struct elab *e, const struct ast *list);
/* elab_exec_list() a statement at a time: each statement, then the end of the
 * list (@base: e->nvars before its first statement). */
void elab_exec_one(struct elab *e, const struct ast *st);
void elab_exec_list_end(struct elab *e, uint32_t base);

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
