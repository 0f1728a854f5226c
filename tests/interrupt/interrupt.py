#!/usr/bin/env python3
"""Interrupts and hung kernels: what a run writes and how it exits.

usage: interrupt.py CASE BENCH DEVICE KERNELS_DIR
CASE is one of:
  timeout     a kernel that spins forever (a --kernels copy) with --timeout 2: exit 1,
              the point failed "timed out after 2 s", the document marked interrupted
  sigint      SIGINT during a long sweep: exit 130, the points completed written,
              the document marked interrupted by SIGINT, the table printed
  sigterm     the same with SIGTERM: exit 143
  twice       two SIGINTs while a kernel spins forever: exit 130 at once
  sigkill     SIGKILL leaves at most a temporary file, which does not stop a later run
              writing the same path
Every case checks that no NAME.tmp.* is left (sigkill: none after the later run's own).
"""
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def spinning_kernels(src, dst):
    for f in os.listdir(src):
        if f.endswith((".cl", ".h")):
            shutil.copy(os.path.join(src, f), dst)
    path = os.path.join(dst, "vecadd.cl")
    text = open(path).read()
    anchor = "bench_record_info(info);"
    if anchor not in text:
        sys.exit("vecadd.cl no longer has the line this test makes spin: " + anchor)
    spin = anchor + "\n\twhile (((volatile __global uint *)info)[3] != 0x12345u) {}"
    open(path, "w").write(text.replace(anchor, spin, 1))


def fail(msg, r=None):
    print("FAIL:", msg)
    if r is not None:
        print("--- stdout ---\n" + r[1] + "--- stderr ---\n" + r[2])
    sys.exit(1)


def run(cmd, signals=(), delay=2.0, gap=0.5):
    """Runs cmd, sends each signal in turn (first after delay), returns (code, out, err, secs)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for i, s in enumerate(signals):
        time.sleep(delay if i == 0 else gap)
        p.send_signal(s)
    out, err = p.communicate(timeout=120)
    return p.returncode, out, err, time.monotonic() - t0


def load(path, r):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"the results document {path} is not readable JSON: {e}", r)


def no_leftovers(path, r):
    left = glob.glob(path + ".tmp.*") + glob.glob(os.path.join(os.path.dirname(path), "." +
                                                               os.path.basename(path) + ".tmp.*"))
    if left:
        fail(f"temporary files left behind: {left}", r)


def main():
    case, bench, device, kernels = sys.argv[1:5]
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        base = [bench, "vecadd", "--device", device, "--json", out]
        if case in ("timeout", "twice"):
            k = os.path.join(d, "k")
            os.mkdir(k)
            spinning_kernels(kernels, k)
            cmd = base + ["--groups", "1..2", "--kernels", k]
            if case == "timeout":
                r = run(cmd + ["--timeout", "2"])
                want, by = 1, "timeout"
            else:
                r = run(cmd, [signal.SIGINT, signal.SIGINT], delay=1.0)
                want, by = 130, "SIGINT"
        elif case in ("sigint", "sigterm"):
            s = signal.SIGINT if case == "sigint" else signal.SIGTERM
            r = run(base + ["--groups", "1..48", "--reps", "200"], [s], delay=2.0)
            want, by = 128 + s, s.name
        elif case == "sigkill":
            r = run(base + ["--groups", "1..48", "--reps", "200"], [signal.SIGKILL], delay=1.5)
            if r[0] != -signal.SIGKILL:
                fail(f"exit {r[0]}, expected death by SIGKILL", r)
            r = run(base + ["--groups", "1..2"])
            if r[0] != 0:
                fail(f"a run after SIGKILL exited {r[0]}", r)
            doc = load(out, r)
            if len(doc["points"]) != 2 or "interrupted" in doc:
                fail("the later run's document is not whole", r)
            left = glob.glob(out + ".tmp.*")
            if len(left) > 1:
                fail(f"more than the killed run's temporary file is left: {left}", r)
            print(f"ok: a run after SIGKILL wrote its document ({len(left)} temporary file of the "
                  "killed run left, which no run mistakes for its own)")
            return 0
        else:
            sys.exit("unknown case " + case)
        if r[0] != want:
            fail(f"exit {r[0]}, expected {want}", r)
        doc = load(out, r)
        it = doc.get("interrupted")
        if not it or it.get("by") != by or it.get("points_planned") is None:
            fail(f"the document is not marked interrupted by {by}: {it}", r)
        if it["points_done"] > it["points_planned"]:
            fail(f"points_done {it['points_done']} > points_planned", r)
        done = [p for p in doc["points"] if p["status"] == "ok"]
        if len(done) != it["points_done"]:
            fail(f"{len(done)} ok points written, points_done says {it['points_done']}", r)
        if case == "timeout":
            last = doc["points"][-1]
            if last["status"] != "failed" or last["reason"] != "timed out after 2 s":
                fail(f"the hung point is {last['status']}: {last['reason']}", r)
        if case == "twice" and r[3] > 30:
            fail(f"a second SIGINT took {r[3]:.1f} s to end the run", r)
        if "interrupted by" not in r[2] and case != "timeout":
            fail("stderr does not say the run was interrupted", r)
        if done and "Work-groups" not in r[1]:
            fail("the table of the points completed was not printed", r)
        no_leftovers(out, r)
        print(f"ok: exit {r[0]}, {len(doc['points'])} points written, interrupted by {by}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
