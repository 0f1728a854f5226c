#!/usr/bin/env python3
"""The host's witness of the driver's clock (bench/harness/witness.c) against the stub
driver's lies about time (BENCH_STUB_TIME), run under stub_run.py over a real CPU driver.

usage: clock_faults.py FAULT BENCH
FAULT is one of the stub's (zero, reversed, us-as-ns, wrap32:BITS, constant, half-rate,
offset) or `none`. Checks, for a vecadd sweep and the copy ceiling beside it:
- a fault that corrupts durations: exit 1, every timed point `suspect` (none `ok`), its reason
  naming what the fault does (the words of witness.c's rule it breaks), its samples kept, the
  document's clock_check saying whether the session's check saw it; the summary line counts
  them as suspect;
- bench compare of a clean run against the faulty one: no point unchanged, improved or
  regressed;
- `offset` and `none` (durations true): exit 0, every point ok and agreeing, the rate within
  the gate.
A 32-bit nanosecond counter wraps every 4.29 s: only a launch that spans a wrap can see it, so
the test narrows the counter to 16 bits (a wrap every 65.5 us), so that every launch of the
session's check (at least 1 ms) spans wraps and the check fails whatever the timing: with 22 bits
(4.2 ms) a session whose check happened to span none judged each point by its own launches alone.
"""
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

# What each fault breaks, as witness.c words it (the first rule a point fails).
EXPECT = {
    "zero": r"profiling clock ran at 0 x",
    "constant": r"profiling clock ran at 0 x",
    "reversed": r"END before START",
    "us-as-ns": r"profiling clock ran at 0\.00(09|1)\d* x",
    "half-rate": r"profiling clock ran at 0\.[45]\d* x",
    "wrap32:16": r"END before START|profiling clock ran at|QUEUED <= SUBMIT <= START <= END fails",
}
CLEAN = ("none", "offset")


def sweep(bench, fault, d, name):
    env = {} if fault == "none" else {"BENCH_STUB_TIME": fault}
    doc = os.path.join(d, name)
    r = bt.run([bench, "vecadd", "--groups", "1,2,4", "--reps", "5", "--warmup", "1", "--json",
                doc, "--quiet"], env=env)
    return r, (bt.load_doc(doc) if os.path.exists(doc) else None)


def main():
    fault, bench = sys.argv[1], sys.argv[2]
    if fault not in EXPECT and fault not in CLEAN:
        bt.fail(f"no expectation for fault '{fault}'")
    with bt.tmpdir() as d:
        r, doc = sweep(bench, fault, d, "faulty.json")
        if doc is None:
            bt.fail("no document written", r)
        pts = doc["points"]
        cc = doc.get("clock_check")
        bt.check(cc is not None, "the document has no clock_check")
        if fault in CLEAN:
            bt.check(r.code == 0, f"{fault}: exit {r.code}, expected 0", r)
            for p in pts:
                bt.check(p["status"] == "ok" and p["clock"]["agree"],
                         f"{fault}: point {p['params'].get('groups')} is {p['status']}: {p['reason']}")
            bt.check(cc and cc["ok"] and 0.8 <= cc["rate"] <= 1.25,
                     f"{fault}: the session's check: {cc}")
            return bt.verdict(f"{fault}: {len(pts)} points ok, the clocks agreeing "
                              f"(rate {cc['rate']:.3f})")
        want = re.compile(EXPECT[fault])
        bt.check(r.code == 1, f"{fault}: exit {r.code}, expected 1", r)
        bt.check(re.search(r"\d+ of \d+ points suspect", r.err), f"{fault}: no suspect count on stderr", r)
        for p in pts:
            g = p["params"].get("groups")
            bt.check(p["status"] == "suspect", f"{fault}: point {g} is {p['status']}, not suspect")
            bt.check(p["reason"] and want.search(p["reason"]),
                     f"{fault}: point {g}'s reason does not say /{EXPECT[fault]}/: {p['reason']}")
            bt.check(p.get("clock") and not p["clock"]["agree"] and p["clock"]["finding"],
                     f"{fault}: point {g}'s clock member: {p.get('clock')}")
            bt.check("time_ns" in p and "wall_ns" in p, f"{fault}: point {g} lost its samples")
        if fault in ("zero", "constant", "us-as-ns", "half-rate"):
            bt.check(cc and not cc["ok"] and cc["reason"],
                     f"{fault}: the session's check did not fail: {cc}")
        # bench compare of a clean run against this one judges no point by its time
        rc, clean = sweep(bench, "none", d, "clean.json")
        if rc.code != 0:
            bt.fail("the clean run failed", rc)
        cmp_doc = os.path.join(d, "cmp.json")
        c = bt.run([bench, "compare", os.path.join(d, "clean.json"), os.path.join(d, "faulty.json"),
                    "--json", cmp_doc])
        rows = bt.load_doc(cmp_doc).get("points", []) if os.path.exists(cmp_doc) else []
        bt.check(rows, f"{fault}: bench compare wrote no rows", c)
        for row in rows:
            bt.check(row.get("verdict") not in ("unchanged", "improved", "regressed"),
                     f"{fault}: bench compare called a point {row.get('verdict')}: {row}")
        return bt.verdict(f"{fault}: {len(pts)} points suspect ({pts[0]['reason'][:100]}...); "
                          f"bench compare judged none by its time")


if __name__ == "__main__":
    sys.exit(main())
