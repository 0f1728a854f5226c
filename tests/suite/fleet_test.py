#!/usr/bin/env python3
"""bench suite on several devices: one process per device, at once, a document each.

usage: fleet_test.py BENCH CASE
  run    `bench suite FILE --device all -o DIR` on the CPU platforms (DIR's parent made too, as
         mkdir -p makes it): DIR/device-P.D/ per
         device, each holding the suite's document of that device (its device the one the
         folder names, every point ok and validated) and DIR/device-P.D.log; the summary line
         of each; exit 0. The same suite interrupted (SIGTERM) while running: every process
         stops and writes what it finished (exit 143).
  usage  several devices without -o, or with --json, --csv, --baseline; --sub-devices (exit 2);
         the one rule of outputs before any process starts: a device's log that would replace
         the suite's file, an -o below a file (exit 2, the suite file as it was, no folder made)
"""
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402

BENCH, CASE = sys.argv[1], sys.argv[2]
SUITE = {"name": "fleet-test", "description": "a small suite run on every device",
         "args": ["--reps", "5", "--warmup", "1"],
         "entries": [{"bench": "vecadd", "args": ["--groups", "1,2", "--slice", "16Ki"]},
                     {"bench": "atomics", "args": ["--patterns", "own", "--orders", "relaxed",
                                                   "--ops", "64"]}]}
SLOW = {"name": "fleet-slow", "description": "long enough to be interrupted",
        "entries": [{"bench": "occupancy", "args": ["--waves", "--wg", "64", "--groups", "1..50",
                                                     "--spin", "1000000"]}]}


def suite(d, s):
    path = os.path.join(d, s["name"] + ".json")
    bt.write_doc(path, s)
    return path


def case_run():
    devs = bt.bench_info(BENCH)
    with bt.tmpdir() as d:
        out = os.path.join(d, "new", "out")
        r = bt.run([BENCH, "suite", suite(d, SUITE), "--device", "all", "-o", out])
        check(r.code == 0 and f"suite on {len(devs)} devices, one process each" in r.out,
              f"run: exit {r.code}", r)
        for dev in devs:
            spec = f"{dev['platform_index']}:{dev['device_index']}"
            folder = os.path.join(out, "device-" + spec.replace(":", "."))
            docs = list(Path(folder).glob("*--fleet-test.json"))
            doc = bt.load_doc(str(docs[0])) if docs else {}
            pts = doc.get("points", [])
            check(len(docs) == 1 and doc["device"]["name"] == dev["name"] and pts and
                  all(p["status"] == "ok" and p["validated"] for p in pts) and
                  os.path.exists(folder + ".log") and f"{spec} " in r.out,
                  f"run: device {spec} ({dev['name']}): {docs}, {len(pts)} points", r)
        out = os.path.join(d, "slow")
        p = bt.start([BENCH, "suite", suite(d, SLOW), "--device", "all", "-o", out])
        bt.read_until(p, "one process each", timeout=60)
        bt.signal_when(p, "device-", [signal.SIGTERM], count=len(devs), delay=2.0, timeout=60)
        r = bt.finish(p, timeout=300)
        logs = [Path(out, f).read_text() for f in os.listdir(out) if f.endswith(".log")]
        check(r.code == 143 and len(logs) == len(devs) and
              all("interrupted by SIGTERM" in log for log in logs),
              f"run: SIGTERM reaches every device's process: exit {r.code}", r)


def case_usage():
    with bt.tmpdir() as d:
        s = suite(d, SUITE)
        bad = [(["--device", "all"], "give -o DIR"),
               (["--device", "all", "-o", d, "--json", os.path.join(d, "x.json")], "give -o DIR"),
               (["--device", "all", "-o", d, "--csv", os.path.join(d, "x.csv")], "give -o DIR"),
               (["--device", "all", "-o", d, "--sub-devices", "equally:1"],
                "runs one process per device: --sub-devices and --concurrent")]
        for args, msg in bad:
            r = bt.run([BENCH, "suite", s] + args)
            check(r.code == 2 and msg in r.err, f"usage: {args}: exit {r.code}: {r.err[-300:]}", r)
        out = os.path.join(d, "out")
        os.mkdir(out)
        log = os.path.join(out, "device-0.0.log")   # the suite's file where a log would go
        bt.write_doc(log, SUITE)
        before = bt.file_digest(log)
        r = bt.run([BENCH, "suite", log, "--device", "all", "-o", out])
        check(r.code == 2 and f"-o cannot write '{log}': it is the suite" in r.err and
              bt.file_digest(log) == before and os.listdir(out) == ["device-0.0.log"],
              f"usage: a log over the suite's file: exit {r.code}: {r.err[-300:]}", r)
        r = bt.run([BENCH, "suite", s, "--device", "all", "-o", os.path.join(s, "x")])
        check(r.code == 2 and "cannot make the folder" in r.err and "a file of that name" in r.err,
              f"usage: -o below a file: exit {r.code}: {r.err[-300:]}", r)


CASES = {"run": case_run, "usage": case_usage}

if __name__ == "__main__":
    if CASE not in CASES:
        bt.fail(f"unknown case {CASE}: {', '.join(CASES)}")
    CASES[CASE]()
    sys.exit(bt.verdict())
