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
  fault       a kernel (a --kernels copy) that writes 400 MB past its buffer in the third of
              four points: the fault (SIGSEGV or SIGBUS, in the driver's thread) reported
              naming the point and the kernel file, exit 1, the two points before it written,
              the third failed naming the signal, the document marked interrupted by it
  sigkill     SIGKILL leaves at most a temporary file, which does not stop a later run
              writing the same path
Every case checks that no NAME.tmp.* is left (sigkill: none after the later run's own).
"""
import os
import re
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import fail  # noqa: E402


def run(cmd, signals=(), delay=2.0, gap=0.5):
    """Runs cmd, sends each signal in turn (first after delay): its Result."""
    p = bt.start(cmd)
    bt.send_signals(p, signals, delay, gap)
    return bt.finish(p, timeout=120)


def no_leftovers(path, r):
    left = bt.temp_files(path)
    if left:
        fail(f"temporary files left behind: {left}", r, None)


def case_hung(case, base, kernels, d):
    """timeout and twice: a kernel that spins for ever. (Result, exit wanted, interrupted by)"""
    k = bt.spinning_kernels(kernels, os.path.join(d, "k"))
    cmd = base + ["--groups", "1..2", "--kernels", k]
    if case == "timeout":
        return run(cmd + ["--timeout", "2"]), 1, "timeout"
    return run(cmd, [signal.SIGINT, signal.SIGINT], delay=1.0), 130, "SIGINT"


def case_sigkill(base, out):
    r = run(base + ["--groups", "1..48", "--reps", "200"], [signal.SIGKILL], delay=1.5)
    if r.code != -signal.SIGKILL:
        fail(f"exit {r.code}, expected death by SIGKILL", r, None)
    r = run(base + ["--groups", "1..2"])
    if r.code != 0:
        fail(f"a run after SIGKILL exited {r.code}", r, None)
    doc = bt.read_doc(out, r)
    if len(doc["points"]) != 2 or "interrupted" in doc:
        fail("the later run's document is not whole", r, None)
    left = bt.temp_files(out)
    if len(left) > 1:
        fail(f"more than the killed run's temporary file is left: {left}", r, None)
    print(f"ok: a run after SIGKILL wrote its document ({len(left)} temporary file of the "
          "killed run left, which no run mistakes for its own)")
    return 0


# the kernel of a point of three work-groups or more writes 400 MB past the end of its output
FAULT_FIND = "\tfor (size_t k = start + get_local_id(0); k < end; k += wg)\n"
FAULT_PLANT = ("\tif (get_num_groups(0) >= 3 && get_local_id(0) == 0)\n"
               "\t\tfor (size_t k = 0; k < 100ul * 1024 * 1024; k += 1024)\n"
               "\t\t\tout[n + k] = (VT)(1);\n" + FAULT_FIND)


def case_fault(base, kernels, d):
    """A kernel that writes 400 MB past its buffer: the process faults in the driver's thread."""
    k = os.path.join(d, "k")
    bt.kernels_copy(kernels, k, "vecadd.cl", FAULT_FIND, FAULT_PLANT)
    r = run(base + ["--groups", "1..4", "--reps", "2", "--kernels", k])
    if r.code != 1:
        fail(f"exit {r.code}, expected 1 (a fault during a point, reported)", r, None)
    m = re.search(r"bench vecadd: (SIGSEGV|SIGBUS) during point 3 of 4 \(.*\) on .*, kernel file "
                  + re.escape(os.path.join(k, "vecadd.cl")) + r" \(from --kernels\)", r.err)
    if not m:
        fail("stderr does not name the signal, the point and the kernel file", r, None)
    return r, m.group(1)


def check_interrupted(case, r, want, by, out):
    """The exit code, the document marked interrupted, the table and no temporary file."""
    if r.code != want:
        fail(f"exit {r.code}, expected {want}", r, None)
    doc = bt.read_doc(out, r)
    it = doc.get("interrupted")
    if not it or it.get("by") != by or it.get("points_planned") is None:
        fail(f"the document is not marked interrupted by {by}: {it}", r, None)
    if it["points_done"] > it["points_planned"]:
        fail(f"points_done {it['points_done']} > points_planned", r, None)
    done = [p for p in doc["points"] if p["status"] == "ok"]
    if len(done) != it["points_done"]:
        fail(f"{len(done)} ok points written, points_done says {it['points_done']}", r, None)
    if case == "timeout":
        last = doc["points"][-1]
        if last["status"] != "failed" or last["reason"] != "timed out after 2 s":
            fail(f"the hung point is {last['status']}: {last['reason']}", r, None)
    if case == "fault":
        last = doc["points"][-1]
        if (len(doc["points"]) != 3 or it["points_done"] != 2 or last["status"] != "failed"
                or not last["reason"].startswith(by + ": the process faulted during this point")):
            fail(f"expected points 1 and 2 ok, point 3 failed by {by}: "
                 f"{[(p['status'], p['reason']) for p in doc['points']]}", r, None)
    if case == "twice" and r.secs > 30:
        fail(f"a second SIGINT took {r.secs:.1f} s to end the run", r, None)
    if "interrupted by" not in r.err and case not in ("timeout", "fault"):
        fail("stderr does not say the run was interrupted", r, None)
    if done and "Work-groups" not in r.out:
        fail("the table of the points completed was not printed", r, None)
    no_leftovers(out, r)
    print(f"ok: exit {r.code}, {len(doc['points'])} points written, interrupted by {by}")


def main():
    case, bench, device, kernels = sys.argv[1:5]
    with bt.tmpdir() as d:
        out = os.path.join(d, "r.json")
        base = [bench, "vecadd", "--device", device, "--json", out]
        if case in ("timeout", "twice"):
            r, want, by = case_hung(case, base, kernels, d)
        elif case in ("sigint", "sigterm"):
            s = signal.SIGINT if case == "sigint" else signal.SIGTERM
            r = run(base + ["--groups", "1..48", "--reps", "200"], [s], delay=2.0)
            want, by = 128 + s, s.name
        elif case == "sigkill":
            return case_sigkill(base, out)
        elif case == "fault":
            r, by = case_fault(base, kernels, d)
            want = 1
        else:
            sys.exit("unknown case " + case)
        check_interrupted(case, r, want, by, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
