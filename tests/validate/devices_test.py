#!/usr/bin/env python3
"""bench validate on several devices (--device all, cpu or a list): one process per device, at
once, a results folder each, one summary.

usage: devices_test.py BENCH CASE
  run    `bench validate --device all --results-dir DIR --filter ...` on the CPU platforms (DIR's
         parent made too): DIR/device-P.D/ per device holding its results.csv, failures.csv and
         junit.xml, its checks the filter's, run on the device the folder names, every one
         passed; DIR/device-P.D.log; a line per device with its count of checks and one for
         all; exit 0. A filter one device cannot pass fails that device alone: exit 2 there,
         the other's folder complete, the summary naming the reason and the worst exit code.
  usage  several devices without --results-dir, or with --junit, --tap, --gtest_output,
         --write-baseline or --list (exit 2, naming what to give, nothing made); a results
         folder below a file (exit 2).
"""
import csv
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402

BENCH, CASE = sys.argv[1], sys.argv[2]
FILTER = ["--filter", "vecadd/v2*"]


def folder(out, dev):
    return os.path.join(out, f"device-{dev['platform_index']}.{dev['device_index']}")


def case_run():
    devs = bt.bench_info(BENCH)
    with bt.tmpdir() as d:
        out = os.path.join(d, "ci", "validate")
        r = bt.run([BENCH, "validate", "--device", "all", "--results-dir", out] + FILTER)
        check(r.code == 0 and f"validate on {len(devs)} devices, one process each" in r.out and
              f"validate on {len(devs)} devices: exit 0" in r.out, f"run: exit {r.code}", r)
        for dev in devs:
            f = folder(out, dev)
            path = os.path.join(f, "results.csv")
            rows = [row for row in csv.reader(open(path)) if row and not row[0].startswith("#")] \
                if os.path.exists(path) else []
            junit = os.path.join(f, "junit.xml")
            cases = ET.parse(junit).getroot().findall(".//testcase") if os.path.exists(junit) else []
            log = Path(f + ".log").read_text() if os.path.exists(f + ".log") else ""
            check(rows and all(row[0].startswith("vecadd/v2") and row[1] == "Pass" for row in rows)
                  and len(cases) == len(rows) and dev["name"] in log and
                  os.path.exists(os.path.join(f, "failures.csv")) and
                  f"{len(rows)} checks: {len(rows)} passed" in r.out,
                  f"run: {f}: {rows}, {len(cases)} testcases, the log naming {dev['name']}", r)
        if len(devs) < 2:
            return
        # a filter that leaves checks on one platform only: that device's process exits 2
        out = os.path.join(d, "one")
        r = bt.run([BENCH, "validate", "--device", "all", "--results-dir", out,
                    "--filter", "vecadd/v3/wg=*/sg=64"])
        check(r.code == 2 and "leave none of the" in r.out and
              f"validate on {len(devs)} devices: exit 2" in r.out,
              f"run: a filter that leaves one device nothing: exit {r.code}", r)


def case_usage():
    with bt.tmpdir() as d:
        out = os.path.join(d, "out")
        bad = [([], "give --results-dir DIR"),
               (["--results-dir", out, "--junit", os.path.join(d, "j.xml")], "give --results-dir DIR"),
               (["--results-dir", out, "--tap"], "--tap"),
               (["--results-dir", out, "--gtest_output", "xml:" + os.path.join(d, "g.xml")],
                "--gtest_output"),
               (["--results-dir", out, "--write-baseline", os.path.join(d, "b.csv")],
                "--write-baseline"),
               (["--results-dir", out, "--list"], "--list are one device's"),
               (["--results-dir", out, "--metrics", os.path.join(d, "m.txt")], "--metrics"),
               (["--results-dir", out, "--github-annotations"], "--github-annotations")]
        for args, msg in bad:
            r = bt.run([BENCH, "validate", "--device", "all"] + args)
            check(r.code == 2 and msg in r.err and "names 2 devices" in r.err and
                  not os.path.exists(out), f"usage: {args}: exit {r.code}: {r.err[-300:]}", r)
        f = os.path.join(d, "file")
        Path(f).write_text("mine\n")
        r = bt.run([BENCH, "validate", "--device", "all", "--results-dir", os.path.join(f, "x")])
        check(r.code == 2 and "a file of that name" in r.err and Path(f).read_text() == "mine\n",
              f"usage: a results folder below a file: exit {r.code}: {r.err[-300:]}", r)


if __name__ == "__main__":
    sys.exit(bt.run_cases(globals(), CASE))
