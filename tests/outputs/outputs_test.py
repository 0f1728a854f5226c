#!/usr/bin/env python3
"""The one rule of outputs (host/outfile.c), the same cases for every writer of bench: compare,
export, baseline, a run's --json, and bench report, which writes what its renderer drew.

usage: outputs_test.py BENCH WRITER [--device SPEC]
WRITER: compare, compare-markdown, export, baseline, report, report-named (the report with the
named temporaries of a filesystem without O_TMPFILE: BENCH_OUTFILE_NAMED), vecadd (a run's
--json; needs --device).

Every case: an output that is an input (the same path, a symbolic or hard link to it), another
output of the run, a device node, a FIFO, a link to a file, a dangling link, a folder, a name
ending in '/', '', a missing folder, an existing file's permissions; then the writer ended by
SIGINT, SIGTERM and SIGKILL while its output is reserved (an input that is a FIFO holds it
there; vecadd: a kernel that never ends). After each: the exit code, the inputs and the old
destination byte for byte as they were, the kind of every path kept, and no temporary file.
"""
import hashlib
import json
import os
import signal
import stat
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

BENCH, WRITER = sys.argv[1], sys.argv[2]
DEVICE = sys.argv[sys.argv.index("--device") + 1] if "--device" in sys.argv else None
KERNELS = str(Path(__file__).resolve().parents[2] / "kernels")
if WRITER == "report-named":   # every output of this process's commands as a named temporary
    os.environ["BENCH_OUTFILE_NAMED"] = "1"


def doc(run=0):
    pts = []
    for g in (1, 2):
        s = [float(1000 * g + k + run) for k in range(10)]
        pts.append({"params": {"groups": g}, "status": "ok", "reason": None, "validated": True,
                    "time_ns": {"median": (sorted(s)[4] + sorted(s)[5]) / 2, "p5": s[0],
                                "p95": s[-1], "n": 10, "samples": s},
                    "metrics": {"gbps": 1.0}})
    return {"schema_version": 1, "tool": {"name": "bench", "version": "0.1.0"},
            "timestamp": "2026-11-23T10:00:00Z", "command": ["bench", "vecadd"],
            "host": {"hostname": "h"}, "benchmark": "vecadd", "points": pts,
            "device": {"name": "D", "platform": "P", "driver_version": "1.0", "type": "GPU"}}


class Writer:
    """A writer's inputs (made in folder d) and its command for an output path."""

    def __init__(self, d):
        self.d = d
        self.ok = (0,)
        if WRITER == "vecadd":
            self.inputs = [os.path.join(d, "k", "vecadd.cl")]
            bt.kernels_copy(KERNELS, os.path.join(d, "k"))
        else:
            n = 3 if WRITER == "baseline" else 2 if WRITER.startswith("compare") else 1
            self.inputs = [bt.write_doc(os.path.join(d, f"in{i}.json"), doc(i)) for i in range(n)]
        if WRITER.startswith("compare"):
            self.ok = (0, 1)

    def cmd(self, out, inputs=None, second=None):
        """The command writing out; second: a second output of the run where the writer has one."""
        i = inputs or self.inputs
        if WRITER == "compare":
            c = [BENCH, "compare", i[0], i[1], "--json", out, "--quiet"]
            return c + (["--markdown", second] if second else [])
        if WRITER == "compare-markdown":
            return [BENCH, "compare", i[0], i[1], "--markdown", out, "--quiet"] + (
                ["--junit", second] if second else [])
        if WRITER == "export":
            return [BENCH, "export", "lnt", *i, "--order", "1", "-o", out]
        if WRITER == "baseline":
            return [BENCH, "baseline", *i, "-o", out]
        if WRITER in ("report", "report-named"):
            return [BENCH, "report", *i, "-o", out] + (
                ["--png", os.path.dirname(second)] if second else [])
        return [BENCH, "vecadd", "--groups", "1", "--reps", "2", "--warmup", "0", "--quiet",
                "--device", DEVICE, "--kernels", os.path.dirname(i[0]), "--json", out] + (
                    ["--csv", second] if second else [])

    def second_name(self):
        """A second output that clashes with out: the report's PNG of its first chart."""
        return "01-vecadd-sweep.png" if WRITER.startswith("report") else "second"


digest, kind = bt.file_digest, bt.path_kind


def leftovers(d):
    return [os.path.join(r, f) for r, _, fs in os.walk(d) for f in fs if ".tmp." in f]


def run_case(name, setup, code, after=None):
    """setup(w) returns the output path (and may make paths); the run must exit code."""
    with bt.tmpdir(prefix="bench-outputs-") as d:
        w = Writer(d)
        out = setup(w)
        before = {p: digest(p) for p in w.inputs}
        first = out[0] if isinstance(out, tuple) else out
        kinds = {p: kind(p) for p in (first, *w.inputs)} if first else {}
        r = bt.run(w.cmd(out) if not isinstance(out, tuple) else w.cmd(*out), timeout=300)
        ok = r.code in (w.ok if code == 0 else (code,)) and "Traceback" not in r.err
        bt.check(ok, f"{WRITER} {name}: exit {r.code}, expected {code}", r)
        for p, h in before.items():
            bt.check(os.path.exists(p) and digest(p) == h, f"{WRITER} {name}: input {p} changed")
        for p, k in kinds.items():
            if k in ("link", "chr", "fifo", "dir"):
                bt.check(kind(p) == k, f"{WRITER} {name}: {p} was a {k}, now {kind(p)}")
        bt.check(not leftovers(d), f"{WRITER} {name}: left behind: {leftovers(d)}")
        if after:
            after(w, out, r)


def fifo_reader(path, got):
    def read():
        with open(path, "rb") as f:
            got.append(f.read())
    t = threading.Thread(target=read, daemon=True)
    t.start()
    return t


def fifo_out(w):
    path = os.path.join(w.d, "pipe")
    os.mkfifo(path)
    w.got = []
    w.reader = fifo_reader(path, w.got)
    return path


def symlink_to(target):
    def setup(w):
        os.symlink(target(w), os.path.join(w.d, "link"))
        return os.path.join(w.d, "link")
    return setup


def hard_link(w):
    os.link(w.inputs[0], os.path.join(w.d, "hard"))
    return os.path.join(w.d, "hard")


def existing_0600(w):
    p = os.path.join(w.d, "old")
    bt.write_doc(p, "old\n")
    os.chmod(p, 0o600)
    return p


def check_mode(w, out, r):
    bt.check(stat.S_IMODE(os.stat(out).st_mode) == 0o600 and digest(out) != hashlib.sha256(
        b"old\n").hexdigest(), f"{WRITER} existing file: replaced, its permissions kept")


def check_fifo(w, out, r):
    w.reader.join(timeout=60)
    bt.check(w.got and len(w.got[0]) > 0, f"{WRITER} FIFO: nothing came through it")


def check_target(w, out, r):
    t = os.path.join(w.d, "target")
    bt.check(kind(t) == "file" and digest(t) != hashlib.sha256(b"t\n").hexdigest(),
             f"{WRITER} link to a file: its target not replaced")


def two_outputs(w):
    folder = os.path.join(w.d, "o")
    os.makedirs(folder)
    out = os.path.join(folder, w.second_name())
    return (out, None, out)


CASES = [
    ("output is an input", lambda w: w.inputs[0], 2),
    ("output is a link to an input", symlink_to(lambda w: w.inputs[0]), 2),
    ("output is a hard link to an input", hard_link, 2),
    ("two outputs, one file", two_outputs, 2),
    ("/dev/null", lambda w: "/dev/null", 0),
    ("a FIFO", fifo_out, 0, check_fifo),
    ("a link to a file", symlink_to(lambda w: bt.write_doc(os.path.join(w.d, "target"), "t\n")),
     0, check_target),
    ("a dangling link", symlink_to(lambda w: os.path.join(w.d, "nothing")), 2),
    ("a folder", lambda w: w.d, 2),
    ("a name ending in /", lambda w: os.path.join(w.d, "new") + "/", 2),
    ("''", lambda w: "", 2),
    ("a missing folder", lambda w: os.path.join(w.d, "no", "such", "x"), 2),
    ("an existing file, mode 0600", existing_0600, 0, check_mode),
]


def signalled(sig):
    """The writer held with its output reserved, then sig: nothing left, the old file kept."""
    with bt.tmpdir(prefix="bench-outputs-") as d:
        w = Writer(d)
        out = bt.write_doc(os.path.join(d, "old.out"), "old\n")
        inputs = list(w.inputs)
        if WRITER == "vecadd":
            bt.spinning_kernels(KERNELS, os.path.join(d, "k"))
        else:
            inputs[-1] = os.path.join(d, "held")   # reading it waits for a writer that never comes
            os.mkfifo(inputs[-1])
        p = bt.start(w.cmd(out, inputs), start_new_session=True)
        time.sleep(3 if WRITER == "vecadd" else 1.5)
        named = leftovers(d)
        p.send_signal(sig)
        if WRITER == "vecadd" and sig != signal.SIGKILL:
            time.sleep(0.5)
            p.send_signal(sig)   # a second signal: stop now
        try:
            r = bt.finish(p, timeout=120)
        except Exception:
            bt.stop(p)
            raise
        bt.check(r.code == -sig or r.code == 128 + sig or (WRITER == "vecadd" and r.code in (1, 130, 143)),
                 f"{WRITER} {sig.name}: exit {r.code}", r)
        bt.check("Traceback" not in r.err, f"{WRITER} {sig.name}: a traceback", r)
        bt.check(digest(out) == hashlib.sha256(b"old\n").hexdigest() or WRITER == "vecadd",
                 f"{WRITER} {sig.name}: the old output changed")
        left = leftovers(d)
        if sig == signal.SIGKILL and WRITER == "report-named":   # nothing catches SIGKILL:
            bt.check(left, f"{WRITER} SIGKILL: no named temporary left to sweep")   # the next
            bt.run(w.cmd(out), timeout=300)   # writer of the name removes it
            left = leftovers(d)
        bt.check(not left, f"{WRITER} {sig.name}: left behind {left} (while running: {named})")
        if WRITER == "report-named":
            bt.check(named, f"{WRITER}: no named temporary while running (is BENCH_OUTFILE_NAMED "
                     "read?)")
        if WRITER.startswith("report") and sig == signal.SIGINT:
            bt.check("interrupted by SIGINT: nothing written" in r.err,
                     f"{WRITER} SIGINT: no clean message", r)


def main():
    if WRITER == "vecadd" and not DEVICE:
        bt.fail("vecadd needs --device")
    for case in CASES:
        name, setup, code = case[:3]
        if name == "two outputs, one file" and WRITER in ("export", "baseline"):
            continue   # one output only
        run_case(name, setup, code, case[3] if len(case) > 3 else None)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
        signalled(sig)
    return bt.verdict(f"{WRITER}: every case of the rule of outputs held")


if __name__ == "__main__":
    sys.exit(main())
