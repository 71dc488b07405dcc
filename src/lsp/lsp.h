/* SPDX-License-Identifier: MIT */
/*
 * `rackc lsp`: a Language Server Protocol server on standard input and
 * output (lsp.c: the JSON-RPC framing, the documents and their
 * diagnostics; lsp_query.c: hover, definition, completion and document
 * symbols).  It compiles each open buffer in memory through the driver
 * (rackc_check_buffer), as `rackc --check` would.  Built with Jansson;
 * without it the command says so and exits 2.
 */
#ifndef RACKC_LSP_H
#define RACKC_LSP_H

/* `rackc lsp [OPTION]...` (@argv[0] is "lsp"); returns the exit status. */
int lsp_main(int argc, char **argv);

#endif
