#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The editor files against the compiler's own word lists.

Usage: editors_check.py SRCDIR WORKDIR [VIM]

The lists are read from the sources at test time: the reserved words from
the keyword rules of grammar/lexer.l, the object kinds from kind_table in
src/ir/schema.c, the attribute names from src/ir/schema_attrs.def, the functions
from the fns[] table of src/elab/eval.c and the units from the unit table of
src/base/units.c.  Then:

  editors/rack.tmLanguage.json (TextMate grammar):
    - it is JSON with scopeName source.rack and fileType rack;
    - every regular expression compiles with Python's re module.  That is
      a subset of what Oniguruma (the engine of TextMate and VS Code)
      accepts: the grammar keeps to syntax both read alike (groups,
      (?:...), look-ahead, fixed-width look-behind, \\b \\d \\s, classes),
      so re checks the syntax and, below, the meaning;
    - its word lists (keywords, kinds, functions, attributes, units) are
      exactly the compiler's;
    - a small TextMate tokenizer (first match by position, ties to the
      earlier rule, an end pattern before the nested rules, captures,
      includes, regions across lines) scopes a sample of every keyword,
      kind, attribute, function and unit, and strings, escapes, comments,
      ratios and format strings, against the scopes expected.
  editors/vim/syntax/rack.vim:
    - its keyword and match lists are exactly the compiler's;
    - with VIM given: Vim itself, with editors/vim on its runtimepath,
      detects the file type of a *.rack file (ftdetect) and highlights
      the same sample; the syntax group under each sampled character is
      compared with the one expected.

Prints tab-separated PASS/FAIL lines (tests/lib.sh py_results).
"""
import json
import os
import re
import subprocess
import sys

srcdir, work = sys.argv[1], sys.argv[2]
vim = sys.argv[3] if len(sys.argv) > 3 else None


def read(path):
    with open(os.path.join(srcdir, path), encoding="utf-8") as f:
        return f.read()


def result(ok, case, detail=""):
    print("%s\t%s\t%s" % ("PASS" if ok else "FAIL", case, detail))


def same(case, got, want):
    got, want = set(got), set(want)
    result(got == want, case, "missing %s; extra %s"
           % (sorted(want - got), sorted(got - want)))


# ---- the compiler's lists
lexer = read("grammar/lexer.l")
rules = lexer[lexer.index("\n%%\n"):]
KEYWORDS = re.findall(r'^"([a-z_]+)"\s+\{\s*return\s+[A-Z_]+;\s*\}', rules,
                      re.M)
KINDS = re.findall(r'^\s*\{\s*"([a-z_]+)",\s*K_', read("src/ir/schema.c"), re.M)
ATTRS = re.findall(r'^ATTR\(\w+,\s*"([a-z_0-9]+)"', read("src/ir/schema_attrs.def"),
                   re.M)
m = re.search(r"fns\[\]\s*=\s*\{([^}]*)\}", read("src/elab/eval.c"))
FUNCTIONS = re.findall(r'"([a-z_]+)"', m.group(1)) if m else []
units_c = read("src/base/units.c")
start = units_c.index("units[] = {")
UNITS = [u for u in re.findall(r'\{\s*"([^"]*)",\s*DIM_',
                               units_c[start:units_c.index("};", start)]) if u]
# a word that is both a kind and an attribute (rack, cpu, ...) reads as
# the kind: it starts the statements that declare objects
PLAIN_ATTRS = [a for a in ATTRS if a not in KINDS]
for name, lst, least in (("keywords", KEYWORDS, 9), ("kinds", KINDS, 20),
                         ("attributes", ATTRS, 100),
                         ("functions", FUNCTIONS, 8), ("units", UNITS, 50)):
    result(len(lst) >= least, "sources: %s" % name,
           "only %d found: the extraction needs updating" % len(lst))

# ---- the sample: (line, column, TextMate scope, Vim group, negative)
lines, probes = [], []


def add(text, *checks):
    lines.append(text)
    for col, scope, group, *neg in checks:
        probes.append((len(lines), col, scope, group, bool(neg)))


for k in KEYWORDS:
    add("%s x" % k, (0, "keyword.control.rack", "rackKeyword"))
for k in KINDS:
    add("%s x" % k, (0, "storage.type.rack", "rackKind"))
for a in PLAIN_ATTRS:
    add("\t%s 1" % a, (1, "variable.other.property.rack", "rackAttribute"))
    add("x { %s 1 }" % a, (4, "variable.other.property.rack", "rackAttribute"))
for f in FUNCTIONS:
    add("let v = %s(1)" % f, (8, "support.function.rack", "rackFunction"))
for u in UNITS:
    add("let v = 12%s" % u, (8, "constant.numeric.rack", "rackNumber"),
        (10, "keyword.other.unit.rack", "rackUnit"),
        (9 + len(u), "keyword.other.unit.rack", "rackUnit"))
add("let v = 12kw", (10, "keyword.other.unit.rack", "rackUnit", "not"))
add("let height = 1", (4, "variable.other.property.rack", "rackAttribute",
                       "not"))
add("imports x", (0, "keyword.control.rack", "rackKeyword", "not"))
add("let v = 1_000.5e3", (8, "constant.numeric.rack", "rackNumber"),
    (16, "constant.numeric.rack", "rackNumber"))
add("x { oversubscription 3:1 }", (21, "constant.numeric.ratio.rack",
                                   "rackRatio"))
add("let t = true", (8, "constant.language.boolean.rack", "rackBoolean"))
add('let s = "a\\"b\\q # c" # note',
    (8, "string.quoted.double.rack", "rackString"),
    (10, "constant.character.escape.rack", "rackEscape"),
    (13, "invalid.illegal.escape.rack", "rackBadEscape"),
    (16, "string.quoted.double.rack", "rackString"),
    (16, "comment", "rackComment", "not"),
    (22, "comment.line.number-sign.rack", "rackComment"))
add("x -- y // comment", (2, "keyword.operator.rack", "rackOperator"),
    (7, "comment.line.double-slash.rack", "rackComment"))
add("x /* a block", (2, "comment.block.rack", "rackComment"))
add("   comment */ let", (3, "comment.block.rack", "rackComment"),
    (14, "keyword.control.rack", "rackKeyword"))
#       0         1         2         3         4         5
#       0123456789012345678901234567890123456789012345678901234
add('let s = f"dgx-{su:02}-{n + 1:03} {{x}} {to(LOAD, kW)}!"',
    (8, "string.interpolated.rack", "rackString"),
    (10, "string.interpolated.rack", "rackFString"),
    (14, "punctuation.section.interpolation.begin.rack", "rackFieldDelim"),
    (15, "meta.interpolation.rack", "rackField"),
    (18, "storage.modifier.format.rack", "rackFieldSpec"),
    (20, "punctuation.section.interpolation.end.rack", "rackFieldDelim"),
    (27, "constant.numeric.rack", "rackNumber"),
    (29, "storage.modifier.format.rack", "rackFieldSpec"),
    (27, "constant.numeric.ratio.rack", "rackRatio", "not"),
    (33, "constant.character.escape.rack", "rackBraceEscape"),
    (35, "string.interpolated.rack", "rackFString"),
    (35, "meta.interpolation.rack", "rackField", "not"),
    (40, "support.function.rack", "rackFunction"),
    (53, "string.interpolated.rack", "rackFString"))

# ---- the TextMate grammar
try:
    with open(os.path.join(srcdir, "editors/rack.tmLanguage.json"),
              encoding="utf-8") as f:
        g = json.load(f)
    result(g.get("scopeName") == "source.rack"
           and "rack" in g.get("fileTypes", []), "tm: scopeName, fileTypes")
except (OSError, ValueError) as e:
    result(False, "tm: JSON", str(e))
    g = None


def all_rules(node):
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from all_rules(v)
    elif isinstance(node, list):
        for v in node:
            yield from all_rules(v)


def alternatives(rx):
    """The words of a \\b(?:a|b|c)\\b (or \\b(a|b)\\b) alternation."""
    m = re.search(r"\\b\((?:\?:)?([A-Za-z_0-9|]+)\)\\b", rx)
    return m.group(1).split("|") if m else []


if g:
    bad = []
    for r in all_rules(g):
        for key in ("match", "begin", "end"):
            if isinstance(r.get(key), str):
                try:
                    r["_" + key] = re.compile(r[key])
                except re.error as e:
                    bad.append("%s: %s" % (r[key][:40], e))
    result(not bad, "tm: every regex compiles", "; ".join(bad))
    repo = g.get("repository", {})
    for key, want in (("keywords", KEYWORDS), ("kinds", KINDS),
                      ("functions", FUNCTIONS),
                      ("attributes", PLAIN_ATTRS)):
        same("tm: %s are the compiler's" % key,
             alternatives(repo.get(key, {}).get("match", "")), want)
    m = re.search(r"\(\?:\(([^()]*)\)\(\?!", repo.get("number", {}).get(
        "match", ""))
    same("tm: units are the compiler's",
         m.group(1).split("|") if m else [], UNITS)

    def expand(patterns):
        out = []
        for p in patterns:
            if "include" in p:
                r = repo.get(p["include"].lstrip("#"), {})
                if "match" in r or "begin" in r:
                    out.append(r)
                else:
                    out.extend(expand(r.get("patterns", [])))
            else:
                out.append(p)
        return out

    def captures(scopes, m, caps, base):
        for k, v in (caps or {}).items():
            i = int(k)
            if m.group(i) is not None and "name" in v:
                for c in range(m.start(i), m.end(i)):
                    scopes[c] = scopes[c] + [v["name"]]

    def tokenize(text_lines):
        stack = [{"patterns": g.get("patterns", [])}]
        result_lines = []
        for line in text_lines:
            scopes = [[] for _ in line]
            names = lambda: [s["name"] for s in stack if "name" in s]
            pos = 0
            while pos <= len(line):
                top = stack[-1]
                best, best_rule, is_end = None, None, False
                if "_end" in top:
                    best = top["_end"].search(line, pos)
                    is_end = best is not None
                for r in expand(top.get("patterns", [])):
                    rx = r.get("_match") or r.get("_begin")
                    m = rx.search(line, pos) if rx else None
                    if m and (best is None or m.start() < best.start()):
                        best, best_rule, is_end = m, r, False
                if best is None:
                    for c in range(pos, len(line)):
                        scopes[c] = names()
                    break
                for c in range(pos, best.start()):
                    scopes[c] = names()
                if is_end:
                    for c in range(best.start(), best.end()):
                        scopes[c] = names()
                    captures(scopes, best, top.get("endCaptures"), None)
                    stack.pop()
                elif "_match" in best_rule:
                    extra = [best_rule["name"]] if "name" in best_rule else []
                    for c in range(best.start(), best.end()):
                        scopes[c] = names() + extra
                    captures(scopes, best, best_rule.get("captures"), None)
                else:
                    stack.append(best_rule)
                    for c in range(best.start(), best.end()):
                        scopes[c] = names()
                    captures(scopes, best, best_rule.get("beginCaptures"),
                             None)
                if best.end() == pos and not (is_end or "_begin" in
                                              (best_rule or {})):
                    pos += 1
                elif best.end() == pos and len(stack) > 64:
                    break
                else:
                    pos = best.end()
                if pos >= len(line):
                    break
            result_lines.append(scopes)
        return result_lines

    try:
        tok = tokenize(lines)
        failures = []
        for ln, col, scope, _, neg in probes:
            have = tok[ln - 1][col] if col < len(tok[ln - 1]) else []
            hit = any(s == scope or s.startswith(scope + ".") for s in have)
            if hit == neg:
                failures.append("line %d %r col %d: %s%s, has %s"
                                % (ln, lines[ln - 1], col,
                                   "not " if neg else "", scope, have))
        result(not failures, "tm: sample scopes (%d probes)" % len(probes),
               "; ".join(failures[:5]))
    except Exception as e:  # a grammar the tokenizer cannot follow
        result(False, "tm: sample scopes", repr(e))

# ---- Vim
try:
    vimsyn = read("editors/vim/syntax/rack.vim")
except OSError as e:
    vimsyn = ""
    result(False, "vim: syntax file", str(e))
if vimsyn:
    joined = re.sub(r"\n\s*\\", "", vimsyn)  # Vim's line continuations

    def vim_keywords(group):
        return [w for l in re.findall(r"^syn keyword %s (.*)$" % group,
                                      joined, re.M) for w in l.split()]

    def vim_alternation(group):
        # the \%(a\|b\) group after \< (or the first one)
        m = re.search(r'^syn match %s .*?\\<\\%%\(([^()]*)\\\)' % group,
                      joined, re.M) or \
            re.search(r'^syn match %s .*?\\%%\(([^()]*)\\\)' % group,
                      joined, re.M)
        return [w.replace("\\/", "/") for w in m.group(1).split("\\|")] \
            if m else []

    same("vim: keywords are the compiler's", vim_keywords("rackKeyword"),
         KEYWORDS)
    same("vim: kinds are the compiler's", vim_keywords("rackKind"), KINDS)
    same("vim: attributes are the compiler's",
         vim_alternation("rackAttribute"), PLAIN_ATTRS)
    same("vim: functions are the compiler's",
         vim_alternation("rackFunction"), FUNCTIONS)
    same("vim: units are the compiler's", vim_alternation("rackUnit"),
         UNITS)

if vim and vimsyn:
    sample = os.path.join(work, "sample.rack")
    with open(sample, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    queries = os.path.join(work, "queries")
    answers = os.path.join(work, "answers")
    with open(queries, "w") as f:
        f.write("".join("%d %d\n" % (ln, col + 1)
                        for ln, col, _, _, _ in probes))
    script = os.path.join(work, "probe.vim")
    with open(script, "w") as f:
        f.write("let q = readfile('%s')\n"
                "call writefile([&filetype] + map(q, {_, v -> synIDattr("
                "synID(str2nr(split(v)[0]), str2nr(split(v)[1]), 1), "
                "'name')}), '%s')\nqa!\n" % (queries, answers))
    run = subprocess.run(
        [vim, "-Nu", "NONE", "-i", "NONE", "-es", "--cmd",
         "set rtp^=" + os.path.join(srcdir, "editors/vim"),
         "-c", "filetype plugin on", "-c", "syntax on", "-c",
         "edit " + sample, "-c", "source " + script],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    try:
        with open(answers) as f:
            got = f.read().splitlines()
    except OSError:
        got = []
    result(bool(got) and got[0] == "rack", "vim: ftdetect sets filetype rack",
           "vim status %d, filetype %r" % (run.returncode,
                                           got[0] if got else None))
    failures = []
    for (ln, col, _, group, neg), have in zip(probes, got[1:]):
        if (have == group) == neg:
            failures.append("line %d %r col %d: %s%s, has %r"
                            % (ln, lines[ln - 1], col, "not " if neg else "",
                               group, have))
    if len(got) != len(probes) + 1:
        failures.append("%d answers for %d probes" % (len(got) - 1,
                                                      len(probes)))
    result(not failures, "vim: sample highlighting (%d probes)" % len(probes),
           "; ".join(failures[:5]))
