#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The man pages (doc/man/*.1) against rackc's own output.

Usage: man_check.py RACKC MANDIR MAKEFILE.AM

Prints tab-separated PASS/FAIL lines (tests/lib.sh py_results):
  - every subcommand that `rackc --help` lists has a page rackc-SUB.1, and
    every page is installed (listed in Makefile.am's dist_man_MANS);
  - every option that `rackc --help` (and `rackc SUB --help`) lists is the
    tag of an item (.TP) of rackc.1 (rackc-SUB.1);
  - the BACK ENDS section of rackc.1 lists exactly the back ends of
    `rackc --list-backends`, and its CHECKS section exactly the checks of
    `rackc --list-checks`.
"""
import os
import re
import subprocess
import sys

rackc, mandir, makefile = sys.argv[1:4]


def out(*args):
    return subprocess.run([rackc, *args], check=True, capture_output=True,
                          text=True).stdout


def result(ok, case, detail=""):
    print("%s\t%s\t%s" % ("PASS" if ok else "FAIL", case, detail))


def help_options(text):
    """The options of a --help text, as written in its option column:
    '-o', '--output', '-Werror', '-Wno-' ..."""
    opts = set()
    for line in text.splitlines():
        m = re.match(r"^ {1,8}(-\S.*)$", line)
        if not m:
            continue
        column = m.group(1).split("  ")[0]
        for word in re.split(r"[ ,]+", column):
            if not word.startswith("-"):
                continue
            word = re.sub(r"[=\[].*", "", word)
            word = re.sub(r"-[A-Z]{2,}$", "-", word)
            opts.add(word)
    return opts


def plain(roff):
    """A roff line as text: macros, font escapes and quotes gone."""
    roff = re.sub(r"^\.[A-Z]{1,2} ?", "", roff)
    roff = re.sub(r"\\f[BIRP]", "", roff)
    roff = roff.replace("\\-", "-").replace("\\&", "").replace('"', "")
    return roff


def page(name):
    with open(os.path.join(mandir, name), encoding="utf-8") as f:
        return f.read().splitlines()


def tags(lines):
    """The tag line of every .TP item, as text."""
    return [plain(lines[i + 1]) for i, l in enumerate(lines[:-1])
            if l.strip() == ".TP"]


def section_names(lines, title):
    """The bold tags (.TP then .B NAME) of section .SH TITLE."""
    names, inside = [], False
    for i, l in enumerate(lines):
        if l.startswith(".SH"):
            inside = l[3:].strip().strip('"') == title
        elif inside and l.strip() == ".TP" and i + 1 < len(lines):
            t = lines[i + 1]
            if t.startswith(".B "):
                names.append(plain(t).strip())
    return names


def check_options(pagename, helptext):
    lines = page(pagename)
    tagtext = tags(lines)
    for opt in sorted(help_options(helptext)):
        if opt.endswith("-"):
            pat = re.compile(r"(^|[^\w-])" + re.escape(opt))
        else:
            pat = re.compile(r"(^|[^\w-])" + re.escape(opt) + r"($|[^\w-])")
        ok = any(pat.search(t) for t in tagtext)
        result(ok, "%s option %s" % (pagename, opt),
               "" if ok else "no .TP item of %s names %s" % (pagename, opt))


with open(makefile, encoding="utf-8") as f:
    mk = f.read()
m = re.search(r"^dist_man_MANS\s*=((?:.*\\\n)*.*)$", mk, re.M)
installed = set(re.findall(r"doc/man/(\S+\.1)", m.group(1))) if m else set()

main_help = out("--help")
subs = re.findall(r"^\s*rackc ([a-z][a-z-]*) ", main_help, re.M)
result(len(subs) >= 3, "subcommands", "found %r" % subs)
pages = ["rackc.1"] + ["rackc-%s.1" % s for s in subs]
for p in pages:
    ok = os.path.exists(os.path.join(mandir, p))
    result(ok, "page %s" % p, "" if ok else "missing")
    result(p in installed, "installed %s" % p,
           "" if p in installed else "not in Makefile.am dist_man_MANS")
extra = sorted(set(f for f in os.listdir(mandir) if f.endswith(".1"))
               - set(pages))
result(not extra, "no stale pages", " ".join(extra))

check_options("rackc.1", main_help)
for s in subs:
    if os.path.exists(os.path.join(mandir, "rackc-%s.1" % s)):
        check_options("rackc-%s.1" % s, out(s, "--help"))

rackc1 = page("rackc.1")
for title, arg in (("BACK ENDS", "--list-backends"),
                   ("CHECKS", "--list-checks")):
    want = [l.split()[0] for l in out(arg).splitlines() if l.strip()]
    got = section_names(rackc1, title)
    missing = sorted(set(want) - set(got))
    stale = sorted(set(got) - set(want))
    result(not missing and not stale and len(got) == len(set(got)),
           "rackc.1 %s" % title.lower(),
           "missing %s; not in rackc %s: %s" % (missing, arg, stale))
