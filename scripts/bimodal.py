#!/usr/bin/env python3
"""Where the slow launches of a sweep come from: splits every timed launch of results
documents into fast and slow at --split-us, and relates the slow ones to what the documents
record about each launch (docs/bimodality.md gives the hypotheses this tells apart).

usage: bimodal.py [--split-us US] [--smi FILE] DOC...
  DOC      results documents of vecadd sweeps (bench vecadd --groups ... --json DOC), written
           by a bench that records time_ns.start_ns and time_origin
  --smi    nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,pstate --format=csv,noheader,nounits
           -lms 10 > FILE, sampled while the documents were made: the SM clock at each launch
Prints, for every document: each point's median and how many of its launches were slow; then
for all launches together: the slow fraction by position in the point (the first timed launch,
the next ones), by the idle gap before the launch, by time since the run began, and (--smi) the
SM clock of slow and fast launches.
"""
import argparse
import bisect
import datetime
import json
import statistics
import sys


def smi_clocks(path):
    """[(unix seconds, sm MHz, mem MHz, pstate)] sorted, from nvidia-smi's CSV."""
    out = []
    for line in open(path):
        f = [x.strip() for x in line.split(",")]
        if len(f) < 4:
            continue
        try:
            t = datetime.datetime.strptime(f[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
            out.append((t, float(f[1]), float(f[2]), f[3]))
        except ValueError:
            continue
    return sorted(out)


def launches(doc):
    """Every timed launch: point index, groups, position, duration, gap before, start (s, host clock)."""
    origin = (doc.get("time_origin") or {}).get("host_unix_ns")
    prev_end = None
    for i, p in enumerate(doc["points"]):
        t = p.get("time_ns") or {}
        starts, durs = t.get("start_ns"), t.get("samples")
        if not starts or not durs:
            continue
        for k, (s, d) in enumerate(zip(starts, durs)):
            gap = s - prev_end if prev_end is not None else None
            prev_end = s + d
            yield {"point": i, "groups": p["params"].get("groups"), "pos": k, "ns": d, "gap": gap,
                   "t": s / 1e9, "host": (origin + s) / 1e9 if origin else None}


def share(rows, key, bins):
    """Slow fraction of rows per bin of key (bins: [(label, lo, hi)])."""
    out = []
    for label, lo, hi in bins:
        sel = [r for r in rows if r[key] is not None and lo <= r[key] < hi]
        if sel:
            out.append(f"{label}: {sum(r['slow'] for r in sel)}/{len(sel)}")
    return ", ".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--split-us", type=float, default=35.0)
    ap.add_argument("--smi")
    ap.add_argument("docs", nargs="+")
    a = ap.parse_args()
    split = a.split_us * 1e3
    every = []
    for path in a.docs:
        doc = json.load(open(path))
        rows = list(launches(doc))
        if not rows:
            sys.exit(f"{path}: no time_ns.start_ns: made by a bench before start times were recorded")
        for r in rows:
            r["slow"] = r["ns"] >= split
        every += rows
        print(f"{path}: {doc['device']['name']}, driver {doc['device'].get('driver_version')}")
        for i in sorted({r["point"] for r in rows}):
            pr = [r for r in rows if r["point"] == i]
            slow = sum(r["slow"] for r in pr)
            med = statistics.median(r["ns"] for r in pr) / 1e3
            mark = " mixed" if 0 < slow < len(pr) else ""
            print(f"  groups {pr[0]['groups']:>5}: median {med:8.2f} us, {slow:3}/{len(pr)} slow{mark}")
    n_slow = sum(r["slow"] for r in every)
    print(f"\nall: {n_slow} of {len(every)} launches at {a.split_us:g} us or more")
    print("by position in its point:", share(every, "pos", [("1st", 0, 1), ("2nd", 1, 2), ("3rd-5th", 2, 5),
                                                               ("later", 5, 1e9)]))
    print("by idle gap before it:", share(every, "gap", [("<20us", 0, 2e4), ("20-100us", 2e4, 1e5),
                                                          ("0.1-1ms", 1e5, 1e6), (">1ms", 1e6, 1e18)]))
    print("by time into the run:", share(every, "t", [("<1s", 0, 1), ("1-2s", 1, 2), ("2-5s", 2, 5),
                                                       (">5s", 5, 1e9)]))
    if a.smi:
        clocks = smi_clocks(a.smi)
        times = [c[0] for c in clocks]
        for kind in (True, False):
            mhz = []
            for r in every:
                if r["slow"] == kind and r["host"] is not None and times:
                    j = min(max(bisect.bisect_left(times, r["host"]), 0), len(times) - 1)
                    if abs(times[j] - r["host"]) < 0.05:
                        mhz.append(clocks[j][1])
            if mhz:
                print(f"SM clock of {'slow' if kind else 'fast'} launches: median {statistics.median(mhz):.0f} MHz "
                      f"(min {min(mhz):.0f}, max {max(mhz):.0f}, {len(mhz)} matched)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
