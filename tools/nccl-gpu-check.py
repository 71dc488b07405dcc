#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""NCCL itself loads rackc's topology files, on a machine with an NVIDIA GPU.

tests/nccl_check.py holds every NCCL file to the rules of NCCL's reader,
derived from its source; this tool runs the reader.  It is run by hand,
in two steps, because the GPU machine need not hold rackc's build:

  tools/nccl-gpu-check.py gen DIR   here: compiles the NVIDIA designs of
                                    examples/ and tests/std/exercise.rack
                                    with -O nccl ($RACKC, default ./rackc)
                                    and keeps their topology files in DIR
  tools/nccl-gpu-check.py run DIR   on the GPU machine: NCCL (libnccl.so.2,
                                    found in Python's site packages or by
                                    LIBNCCL) loads each file

For each file F, "run" starts a one-GPU communicator (ncclCommInitAll) in a
fresh process with NCCL_TOPO_FILE=F and NCCL_TOPO_DUMP_FILE set, twice:
  - F as written: the communicator must come up, NCCL must say it read F,
    and it must print no warning;
  - F with its first GPU's bus id replaced by the real GPU's: NCCL then
    fuses the real GPU into F's tree, so its dump must give that GPU the
    PCIe link speed and width and the NVLink rows (target, count) F gives
    it: the catalog's figures, not live detection's.  A figure F leaves out
    (the catalog marks it unknown) is left to NCCL's detection and listed.
A control, F cut short, must make NCCL fail.  Exit 0 only when all hold.
"""
import glob
import os
import site
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)

INIT = r"""
import ctypes, sys
nccl = ctypes.CDLL(sys.argv[1])
v = ctypes.c_int()
nccl.ncclGetVersion(ctypes.byref(v))
print("nccl version", v.value)
comm = ctypes.c_void_p()
rc = nccl.ncclCommInitAll(ctypes.byref(comm), 1, (ctypes.c_int * 1)(0))
print("ncclCommInitAll", rc)
if rc == 0:
    nccl.ncclCommDestroy(comm)
sys.exit(0 if rc == 0 else 10 + rc)
"""


def gen(out):
    out = os.path.abspath(out)
    rackc = os.environ.get("RACKC", os.path.join(TOP, "rackc"))
    designs = sorted(glob.glob(os.path.join(TOP, "examples", "*.rack")))
    designs.append(os.path.join(TOP, "tests", "std", "exercise.rack"))
    os.makedirs(out, exist_ok=True)
    kept = 0
    for d in designs:
        name = os.path.basename(d)[:-5]
        tmp = os.path.join(out, ".build", name)
        subprocess.run([rackc, "--force", "-O", "nccl", "-o", tmp,
                        os.path.basename(d)], cwd=os.path.dirname(d),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for x in sorted(glob.glob(os.path.join(tmp, "nccl", "*.xml"))):
            text = open(x).read()
            # RCCL's files (AMD GPUs) name the GPU's architecture
            if 'gcn="' in text or "<gpu " not in text:
                continue
            dst = os.path.join(out, name + "--" + os.path.basename(x))
            open(dst, "w").write(text)
            kept += 1
    print("%d NVIDIA topology files in %s" % (kept, out))
    return 0 if kept else 1


def find_nccl():
    if os.environ.get("LIBNCCL"):
        return os.environ["LIBNCCL"]
    dirs = site.getsitepackages() + [site.getusersitepackages()]
    for d in dirs:
        for f in glob.glob(os.path.join(d, "nvidia", "nccl", "lib",
                                        "libnccl.so*")):
            return f
    for f in ("/usr/lib/x86_64-linux-gnu/libnccl.so.2",
              "/usr/lib/aarch64-linux-gnu/libnccl.so.2"):
        if os.path.exists(f):
            return f
    return None


def real_busid():
    out = subprocess.run(["nvidia-smi", "--query-gpu=pci.bus_id",
                          "--format=csv,noheader"], capture_output=True,
                         text=True, check=True).stdout.split()[0]
    # 00000000:18:00.0 -> 0000:18:00.0, as NCCL writes bus ids
    dom, rest = out.lower().split(":", 1)
    return dom[-4:] + ":" + rest


def init(lib, topo, dump, log):
    env = dict(os.environ, NCCL_TOPO_FILE=topo, NCCL_DEBUG="INFO",
               NCCL_DEBUG_SUBSYS="INIT,GRAPH,ENV", NCCL_TOPO_DUMP_FILE=dump)
    with open(log, "w") as fp:
        try:
            rc = subprocess.run([sys.executable, "-c", INIT, lib], env=env,
                                stdout=fp, stderr=subprocess.STDOUT,
                                timeout=300).returncode
        except subprocess.TimeoutExpired:
            rc = -1
    text = open(log).read()
    return rc, text


def gpu_view(root, busid):
    """(link_speed, link_width, sorted nvlink rows) of the GPU at busid."""
    for pci in root.iter("pci"):
        if pci.get("busid", "").lower() != busid:
            continue
        gpu = pci.find("gpu")
        if gpu is None:
            return None
        rows = sorted((n.get("target", "").lower(), n.get("count"))
                      for n in gpu.findall("nvlink"))
        return (pci.get("link_speed"), pci.get("link_width"), rows)
    return None


def first_gpu_busid(root):
    for pci in root.iter("pci"):
        if pci.find("gpu") is not None:
            return pci.get("busid").lower()
    return None


def run(src):
    src = os.path.abspath(src)
    lib = find_nccl()
    if not lib:
        print("no libnccl.so.2 found (set LIBNCCL)")
        return 2
    real = real_busid()
    work = os.path.join(src, ".run")
    os.makedirs(work, exist_ok=True)
    outdir = os.environ.get("OUT", work)
    files = sorted(glob.glob(os.path.join(src, "*.xml")))
    if not files:
        print("no topology files in %s" % src)
        return 2
    print("NCCL: %s; the real GPU: %s" % (lib, real))
    bad = 0
    # the control: a file cut short must make NCCL fail
    ctl = os.path.join(work, "control.xml")
    open(ctl, "w").write(open(files[0]).read()[:300])
    rc, _ = init(lib, ctl, os.path.join(work, "control.dump.xml"),
                 os.path.join(outdir, "control.log"))
    ok = rc != 0
    bad += not ok
    print("%-4s control (a file cut short): NCCL exit %d" %
          ("ok" if ok else "FAIL", rc))
    for f in files:
        name = os.path.basename(f)[:-4]
        text = open(f).read()
        rc, log = init(lib, f, os.path.join(work, name + ".dump.xml"),
                       os.path.join(outdir, name + ".log"))
        why = []
        left = []
        if rc != 0:
            why.append("init returned %d" % rc)
        if "NCCL_TOPO_FILE set by environment to " + f not in log:
            why.append("NCCL did not say it read the file")
        warns = [l for l in log.splitlines() if "NCCL WARN" in l]
        if warns:
            why.append("warning: " + warns[0].split("NCCL WARN", 1)[1])
        # the same file around the real GPU
        mine = ET.fromstring(text)
        first = first_gpu_busid(mine)
        want = gpu_view(mine, first)
        fused = text.replace('busid="%s"' % first, 'busid="%s"' % real)
        ff = os.path.join(work, name + "--real.xml")
        open(ff, "w").write(fused)
        dump = os.path.join(work, name + "--real.dump.xml")
        if os.path.exists(dump):
            os.remove(dump)
        rc2, log2 = init(lib, ff, dump, os.path.join(outdir,
                                                     name + "--real.log"))
        if rc2 != 0:
            why.append("with the real GPU's bus id: init returned %d" % rc2)
        elif not os.path.exists(dump):
            why.append("with the real GPU's bus id: no dump")
        else:
            got = gpu_view(ET.parse(dump).getroot(), real)
            if got is None:
                why.append("the dump has no GPU at the real bus id")
            else:
                for i, what in ((0, "link_speed"), (1, "link_width")):
                    if want[i] is None:
                        left.append(what)
                    elif got[i] != want[i]:
                        why.append("%s: NCCL took %s, the file gives %s" %
                                   (what, got[i], want[i]))
                if got[2] != want[2]:
                    why.append("NVLink rows: NCCL took %s, the file gives "
                               "%s" % (got[2], want[2]))
        bad += bool(why)
        if why:
            print("FAIL %s: %s" % (name, "; ".join(why)))
            continue
        print("ok   %s: loaded; the real GPU gets the file's %s, %d NVLink "
              "row(s)%s" % (name, " x".join(x for x in want[:2] if x) or
                            "tree", len(want[2]),
                            "; left to NCCL's detection (the catalog marks "
                            "them unknown): " + ", ".join(left) +
                            " (NCCL read %s x%s here)" % (got[0], got[1])
                            if left else ""))
    print("%d file(s), %d failure(s)" % (len(files), bad))
    return 1 if bad else 0


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("gen", "run"):
        sys.stderr.write(__doc__)
        return 2
    return gen(sys.argv[2]) if sys.argv[1] == "gen" else run(sys.argv[2])


if __name__ == "__main__":
    sys.exit(main())
