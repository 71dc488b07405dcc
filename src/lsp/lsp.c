/* SPDX-License-Identifier: MIT */
/*
 * `rackc lsp`: the protocol.  Messages are JSON-RPC 2.0 framed by a
 * Content-Length header (LSP's base protocol) on standard input and
 * output.  Every open document is compiled in memory as `rackc --check`
 * would (rackc_check_buffer) when it is opened and at every change (full
 * text sync), and its diagnostics are published: the compiler's, with
 * their notes as related information.  A malformed message is answered
 * with a JSON-RPC error, never a crash: a header without a length, a
 * length over LSP_MAX_MESSAGE, JSON that does not parse, a request that is
 * not an object or whose parameters have the wrong types.  The server
 * holds no global state: everything hangs off struct lsp_server.
 */
#include "rackc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "lsp.h"

#ifndef HAVE_JANSSON

int lsp_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "rackc: lsp: this rackc was built without Jansson "
			"(libjansson-dev): the language server is not "
			"available\n");
	return RK_EXIT_USAGE;
}

#else

#include <getopt.h>
#include <limits.h>
#include <strings.h>
#include <unistd.h>

#include "driver.h"
#include "lsp_int.h"

struct lsp_server {
	struct lsp_doc *docs;
	uint32_t ndocs, docs_cap;
	const char **incdirs;
	uint32_t nincdirs;
	const char *stddir;
	FILE *in, *out;
	bool initialized, shutdown;
};

/* JSON-RPC error codes */
enum {
	RPC_PARSE_ERROR = -32700,
	RPC_INVALID_REQUEST = -32600,
	RPC_METHOD_NOT_FOUND = -32601,
	RPC_INVALID_PARAMS = -32602,
	RPC_NOT_INITIALIZED = -32002,
};

/* ---- framing ---- */

static void send_json(struct lsp_server *s, json_t *msg)
{
	char *body;

	json_object_set_new(msg, "jsonrpc", json_string("2.0"));
	body = json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	if (!body)
		return;
	fprintf(s->out, "Content-Length: %zu\r\n\r\n%s", strlen(body), body);
	fflush(s->out);
	free(body);
}

static void send_result(struct lsp_server *s, json_t *id, json_t *result)
{
	json_t *m = json_object();

	json_object_set(m, "id", id ? id : json_null());
	json_object_set_new(m, "result", result ? result : json_null());
	send_json(s, m);
}

static void send_error(struct lsp_server *s, json_t *id, int code,
		       const char *msg)
{
	json_t *m = json_object();

	json_object_set(m, "id", id ? id : json_null());
	json_object_set_new(
	    m, "error", json_pack("{s:i,s:s}", "code", code, "message", msg));
	send_json(s, m);
}

/*
 * Read one message's header and body.  Returns 1 with the body in *body
 * (malloc'ed, *len bytes), 0 at the end of the input, -1 for a header
 * that frames no message, -2 for a message over LSP_MAX_MESSAGE (read
 * and dropped); both are answered with a parse error.
 */
static int read_message(struct lsp_server *s, char **body, size_t *len)
{
	char line[1024];
	long long clen = -1;
	bool any = false, bad = false;
	unsigned nlines = 0;

	for (;;) {
		size_t n;

		if (!fgets(line, sizeof(line), s->in))
			return any ? -1 : 0;
		any = true;
		n = strlen(line);
		if (n && line[n - 1] != '\n') {
			int ch;

			/* an over-long header line: skip the rest of it */
			while ((ch = getc(s->in)) != EOF && ch != '\n')
				;
			bad = true;
			continue;
		}
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (!n)
			break;
		if (++nlines > 32)
			bad = true;
		if (!strncasecmp(line, "Content-Length:", 15)) {
			char *end;
			const char *p = line + 15;

			while (*p == ' ' || *p == '\t')
				p++;
			errno = 0;
			clen = strtoll(p, &end, 10);
			if (errno || end == p || *end || clen < 0)
				clen = -2;
		}
	}
	if (bad || clen < 0)
		return -1;
	if (clen > (long long)LSP_MAX_MESSAGE) {
		/* a body of a known length is skipped whole */
		for (long long i = 0; i < clen; i++)
			if (getc(s->in) == EOF)
				return 0;
		return -2;
	}
	*body = xmalloc((size_t)clen + 1);
	*len = fread(*body, 1, (size_t)clen, s->in);
	(*body)[*len] = '\0';
	if (*len != (size_t)clen) {
		free(*body);
		return 0;
	}
	return 1;
}

/* ---- documents ---- */

static void unit_free(struct lsp_unit *u)
{
	if (!u)
		return;
	compilation_fini(&u->c);
	free(u);
}

static struct lsp_doc *doc_find(struct lsp_server *s, const char *uri)
{
	for (uint32_t i = 0; i < s->ndocs; i++)
		if (streq(s->docs[i].uri, uri))
			return &s->docs[i];
	return NULL;
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* The file name a document compiles as: a file: URI's path, decoded;
 * any other URI a name in the current directory. */
static char *uri_path(const char *uri)
{
	const char *p;
	char *out, *o;

	if (strncmp(uri, "file://", 7) != 0)
		return xstrdup("untitled.rack");
	p = uri + 7;
	if (strncmp(p, "localhost/", 10) == 0)
		p += 9;
	out = o = xmalloc(strlen(p) + 1);
	for (; *p; p++) {
		int hi, lo;

		if (*p == '%' && (hi = hexval(p[1])) >= 0 &&
		    (lo = hexval(p[2])) >= 0 && (hi || lo)) {
			*o++ = (char)(hi * 16 + lo);
			p += 2;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return out;
}

static void doc_compile(struct lsp_server *s, struct lsp_doc *d)
{
	struct lsp_unit *u = xcalloc(1, sizeof(*u));

	u->o.input = d->path;
	u->o.outdir = "out";
	u->o.check_only = true;
	u->o.incdirs = s->incdirs;
	u->o.nincdirs = s->nincdirs;
	u->o.stddir = s->stddir;
	u->o.diag_format = DIAG_JSON;
	u->o.max_errors = 100;
	u->o.show_source = false;
	u->o.jobs = 1;
	compilation_init(&u->c, &u->o, stderr);
	u->rc = rackc_check_buffer(&u->c, d->path, d->text);
	if (d->cur && !d->cur->c.syntax_errors) {
		/* the last compilation that parsed stays for completion */
		unit_free(d->good);
		d->good = d->cur;
	} else {
		unit_free(d->cur);
	}
	d->cur = u;
	if (!u->c.syntax_errors) {
		unit_free(d->good);
		d->good = NULL;
	}
}

/* The place in the document's own file that stands for @loc: an import's
 * diagnostic is shown at the import that brought its file in. */
static struct srcloc root_place(const struct compilation *c, struct srcloc loc)
{
	for (unsigned k = 0; k < 64 && loc.file && loc.file != c->root_file;
	     k++) {
		const struct srcfile *f = srcmgr_file(&c->sm, loc.file);

		if (!f)
			break;
		loc = f->included_from;
	}
	if (loc.file != c->root_file)
		loc = (struct srcloc){ c->root_file, 0, 0 };
	return loc;
}

static void publish(struct lsp_server *s, const struct lsp_doc *d)
{
	const struct compilation *c = &d->cur->c;
	const struct diag_engine *e = &c->diag;
	json_t *list = json_array(), *last = NULL;
	json_t *m;
	uint32_t n = 0;

	for (uint32_t i = 0; i < e->nrecs && n < LSP_MAX_ITEMS; i++) {
		const struct diag_record *r = &e->recs[i];
		json_t *dg;

		if (r->hidden)
			continue;
		if (r->level == DIAG_NOTE && r->kind != DIAG_NOTE_ALONE) {
			json_t *rel;

			if (!last)
				continue;
			rel = json_object_get(last, "relatedInformation");
			if (!rel) {
				rel = json_array();
				json_object_set_new(last, "relatedInformation",
						    rel);
			}
			json_array_append_new(
			    rel,
			    json_pack("{s:o,s:s}", "location",
				      lsp_location(d, c,
						   r->loc.file
						       ? r->loc
						       : root_place(c, r->loc)),
				      "message", r->message));
			continue;
		}
		{
			struct srcloc at = root_place(c, r->loc);
			const char *msg = r->message;
			char *owned = NULL;

			if (r->loc.file && r->loc.file != c->root_file) {
				const struct srcfile *f =
				    srcmgr_file(&c->sm, r->loc.file);
				uint32_t line, col;

				srcmgr_linecol(&c->sm, r->loc.file,
					       r->loc.begin, &line, &col);
				size_t sz = strlen(f->path) + strlen(msg) + 32;

				owned = xmalloc(sz);
				snprintf(owned, sz, "%s:%u:%u: %s", f->path,
					 line, col, msg);
				msg = owned;
			}
			dg = json_pack("{s:o,s:i,s:s,s:s}", "range",
				       lsp_range(c, at), "severity",
				       r->level == DIAG_ERROR	  ? 1
				       : r->level == DIAG_WARNING ? 2
								  : 3,
				       "source", "rackc", "message", msg);
			free(owned);
		}
		if (r->check)
			json_object_set_new(dg, "code", json_string(r->check));
		json_array_append_new(list, dg);
		last = r->level == DIAG_NOTE ? NULL : dg;
		n++;
	}
	m = json_pack("{s:s,s:{s:s,s:o}}", "method",
		      "textDocument/publishDiagnostics", "params", "uri",
		      d->uri, "diagnostics", list);
	send_json(s, m);
}

static void doc_close(struct lsp_server *s, struct lsp_doc *d)
{
	json_t *m = json_pack("{s:s,s:{s:s,s:[]}}", "method",
			      "textDocument/publishDiagnostics", "params",
			      "uri", d->uri, "diagnostics");

	send_json(s, m);
	unit_free(d->cur);
	unit_free(d->good);
	free(d->uri);
	free(d->path);
	free(d->text);
	*d = s->docs[--s->ndocs];
}

/* ---- methods ---- */

static json_t *capabilities(void)
{
	return json_pack(
	    "{s:{s:{s:b,s:i,s:b},s:b,s:b,s:{s:[s,s,s,s]},s:b},s:{s:s,s:s}}",
	    "capabilities", "textDocumentSync", "openClose", 1, "change", 1,
	    "save", 0, "hoverProvider", 1, "definitionProvider", 1,
	    "completionProvider", "triggerCharacters", ":", "\"", " ", ".",
	    "documentSymbolProvider", 1, "serverInfo", "name", "rackc",
	    "version", PACKAGE_VERSION);
}

/* The document and byte offset a position request names, or NULL. */
static struct lsp_doc *at_position(struct lsp_server *s, json_t *params,
				   uint32_t *off)
{
	json_t *pos = json_object_get(params, "position");
	json_t *line = json_object_get(pos, "line");
	json_t *ch = json_object_get(pos, "character");
	const char *uri = json_string_value(
	    json_object_get(json_object_get(params, "textDocument"), "uri"));
	struct lsp_doc *d;

	if (!uri || !json_is_integer(line) || !json_is_integer(ch))
		return NULL;
	d = doc_find(s, uri);
	if (d)
		*off = lsp_offset(d->text, d->len, json_integer_value(line),
				  json_integer_value(ch));
	return d;
}

static bool doc_text(json_t *params, const char **uri, const char **text,
		     size_t *len)
{
	json_t *td = json_object_get(params, "textDocument");
	json_t *t;

	*uri = json_string_value(json_object_get(td, "uri"));
	if (!*uri)
		return false;
	t = json_object_get(td, "text");
	if (!t) {
		/* didChange: the last full text of contentChanges */
		json_t *ch = json_object_get(params, "contentChanges");
		size_t n = json_array_size(ch);

		t = n ? json_object_get(json_array_get(ch, n - 1), "text")
		      : NULL;
	}
	*text = json_string_value(t);
	*len = json_string_length(t);
	return *text != NULL;
}

static void did_open_or_change(struct lsp_server *s, json_t *params)
{
	const char *uri, *text;
	size_t len;
	struct lsp_doc *d;

	if (!doc_text(params, &uri, &text, &len))
		return;
	if (len > RK_MAX_FILE_SIZE || memchr(text, '\0', len))
		return;
	d = doc_find(s, uri);
	if (!d) {
		if (s->ndocs >= LSP_MAX_DOCS)
			return;
		d = VEC_PUSH(s->docs, s->ndocs, s->docs_cap);
		memset(d, 0, sizeof(*d));
		d->uri = xstrdup(uri);
		d->path = uri_path(uri);
	}
	free(d->text);
	d->text = xmalloc(len + 1);
	memcpy(d->text, text, len);
	d->text[len] = '\0';
	d->len = len;
	doc_compile(s, d);
	publish(s, d);
}

/* Handle one message; returns false when the server is to exit. */
static bool handle(struct lsp_server *s, json_t *msg, int *exit_rc)
{
	json_t *id = json_object_get(msg, "id");
	json_t *params = json_object_get(msg, "params");
	const char *method = json_string_value(json_object_get(msg, "method"));
	bool request = id != NULL;
	uint32_t off = 0;
	struct lsp_doc *d;

	if (!json_is_object(msg) || !method ||
	    (id && !json_is_integer(id) && !json_is_string(id))) {
		/* a response from the client is not a request: ignored */
		if (json_is_object(msg) && !method &&
		    (json_object_get(msg, "result") ||
		     json_object_get(msg, "error")))
			return true;
		send_error(
		    s, json_is_integer(id) || json_is_string(id) ? id : NULL,
		    RPC_INVALID_REQUEST, "not a JSON-RPC request");
		return true;
	}
	if (json_is_null(params))
		params = NULL;
	if (params && !json_is_object(params) && !json_is_array(params)) {
		if (request)
			send_error(s, id, RPC_INVALID_PARAMS,
				   "params is not an object");
		return true;
	}
	if (streq(method, "exit")) {
		*exit_rc = s->shutdown ? 0 : 1;
		return false;
	}
	if (streq(method, "initialize")) {
		s->initialized = true;
		if (request)
			send_result(s, id, capabilities());
		return true;
	}
	if (!s->initialized) {
		if (request)
			send_error(s, id, RPC_NOT_INITIALIZED,
				   "the server is not initialized");
		return true;
	}
	if (s->shutdown) {
		if (request)
			send_error(s, id, RPC_INVALID_REQUEST,
				   "the server is shut down");
		return true;
	}
	if (streq(method, "shutdown")) {
		s->shutdown = true;
		if (request)
			send_result(s, id, NULL);
		return true;
	}
	if (!request) {
		if (streq(method, "textDocument/didOpen") ||
		    streq(method, "textDocument/didChange"))
			did_open_or_change(s, params);
		else if (streq(method, "textDocument/didClose")) {
			const char *uri = json_string_value(json_object_get(
			    json_object_get(params, "textDocument"), "uri"));

			if (uri && (d = doc_find(s, uri)))
				doc_close(s, d);
		}
		/* initialized, $/... and the others: nothing to do */
		return true;
	}
	if (streq(method, "textDocument/hover") ||
	    streq(method, "textDocument/definition") ||
	    streq(method, "textDocument/completion")) {
		d = at_position(s, params, &off);
		if (!d && !json_object_get(params, "position"))
			send_error(s, id, RPC_INVALID_PARAMS,
				   "textDocument and position are needed");
		else if (!d)
			send_result(s, id, NULL);
		else if (method[13] == 'h')
			send_result(s, id, lsp_hover(d, off));
		else if (method[13] == 'd')
			send_result(s, id, lsp_definition(d, off));
		else
			send_result(s, id, lsp_completion(d, off));
		return true;
	}
	if (streq(method, "textDocument/documentSymbol")) {
		const char *uri = json_string_value(json_object_get(
		    json_object_get(params, "textDocument"), "uri"));

		if (!uri)
			send_error(s, id, RPC_INVALID_PARAMS,
				   "textDocument is needed");
		else if (!(d = doc_find(s, uri)))
			send_result(s, id, json_array());
		else
			send_result(s, id, lsp_symbols(d));
		return true;
	}
	send_error(s, id, RPC_METHOD_NOT_FOUND, "unknown method");
	return true;
}

static void lsp_usage(FILE *fp)
{
	fputs("Usage: rackc lsp [-I DIR]... [--stdlib=DIR]\n"
	      "Run the rackc language server on standard input and output\n"
	      "(the Language Server Protocol: diagnostics, hover, definition,\n"
	      "completion and document symbols).\n"
	      "\n"
	      "  -I, --include=DIR  search DIR for imports (repeatable)\n"
	      "      --stdlib=DIR   standard library directory\n"
	      "      --help         show this help\n",
	      fp);
}

int lsp_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "include", required_argument, NULL, 'I' },
		{ "stdlib", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct lsp_server s;
	int c, rc = 1;

	memset(&s, 0, sizeof(s));
	s.in = stdin;
	s.out = stdout;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":I:", opts, NULL)) != -1) {
		switch (c) {
		case 'I':
			s.incdirs = xrealloc(s.incdirs, (s.nincdirs + 1) *
							    sizeof(*s.incdirs));
			s.incdirs[s.nincdirs++] = optarg;
			break;
		case 's':
			s.stddir = optarg;
			break;
		case 'h':
			lsp_usage(stdout);
			free(s.incdirs);
			return RK_EXIT_OK;
		default:
			fprintf(stderr, "rackc: lsp: unknown option '%s'\n",
				argv[optind - 1]);
			lsp_usage(stderr);
			free(s.incdirs);
			return RK_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rackc: lsp: unexpected argument '%s'\n",
			argv[optind]);
		free(s.incdirs);
		return RK_EXIT_USAGE;
	}
	for (;;) {
		char *body = NULL;
		size_t len = 0;
		int got = read_message(&s, &body, &len);
		json_error_t err;
		json_t *msg;
		bool more;

		if (got == 0)
			break; /* the end of the input without exit */
		if (got < 0) {
			send_error(&s, NULL, RPC_PARSE_ERROR,
				   got == -1 ? "malformed message header"
					     : "message larger than 64 MiB");
			continue;
		}
		msg = json_loadb(
		    body, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &err);
		free(body);
		if (!msg) {
			send_error(&s, NULL, RPC_PARSE_ERROR, err.text);
			continue;
		}
		more = handle(&s, msg, &rc);
		json_decref(msg);
		if (!more)
			break;
	}
	while (s.ndocs) {
		struct lsp_doc *d = &s.docs[s.ndocs - 1];

		unit_free(d->cur);
		unit_free(d->good);
		free(d->uri);
		free(d->path);
		free(d->text);
		s.ndocs--;
	}
	free(s.docs);
	free(s.incdirs);
	return rc;
}

#endif
