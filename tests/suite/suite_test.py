#!/usr/bin/env python3
"""Tests of `bench suite`, the shared options it brings (--require-device, --min-time,
--ci-width, --max-reps) and what every results document now records.

usage: suite_test.py BENCH CASE [-- DEVICE ARGS] [--kernels DIR]
CASE (cli: no device needed; cpu: a CPU platform):
  usage        bad command lines: exit 2 naming the value (cli)
  files        bad suite files: exit 2 naming the suite, the entry and the member (cli)
  list         --list of the built-in suites and of a suite's entries (cli)
  require      --require-device: 77 with the devices found, 0 where it holds (cpu)
  adaptive     --ci-width, --min-time, --max-reps: the stop, the count, the interval (cpu)
  record       environment, end_timestamp, settings, time_origin, start_ns (cpu)
  outputs      -o DIR: the suite's document named as a baseline, one per entry; --csv;
               bench compare --baseline DIR finds it (cpu)
  interrupt    SIGINT in the second entry: exit 130, the first entry and the points done
               written, marked interrupted (cpu)
  timeout      a hung kernel in the second entry: exit 1, the suite's document written (cpu)
  planted      scripts/plant-slowdown.py's kernels still validate (variants 2-4, the sweep) (cpu)
  skips        an entry skipped (77: locality --hierarchy flat on a CPU) does not fail the
               suite, whose summary says why; locality across the device's two parts; every
               entry skipped: 77 (cpu)
  stopped      an entry whose set-up ends the process (a size the device refuses): exit 2, the
               entries before it written, the suite marked stopped by `error` (cpu)
  quick-twice  `bench suite quick` twice back to back, then `bench compare` between them: no
               point failed, and none regressed in each of up to three pairs (the quick suite's
               CPU noise band and the retry: results/suites/README.md says why); a tenfold
               vecadd slowdown planted in a copy of the second run is regressed against that
               run, and every other point is unchanged (at most a fifth inconclusive, where
               a loaded host spread its samples too widely to show it)
Exit 0 when every check passed.
"""
import csv
import datetime
import math
import os
import re
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check, median  # noqa: E402

BENCH = sys.argv[1]
CASE = sys.argv[2]
REST = sys.argv[3:]
DEVICE = REST[REST.index("--") + 1:REST.index("--") + 3] if "--" in REST else []
KERNELS = REST[REST.index("--kernels") + 1] if "--kernels" in REST else None
SOURCES = Path(__file__).resolve().parents[2]   # the project's folder


def run(*args, env=None, timeout=600):
    """bench ARGS: its Result."""
    return bt.run([BENCH, *args], env=env, timeout=timeout)


def write_suite(d, name, obj):
    return bt.write_doc(os.path.join(d, name), obj)


def median_ci95(x):
    """The order-statistic 95 % interval of the median, from exact binomial sums."""
    n = len(x)
    s = sorted(x)
    cdf, lo = 0.0, 0
    for k in range(n):
        cdf += math.comb(n, k) / 2 ** n
        if cdf > 0.025:
            break
        lo = k + 1
    return (s[lo - 1], s[n - lo]) if lo else None


# ---- cli ----

def case_usage():
    cases = [
        (["suite"], "give one suite"),
        (["suite", "quick", "gpu"], "give one suite"),
        (["suite", "no-such-suite"], "no built-in suite 'no-such-suite': the suites are .*quick.*gpu.*guide"),
        (["suite", "quick", "--max-reps", "5", "--reps", "10"], "--max-reps 5 is below --reps 10"),
        (["vecadd", "--min-time", "0"], r"--min-time '0' is not a number in \(0, 86400\]"),
        (["vecadd", "--min-time", "1s"], r"--min-time '1s' is not a number"),
        (["vecadd", "--ci-width", "101"], r"--ci-width '101' is not a number in \(0, 100\]"),
        (["vecadd", "--ci-width", "nan"], r"--ci-width 'nan' is not a number"),
        (["vecadd", "--max-reps", "0"], "--max-reps"),
        (["vecadd", "--reps", "20", "--max-reps", "10"], "--max-reps 10 is below --reps 20"),
        (["vecadd", "--require-device", ""], "--require-device '': give gpu, cpu or a device"),
        (["vecadd", "--cache", "lukewarm"], "--cache 'lukewarm' is not one of: warm, cold"),
        (["suite", "quick", "--cache", "hot"], "--cache 'hot' is not one of: warm, cold"),
        (["suite", "/nonexistent/suite.json"], "suite /nonexistent/suite.json: cannot read"),
    ]
    for args, pat in cases:
        r = run(*args)
        check(r.code == 2 and re.search(pat, r.err), f"{args}: exit 2 and /{pat}/", r)
    r = run("list")
    check(r.code == 0 and "suite" in r.out, "bench list lists suite", r)


def case_files():
    ok_entry = {"bench": "vecadd", "args": ["--groups", "1"]}
    bad = [
        ("{", "truncated JSON at line 1"),
        ("[]", "the top level is not an object"),
        ({"entries": [ok_entry]}, r"\(top level\)\.name: missing"),
        ({"name": "t", "entries": [ok_entry], "extra": 1}, "unknown member 'extra'"),
        ({"name": "t"}, "entries: missing"),
        ({"name": "t", "entries": []}, "entries: is not a non-empty array"),
        ({"name": "t", "entries": [{"args": []}]}, r"entries\[0\]\.bench: missing"),
        ({"name": "t", "entries": [{"bench": "nosuch"}]}, "'nosuch' is not a benchmark"),
        ({"name": "t", "entries": [{"bench": "model"}]}, "'model' measures no points"),
        ({"name": "t", "entries": [ok_entry, {"bench": "vecadd", "args": "--groups 1"}]},
         r"entries\[1\]\.args: is not an array of strings"),
        ({"name": "t", "entries": [{"bench": "vecadd", "args": [1]}]}, r"entries\[0\]\.args\[0\]: is not a string"),
        ({"name": "t", "entries": [{"bench": "vecadd", "args": ["--device", "PoCL"]}]},
         "--device belongs to the suite's command line"),
        ({"name": "t", "entries": [{"bench": "vecadd", "args": ["--json", "x.json"]}]},
         "--json belongs to the suite's command line"),
        ({"name": "t", "entries": [{"bench": "vecadd", "args": ["--help"]}]}, "--help has no place"),
        ({"name": "t", "entries": [{"bench": "vecadd", "noise": 1001}]}, r"entries\[0\]\.noise: is not a percent"),
        ({"name": "t", "entries": [{"bench": "vecadd", "band_floor": -1}]},
         r"entries\[0\]\.band_floor: is not a percent in 0\.\.1000"),
        ({"name": "t", "entries": [{"bench": "vecadd", "band_floor": {"gpu": 5, "npu": 3}}]},
         "unknown member 'npu'"),
        ({"name": "t", "noise": {"gpu": 5, "tpu": 3}, "entries": [ok_entry]}, "unknown member 'tpu'"),
        ({"name": "t", "entries": [{"bench": "vecadd", "noise": 5}, {"bench": "vecadd", "noise": 6}]},
         r"entries\[0\] and entries\[1\] give vecadd different noise bands"),
        ({"name": "t", "args": "--reps 3", "entries": [ok_entry]}, r"\(top level\)\.args: is not an array"),
        # a row's own check, in the entry's words
        ({"name": "t", "entries": [ok_entry, {"bench": "vecadd", "args": ["--groups", "0"]}]},
         r"bench vecadd \(suite t, entry 2 of 2\): usage: --groups"),
        ({"name": "t", "args": ["--reps", "0"], "entries": [ok_entry]},
         r"bench vecadd \(suite t, entry 1 of 1: the suite's top-level args, then its own\): "
         r"usage: --reps"),
        ({"name": "t", "args": ["--json", "x.json"], "entries": [ok_entry]},
         r"\(top level\)\.args\[0\]: --json belongs to the suite's command line"),
    ]
    with bt.tmpdir() as d:
        for i, (obj, pat) in enumerate(bad):
            path = write_suite(d, f"s{i}.json", obj)
            r = run("suite", path)
            check(r.code == 2 and re.search(pat, r.err) and
                  (path in r.err or "bench vecadd (suite" in r.err),
                  f"suite file {obj!r}: exit 2 naming the file and /{pat}/", r)
        # rows not on the harness are refused by name (checked by --list, which runs nothing);
        # once on the harness they are accepted
        for row in ("sg-info", "sg-copy", "transpose"):
            path = write_suite(d, f"{row}.json", {"name": "t", "entries": [{"bench": row}]})
            r = run("suite", "--list", path)
            legacy = r.code == 2 and f"'{row}' is not on the harness yet" in r.err and \
                "run it on its own" in r.err
            check(legacy or (r.code == 0 and f"bench {row}" in r.out),
                  f"{row}: refused by name while not on the harness, else listed", r)


def case_list():
    r = run("suite", "--list")
    names = [line.split()[0] for line in r.out.splitlines() if line.strip()]
    check(r.code == 0 and names == ["quick", "gpu", "guide"], f"--list: {names}", r)
    for s in ("quick", "gpu", "guide"):
        r = run("suite", "--list", s)
        check(r.code == 0 and r.out.startswith(f"suite {s} (built-in)") and "bench vecadd" in r.out
              and "noise band for bench compare: gpu 5 %" in r.out, f"--list {s}", r)
    r = run("suite", "--list", "gpu")
    for want in ("--variant 5 --n 256Mi", "--variant 1 --n 256Mi", "occupancy --check", "--sizes 1Ki..1Gi",
                 "bench atomics"):
        check(want in r.out, f"the gpu suite has {want}", r)


# ---- cpu ----

def case_require():
    r = run("vecadd", "--groups", "1", "--require-device", "no-such-device-xyz", "--quiet",
            env={"BENCH_DEVICE": ""})
    check(r.code == 77 and "--require-device no-such-device-xyz: no device or platform named "
          "'no-such-device-xyz' among the devices found, so nothing is measured (0: " in r.err,
          "--require-device NAME with no such device: 77, the devices listed", r)
    r = run("vecadd", *DEVICE, "--groups", "1", "--require-device", "gpu", "--quiet")
    check(r.code == 77 and re.search(r"--device '.*' selects '.*' \(CPU, .*\), which is not a GPU, so nothing is "
                                                r"measured. The devices found: 0: ", r.err),
          "--device of a CPU with --require-device gpu: 77, saying why", r)
    r = run("suite", "quick", *DEVICE, "--require-device", "no-such-device-xyz")
    check(r.code == 77 and "nothing is measured" in r.err, "bench suite --require-device: 77", r)
    with bt.tmpdir() as d:
        out = os.path.join(d, "r.json")
        r = run("suite", "quick", *DEVICE, "--require-device", "no-such-device-xyz", "--json", out)
        check(r.code == 77 and not os.listdir(d), "bench suite --require-device: 77, no file left", r)
    with bt.tmpdir() as d:
        out = os.path.join(d, "r.json")
        r = run("vecadd", *DEVICE, "--groups", "1", "--reps", "3", "--require-device", "cpu", "--quiet",
                "--json", out)
        check(r.code == 0 and bt.load_doc(out)["device"]["type"] == "CPU",
              "--require-device cpu on a CPU: measured", r)
        r = run("vecadd", "--groups", "1", "--reps", "3", "--require-device", DEVICE[1], "--quiet",
                "--json", out, env={"BENCH_DEVICE": ""})
        doc = bt.load_doc(out) if r.code == 0 else {}
        dev = doc.get("device", {})
        check(r.code == 0 and (DEVICE[1].lower() in dev.get("name", "").lower() or
                                     DEVICE[1].lower() in dev.get("platform", "").lower() or
                                     DEVICE[1].lower() in dev.get("platform_version", "").lower()),
              f"--require-device {DEVICE[1]} without --device selects it: {dev.get('name')}", r)


def points_of(path):
    return bt.load_doc(path)["points"]


def case_adaptive():
    with bt.tmpdir() as d:
        out = os.path.join(d, "r.json")
        base = ["vecadd", *DEVICE, "--groups", "1,2", "--slice", "4Ki", "--quiet", "--json", out]
        # an impossible width: the cap decides
        r = run(*base, "--reps", "10", "--ci-width", "0.0001", "--max-reps", "14")
        for p in points_of(out) if r.code == 0 else []:
            rep, t = p["repetitions"], p["time_ns"]
            check(rep["stop"] == "max_reps" and rep["taken"] == 14 == t["n"] == len(t["samples"]) and
                  rep["min"] == 10 and rep["max"] == 14 and rep["ci_width_pct"] == 0.0001,
                  f"--ci-width 0.0001 --max-reps 14: {rep}", r)
        check(r.code == 0, "--ci-width run", r)
        # a width: stops where the interval is within it, or at the cap
        r = run(*base, "--reps", "10", "--ci-width", "20", "--max-reps", "400")
        for p in points_of(out) if r.code == 0 else []:
            rep, t = p["repetitions"], p["time_ns"]
            x = t["samples"]
            lo, hi = median_ci95(x)
            m = median(x)
            check(t["median_ci95"] == [lo, hi], f"median_ci95 {t['median_ci95']} != order statistics {lo, hi}")
            within = lo >= m * 0.8 and hi <= m * 1.2
            check((rep["stop"] == "ci_width" and within) or (rep["stop"] == "max_reps" and len(x) == 400),
                  f"--ci-width 20: stopped {rep['stop']} after {len(x)} with [{lo}, {hi}] around {m}")
            check(10 <= len(x) <= 400, f"--ci-width 20: {len(x)} repetitions")
        check(r.code == 0, "--ci-width 20 run", r)
        # a minimum time: the timed launches last at least that long
        r = run(*base, "--reps", "5", "--min-time", "0.2", "--max-reps", "1000000")
        for p in points_of(out) if r.code == 0 else []:
            rep = p["repetitions"]
            check(rep["stop"] == "min_time" and rep["timed_s"] >= 0.2 and rep["taken"] > 5 and
                  sum(p["wall_ns"]["samples"]) <= rep["timed_s"] * 1e9 * 1.001,
                  f"--min-time 0.2: {rep}", r)
        check(r.code == 0, "--min-time run", r)
        # no target: --reps, and the JSON says so
        r = run(*base, "--reps", "7")
        for p in points_of(out) if r.code == 0 else []:
            rep = p["repetitions"]
            check(rep["stop"] == "reps" and rep["taken"] == 7 == rep["max"] and rep["ci_width_pct"] is None,
                  f"fixed --reps 7: {rep}", r)
            check(p["time_ns"]["median_ci95"] == list(median_ci95(p["time_ns"]["samples"])),
                  "median_ci95 of 7 samples: the 1st and 7th")
        r = run(*base, "--reps", "5")
        for p in points_of(out) if r.code == 0 else []:
            check(p["time_ns"]["median_ci95"] is None and p["time_ns"]["median_ci95_level"] is None,
                  "5 samples have no 95 % interval: null")
        # the latency chase and the atomics counters check every launch the harness took
        r = run("latency", *DEVICE, "--sizes", "4Ki,16Ki", "--steps", "1", "--loads", "256", "--local", "0",
                "--reps", "6", "--ci-width", "0.0001", "--max-reps", "9", "--quiet", "--json", out)
        check(r.code == 0 and all(p["status"] == "ok" and p["repetitions"]["taken"] == 9
                                        for p in points_of(out)),
              "latency with adaptive repetitions: every chase checked after 9 launches", r)
        r = run("atomics", *DEVICE, "--patterns", "own,chain", "--orders", "relaxed", "--ops", "8",
                "--reps", "6", "--ci-width", "0.0001", "--max-reps", "11", "--quiet", "--json", out)
        check(r.code == 0 and all(p["status"] in ("ok", "skipped") for p in points_of(out)),
              "atomics with adaptive repetitions: the counters checked after every launch", r)


def case_record():
    with bt.tmpdir() as d:
        out = os.path.join(d, "r.json")
        env = {"POCL_TEST_SETTING": "1", "ZE_AFFINITY_MASK": "0.1", "ZE_FLAT_DEVICE_HIERARCHY": "COMPOSITE",
               "NEOReadDebugKeys": "0", "UNRELATED_VARIABLE": "x"}
        r = run("vecadd", *DEVICE, "--groups", "1..3", "--slice", "4Ki", "--reps", "6", "--quiet",
                "--json", out, env=env)
        check(r.code == 0, "vecadd run", r)
        if r.code:
            return
        doc = bt.load_doc(out)
        e = doc.get("environment", {})
        for k, v in env.items():
            if k == "UNRELATED_VARIABLE":
                check(k not in e, "the environment records only what drivers read")
            else:
                check(e.get(k) == v, f"environment.{k} = {e.get(k)!r}, expected {v!r}")
        check(e.get("CUDA_CACHE_DISABLE") == os.environ.get("CUDA_CACHE_DISABLE"),
              "bench leaves CUDA_CACHE_DISABLE as it found it (NVIDIA's context creation is slow without its cache)")
        check(list(e) == sorted(e), "environment sorted by name")
        check(doc["end_timestamp"] >= doc["timestamp"], "end_timestamp after timestamp")
        s = doc.get("settings", {})
        check(s.get("reps") == 6 and s.get("warmup") == 2 and s.get("min_time_s") is None, f"settings {s}")
        o = doc.get("time_origin") or {}
        check(isinstance(o.get("device_ns"), int) and isinstance(o.get("host_unix_ns"), int) and
              abs(o["host_unix_ns"] / 1e9 - time.time()) < 3600, f"time_origin {o}")
        starts = [t for p in doc["points"] for t in p["time_ns"]["start_ns"]]
        check(starts[0] == 0 and all(b > a for a, b in zip(starts, starts[1:])),
              "start_ns: from 0, increasing through the run")
        for p in doc["points"]:
            t = p["time_ns"]
            gaps = [b - (a + d) for a, b, d in zip(t["start_ns"], t["start_ns"][1:], t["samples"])]
            check(all(g >= 0 for g in gaps), f"a launch started before the one before it ended: {gaps}")


def case_cache():
    """--cache: warm by default on a CPU (cold is the default on a GPU for vecadd, sg-copy and
    transpose: the gpu suite checks that), cold when asked, recorded in settings and in every
    point's params; the flush kernel is the built-in one whatever --kernels names."""
    with bt.tmpdir() as d:
        def doc_of(*args):
            out = os.path.join(d, "c.json")
            r = run(*args, *DEVICE, "--reps", "3", "--quiet", "--json", out)
            check(r.code == 0, f"{args}", r)
            return bt.load_doc(out) if r.code == 0 else {"settings": {}, "points": []}
        # one cold run takes the cache's size from --llc, one from the device: the one without a
        # memory roof (atomics), whose flushes of twice what PoCL declares (up to 300 MiB) are few
        for args, want in [(("vecadd", "--groups", "1,2", "--slice", "4Ki"), "warm"),
                           (("vecadd", "--groups", "1,2", "--slice", "4Ki", "--cache", "cold", "--llc", "1Mi"),
                            "cold"),
                           (("sg-copy", "--size", "64Ki"), "warm"),
                           (("atomics", "--ops", "32", "--patterns", "own,chain"), "warm"),
                           (("atomics", "--ops", "32", "--patterns", "own,chain", "--cache", "cold"), "cold")]:
            doc = doc_of(*args)
            s = doc["settings"]
            check(s.get("cache") == want, f"{args}: settings.cache {s.get('cache')}, expected {want}")
            pts = doc["points"]
            check(pts and all(p["status"] in ("ok", "skipped") for p in pts), f"{args}: every point ok or skipped")
            # the clock probe beside every timed point: 3 launches before, 3 after
            probes = [p.get("clock_probe_ns") for p in pts if p["status"] == "ok"]
            check(s.get("clock_probe") == {"rounds": 4096, "launches": 3} and probes and all(
                  len(q["before"]) == 3 and len(q["after"]) == 3 and min(q["before"] + q["after"]) > 0
                  for q in probes), f"{args}: settings.clock_probe {s.get('clock_probe')}, probes {probes}")
            marked = [p["params"].get("cache") for p in pts]
            check(marked == (["cold"] * len(pts) if want == "cold" else [None] * len(pts)),
                  f"{args}: params.cache {marked}")
            flush = s.get("cache_flush")
            if want == "warm":
                check(flush is None, f"{args}: cache_flush {flush}, expected null")
            else:
                check(isinstance(flush, dict) and flush.get("bytes", 0) >= 64 << 20 and flush["bytes"] % 4096 == 0
                      and flush["bytes"] >= 2 * flush.get("llc_bytes", 1 << 62), f"{args}: cache_flush {flush}")
                source = "--llc" if "--llc" in args else "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE"
                check(flush.get("llc_source") == source, f"{args}: the cache's size from {source}: {flush}")
                if args[0] == "atomics":
                    check(doc.get("setup", {}).get("flush_bytes") == flush["bytes"],
                          f"{args}: setup {doc.get('setup')}")
        # --validate-only times nothing: no cache state, none in the params; --cache refused with it
        r = run("vecadd", "--groups", "1", "--cache", "cold", "--validate-only", *DEVICE)
        check(r.code == 2 and "--cache has nothing to act on with --validate-only" in r.err,
              "--cache cold --validate-only refused", r)
        doc = doc_of("vecadd", "--groups", "1", "--slice", "4Ki", "--validate-only")
        check(doc["settings"].get("cache", "absent") is None and doc["settings"].get("cache_flush") is None
              and doc["settings"].get("clock_probe", "absent") is None
              and all("cache" not in p["params"] and "clock_probe_ns" not in p for p in doc["points"]),
              f"--validate-only: settings.cache {doc['settings'].get('cache', 'absent')!r}")
        # a --kernels folder without cache_flush.cl: the flush is not the user's kernel
        kd = os.path.join(d, "k")
        bt.kernels_copy(SOURCES / "kernels", kd, only=("vecadd.cl", "bench_common.h", "stream_copy.cl"))
        # (--llc: a flush of 64 MiB, not twice what the device declares: PoCL can declare 300 MiB)
        doc = doc_of("vecadd", "--groups", "2", "--slice", "4Ki", "--cache", "cold", "--llc", "1Mi",
                     "--kernels", kd)
        check(doc["settings"].get("cache") == "cold", "--kernels without cache_flush.cl still runs cold")
        check(all("clock_probe_ns" in p for p in doc["points"]), "--kernels without clock_probe.cl still probes")


def case_outputs():
    with bt.tmpdir() as d:
        suite = write_suite(d, "small.json", {
            "name": "small", "noise": {"cpu": 300, "gpu": 5}, "args": ["--reps", "9"],
            "entries": [{"bench": "vecadd", "args": ["--groups", "1,2", "--slice", "4Ki"], "noise": 40},
                        {"bench": "occupancy", "args": ["--waves", "--wg", "64", "--groups", "1..2",
                                                        "--spin", "256"]},
                        {"bench": "vecadd", "args": ["--variant", "1", "--n", "64Ki"], "noise": 40,
                         "band_floor": {"cpu": 45, "gpu": 1}}]})
        out = os.path.join(d, "out")
        js, cs = os.path.join(d, "s.json"), os.path.join(d, "s.csv")
        r = run("suite", suite, *DEVICE, "-o", out, "--json", js, "--csv", cs, "--reps", "10")
        check(r.code == 0, "suite -o run", r)
        if r.code:
            return
        doc = bt.load_doc(js)
        check_suite_doc(doc, "small")
        files = sorted(os.listdir(out))
        dev = doc["device"]["name"].lower()
        slug = "".join(c if c.isalnum() else "-" for c in dev)
        while "--" in slug:
            slug = slug.replace("--", "-")
        slug = slug.strip("-")
        check(files == sorted([f"{slug}--small.json", "small-01-vecadd.json", "small-02-occupancy.json",
                               "small-03-vecadd.json"]), f"-o files: {files}")
        check(bt.load_doc(os.path.join(out, f"{slug}--small.json"))["points"] == doc["points"],
              "-o's suite document is --json's")
        check(doc["suite"] == "small" and "benchmark" not in doc and doc["noise"] ==
              {"vecadd": 40.0, "occupancy-waves": 300.0}, f"suite, noise: {doc.get('suite')} {doc.get('noise')}")
        runs = doc["runs"]
        check([x["benchmark"] for x in runs] == ["vecadd", "occupancy-waves", "vecadd"] and
              [x["points"] for x in runs] == [2, 2, 1] and [x["first_point"] for x in runs] == [0, 2, 4],
              f"runs: {runs}")
        check(all(x["settings"]["reps"] == 10 for x in runs), "the command line's --reps over the suite's")
        check([(p["benchmark"], p["run"]) for p in doc["points"]] ==
              [("vecadd", 1), ("vecadd", 1), ("occupancy-waves", 2), ("occupancy-waves", 2), ("vecadd", 3)],
              "every point names its benchmark and run")
        check("waves" in runs[1] and "kernel" in runs[0], "each run keeps its own top-level records")
        check(runs[2].get("band_floor_pct") == 45 and "band_floor_pct" not in runs[0],
              f"the entry's band_floor for this device type in its run: {[x.get('band_floor_pct') for x in runs]}")
        e2 = bt.load_doc(os.path.join(out, "small-02-occupancy.json"))
        check(e2["benchmark"] == "occupancy-waves" and "waves" in e2 and len(e2["points"]) == 2 and
              e2["suite_entry"] == {"suite": "small", "entry": 2, "of": 3}, "an entry's own document")
        with open(cs) as f:
            rows = list(csv.DictReader(f))
        check(len(rows) == 5 and rows[2]["benchmark"] == "occupancy-waves", "the CSV names the benchmark")
        # the folder works as a baseline folder, and compare reads the suite's bands
        r2 = run("suite", suite, *DEVICE, "--json", os.path.join(d, "new.json"), "--quiet")
        c = os.path.join(d, "c.json")
        r = run("compare", "--baseline", out, os.path.join(d, "new.json"), "--quiet", "--json", c)
        check(r2.code == 0 and r.code in (0, 1) and os.path.exists(c), "compare --baseline -o DIR", r)
        if os.path.exists(c):
            j = bt.load_doc(c)
            check(j["settings"]["noise_suite"] == {"vecadd": 40.0, "occupancy-waves": 300.0} and
                  j["settings"]["noise_suite_from"] == "new", f"compare took the suite's bands: {j['settings']}")
            bands = {(p["params"]["variant"], p["noise_pct"], p["band_from"])
                     for p in j["points"] if p["benchmark"] == "vecadd"}
            check(bands == {(2, 40.0, "suite"), (1, 45.0, "band_floor")},
                  f"vecadd's points compared with the suite's 40 %, entry 3's at its floor 45 %: {bands}")
            floored = [p["notes"] for p in j["points"] if p["band_from"] == "band_floor"]
            check(floored and all("its suite entry gives at least" in x for x in floored),
                  f"a floored point's note: {floored}")
        # an output that cannot be written: nothing runs, nothing is left
        r = run("suite", suite, *DEVICE, "--json", "/proc/no/such.json")
        check(r.code == 2 and "--json" in r.err, "unwritable --json: exit 2", r)
        r = run("suite", suite, *DEVICE, "-o", "/proc/no/such")
        check(r.code == 2 and "-o /proc/no/such" in r.err, "unwritable -o: exit 2", r)


def case_interrupt(timeout=False):
    with bt.tmpdir() as d:
        first = {"bench": "occupancy", "args": ["--waves", "--wg", "64", "--groups", "1..2", "--spin", "256"]}
        second = {"bench": "vecadd", "args": ["--groups", "1..48", "--reps", "300"]}
        suite = write_suite(d, "two.json", {"name": "two", "entries": [first, second, first]})
        out, dirp = os.path.join(d, "r.json"), os.path.join(d, "o")
        cmd = [BENCH, "suite", suite, *DEVICE, "--json", out, "-o", dirp]
        if timeout:
            k = bt.spinning_kernels(KERNELS, os.path.join(d, "k"))
            cmd += ["--kernels", k, "--timeout", "2"]
        p = bt.start(cmd)
        if not timeout:   # the second entry's header, then SIGINT
            bt.signal_when(p, "2 of 3", [signal.SIGINT], delay=1.0, timeout=120)
        r = bt.finish(p, timeout=180)
        want, by = (1, "timeout") if timeout else (130, "SIGINT")
        check(r.code == want, f"exit {r.code}, expected {want}", r)
        if not os.path.exists(out):
            check(False, "no suite document written", r)
            return
        doc = bt.load_doc(out)
        it = doc.get("interrupted") or {}
        check(it.get("by") == by and it.get("entries_done") == 2 and it.get("entries_planned") == 3,
              f"the suite marked interrupted: {it}", r)
        runs = doc["runs"]
        check(len(runs) == 2 and runs[0]["points"] == 2 and "interrupted" not in runs[0] and
              "interrupted" in runs[1], f"the first entry whole, the second interrupted: {runs}", r)
        check(len(doc["points"]) == 2 + runs[1]["points"], "every point written is in the document")
        if timeout:
            last = doc["points"][-1]
            check(last["status"] == "failed" and last["reason"] == "timed out after 2 s",
                  f"the hung point: {last['status']} {last['reason']}")
        files = sorted(os.listdir(dirp))
        check(len(files) == 3 and not any(".tmp." in f for f in files) and "two-03-occupancy.json" not in files,
              f"-o: the suite's document and the two entries run, no temporary file: {files}")


def utc(ts):
    return datetime.datetime.strptime(ts, "%Y-%m-%dT%H:%M:%SZ").timestamp()


def check_suite_doc(doc, name):
    check(doc.get("suite") == name and "benchmark" not in doc and doc.get("environment") is not None and
          doc.get("end_timestamp") and doc.get("time_origin"), f"{name}: the suite's top-level members")
    span = utc(doc["end_timestamp"]) - utc(doc["timestamp"])
    check(abs(span - doc["suite_s"]) <= 2, f"{name}: timestamp to end_timestamp {span} s, suite_s {doc['suite_s']}")
    check(all(p.get("benchmark") and p.get("run") for p in doc["points"]), f"{name}: every point tagged")
    check(all(p["status"] == "ok" for p in doc["points"]),
          f"{name}: every point ok: {[(p['benchmark'], p['status'], p['reason']) for p in doc['points'] if p['status'] != 'ok']}")


def quick_pair(d, attempt):
    """bench suite quick twice, then bench compare: (docs, compare JSON, compare run, walls)."""
    docs, walls = [], []
    for k in ("a", "b"):
        path = os.path.join(d, f"{attempt}{k}.json")
        t0 = time.monotonic()
        r = run("suite", "quick", *DEVICE, "--quiet", "--json", path)
        walls.append(time.monotonic() - t0)
        check(r.code == 0, f"bench suite quick ({attempt}{k}) exit 0", r)
        if r.code:
            return None
        docs.append(path)
        check_suite_doc(bt.load_doc(path), "quick")
    c = os.path.join(d, f"{attempt}c.json")
    r = run("compare", *docs, "--json", c, "--markdown", os.path.join(d, f"{attempt}c.md"))
    j = bt.load_doc(c) if os.path.exists(c) else {"counts": {}, "points": [], "settings": {}}
    return docs, j, r, walls


def case_quick_twice():
    """
    A regression is a slowdown that a second pair of runs shows again: a pair with a point
    regressed (on this shared CPU, another process taking a core for a while) is run again, at
    most three pairs; a point failed is never retried.
    """
    with bt.tmpdir() as d:
        for attempt in range(1, 4):
            load = os.getloadavg()[0]
            got = quick_pair(d, attempt)
            if not got:
                return
            docs, j, r, walls = got
            counts = {k: v for k, v in j["counts"].items() if v}
            worst = max((abs(p["ratio"] - 1) for p in j["points"] if p.get("ratio")), default=0)
            slow = [(p["benchmark"], round(p["ratio"], 2)) for p in j["points"] if p["verdict"] == "regressed"]
            print(f"pair {attempt} (load average {load:.1f}): bench suite quick {walls[0]:.1f} s and "
                  f"{walls[1]:.1f} s; compare: {counts}; largest change of a median {worst * 100:.0f} %"
                  f"{'; regressed: ' + str(slow) if slow else ''}")
            check(j["counts"].get("failed", 1) == 0 and j["counts"].get("new", 1) == 0 and
                  j["counts"].get("missing", 1) == 0, f"quick twice: verdicts {counts}", r)
            if not slow or bt.errors:
                break
        check(r.code == 0 and j["counts"].get("regressed", 1) == 0,
              f"bench compare: a point regressed in {attempt} pairs of runs in a row: {counts}", r)
        print(f"bands: {j['settings'].get('noise_suite')}")
        # The wide CPU band still sees a gross slowdown: the second run against itself with
        # vecadd's samples ten times longer. (Against the first run the plant would also carry
        # that run's own noise: on a loaded host one of its points can take three times as long
        # as in the second, and a tenfold slowdown then looks like three times, inside the
        # CPU band. Run-to-run noise is what the pairs above test.)
        c = os.path.join(d, "slow-c.json")
        slow = bt.load_doc(docs[1])
        for p in slow["points"]:
            if p["benchmark"] == "vecadd" and "time_ns" in p:
                t = p["time_ns"]
                t["samples"] = [s * 10 for s in t["samples"]]
                t["median"] = median(t["samples"])
        sp = os.path.join(d, "slow.json")
        bt.write_doc(sp, slow)
        r = run("compare", docs[1], sp, "--quiet", "--json", c)
        j = bt.load_doc(c) if os.path.exists(c) else {"points": []}
        v = [p["verdict"] for p in j["points"] if p["benchmark"] == "vecadd"]
        others = [p["verdict"] for p in j["points"] if p["benchmark"] != "vecadd"]
        check(r.code == 1 and v and all(x == "regressed" for x in v),
              f"a tenfold vecadd slowdown: {v.count('regressed')} of {len(v)} vecadd points regressed", r)
        # A point set against its own samples never moves; its verdict is unchanged where the
        # interval of the ratio lies within the band, and inconclusive (never regressed nor
        # improved) where the samples are so spread on a loaded host that it cannot: at most a
        # fifth of them.
        vague = others.count("inconclusive")
        check(others and all(x in ("unchanged", "inconclusive") for x in others) and
              vague <= len(others) // 5,
              f"the points the plant leaves alone: { {x: others.count(x) for x in set(others)} }, "
              f"unchanged wanted (inconclusive allowed in at most {len(others) // 5})", r)
        print(f"a tenfold vecadd slowdown planted in the second run: {v.count('regressed')} of {len(v)} "
              f"vecadd points regressed; the other points: "
              f"{ {x: others.count(x) for x in set(others)} }")


def case_planted():
    script = str(SOURCES / "scripts" / "plant-slowdown.py")
    with bt.tmpdir() as d:
        k = os.path.join(d, "k")
        r = bt.run([sys.executable, script, KERNELS, k])
        check(r.code == 0, "plant-slowdown.py", r)
        out = os.path.join(d, "r.json")
        for args in (["--groups", "1..3", "--slice", "16Ki"], ["--groups", "5", "--n", "100003"],
                     ["--variant", "3", "--groups", "1,3", "--wg", "64", "--iter", "5"],
                     ["--variant", "4", "--groups", "1,3", "--wg", "64", "--iter", "5"]):
            r = run("vecadd", *DEVICE, *args, "--reps", "3", "--quiet", "--kernels", k, "--json", out)
            pts = bt.load_doc(out)["points"] if r.code == 0 else []
            check(r.code == 0 and pts and all(p["status"] == "ok" and p["validated"] for p in pts),
                  f"the planted vecadd {args} validates", r)


def case_stopped():
    with bt.tmpdir() as d:
        first = {"bench": "occupancy", "args": ["--waves", "--wg", "64", "--groups", "1..2", "--spin", "256"]}
        bad = {"bench": "vecadd", "args": ["--variant", "1", "--n", "1Ti"]}
        suite = write_suite(d, "stop.json", {"name": "stop", "entries": [first, bad, first]})
        out = os.path.join(d, "r.json")
        r = run("suite", suite, *DEVICE, "--json", out, "--quiet")
        check(r.code == 2 and "exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE" in r.err and
              "bench suite: stopped in entry 2 of 3: what the entry before it measured is written" in r.err,
              "a refused entry: exit 2 with its message, the suite stopped", r)
        doc = bt.load_doc(out) if os.path.exists(out) else {}
        check(doc.get("interrupted") == {"by": "error", "entries_done": 1, "entries_planned": 3} and
              len(doc.get("runs", [])) == 1 and len(doc.get("points", [])) == 2,
              f"the first entry written, the suite marked stopped: {doc.get('interrupted')}", r)
        check(sorted(os.listdir(d)) == ["r.json", "stop.json"], f"no temporary file left: {os.listdir(d)}")


def case_skips():
    """An entry that does not run on the device (77) is skipped, the suite goes on and says why;
    a row across devices (locality) runs on the session's device's parts; all skipped: 77."""
    flat = {"bench": "locality", "args": ["--hierarchy", "flat", "--size", "1Mi", "--loads", "1024"]}
    parts = {"bench": "locality", "args": ["--size", "1Mi", "--loads", "1024", "--sub-devices", "counts:1,1"]}
    small = {"bench": "vecadd", "args": ["--groups", "1,2", "--slice", "4Ki"]}
    with bt.tmpdir() as d:
        suite = write_suite(d, "skips.json", {"name": "skips", "args": ["--reps", "3"],
                                              "entries": [flat, parts, small]})
        out = os.path.join(d, "r.json")
        r = run("suite", suite, *DEVICE, "--json", out)
        check(r.code == 0, "a skipped entry does not fail the suite", r)
        check(re.search(r"suite skips on .*: 3 of 3 entries \(1 skipped\), ", r.out) and
              "  entry 1 (locality): skipped: the FLAT mode's run needs an Intel GPU with stacks" in r.out,
              "the summary says which entry skipped and why", r)
        doc = bt.load_doc(out) if os.path.exists(out) else {"runs": []}
        runs = doc["runs"]
        check(len(runs) == 3 and runs[0]["exit_code"] == 77 and "not a GPU" in runs[0].get("skipped", "")
              and runs[0]["points"] == 0, f"the skipped entry's run: {runs[:1]}")
        loc = [p for p in doc.get("points", []) if p["benchmark"] == "locality"]
        # every point measured but the copy test of USM allocations (clEnqueueCopyBuffer: buffers only)
        check(len(runs) == 3 and runs[1]["exit_code"] == 0 and len(runs[1].get("devices", [])) == 2 and loc
              and all(p["status"] == "ok" or (p["status"] == "skipped" and p["params"]["test"] == "copy" and
                                              p["params"]["memory"] == "usm") for p in loc),
              "locality across the device's two parts", r)
        only = write_suite(d, "only.json", {"name": "only", "entries": [flat]})
        r = run("suite", only, *DEVICE, "--json", out)
        check(r.code == 77 and "1 of 1 entries (1 skipped), 0 points" in r.out,
              "every entry skipped: 77", r)
        check(bt.load_doc(out)["runs"][0]["exit_code"] == 77, "its document written")



def case_subgroups():
    """The sub-group benchmarks are entries like any other (results/suites/README.md): a suite of
    sg-info, sg-copy and transpose runs, each entry's points in the document; with
    --validate-only on the command line every entry validates and times nothing."""
    with bt.tmpdir() as d:
        path = write_suite(d, "sg.json", {"name": "sg", "entries": [
            {"bench": "sg-info"}, {"bench": "sg-copy", "args": ["--size", "64Ki"]},
            {"bench": "transpose", "args": ["--n", "64"]}], "args": ["--reps", "3"]})
        for extra in ([], ["--validate-only"]):
            out = os.path.join(d, "sg-doc.json")
            r = run("suite", path, *DEVICE, "--quiet", "--json", out, *extra)
            if not check(r.code == 0, f"suite of sub-group rows {extra}: exit {r.code}", r):
                continue
            pts = bt.load_doc(out)["points"]
            got = {p["benchmark"] for p in pts}
            check(got == {"sg-info", "sg-copy", "transpose"}, f"{extra}: benchmarks {got}")
            timed = [p for p in pts if "time_ns" in p]
            check(bool(timed) != bool(extra), f"{extra}: {len(timed)} timed points of {len(pts)}")


def case_folders():
    """-o a/b/c makes the folders as mkdir -p would; --json naming a file of -o's own (an entry's
    document, the suite's) is refused before any entry runs, nothing written."""
    with bt.tmpdir() as d:
        path = write_suite(d, "t.json", {"name": "t", "entries": [
            {"bench": "vecadd", "args": ["--groups", "1", "--reps", "2"]}]})
        out = os.path.join(d, "a", "b", "c")
        r = run("suite", path, *DEVICE, "--quiet", "-o", out)
        check(r.code == 0 and os.path.exists(os.path.join(out, "t-01-vecadd.json")),
              f"-o a/b/c made: {os.listdir(out) if os.path.isdir(out) else 'no folder'}", r)
        for clash in ("t-01-vecadd.json", [f for f in os.listdir(out) if "--t.json" in f][0]):
            before = sorted(os.listdir(out))
            r = run("suite", path, *DEVICE, "--quiet", "-o", out, "--json", os.path.join(out, clash))
            check(r.code == 2 and "it is the same file as" in r.err and sorted(os.listdir(out)) == before,
                  f"--json {clash} inside -o: refused, nothing written", r)


CASES = {"skips": case_skips, "folders": case_folders, "subgroups": case_subgroups, "planted": case_planted, "stopped": case_stopped, "quick-twice": case_quick_twice, "usage": case_usage, "files": case_files, "list": case_list, "require": case_require,
         "adaptive": case_adaptive, "record": case_record, "outputs": case_outputs, "cache": case_cache,
         "interrupt": case_interrupt, "timeout": lambda: case_interrupt(True)}

if __name__ == "__main__":
    CASES[CASE]()
    sys.exit(bt.verdict(f"ok: {CASE}"))
