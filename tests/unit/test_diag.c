/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for the source manager, the diagnostic engine (text, json and
 * sarif output) and the "did you mean" suggestions.  Output is captured with
 * open_memstream() and source files are made in memory with srcmgr_add().
 */
#define _POSIX_C_SOURCE 200809L

#include "rackc.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "srcfile.h"
#include "suggest.h"

static struct arena A;
static struct srcmgr SM;
static struct diag_engine D;
static char *buf;
static size_t buflen;
static FILE *out;

static void setup(void)
{
	arena_init(&A);
	srcmgr_init(&SM, &A);
	out = open_memstream(&buf, &buflen);
	cr_assert_not_null(out);
	diag_init(&D, out, &SM, &A);
}

static void teardown(void)
{
	fclose(out);
	free(buf);
	arena_destroy(&A);
}

/* Everything written so far. */
static const char *text(void)
{
	fflush(out);
	return buf;
}

static struct srcloc at(uint32_t file, uint32_t begin, uint32_t end)
{
	struct srcloc l = { file, begin, end };

	return l;
}

static const struct srcloc root = { 0, 0, 0 };

#define AT(f, b, e) (&(struct srcloc){ (f), (b), (e) })

static uint32_t add(const char *path, const char *src, struct srcloc from)
{
	return srcmgr_add(&SM, path, src, (uint32_t)strlen(src), from);
}

/* Offset of the first @needle in file @id. */
static uint32_t off(uint32_t id, const char *needle)
{
	const struct srcfile *f = srcmgr_file(&SM, id);
	const char *p = strstr(f->text, needle);

	cr_assert_not_null(p, "'%s' not in %s", needle, f->path);
	return (uint32_t)(p - f->text);
}

TestSuite(srcmgr, .init = setup, .fini = teardown);
TestSuite(diag, .init = setup, .fini = teardown);
TestSuite(suggest);

/* ---- source manager ---- */

Test(srcmgr, linecol_without_trailing_newline)
{
	uint32_t id = add("a.rack", "ab\ncd", root);
	const struct srcfile *f = srcmgr_file(&SM, id);
	uint32_t line, col;

	cr_assert_eq(id, 1);
	cr_assert_eq(f->nlines, 2);
	cr_assert_eq(f->len, 5);
	srcmgr_linecol(&SM, id, 0, &line, &col);
	cr_assert(line == 1 && col == 1);
	srcmgr_linecol(&SM, id, 2, &line, &col);
	cr_assert(line == 1 && col == 3, "newline is %u:%u", line, col);
	srcmgr_linecol(&SM, id, 4, &line, &col);
	cr_assert(line == 2 && col == 2);
	srcmgr_linecol(&SM, id, 5, &line, &col);
	cr_assert(line == 2 && col == 3, "eof is %u:%u", line, col);
}

Test(srcmgr, linecol_trailing_newline_and_empty)
{
	uint32_t a = add("a.rack", "ab\ncd\n", root);
	uint32_t e = add("e.rack", "", root);
	uint32_t line, col;

	cr_assert_eq(e, 2);
	cr_assert_eq(srcmgr_file(&SM, a)->nlines, 2);
	cr_assert_eq(srcmgr_file(&SM, e)->nlines, 1);
	/* The end of the file is just after the last character. */
	srcmgr_linecol(&SM, a, 6, &line, &col);
	cr_assert(line == 2 && col == 3, "eof is %u:%u", line, col);
	srcmgr_linecol(&SM, a, 3, &line, &col);
	cr_assert(line == 2 && col == 1);
	srcmgr_linecol(&SM, e, 0, &line, &col);
	cr_assert(line == 1 && col == 1);
	cr_assert_null(srcmgr_file(&SM, 0));
	cr_assert_null(srcmgr_file(&SM, 3));
}

Test(srcmgr, many_lines_binary_search)
{
	char src[3000];
	uint32_t id, line, col;

	for (int i = 0; i < 1000; i++)
		memcpy(src + 3 * i, "xy\n", 3);
	src[2999] = 'z'; /* last line "xyz" has no newline */
	id = srcmgr_add(&SM, "m.rack", src, sizeof(src), root);
	cr_assert_eq(srcmgr_file(&SM, id)->nlines, 1000);
	srcmgr_linecol(&SM, id, 3 * 517 + 1, &line, &col);
	cr_assert(line == 518 && col == 2);
	srcmgr_linecol(&SM, id, 2999, &line, &col);
	cr_assert(line == 1000 && col == 3);
}

Test(srcmgr, load_missing_and_directory)
{
	errno = 0;
	cr_assert_eq(srcmgr_load(&SM, "/nonexistent/rackc/x.rack", root), 0);
	cr_assert_eq(errno, ENOENT);
	errno = 0;
	cr_assert_eq(srcmgr_load(&SM, ".", root), 0);
	cr_assert_eq(errno, EISDIR);
	cr_assert_eq(SM.nfiles, 0);
}

static char *temp_file(const char *content, off_t size)
{
	static char name[64];
	int fd;

	strcpy(name, "/tmp/rackc-test-XXXXXX");
	fd = mkstemp(name);
	cr_assert(fd >= 0);
	if (content)
		cr_assert_eq(write(fd, content, strlen(content)),
			     (ssize_t)strlen(content));
	else
		cr_assert_eq(ftruncate(fd, size), 0);
	close(fd);
	return name;
}

Test(srcmgr, load_file)
{
	char *name = temp_file("pod p {\r\n}", 0);
	struct srcloc from = at(0, 0, 0);
	uint32_t id = srcmgr_load(&SM, name, from);
	const struct srcfile *f = srcmgr_file(&SM, id);

	unlink(name);
	cr_assert_eq(id, 1);
	cr_assert_str_eq(f->path, name);
	cr_assert_eq(f->len, 10);
	cr_assert_str_eq(f->text, "pod p {\r\n}");
	cr_assert_eq(f->nlines, 2);
}

Test(srcmgr, load_size_limit)
{
	char *name = temp_file(NULL, (off_t)RK_MAX_FILE_SIZE + 1);
	uint32_t id;

	errno = 0;
	id = srcmgr_load(&SM, name, root);
	cr_assert_eq(id, 0);
	cr_assert_eq(errno, EFBIG);
	cr_assert_eq(truncate(name, RK_MAX_FILE_SIZE), 0);
	id = srcmgr_load(&SM, name, root);
	unlink(name);
	cr_assert_eq(id, 1);
	cr_assert_eq(srcmgr_file(&SM, id)->len, RK_MAX_FILE_SIZE);
}

/* ---- text format ---- */

Test(diag, gcc_style_header_and_caret)
{
	char src[256] = "";
	uint32_t id, b;

	for (int i = 1; i < 27; i++)
		strcat(src, "\n");
	strcat(src, "      rack  hall1.r[2]\n");
	id = add("pod.rack", src, root);
	b = off(id, "rack");
	diag_error(&D, AT(id, b, b + 4), "check-name", "message %s", "text");
	cr_assert_str_eq(text(),
			 "pod.rack:27:7: error: message text [check-name]\n"
			 "   27 |       rack  hall1.r[2]\n"
			 "      |       ^~~~\n");
	cr_assert_eq(D.errors, 1);
}

Test(diag, tabs_are_copied_into_the_marker)
{
	uint32_t id = add("t.rack", "\tpod\tx = 1\n", root);
	struct srcloc l = at(id, off(id, "x"), off(id, "x") + 1);

	diag_warning(&D, &l, NULL, "unused");
	cr_assert_str_eq(text(), "t.rack:1:6: warning: unused\n"
				 "    1 | \tpod\tx = 1\n"
				 "      | \t   \t^\n");
}

Test(diag, utf8_takes_one_column)
{
	/* "é" is two bytes, "→" three: each is one marker column. */
	uint32_t id = add("u.rack", "n\xc3\xa9 \xe2\x86\x92 xyz;\n", root);
	uint32_t b = off(id, "xyz");

	diag_error(&D, AT(id, b, b + 3), "c", "bad");
	cr_assert_str_eq(text(), "u.rack:1:9: error: bad [c]\n"
				 "    1 | n\xc3\xa9 \xe2\x86\x92 xyz;\n"
				 "      |      ^~~\n");
}

Test(diag, utf8_inside_range)
{
	uint32_t id = add("u.rack", "a \"h\xc3\xa9llo\" b\n", root);
	uint32_t b = off(id, "\"");

	diag_error(&D, AT(id, b, b + 8), NULL, "str");
	cr_assert(strstr(text(), "\n      |   ^~~~~~~\n"), "%s", text());
}

Test(diag, range_is_clipped_to_its_line)
{
	uint32_t id = add("r.rack", "ab cd\nef\n", root);

	diag_error(&D, AT(id, 3, 8), NULL, "span");
	cr_assert_str_eq(text(), "r.rack:1:4: error: span\n"
				 "    1 | ab cd\n"
				 "      |    ^~\n");
}

Test(diag, empty_range_is_a_caret)
{
	uint32_t id = add("r.rack", "ab cd\n", root);

	diag_note(&D, AT(id, 2, 2), "here");
	cr_assert_str_eq(text(), "r.rack:1:3: note: here\n"
				 "    1 | ab cd\n"
				 "      |   ^\n");
	cr_assert_eq(D.errors + D.warnings, 0);
}

Test(diag, end_of_file_location)
{
	uint32_t a = add("a.rack", "pod p {", root);
	uint32_t b = add("b.rack", "x\npod p {\n", root);

	diag_error(&D, AT(a, 7, 7), NULL, "eof");
	diag_error(&D, AT(b, 10, 10), NULL, "eof");
	cr_assert_str_eq(text(), "a.rack:1:8: error: eof\n"
				 "    1 | pod p {\n"
				 "      |        ^\n"
				 "b.rack:2:8: error: eof\n"
				 "    2 | pod p {\n"
				 "      |        ^\n");
}

Test(diag, crlf_and_control_bytes)
{
	uint32_t id = add("c.rack",
			  "a\x01"
			  "b\x7f"
			  "c\x1b[2J d\r\n",
			  root);
	uint32_t b = off(id, "d");

	diag_error(&D, AT(id, b, b + 1), NULL, "ctl");
	cr_assert_str_eq(text(), "c.rack:1:11: error: ctl\n"
				 "    1 | a?b?c?[2J d\n"
				 "      |           ^\n");
}

Test(diag, long_line_window)
{
	char src[502];
	char want[600];
	size_t n;
	uint32_t id;

	memset(src, 'a', 500);
	src[250] = 'X';
	src[500] = '\n';
	src[501] = '\0';
	id = add("l.rack", src, root);
	diag_error(&D, AT(id, 250, 251), NULL, "long");
	/* window [170, 370): "X" is its 81st byte */
	strcpy(want, "l.rack:1:251: error: long\n    1 | ...");
	n = strlen(want);
	memcpy(want + n, src + 170, 200);
	want[n + 200] = '\0';
	strcat(want, "...\n      | ");
	n = strlen(want);
	memset(want + n, ' ', 3 + 80);
	strcpy(want + n + 83, "^\n");
	cr_assert_str_eq(text(), want);
}

Test(diag, long_line_caret_near_start)
{
	char src[301];
	const char *t, *m;

	memset(src, 'b', 300);
	src[300] = '\0';
	add("l.rack", src, root);
	diag_error(&D, AT(1, 5, 7), NULL, "x");
	t = text();
	m = strstr(t, "    1 | bbbb");
	cr_assert_not_null(m);
	/* no leading "...", 200 bytes, then "..." */
	cr_assert_eq(strncmp(m + 8 + 200, "...\n", 4), 0);
	cr_assert(strstr(t, "\n      |      ^~\n"), "%s", t);
}

Test(diag, no_location_form)
{
	add("a.rack", "x\n", root);
	diag_error(&D, NULL, "io", "cannot open '%s'", "x.rack");
	diag_warning(&D, AT(0, 0, 0), NULL, "plain");
	diag_note(&D, NULL, "see the manual");
	cr_assert_str_eq(text(), "rackc: error: cannot open 'x.rack' [io]\n"
				 "rackc: warning: plain\n"
				 "rackc: note: see the manual\n");
}

Test(diag, show_source_off)
{
	uint32_t id = add("a.rack", "xyz\n", root);

	D.show_source = false;
	diag_error(&D, AT(id, 1, 2), "k", "m");
	cr_assert_str_eq(text(), "a.rack:1:2: error: m [k]\n");
}

Test(diag, include_chain)
{
	uint32_t m =
	    add("main.rack", "pod p {\n  import \"a.rack\"\n}\n", root);
	uint32_t a = add("a.rack", "import \"b.rack\"\n",
			 at(m, off(m, "import"), off(m, "import") + 6));
	uint32_t b = add("b.rack", "bad\n", at(a, 0, 6));
	struct srcloc lb = at(b, 0, 3), lm = at(m, 0, 3);

	D.show_source = false;
	diag_error(&D, &lb, NULL, "one");
	diag_warning(&D, &lb, NULL, "two");
	diag_note(&D, &lm, "in root");
	diag_note(&D, &lb, "back");
	diag_error(&D, &lm, NULL, "root");
	diag_error(&D, &lb, NULL, "three");
	diag_error(&D, AT(a, 0, 1), NULL, "four");
	cr_assert_str_eq(text(), "In file included from a.rack:1:1:\n"
				 "                 from main.rack:2:3:\n"
				 "b.rack:1:1: error: one\n"
				 "b.rack:1:1: warning: two\n"
				 "main.rack:1:1: note: in root\n"
				 "b.rack:1:1: note: back\n"
				 "main.rack:1:1: error: root\n"
				 "In file included from a.rack:1:1:\n"
				 "                 from main.rack:2:3:\n"
				 "b.rack:1:1: error: three\n"
				 "In file included from main.rack:2:3:\n"
				 "a.rack:1:1: error: four\n");
	cr_assert_eq(D.last_file, a);
}

Test(diag, werror_promotes)
{
	uint32_t id = add("w.rack", "x\n", root);

	D.werror = true;
	D.show_source = false;
	diag_warning(&D, AT(id, 0, 1), "unused", "w");
	diag_note(&D, AT(id, 0, 1), "n");
	diag_finish(&D);
	cr_assert_str_eq(text(), "w.rack:1:1: error: w [unused]\n"
				 "w.rack:1:1: note: n\n"
				 "1 error generated.\n");
	cr_assert_eq(D.errors, 1);
	cr_assert_eq(D.warnings, 0);
}

Test(diag, summary_wording)
{
	diag_finish(&D);
	cr_assert_str_eq(text(), "");
	diag_note(&D, NULL, "n");
	diag_warning(&D, NULL, NULL, "w");
	diag_finish(&D);
	cr_assert(strstr(text(), "\n1 warning generated.\n"));
	diag_warning(&D, NULL, NULL, "w");
	diag_error(&D, NULL, NULL, "e");
	diag_finish(&D);
	cr_assert(strstr(text(), "\n1 error and 2 warnings generated.\n"));
	diag_error(&D, NULL, NULL, "e");
	diag_finish(&D);
	cr_assert(strstr(text(), "\n2 errors and 2 warnings generated.\n"));
}

Test(diag, summary_errors_only)
{
	diag_error(&D, NULL, NULL, "e");
	diag_error(&D, NULL, NULL, "e");
	diag_finish(&D);
	cr_assert(strstr(text(), "e\n2 errors generated.\n"));
}

Test(diag, max_errors)
{
	cr_assert_not(diag_stop(&D));
	diag_error(&D, NULL, NULL, "e");
	cr_assert_not(diag_stop(&D), "no cap by default");
	D.max_errors = 2;
	cr_assert_not(diag_stop(&D));
	diag_warning(&D, NULL, NULL, "w");
	cr_assert_not(diag_stop(&D));
	diag_error(&D, NULL, NULL, "e");
	cr_assert(diag_stop(&D));
	diag_error(&D, NULL, NULL, "still printed");
	cr_assert(strstr(text(), "still printed"));
	cr_assert_eq(D.errors, 3);
}

/* ---- json ---- */

Test(diag, json_document)
{
	uint32_t id = add("p\"q.rack", "ab\ncd\n", root);

	D.format = DIAG_JSON;
	diag_error(&D, AT(id, 3, 5), "chk", "bad \"%s\"", "x\\y");
	diag_note(&D, NULL, "n");
	cr_assert_str_eq(text(), "", "nothing at emit time");
	diag_finish(&D);
	cr_assert_str_eq(
	    text(), "{\"version\":1,\"diagnostics\":["
		    "{\"level\":\"error\",\"file\":\"p\\\"q.rack\",\"line\":2,"
		    "\"column\":1,\"end_line\":2,\"end_column\":3,"
		    "\"check\":\"chk\",\"message\":\"bad \\\"x\\\\y\\\"\"},"
		    "{\"level\":\"note\",\"check\":null,\"message\":\"n\"}"
		    "],\"errors\":1,\"warnings\":0}\n");
}

Test(diag, json_escaping)
{
	D.format = DIAG_JSON;
	D.werror = true;
	diag_warning(&D, NULL, NULL,
		     "a\nb\tc\x01"
		     "d\x7f"
		     "e\xc3\xa9"
		     "f\xff"
		     "g\xe2\x82"
		     "h\xf0\x9f\x98\x80");
	diag_finish(&D);
	cr_assert(strstr(text(),
			 "\"message\":\"a\\nb\\tc\\u0001d\\u007fe\xc3\xa9"
			 "f\\ufffd"
			 "g\\ufffd\\ufffdh\xf0\x9f\x98\x80\"}"),
		  "%s", text());
	cr_assert(strstr(text(), "{\"level\":\"error\""));
	cr_assert(strstr(text(), "\"errors\":1,\"warnings\":0}\n"));
}

/* ---- sarif ---- */

Test(diag, sarif_structure)
{
	uint32_t id = add("dir/my pod.rack", "rack r1\nrack r2\n", root);
	const char *t, *p;
	static const char head[] =
	    "{\"version\":\"2.1.0\",\"$schema\":"
	    "\"https://json.schemastore.org/sarif-2.1.0.json\","
	    "\"runs\":[{\"tool\":{\"driver\":{\"name\":\"rackc\","
	    "\"version\":\"" PACKAGE_VERSION "\",";

	D.format = DIAG_SARIF;
	diag_error(&D, AT(id, 5, 7), "dup-name", "duplicate '%s'", "r1");
	diag_note(&D, AT(id, 13, 15), "first here");
	diag_note(&D, NULL, "and more");
	diag_warning(&D, AT(id, 0, 4), "syntax", "w1");
	diag_warning(&D, NULL, NULL, "w2");
	D.object = "lab.r1"; /* as check_fail sets it */
	diag_error(&D, AT(id, 8, 12), "dup-name", "again");
	cr_assert_str_eq(text(), "");
	diag_finish(&D);
	t = text();
	cr_assert_eq(strncmp(t, head, strlen(head)), 0, "%s", t);
	/* every known rule, described; then the unknown "dup-name" */
	cr_assert(strstr(t, "{\"id\":\"syntax\",\"name\":\"syntax\","
			    "\"shortDescription\":{\"text\":\"syntax "
			    "error\"},\"fullDescription\":{\"text\":"),
		  "%s", t);
	cr_assert(strstr(t, ",{\"id\":\"dup-name\",\"shortDescription\":"));
	{
		static const char ri[] =
		    "\"ruleId\":\"dup-name\",\"ruleIndex\":";

		p = strstr(t, ri);
		cr_assert(p, "%s", t);
		cr_assert_eq((unsigned)atoi(p + strlen(ri)), diag_rule_count(),
			     "%s", p);
	}
	cr_assert(
	    strstr(t,
		   "\"message\":{\"text\":\"duplicate 'r1'\\nnote: and "
		   "more\"},"
		   "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":"
		   "{\"uri\":\"dir/my%20pod.rack\",\"uriBaseId\":\"SRCROOT\"},"
		   "\"region\":{\"startLine\":1,"
		   "\"startColumn\":6,\"endLine\":1,\"endColumn\":8}}}],"
		   "\"partialFingerprints\":{\"primaryLocationLineHash\":\""),
	    "%s", t);
	cr_assert(strstr(t, "\"relatedLocations\":[{\"physicalLocation\":"
			    "{\"artifactLocation\":{\"uri\":\"dir/my%20pod."
			    "rack\",\"uriBaseId\":\"SRCROOT\"},"
			    "\"region\":{\"startLine\":2,\"startColumn\":6,"
			    "\"endLine\":2,\"endColumn\":8}},\"message\":{"
			    "\"text\":\"first here\"}}]},"),
		  "%s", t);
	/* no place: a tool execution notification, not a result */
	cr_assert(strstr(t, "\"invocations\":[{\"toolExecutionNotifications\":"
			    "[{\"level\":\"warning\",\"message\":{\"text\":"
			    "\"w2\"},\"associatedRule\":{\"id\":\"rackc\","),
		  "%s", t);
	cr_assert_null(strstr(t, "{\"ruleId\":\"rackc\","), "%s", t);
	cr_assert(strstr(t, "\"executionSuccessful\":true"), "%s", t);
	cr_assert(strstr(t, ",\"rackcFinding/v1\":\""), "%s", t);
	cr_assert(strstr(t, "\"message\":{\"text\":\"again\"},\"locations\":"
			    "[{\"physicalLocation\":"),
		  "%s", t);
	cr_assert(strstr(t, "\"logicalLocations\":[{\"fullyQualifiedName\":"
			    "\"lab.r1\",\"kind\":\"resource\"}]"),
		  "%s", t);
	cr_assert(strstr(t, "\"originalUriBaseIds\":{\"SRCROOT\":"));
#ifdef RACKC_INFO_URI
	cr_assert(strstr(t, "\"informationUri\":\"" RACKC_INFO_URI "\""));
#else
	cr_assert_null(strstr(t, "informationUri"));
#endif
	cr_assert_eq(strcmp(t + strlen(t) - 6, "}]}]}\n"), 0, "%s", t);
}

Test(diag, sarif_empty)
{
	D.format = DIAG_SARIF;
	diag_finish(&D);
	cr_assert(strstr(text(), "\"results\":[]}]}\n"));
	cr_assert(strstr(text(), "{\"id\":\"syntax\""));
}

/* ---- suggestions ---- */

/* ---- deferred engines (diag_fork / diag_join) ---- */

Test(diag, fork_prints_nothing_and_join_replays_in_order)
{
	uint32_t id = add("j.rack", "ab\ncd\n", root);
	struct arena ca;
	struct diag_engine c1, c2;

	D.show_source = false;
	D.werror = true;
	diag_error(&D, AT(id, 0, 1), "first", "before the fork");
	arena_init(&ca);
	diag_fork(&c1, &D, &ca);
	diag_fork(&c2, &D, &ca);
	/* c2 emits first (another thread finishing first) */
	diag_warning(&c2, AT(id, 3, 4), "late", "from job %d", 2);
	diag_warning(&c1, AT(id, 0, 2), "early", "from job %d", 1);
	diag_note(&c1, NULL, "a note");
	cr_assert_str_eq(text(),
			 "j.rack:1:1: error: before the fork [first]\n");
	/* a fork starts from the parent's counts, -Werror applied */
	cr_assert_eq(c1.errors, 2);
	cr_assert_eq(c2.errors, 2);
	diag_join(&D, &c1);
	diag_join(&D, &c2);
	arena_destroy(&ca); /* the parent kept its own copies */
	diag_finish(&D);
	cr_assert_str_eq(text(), "j.rack:1:1: error: before the fork [first]\n"
				 "j.rack:1:1: error: from job 1 [early]\n"
				 "rackc: note: a note\n"
				 "j.rack:2:1: error: from job 2 [late]\n"
				 "3 errors generated.\n");
	cr_assert_eq(D.errors, 3);
	cr_assert_eq(D.warnings, 0);
}

Test(diag, join_into_json_keeps_locations)
{
	uint32_t id = add("k.rack", "ab\ncd\n", root);
	struct arena ca;
	struct diag_engine c;

	D.format = DIAG_JSON;
	arena_init(&ca);
	diag_fork(&c, &D, &ca);
	diag_warning(&c, AT(id, 3, 5), "w", "x");
	diag_join(&D, &c);
	arena_destroy(&ca);
	diag_finish(&D);
	cr_assert_str_eq(
	    text(), "{\"version\":1,\"diagnostics\":["
		    "{\"level\":\"warning\",\"file\":\"k.rack\",\"line\":2,"
		    "\"column\":1,\"end_line\":2,\"end_column\":3,"
		    "\"check\":\"w\",\"message\":\"x\"}"
		    "],\"errors\":0,\"warnings\":1}\n");
}

/*
 * A spilling engine (diag_spill) keeps what it records in a temporary file:
 * the replay is the same as from memory, in the same order, and the
 * engine's arena stays small however many records it holds.
 */
Test(diag, spilled_records_replay_in_order_and_stay_out_of_memory)
{
	uint32_t id = add("s.rack", "ab\ncd\n", root);
	enum { N = 100000 };
	struct arena ca, ra;
	struct diag_engine c, ref;
	char *rbuf = NULL;
	size_t rlen = 0, most = 0;
	FILE *rout = open_memstream(&rbuf, &rlen);
	const char *got;

	cr_assert_not_null(rout);
	D.show_source = false;
	arena_init(&ra);
	diag_init(&ref, rout, &SM, &ra);
	ref.show_source = false;
	arena_init(&ca);
	diag_fork(&c, &D, &ca);
	diag_spill(&c);
	for (int i = 0; i < N; i++) {
		struct srcloc *l = AT(id, (uint32_t)(i % 5), 5);

		if (i % 7 == 3)
			c.object = "rack.dev";
		diag_warning(&c, l, i % 3 ? "w" : NULL, "record %d of %s", i,
			     "the spilled engine");
		diag_warning(&ref, l, i % 3 ? "w" : NULL, "record %d of %s", i,
			     "the spilled engine");
		if (ca.total > most)
			most = ca.total;
	}
	diag_note(&c, NULL, "the last, in memory");
	diag_note(&ref, NULL, "the last, in memory");
	cr_assert_gt(c.spilled, 0);
	cr_assert_lt(c.nrecs, 1100);
	/* about 1,024 records' strings at most, not 100,000 */
	cr_assert_lt(most, (size_t)1 << 20, "arena held %zu bytes", most);
	cr_assert_eq(c.warnings, N);
	diag_join(&D, &c);
	diag_unspill(&c);
	arena_destroy(&ca);
	fflush(rout);
	got = text();
	cr_assert_eq(strlen(got), rlen);
	cr_assert(memcmp(got, rbuf, rlen) == 0);
	cr_assert_eq(D.warnings, N);
	fclose(rout);
	free(rbuf);
	arena_destroy(&ra);
}

Test(diag, spilled_records_join_into_json)
{
	uint32_t id = add("t.rack", "ab\ncd\n", root);
	struct arena ca;
	struct diag_engine c;
	const char *t;
	size_t n = 0;

	D.format = DIAG_JSON;
	arena_init(&ca);
	diag_fork(&c, &D, &ca);
	diag_spill(&c);
	for (int i = 0; i < 3000; i++)
		diag_warning(&c, AT(id, 3, 5), "w", "x%d", i);
	cr_assert_gt(c.spilled, 0);
	diag_join(&D, &c);
	diag_unspill(&c);
	arena_destroy(&ca); /* the parent kept its own copies */
	diag_finish(&D);
	t = text();
	for (const char *p = t; (p = strstr(p, "\"line\":2,")); p++)
		n++;
	cr_assert_eq(n, 3000);
	cr_assert_not_null(strstr(t, "\"message\":\"x0\"}"));
	cr_assert_not_null(strstr(t, "\"message\":\"x2999\"}"));
	cr_assert_not_null(strstr(t, "\"errors\":0,\"warnings\":3000}"));
}

Test(diag, fork_inherits_the_error_limit)
{
	struct arena ca;
	struct diag_engine c;

	D.max_errors = 2;
	diag_error(&D, NULL, "e", "one");
	arena_init(&ca);
	diag_fork(&c, &D, &ca);
	cr_assert(!diag_stop(&c));
	diag_error(&c, NULL, "e", "two");
	cr_assert(diag_stop(&c));
	arena_destroy(&ca);
}

Test(suggest, distances)
{
	cr_assert_eq(suggest_edit_distance("kitten", "sitting", 10), 3);
	cr_assert_eq(suggest_edit_distance("rack", "rakc", 5), 1);
	cr_assert_eq(suggest_edit_distance("", "abc", 5), 3);
	cr_assert_eq(suggest_edit_distance("abc", "abc", 0), 0);
	cr_assert_eq(suggest_edit_distance("ca", "abc", 9), 3,
		     "OSA, not true DL");
	cr_assert_eq(suggest_edit_distance("abcdef", "uvwxyz", 2), 3, "capped");
	cr_assert_eq(suggest_edit_distance("a", "abcdefgh", 3), 4,
		     "length cut");
	cr_assert_eq(suggest_edit_distance("power", "pwoer", (size_t)-1), 1);
}

Test(suggest, long_names)
{
	size_t n = 1u << 20;
	char *a = malloc(n + 1), *b = malloc(n + 1);

	memset(a, 'q', n);
	a[n] = '\0';
	memcpy(b, a, n + 1);
	b[n / 2] = 'r';
	b[n / 3] = 'r';
	cr_assert_eq(suggest_edit_distance(a, b, 5), 2);
	cr_assert_eq(suggest_edit_distance(a, b, 1), 2);
	b[n - 1] = '\0';
	cr_assert_eq(suggest_edit_distance(a, b, 10), 3);
	free(a);
	free(b);
}

Test(suggest, thresholds)
{
	struct suggest s;

	suggest_init(&s, "hall1");
	cr_assert_null(suggest_result(&s));
	suggest_offer(&s, "hal1");
	cr_assert_str_eq(suggest_result(&s), "hal1");

	suggest_init(&s, "ab");
	suggest_offer(&s, "xy");
	cr_assert_null(suggest_result(&s), "two edits in two bytes");
	suggest_offer(&s, "ac");
	cr_assert_str_eq(suggest_result(&s), "ac", "one edit always allowed");

	suggest_init(&s, "spine_switch");
	suggest_offer(&s, "spine_switch");
	suggest_offer(&s, "spine_swatch");
	cr_assert_null(suggest_result(&s), "exact match is no suggestion");

	suggest_init(&s, "leafswitch");
	suggest_offer(&s, "lfswtch");
	cr_assert_str_eq(suggest_result(&s), "lfswtch", "3 <= 10/3");
	suggest_init(&s, "leafswitch");
	suggest_offer(&s, "lfswch");
	cr_assert_null(suggest_result(&s), "4 > 10/3");
}

Test(suggest, ties_do_not_depend_on_order)
{
	struct suggest s, t;

	suggest_init(&s, "gpu");
	suggest_offer(&s, "gpx");
	suggest_offer(&s, "cpu");
	suggest_offer(&s, "zzzz");
	suggest_init(&t, "gpu");
	suggest_offer(&t, "zzzz");
	suggest_offer(&t, "cpu");
	suggest_offer(&t, "gpx");
	cr_assert_str_eq(suggest_result(&s), "cpu");
	cr_assert_str_eq(suggest_result(&t), "cpu");
	cr_assert_eq(s.dist, 1);
}

/*
 * A finding's exact figures (diag_record.figures) stay with it through a
 * spill and a join, and diag_figure_next() reads them back; a note never
 * takes them.
 */
Test(diag, figures_survive_spill_and_join)
{
	uint32_t id = add("f.rack", "ab\ncd\n", root);
	struct arena ca;
	struct diag_engine c;
	char want[64];

	D.format = DIAG_JSON;
	arena_init(&ca);
	diag_fork(&c, &D, &ca);
	diag_spill(&c);
	for (int i = 0; i < 3000; i++) {
		snprintf(want, sizeof(want), "load:%c:1:%d;capacity:=:1:7;",
			 i % 2 ? '>' : '=', i);
		c.figures = want;
		diag_warning(&c, AT(id, 3, 5), "w", "x%d", i);
		diag_note(&c, NULL, "a note of x%d", i);
	}
	cr_assert_gt(c.spilled, 0);
	diag_join(&D, &c);
	diag_unspill(&c);
	arena_destroy(&ca);
	cr_assert_eq(D.nrecs, 6000);
	for (uint32_t k = 0; k < D.nrecs; k += 2) {
		const char *p = D.recs[k].figures;
		struct diag_figure f;

		cr_assert_null(D.recs[k + 1].figures);
		cr_assert(diag_figure_next(&p, &f));
		cr_assert_eq(f.name_len, 4);
		cr_assert(memcmp(f.name, "load", 4) == 0);
		cr_assert_eq(f.bound, (k / 2) % 2 ? '>' : '=');
		cr_assert_eq(f.dim, 1);
		cr_assert_eq(f.v, (int64_t)(k / 2));
		cr_assert(diag_figure_next(&p, &f));
		cr_assert_eq(f.v, 7);
		cr_assert_not(diag_figure_next(&p, &f));
	}
}
