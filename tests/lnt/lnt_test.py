#!/usr/bin/env python3
"""The `lnt` suite: bench's LNT reports in a real LNT server.

usage: lnt_test.py BENCH SCHEMA VENV
Installs llvm-lnt from PyPI into the virtual environment VENV (once: a marker file
records the version; a lock keeps two runs from installing at once), creates an LNT
instance on sqlite with the test-suite schema SCHEMA, exports a baseline and a run with
a planted 10 % slowdown in two tests (`bench export lnt`), imports the baseline
(`lnt import INSTANCE FILE -s bench`), starts `lnt runserver` on 127.0.0.1 at a free
port, submits the run to it (`lnt submit URL/db_default/v4/bench/submitRun FILE`)
and asserts through LNT's REST API (regressions per test and field, the five summary
values a test of a run holds; --samples sends every launch) and its run comparison page that the slowed tests, and only those, are flagged. Exit 77 (skipped) where g++, python venv or PyPI is not available.
"""
import fcntl
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check, fail, skip  # noqa: E402

BENCH, SCHEMA, VENV = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
LNT_VERSION = "0.4.20"
REPS = 12
SLOWED = (3, 6)          # vecadd groups whose kernel time grows by 10 %
NETWORK_ERRORS = ("NewConnectionError", "Temporary failure in name resolution",
                  "Network is unreachable", "No matching distribution found",
                  "Could not find a version", "ConnectionError", "ReadTimeoutError",
                  "Name or service not known", "ProxyError")


def install():
    """The virtual environment with llvm-lnt, installed once (idempotent)."""
    marker = os.path.join(VENV, f".installed-llvm-lnt-{LNT_VERSION}")
    lnt = os.path.join(VENV, "bin", "lnt")
    os.makedirs(os.path.dirname(VENV), exist_ok=True)
    with open(VENV + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(marker) and os.access(lnt, os.X_OK):
            print(f"llvm-lnt {LNT_VERSION} already in {VENV}")
            return lnt
        if shutil.which("g++") is None:
            skip("g++ not found: llvm-lnt builds a C++ extension from source (apt-get install g++)")
        shutil.rmtree(VENV, ignore_errors=True)
        t0 = time.monotonic()
        r = bt.run([sys.executable, "-m", "venv", VENV])
        if r.code:
            skip(f"cannot make a virtual environment (python3-venv?): {r.err.strip()}")
        r = bt.run([os.path.join(VENV, "bin", "python"), "-m", "pip", "install",
                    "--disable-pip-version-check", "-q", "--retries", "2", "--timeout", "30",
                    f"llvm-lnt=={LNT_VERSION}"], timeout=1200)
        if r.code:
            out = r.out + r.err
            shutil.rmtree(VENV, ignore_errors=True)
            if any(e in out for e in NETWORK_ERRORS):
                skip(f"PyPI not reachable, llvm-lnt not installed:\n{out[-2000:]}")
            fail(f"pip install llvm-lnt=={LNT_VERSION} failed:\n{out[-4000:]}")
        open(marker, "w").close()
        print(f"installed llvm-lnt {LNT_VERSION} into {VENV} in {time.monotonic() - t0:.0f} s")
        return lnt


# ---- the documents: a vecadd sweep and an occupancy point, 12 repetitions each ----

DEVICE = {"name": "Test GPU 9000", "platform": "Test Platform", "driver_version": "1.2.3",
          "type": "GPU", "platform_version": "OpenCL 3.0 test"}


def summary(s):
    """The statistics bench writes beside the samples (sorted s): what export lnt sends."""
    def q(f):
        x = f * (len(s) - 1)
        return s[int(x)] + (s[min(int(x) + 1, len(s) - 1)] - s[int(x)]) * (x - int(x))
    return {"min": s[0], "p5": q(0.05), "median": q(0.5), "p95": q(0.95), "max": s[-1]}


def point(groups, slow, seed):
    rnd = random.Random(groups * 7919 + seed)
    median = 100000.0 * (1.10 if slow else 1.0)          # ns
    samples = [float(round(rnd.gauss(median, median * 0.01))) for _ in range(REPS)]
    s = sorted(samples)
    return {"params": {"variant": 2, "groups": groups, "wg_size": 512, "sg_size_compiled": 32,
                       "simd_source": "required (cl_intel_required_subgroup_size)",
                       "n": groups * 65536, "seed": rnd.getrandbits(62)},
            "status": "ok", "reason": None, "validated": True,
            "time_ns": dict(summary(s), n=REPS, samples=samples),
            "wall_ns": dict(summary([v + 5000 for v in s]), n=REPS,
                            samples=[v + 5000 for v in samples]),
            "metrics": {"bytes": groups * 65536 * 12.0}}


def document(seed, slowed, timestamp):
    pts = [point(g, g in slowed, seed) for g in range(1, 9)]
    occ = {"params": {"wg_size": 256, "groups": 4224, "spin": 2048}, "status": "ok",
           "reason": None, "validated": True, "measured": {"resident_wg": 1056},
           "benchmark": "occupancy"}
    return {"schema_version": 1, "tool": {"name": "bench", "version": "0.1.0",
                                           "git_describe": "test"},
            "timestamp": timestamp, "command": ["bench"], "device": DEVICE,
            "host": {"hostname": "runner-1", "os": "Linux", "machine": "x86_64"},
            "benchmark": "vecadd", "points": pts + [occ]}


def test_name(groups):
    return f"vecadd.2/groups={groups}/wg_size=512/n={groups * 65536}"


# ---- LNT ----

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(base, path, raw=False):
    with urllib.request.urlopen(base + path, timeout=30) as r:
        body = r.read().decode()
    return body if raw else json.loads(body)


def wait_up(base, server):
    for _ in range(120):
        if server.poll() is not None:
            fail(f"lnt runserver exited with {server.returncode}:\n{server.stdout.read()}")
        try:
            return get(base, "/api/db_default/v4/bench/machines")
        except OSError:
            time.sleep(0.5)
    fail("lnt runserver did not answer within 60 s")


def check_api(base):
    """What LNT's REST API says of the machine, runs, tests, samples and regressions: the ids
    of the runs by order (None where they are not the two submitted)."""
    api = "/api/db_default/v4/bench"
    machines = get(base, api + "/machines")["machines"]
    if not check(len(machines) == 1, f"one machine expected: {machines}"):
        return None
    m = machines[0]
    for k, v in (("name", "runner-1--test-gpu-9000"), ("device", "Test GPU 9000"),
                 ("driver", "1.2.3"), ("platform", "Test Platform"), ("hierarchy", "not recorded")):
        check(m.get(k) == v, f"machine {k} = {m.get(k)!r}, expected {v!r}")
    runs = get(base, f"{api}/machines/{m['id']}")["runs"]
    orders = {r["llvm_project_revision"]: r["id"] for r in runs}
    if not check(set(orders) == {"1", "2"}, f"runs of orders 1 and 2 expected: {runs}"):
        return None
    fields = {f["column_name"]: f["column_id"] for f in get(base, api + "/fields")["fields"]}
    tests = {t["name"]: t["id"] for t in get(base, api + "/tests")["tests"]}
    want = {test_name(g) for g in range(1, 9)} | {"occupancy/wg_size=256/groups=4224"}
    check(set(tests) == want, f"tests {sorted(tests)}, expected {sorted(want)}")
    # each of the summary's five values is a sample of its own (every launch: --samples)
    samples = get(base, f"{api}/runs/{orders['2']}")["tests"]
    per_test = {}
    for s in samples:
        if s.get("execution_time") is not None:
            per_test[s["name"]] = per_test.get(s["name"], 0) + 1
    check(not any(per_test.get(test_name(g)) != 5 for g in range(1, 9)),
          f"5 samples a test expected (min, p5, median, p95, max): {per_test}")
    # LNT's own verdict: a regression (field change) per test and metric
    for field in ("execution_time", "bandwidth"):
        flagged = set()
        for name, tid in tests.items():
            regs = get(base, f"{api}/regression/{m['id']}/{tid}/{fields[field]}")
            if regs:
                flagged.add(name)
            # the change's end point: [order, new value]; slower is more us, fewer GB/s
            for r in regs:
                new = r["end_point"][1]
                check(field != "execution_time" or new > 105,
                      f"{name}: execution_time regression to {new} us, not slower")
        expect = {test_name(g) for g in SLOWED}
        print(f"{field}: LNT flags {sorted(flagged)}")
        check(flagged == expect, f"{field}: LNT flagged {sorted(flagged)}, expected {sorted(expect)}")
    return orders


def check_page(base, orders):
    """The run comparison page: its 'Performance Regressions - Kernel time' table."""
    html = get(base, f"/db_default/v4/bench/{orders['2']}?compare_to={orders['1']}", raw=True)
    at = html.find("Performance Regressions - Kernel time")
    if not check(at >= 0, "the run page has no 'Performance Regressions - Kernel time' table"):
        return
    table = html[at:html.find("</table>", at)]
    listed = {g for g in range(1, 9) if test_name(g) + "<" in table}
    print(f"run page: kernel-time regressions for groups {sorted(listed)}")
    check(listed == set(SLOWED),
          f"run page lists groups {sorted(listed)} as regressed, expected {SLOWED}")


def main():
    lnt = install()
    with bt.tmpdir() as d:
        reports = []
        for order, (seed, slowed, ts) in enumerate(((1, (), "2026-11-23T10:00:00Z"),
                                                    (2, SLOWED, "2026-11-23T11:00:00Z")), 1):
            doc = bt.write_doc(os.path.join(d, f"run{order}.json"), document(seed, slowed, ts))
            rep = os.path.join(d, f"run{order}.lnt.json")
            bt.must_run([BENCH, "export", "lnt", doc, "--order", str(order), "-o", rep],
                        what="bench export lnt")
            bt.must_run([lnt, "checkformat", rep], what="lnt checkformat")
            # by default a point's summary (min, p5, median, p95, max); --samples: every launch
            every = rep + ".samples"
            bt.must_run([BENCH, "export", "lnt", doc, "--order", str(order), "-o", every,
                         "--samples"], what="bench export lnt --samples")
            bt.must_run([lnt, "checkformat", every], what="lnt checkformat (--samples)")
            sizes = {len(t["execution_time"]) for t in bt.load_doc(rep)["tests"] if "execution_time" in t}
            full = {len(t["execution_time"]) for t in bt.load_doc(every)["tests"] if "execution_time" in t}
            check(sizes == {5} and full == {REPS},
                  f"export lnt: {sizes} values a test by default (5), {full} with --samples ({REPS})")
            reports.append(rep)
        inst = os.path.join(d, "instance")
        bt.must_run([lnt, "create", inst], what="lnt create")
        shutil.copy(SCHEMA, os.path.join(inst, "schemas", "bench.yaml"))
        # the baseline with lnt import on the server's instance, the new run over HTTP as
        # CI submits it (docs/ci.md)
        bt.must_run([lnt, "import", inst, reports[0], "-s", "bench"], what="lnt import")
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = bt.start([lnt, "runserver", inst, "--hostname", "127.0.0.1", "--port", str(port)],
                          stderr=subprocess.STDOUT, start_new_session=True)
        try:
            wait_up(base, server)
            bt.must_run([lnt, "submit", f"{base}/db_default/v4/bench/submitRun", reports[1]],
                        what="lnt submit")
            orders = check_api(base)
            if orders:
                check_page(base, orders)
        finally:
            bt.stop(server, timeout=15)
    return bt.verdict()


if __name__ == "__main__":
    sys.exit(main())
