#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Protocol-level tests of `rackc lsp` (src/lsp/lsp.c, src/lsp/lsp_query.c).

Drives the server over pipes with Content-Length framed JSON-RPC and
checks each method against figures read from the sources themselves: the
line and column of a declaration found by searching the file's text, a
part's figures from its block in std/, the compiler's own diagnostics from
`rackc --check --diagnostics-format=json`.  Prints one "PASS<TAB>case" or
"FAIL<TAB>case<TAB>why" line a case (tests/lib.sh's py_results).

usage: lsp_check.py RACKC TOP_SRCDIR TMPDIR
"""
import json
import os
import random
import re
import select
import shutil
import subprocess
import sys
import time

RACKC, TOP, TMP = sys.argv[1], sys.argv[2], sys.argv[3]
TIMEOUT = 60


def result(ok, name, why=""):
    print("%s\t%s\t%s" % ("PASS" if ok else "FAIL", name,
                          str(why).replace("\n", " ")[:400]))
    sys.stdout.flush()


class Server:
    def __init__(self, *args):
        self.p = subprocess.Popen([RACKC, "lsp"] + list(args),
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        self.buf = b""
        self.next_id = 100

    def raw(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, msg):
        msg = dict(msg, jsonrpc="2.0")
        body = json.dumps(msg).encode()
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def _fill(self, deadline):
        r, _, _ = select.select([self.p.stdout], [], [],
                                max(0, deadline - time.time()))
        if not r:
            raise TimeoutError("no answer from the server")
        chunk = os.read(self.p.stdout.fileno(), 65536)
        if not chunk:
            raise EOFError("the server closed its output")
        self.buf += chunk

    def recv(self):
        deadline = time.time() + TIMEOUT
        while b"\r\n\r\n" not in self.buf:
            self._fill(deadline)
        head, rest = self.buf.split(b"\r\n\r\n", 1)
        n = None
        for line in head.split(b"\r\n"):
            k, v = line.split(b":", 1)
            if k.strip().lower() == b"content-length":
                n = int(v)
        self.buf = rest
        while len(self.buf) < n:
            self._fill(deadline)
        body, self.buf = self.buf[:n], self.buf[n:]
        return json.loads(body)

    def request(self, method, params=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        while True:
            m = self.recv()
            if m.get("id") == self.next_id:
                return m

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def diagnostics(self, uri):
        while True:
            m = self.recv()
            if (m.get("method") == "textDocument/publishDiagnostics"
                    and m["params"]["uri"] == uri):
                return m["params"]["diagnostics"]

    def start(self):
        return self.request("initialize", {"processId": None,
                                           "rootUri": None,
                                           "capabilities": {}})

    def open(self, uri, text):
        self.notify("textDocument/didOpen",
                    {"textDocument": {"uri": uri, "languageId": "rack",
                                      "version": 1, "text": text}})
        return self.diagnostics(uri)

    def change(self, uri, text, version=2):
        self.notify("textDocument/didChange",
                    {"textDocument": {"uri": uri, "version": version},
                     "contentChanges": [{"text": text}]})
        return self.diagnostics(uri)

    def stop(self):
        self.request("shutdown")
        self.notify("exit", None)
        try:
            return self.p.wait(TIMEOUT)
        finally:
            self.p.stdout.close()
            self.p.stderr.close()
            self.p.stdin.close()


def find(text, pattern, group=0):
    """(line, UTF-16 column) of the first match of PATTERN in TEXT."""
    m = re.search(pattern, text, re.M)
    if not m:
        raise ValueError("pattern %r not in the text" % pattern)
    at = m.start(group)
    line = text.count("\n", 0, at)
    start = text.rfind("\n", 0, at) + 1
    return line, len(text[start:at].encode("utf-16-le")) // 2


def pos(text, pattern, group=0, plus=0):
    line, col = find(text, pattern, group)
    return {"line": line, "character": col + plus}


def uri_of(path):
    return "file://" + os.path.abspath(path)


def hover_text(r):
    res = r.get("result") or {}
    c = res.get("contents", {})
    return c.get("value", "") if isinstance(c, dict) else str(c)


def case(name, fn):
    try:
        fn(name)
    except Exception as e:  # a crash of the case is its failure
        result(False, name, "%s: %s" % (type(e).__name__, e))


# ---- fixtures: examples/minimal.rack copied beside its include/ ----
work = os.path.join(TMP, "lspwork")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
shutil.copytree(os.path.join(TOP, "examples", "include"),
                os.path.join(work, "include"))
MIN_PATH = os.path.join(work, "minimal.rack")
with open(os.path.join(TOP, "examples", "minimal.rack")) as f:
    MIN = f.read()
with open(MIN_PATH, "w") as f:
    f.write(MIN)
MIN_URI = uri_of(MIN_PATH)
STD = os.path.join(TOP, "std")
with open(os.path.join(STD, "nvidia.rack")) as f:
    NVIDIA = f.read()
# the leaf switch moved past the top of its 48U rack: one error
BAD = MIN.replace("\tat 40U\n", "\tat 60U\n")
assert BAD != MIN


def cli_diags(path):
    p = subprocess.run([RACKC, "--check", "--diagnostics-format=json",
                        "--stdlib=" + TOP, path],
                       capture_output=True, text=True, timeout=TIMEOUT)
    return p.returncode, json.loads(p.stderr)["diagnostics"]


def t_initialize(name):
    s = Server("--stdlib=" + TOP)
    r = s.start()
    caps = r["result"]["capabilities"]
    ok = (caps.get("hoverProvider") and caps.get("definitionProvider")
          and caps.get("documentSymbolProvider")
          and "completionProvider" in caps
          and caps["textDocumentSync"]["change"] == 1)
    rc = s.stop()
    result(ok and rc == 0, name, "capabilities %s, exit %s" % (caps, rc))


def t_diagnostics(name):
    s = Server("--stdlib=" + TOP)
    s.start()
    clean = s.open(MIN_URI, MIN)
    rc0, _ = cli_diags(MIN_PATH)
    why = []
    if clean != [] or rc0 != 0:
        why.append("clean design: %s (compiler exit %d)" % (clean, rc0))
    diags = s.change(MIN_URI, BAD)
    with open(os.path.join(TMP, "bad.rack"), "w") as f:
        f.write(BAD)
    bad_path = os.path.join(work, "bad.rack")
    with open(bad_path, "w") as f:
        f.write(BAD)
    _, cli = cli_diags(bad_path)
    errs = [d for d in cli if d["level"] != "note"]
    notes = [d for d in cli if d["level"] == "note"]
    # where the error must be: the `switch leaf` statement; its first note
    # at the `at 60U` line (found in the text)
    sw = find(BAD, r"^switch leaf")
    at60 = find(BAD, r"at (60U)", 1)
    if len(diags) != 1 or len(errs) != 1:
        why.append("%d diagnostics, the compiler %d" % (len(diags),
                                                         len(errs)))
    else:
        d = diags[0]
        st = d["range"]["start"]
        if (st["line"], st["character"]) != sw:
            why.append("error at %s, the statement at %s" % (st, sw))
        if d["severity"] != 1 or d.get("code") != errs[0]["check"] \
                or d["message"] != errs[0]["message"]:
            why.append("error %s, the compiler's %s" % (d, errs[0]))
        rel = d.get("relatedInformation", [])
        if [r["message"] for r in rel] != [n["message"] for n in notes]:
            why.append("notes %s, the compiler's %s" % (rel, notes))
        elif rel:
            line0 = rel[0]["location"]["range"]["start"]["line"]
            if rel[0]["location"]["uri"] != MIN_URI or \
                    line0 != at60[0]:
                why.append("first note at %s, 'at 60U' on line %d" %
                           (rel[0]["location"], at60[0]))
            if not rel[-1]["location"]["uri"].endswith("/std/facility.rack"):
                why.append("the rack's note is not in std/facility.rack")
    again = s.change(MIN_URI, MIN, 3)
    if again != []:
        why.append("fixed again, still %s" % again)
    s.notify("textDocument/didClose", {"textDocument": {"uri": MIN_URI}})
    closed = s.diagnostics(MIN_URI)
    if closed != []:
        why.append("closed: %s" % closed)
    s.stop()
    result(not why, name, "; ".join(why))


def t_utf16(name):
    # an unknown attribute after a string of non-ASCII text on its line:
    # the column counts UTF-16 code units (the emoji is two)
    text = MIN.replace('\thostname "dgx-01"\n',
                       '\tdescription "r\u00e9seau \U0001F600"; bogus_attr 1\n'
                       '\thostname "dgx-01"\n')
    s = Server("--stdlib=" + TOP)
    s.start()
    diags = s.open(MIN_URI, text)
    s.stop()
    want = find(text, r"(bogus_attr) 1", 1)
    got = [(d["range"]["start"]["line"], d["range"]["start"]["character"])
           for d in diags]
    result(want in got, name, "diagnostics at %s, bogus_attr at %s" %
           (got, want))


def t_hover(name):
    s = Server("--stdlib=" + TOP)
    s.start()
    s.open(MIN_URI, MIN)
    why = []
    # a part: its power_max and source lines from its block in std
    block = re.search(r"^part qm9700 :.*?^}", NVIDIA, re.M | re.S).group(0)
    base = re.search(r"^part qm9700 : (\w+)", NVIDIA, re.M).group(1)
    bblock = re.search(r"^part %s :.*?^}" % base, NVIDIA,
                       re.M | re.S).group(0)
    # the part's own figure, else its base's (a part inherits its base's)
    pmax = re.search(r"power_max\s+([0-9.]+k?W)", block).group(1)
    source = re.search(r'source\s+"([^"]*)"', block) or \
        re.search(r'source\s+"([^"]*)"', bblock)
    source = source.group(1)
    h = hover_text(s.request("textDocument/hover", {
        "textDocument": {"uri": MIN_URI},
        "position": pos(MIN, r"^switch leaf : (qm9700)", 1, 2)}))
    if "qm9700" not in h or ("power_max: " + pmax) not in h or \
            source not in h:
        why.append("part: %r lacks power_max %s or its source" % (h, pmax))
    # an object: its part, rack and U from its declaration
    node = re.search(r"^node dgx : (\w+) \{.*?^}", MIN, re.M | re.S)
    rack = re.search(r"rack ([\w.\[\]]+)", node.group(0)).group(1)
    at = re.search(r"\bat (\d+U)", node.group(0)).group(1)
    h = hover_text(s.request("textDocument/hover", {
        "textDocument": {"uri": MIN_URI},
        "position": pos(MIN, r"^node (dgx)", 1, 1)}))
    for want in (node.group(1), rack, at):
        if want not in h:
            why.append("object: %r lacks %s" % (h, want))
    # a use of an object elsewhere
    h = hover_text(s.request("textDocument/hover", {
        "textDocument": {"uri": MIN_URI},
        "position": pos(MIN, r"-> (pdu_a)", 1, 2)}))
    if "raritan_px3_5878i2r" not in h:
        why.append("use of pdu_a: %r" % h)
    # a rack named by its path with an index, from a device's `rack`
    rpart = re.search(r"rack rk\[1\] : (\w+)", MIN).group(1)
    h = hover_text(s.request("textDocument/hover", {
        "textDocument": {"uri": MIN_URI},
        "position": pos(MIN, r"^pdu pdu_a : \w+ \{ rack lab\.r1\.(rk)", 1,
                        1)}))
    if "lab.r1.rk[1]" not in h or rpart not in h:
        why.append("rack path: %r lacks %s" % (h, rpart))
    # a quantity in other units: 415 V = 415,000 mV = 0.415 kV
    h = hover_text(s.request("textDocument/hover", {
        "textDocument": {"uri": MIN_URI},
        "position": pos(MIN, r"voltage (415V)", 1, 1)}))
    for want in ("%dmV" % (415 * 1000), "0.415kV", "voltage"):
        if want not in h:
            why.append("quantity: %r lacks %s" % (h, want))
    # nothing under the cursor: null
    r = s.request("textDocument/hover", {
        "textDocument": {"uri": MIN_URI}, "position": {"line": 0,
                                                        "character": 0}})
    if r.get("result") is not None:
        why.append("comment: %s" % r)
    s.stop()
    result(not why, name, "; ".join(why))


def t_definition(name):
    su_path = os.path.join(work, "su.rack")
    with open(os.path.join(TOP, "examples", "dgx-h100-su.rack")) as f:
        su = f.read()
    with open(su_path, "w") as f:
        f.write(su)
    su_uri = uri_of(su_path)
    s = Server("--stdlib=" + TOP)
    s.start()
    s.open(MIN_URI, MIN)
    s.open(su_uri, su)
    why = []

    def defn(uri, p):
        r = s.request("textDocument/definition",
                      {"textDocument": {"uri": uri}, "position": p})
        res = r.get("result")
        if isinstance(res, list):
            res = res[0] if res else None
        return res

    def expect(what, res, uri_end, want):
        if not res:
            why.append("%s: no location" % what)
            return
        st = res["range"]["start"]
        if not res["uri"].endswith(uri_end) or \
                (st["line"], st["character"]) != want:
            why.append("%s: %s, want %s %s" % (what, res, uri_end, want))

    expect("object", defn(MIN_URI, pos(MIN, r"-> (pdu_a)", 1, 1)),
           "/minimal.rack", find(MIN, r"^pdu (pdu_a)", 1))
    expect("part", defn(MIN_URI, pos(MIN, r"^switch leaf : (qm9700)", 1)),
           "/std/nvidia.rack", find(NVIDIA, r"^part (qm9700)\b", 1))
    expect("import", defn(MIN_URI, pos(MIN, r'^import "(std/nvidia)"', 1)),
           "/std/nvidia.rack", (0, 0))
    expect("import (include/)",
           defn(MIN_URI, pos(MIN, r'^import "(include/dgx_h100_site)"', 1)),
           "/include/dgx_h100_site.rack", (0, 0))
    expect("param", defn(su_uri, pos(su, r"in 0\.\.(NODES) - 1", 1, 2)),
           "/su.rack", find(su, r"^param (NODES)\b", 1))
    expect("let", defn(su_uri, pos(su, r"for i in 0\.\.(RAILS)", 1)),
           "/su.rack", find(su, r"^let (RAILS)\b", 1))
    s.stop()
    result(not why, name, "; ".join(why))


def labels(r):
    res = r.get("result") or []
    if isinstance(res, dict):
        res = res.get("items", [])
    return res


def t_completion(name):
    s = Server("--stdlib=" + TOP)
    s.start()
    s.open(MIN_URI, MIN)
    why = []
    # a part after ':' (the parts of the files minimal.rack imports)
    imported = ""
    for f in ("nvidia", "facility"):
        with open(os.path.join(STD, f + ".rack")) as fp:
            imported += fp.read()
    with open(os.path.join(work, "include", "dgx_h100_site.rack")) as fp:
        imported += fp.read()
    want = set(re.findall(r"^part (qm97\w*)\b", imported, re.M))
    text = MIN + "switch sw2 : qm97"
    s.change(MIN_URI, text)
    end = {"line": text.count("\n"), "character": len("switch sw2 : qm97")}
    items = labels(s.request("textDocument/completion", {
        "textDocument": {"uri": MIN_URI}, "position": end}))
    got = {i["label"] for i in items}
    if not want or got != want:
        why.append("parts %s, the catalog's %s" % (sorted(got),
                                                    sorted(want)))
    edit = [i for i in items if i["label"] == "qm9700"]
    if edit:
        te = edit[0]["textEdit"]
        if te["range"]["start"]["character"] != len("switch sw2 : ") or \
                te["newText"] != "qm9700":
            why.append("text edit %s" % te)
    # a check name inside waive "..."
    checks = subprocess.run([RACKC, "--list-checks"], capture_output=True,
                            text=True).stdout.split("\n")
    want = {ln.split()[0] for ln in checks if ln.startswith("rack-")}
    text = MIN.replace("\trole leaf\n", '\trole leaf\n\twaive "rack-')
    line, _ = find(text, r'waive "rack-')
    s.change(MIN_URI, text, 3)
    items = labels(s.request("textDocument/completion", {
        "textDocument": {"uri": MIN_URI},
        "position": {"line": line, "character": len('\twaive "rack-')}}))
    got = {i["label"] for i in items}
    if not want or got != want:
        why.append("checks %s, --list-checks' %s" % (sorted(got),
                                                      sorted(want)))
    # attribute names: hostname inside a device, not at the top level
    text = MIN.replace("node dgx : dgx_h100_site {\n",
                       "node dgx : dgx_h100_site {\n\thostn\n")
    s.change(MIN_URI, text, 4)
    line, _ = find(text, r"^\thostn$")
    got = {i["label"] for i in labels(s.request("textDocument/completion", {
        "textDocument": {"uri": MIN_URI},
        "position": {"line": line, "character": 6}}))}
    if "hostname" not in got:
        why.append("device scope: %s" % sorted(got))
    text = MIN + "hostn"
    s.change(MIN_URI, text, 5)
    got = {i["label"] for i in labels(s.request("textDocument/completion", {
        "textDocument": {"uri": MIN_URI},
        "position": {"line": text.count("\n"), "character": 5}}))}
    if "hostname" in got:
        why.append("top level offers hostname: %s" % sorted(got))
    text = MIN + "si"
    s.change(MIN_URI, text, 6)
    got = {i["label"] for i in labels(s.request("textDocument/completion", {
        "textDocument": {"uri": MIN_URI},
        "position": {"line": text.count("\n"), "character": 2}}))}
    if "site" not in got:
        why.append("top level lacks the kind 'site': %s" % sorted(got))
    s.stop()
    result(not why, name, "; ".join(why))


def t_symbols(name):
    s = Server("--stdlib=" + TOP)
    s.start()
    s.open(MIN_URI, MIN)
    r = s.request("textDocument/documentSymbol",
                  {"textDocument": {"uri": MIN_URI}})["result"]
    s.stop()
    why = []
    top = re.findall(r"^(?:site|pdu|node|switch|fabric|part|rack)\s+(\w+)",
                     MIN, re.M)
    got = [x["name"] for x in r]
    if got != top:
        why.append("top level %s, declared %s" % (got, top))
    lab = [x for x in r if x["name"] == "lab"]
    if lab:
        kids = [k["name"] for k in lab[0]["children"]]
        inside = re.findall(r"^\t(?:feed|air|row)\s+(\w+)", MIN, re.M)
        if kids != inside:
            why.append("lab's children %s, declared %s" % (kids, inside))
        row = [k for k in lab[0]["children"] if k["name"] == "r1"]
        if not row or [k["name"] for k in row[0]["children"]] != ["rk[1]"]:
            why.append("r1's children: %s" % row)
        sel = lab[0]["selectionRange"]["start"]
        if (sel["line"], sel["character"]) != find(MIN, r"^site (lab)", 1):
            why.append("lab's selection range %s" % sel)
    for x in r:
        if x["name"] == "dgx" and x.get("detail") != "dgx_h100_site":
            why.append("dgx's detail %s" % x.get("detail"))
    result(not why, name, "; ".join(why))


def t_protocol(name):
    """Malformed input: every bad message answered or ignored, the server
    alive after all of them, its exit status as LSP says."""
    why = []
    s = Server("--stdlib=" + TOP)
    r = s.request("textDocument/hover", {})
    if r.get("error", {}).get("code") != -32002:
        why.append("before initialize: %s" % r)
    s.start()
    bodies = [b"{", b"[1,2]", b"42", b'"x"', b"null",
              b'{"jsonrpc":"2.0","id":{"a":1},"method":"x"}',
              b'{"jsonrpc":"2.0","id":3}',
              b'{"jsonrpc":"2.0","id":4,"method":7}',
              b'{"jsonrpc":"2.0","id":5,"method":"textDocument/hover",'
              b'"params":"nope"}',
              b'{"jsonrpc":"2.0","id":6,"method":"textDocument/hover",'
              b'"params":{"textDocument":{"uri":3},"position":"x"}}',
              b'{"jsonrpc":"2.0","id":7,"method":"textDocument/definition",'
              b'"params":{"textDocument":{"uri":"file:///nowhere.rack"},'
              b'"position":{"line":-5,"character":1e9}}}',
              b'{"jsonrpc":"2.0","method":"textDocument/didOpen",'
              b'"params":{"textDocument":{"uri":"file:///x.rack",'
              b'"text":17}}}',
              b'{"jsonrpc":"2.0","method":"textDocument/didChange",'
              b'"params":{"contentChanges":5}}',
              b'{"jsonrpc":"2.0","id":8,"method":"no/such/method"}',
              b"\xff\xfe\x00garbage"]
    # each with an id is answered with an error, in order (the others are
    # notifications, or not JSON: a parse error with a null id)
    for b in bodies:
        s.raw(b"Content-Length: %d\r\n\r\n" % len(b) + b)
    got = []
    for b in bodies:
        if b"didOpen" in b or b"didChange" in b:
            continue
        got.append(s.recv())
    codes = [m.get("error", {}).get("code") for m in got]
    want = [-32700, -32600, -32600, -32600, -32600, -32600, -32600,
            -32600, -32602, None, None, -32601, -32700]
    if codes != want:
        why.append("errors %s, want %s" % (codes, want))
    # frames that carry no message: no length, a bad length, too large
    s.raw(b"Content-Type: x\r\n\r\n")
    s.raw(b"Content-Length: banana\r\n\r\n")
    big = 64 * 1024 * 1024 + 1
    s.raw(b"Content-Length: %d\r\n\r\n" % big + b" " * big)
    rnd = random.Random(29)
    for _ in range(300):
        n = rnd.randrange(0, 64)
        junk = bytes(rnd.randrange(256) for _ in range(n))
        if rnd.random() < 0.5:
            # mutated valid requests
            good = json.dumps({"jsonrpc": "2.0", "id": rnd.randrange(9),
                               "method": rnd.choice([
                                   "textDocument/hover",
                                   "textDocument/completion",
                                   "textDocument/documentSymbol",
                                   "textDocument/definition"]),
                               "params": {"textDocument": {"uri": MIN_URI},
                                          "position": {"line": 3,
                                                       "character": 2}}})
            k = rnd.randrange(len(good))
            junk = (good[:k] + junk.decode("latin-1") + good[k:]).encode()
        s.raw(b"Content-Length: %d\r\n\r\n" % len(junk) + junk)
    # the server still answers, and in order
    r = s.request("textDocument/documentSymbol",
                  {"textDocument": {"uri": "file:///none.rack"}})
    if r.get("result") != []:
        why.append("after the junk: %s" % r)
    s.open(MIN_URI, MIN)
    r = s.request("textDocument/documentSymbol",
                  {"textDocument": {"uri": MIN_URI}})
    if not r.get("result"):
        why.append("symbols after the junk: %s" % r)
    r = s.request("no/such/method", {})
    if r.get("error", {}).get("code") != -32601:
        why.append("unknown method: %s" % r)
    rc = s.stop()
    if rc != 0:
        why.append("exit status %s after shutdown" % rc)
    # exit without shutdown: 1; the end of input: the server ends too
    s = Server("--stdlib=" + TOP)
    s.start()
    s.notify("exit", None)
    rc = s.p.wait(TIMEOUT)
    if rc != 1:
        why.append("exit without shutdown: %s" % rc)
    s = Server("--stdlib=" + TOP)
    s.p.stdin.close()
    rc = s.p.wait(TIMEOUT)
    if rc not in (0, 1):
        why.append("end of input: %s" % rc)
    result(not why, name, "; ".join(why))


for n, fn in [("initialize", t_initialize), ("diagnostics", t_diagnostics),
              ("utf16", t_utf16), ("hover", t_hover),
              ("definition", t_definition), ("completion", t_completion),
              ("symbols", t_symbols), ("protocol", t_protocol)]:
    case(n, fn)
