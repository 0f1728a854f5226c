#!/usr/bin/env python3
"""Tests of `bench compare` on results documents written here (and, for `real`, made by bench).

usage: compare_test.py BENCH CASE [-- DEVICE ARGS]
Each CASE builds documents in a temporary folder, runs `bench compare` and checks its
exit code, its messages, and the JSON, JUnit (parsed with xml.etree) and Markdown it
writes. Exit 0 when every check passed.
"""
import copy
import json
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402

from synth import (BENCH, DEVICE, compare, doc, junit, point, probed, sweep,  # noqa: E402
                   verdicts)

CASE = sys.argv[2]
EXTRA = sys.argv[4:] if len(sys.argv) > 3 and sys.argv[3] == "--" else []


# ---- cases ----

def case_identical():
    base = doc(sweep())
    r = compare(base, copy.deepcopy(base))
    check(r.code == 0, "identical: exit 0", r)
    v, j = verdicts(r)
    check(set(v.values()) == {"unchanged"}, f"identical: all unchanged, got {v}", r)
    check(j["kind"] == "compare" and j["counts"]["unchanged"] == 8 and j["exit_code"] == 0,
          f"identical: compare document {j['counts']}")
    for p in j["points"]:
        check(p["ratio"] == 1.0 and p["p"] == 1.0 and p["interval"][0] < 1 < p["interval"][1],
              f"identical: ratio, p and interval of {p['params']['groups']}: "
              f"{p['ratio']} {p['p']} {p['interval']}")
    root, cases = junit(r)
    check(len(cases) == 8 and not root.findall(".//failure"), "identical: JUnit 8 cases, no failure")
    check("8 points: 8 unchanged" in r.out, "identical: the summary line", r)


def case_rerun():
    """Other seeds, other noise, the same medians: matched (seed ignored), nothing regressed."""
    r = compare(doc(sweep(seed=0)), doc(sweep(seed=1)))
    v, _ = verdicts(r)
    check(r.code == 0 and "regressed" not in v.values() and len(v) == 8,
          f"rerun: 8 matched, none regressed: {v}", r)


def case_slowdown():
    base = doc(sweep())
    new = doc(sweep(seed=1, scale={3: 1.10, 6: 1.10}))
    r = compare(base, new)
    check(r.code == 1, "slowdown: exit 1", r)
    v, j = verdicts(r)
    check(v[3] == "regressed" and v[6] == "regressed", f"slowdown: 3 and 6 regressed: {v}", r)
    check(all(v[g] == "unchanged" for g in v if g not in (3, 6)), f"slowdown: others unchanged: {v}")
    p3 = next(p for p in j["points"] if p["params"]["groups"] == 3)
    check(p3["significant"] and p3["outside_noise"] and p3["p"] < 0.001
          and 1.05 < p3["interval"][0] < 1.10 < p3["interval"][1] < 1.15
          and p3["p_method"].startswith("exact"), f"slowdown: figures of point 3: {p3}")
    root, cases = junit(r)
    failed = [c for c in cases if c.find("failure") is not None]
    check(len(cases) == 8 and len(failed) == 2, f"slowdown: JUnit 2 failures of 8: {len(failed)}")
    check(root.get("failures") == "2" and root.get("tests") == "8", "slowdown: JUnit totals")
    for c in failed:
        check(c.get("classname") == "bench.vecadd" and c.get("name") in ("groups=3 n=196608",
                                                                          "groups=6 n=393216"),
              f"slowdown: JUnit names {c.attrib}")
        check(c.find("failure").get("type") == "regressed"
              and "slower by" in c.find("failure").get("message"), "slowdown: failure message")
        check(re.search(r"ratio 1\.(0[5-9]|1)", c.find("system-out").text),
              "slowdown: figures in system-out")
    md = r.files["--markdown"]
    rows = [line for line in md.splitlines() if "| vecadd |" in line]
    check(len(rows) == 8 and rows[0].startswith("| **regressed**") and rows[1].startswith("| **regressed**"),
          f"slowdown: Markdown lists regressions first:\n{md}")
    check("| regressed | 2 |" in md and "<details>" in md, f"slowdown: Markdown counts:\n{md}")


def case_clock():
    """The clock gate: a change is the kernel's only where the clock probe stayed put."""
    steady = [20000.0, 20040.0, 20010.0]
    base = doc(probed(sweep(4), steady))
    # 27 % slower everywhere, the probe too: the clock fell (as 1980 against 1560 MHz)
    r = compare(base, doc(probed(sweep(4, seed=1, scale={g: 1.27 for g in range(1, 5)}),
                                 [x * 1.27 for x in steady])))
    v, j = verdicts(r)
    check(r.code == 0 and set(v.values()) == {"inconclusive"}, f"clock: a slower clock: {v}", r)
    p = j["points"][0]
    check("the clock probe, a fixed kernel, moved too" in p["notes"] and abs(p["clock_probe_ratio"] - 1.27) < 0.01,
          f"clock: note and ratio: {p['notes']!r} {p['clock_probe_ratio']}")
    # the same slowdown, the probe where it was: regressed
    r = compare(base, doc(probed(sweep(4, seed=1, scale={2: 1.27}), [x * 1.004 for x in steady])))
    v, j = verdicts(r)
    check(r.code == 1 and v[2] == "regressed" and v[1] == "unchanged", f"clock: steady probe: {v}", r)
    check(abs(j["points"][1]["clock_probe_ratio"] - 1.004) < 1e-3, "clock: the ratio of a steady probe")
    # the clock moved within NEW's point (its before and after apart) by as much as the
    # kernel: the movement could explain it, inconclusive
    r = compare(base, doc(probed(sweep(4, seed=1, scale={2: 1.27}), steady, [x * 1.27 for x in steady])))
    v, j = verdicts(r)
    check(v[2] == "inconclusive" and "moved within NEW's point" in j["points"][1]["notes"] and
          "could explain the change" in j["points"][1]["notes"],
          f"clock: moved within a point as much as the kernel: {v} {j['points'][1]['notes']!r}", r)
    # by 5 %, the kernel 27 %: 21 % slower even at NEW's slowest clock, regressed
    r = compare(base, doc(probed(sweep(4, seed=1, scale={2: 1.27}), steady, [x * 1.05 for x in steady])))
    v, j = verdicts(r)
    check(v[2] == "regressed" and "moved within NEW's point" in j["points"][1]["notes"] and
          "beyond what the clock's movement explains (x1.05" in j["points"][1]["notes"],
          f"clock: moved within a point less than the kernel: {v} {j['points'][1]['notes']!r}", r)
    # NEW's device sped up while measured (after faster than before): a slower kernel stands
    r = compare(base, doc(probed(sweep(4, seed=1, scale={2: 1.10}), steady, [x * 0.8 for x in steady])))
    v, j = verdicts(r)
    check(v[2] == "regressed" and "does not explain a slower kernel" in j["points"][1]["notes"],
          f"clock: sped up within a point, slower kernel: {v} {j['points'][1]['notes']!r}", r)
    # a probe as noisy as a CPU runtime's launches (the sides overlap) decides nothing
    r = compare(doc(probed(sweep(4), [10000.0, 30000.0, 15000.0])),
                doc(probed(sweep(4, seed=1, scale={2: 1.27}), [14000.0, 40000.0, 20000.0])))
    v, _ = verdicts(r)
    check(v[2] == "regressed", f"clock: a noisy probe decides nothing: {v}", r)
    # an unchanged point stays unchanged whatever the probe did; no probe on one side: no gate
    r = compare(base, doc(sweep(4, seed=1, scale={2: 1.27})))
    v, j = verdicts(r)
    check(v[2] == "regressed" and j["points"][1]["clock_probe_ratio"] is None,
          f"clock: one side without a probe: {v}", r)
    # on a CPU the probe is recorded and decides nothing
    cpu = dict(DEVICE, type="CPU")
    r = compare(doc(probed(sweep(4), steady), device=cpu),
                doc(probed(sweep(4, seed=1, scale={2: 1.27}), [x * 1.27 for x in steady]), device=cpu))
    v, j = verdicts(r)
    check(v[2] == "regressed" and abs(j["points"][1]["clock_probe_ratio"] - 1.27) < 0.01,
          f"clock: no gate on a CPU: {v}", r)
    # within the noise band (here 30 %), a probe that moved 27 % is no reason
    r = compare(base, doc(probed(sweep(4, seed=1, scale={2: 1.5}), [x * 1.27 for x in steady])),
                "--noise", "30")
    v, _ = verdicts(r)
    check(v[2] == "regressed", f"clock: a move within a 30 % band: {v}", r)


def case_improved():
    r = compare(doc(sweep()), doc(sweep(seed=1, scale={2: 0.9})))
    v, _ = verdicts(r)
    check(r.code == 0 and v[2] == "improved", f"improved: point 2 improved, exit 0: {v}", r)


def case_disagree():
    """Medians 10 % faster while most repetitions are slower: no verdict either way."""
    def bimodal(low, high, n_low, n_high, groups):
        p = point(groups, reps=n_low + n_high)
        p["time_ns"]["samples"] = [low] * n_low + [high] * n_high
        p["time_ns"]["n"] = n_low + n_high
        p["time_ns"]["median"] = sorted(p["time_ns"]["samples"])[(n_low + n_high) // 2]
        return p
    base = doc([bimodal(1000.0, 100000.0, 30, 51, 1)])
    new = doc([bimodal(90000.0, 1000000.0, 51, 30, 1)])
    r = compare(base, new)
    v, j = verdicts(r)
    p = j["points"][0]
    check(v[1] == "inconclusive" and p["significant"] and p["outside_noise"] and p["ratio"] < 1
          and p["u"] > 81 * 81 / 2 and "disagree" in p["notes"], f"disagree: {p}", r)


def case_noise_band():
    """A small real change (1 %, very quiet samples) is significant but inside the band."""
    base = doc(sweep(cv=0.1))
    new = doc(sweep(seed=1, cv=0.1, scale={4: 1.01}))
    r = compare(base, new)
    v, j = verdicts(r)
    p4 = next(p for p in j["points"] if p["params"]["groups"] == 4)
    check(v[4] == "unchanged" and p4["significant"] and not p4["outside_noise"],
          f"noise band: 1 % significant, unchanged: {p4}", r)
    r = compare(base, new, "--noise", "0.5")
    v, _ = verdicts(r)
    check(v[4] == "regressed" and r.code == 1, f"noise band: --noise 0.5 makes it regressed: {v}", r)
    slow = doc(sweep(seed=1, scale={4: 1.10}))
    r = compare(base, slow, "--noise-for", "vecadd=15")
    v, j = verdicts(r)
    check(v[4] == "unchanged" and r.code == 0 and j["settings"]["noise_for"] == {"vecadd": 15.0},
          f"noise band: --noise-for vecadd=15 keeps 10 % unchanged: {v}", r)
    r = compare(base, slow, "--noise-for", "atomics=15")
    v, _ = verdicts(r)
    check(v[4] == "regressed", f"noise band: --noise-for another benchmark changes nothing: {v}", r)


def case_few_reps():
    r = compare(doc(sweep(reps=8)), doc(sweep(reps=8, seed=1, scale={1: 1.5})))
    v, j = verdicts(r)
    check(set(v.values()) == {"inconclusive"} and r.code == 0,
          f"few reps: 8 repetitions, all inconclusive even at +50 %: {v}", r)
    check(j["points"][0]["p"] is None and j["points"][0]["ratio"] > 1.4, "few reps: no p, a ratio")
    check("at least 9" in r.out, "few reps: says why", r)
    root, cases = junit(r)
    check(len(root.findall(".//skipped")) == 8, "few reps: JUnit skipped")
    r = compare(doc(sweep(reps=9)), doc(sweep(reps=9, seed=1, scale={1: 1.5})))
    v, _ = verdicts(r)
    check(v[1] == "regressed", f"few reps: 9 repetitions suffice: {v}", r)


def case_failed():
    base = doc(sweep(3))
    new = doc(sweep(3, seed=1))
    new["points"][1] = point(2, status="failed", reason="output word 7: 3 != 4")
    new["points"][2] = point(3, status="skipped", reason="no sub-groups")
    r = compare(base, new)
    v, _ = verdicts(r)
    check(r.code == 1 and v[2] == "failed" and v[3] == "failed", f"failed: ok->failed/skipped: {v}", r)
    check("output word 7" in r.out and "ok -> skipped" in r.out, "failed: reasons shown", r)
    root, cases = junit(r)
    check(len(root.findall(".//failure[@type='failed']")) == 2, "failed: JUnit failures")


def case_changed():
    base = doc([point(1, measured={"resident_wg": 4224}), point(2), point(3),
                point(4, params={"nv_registers": 26, "local_mem_kernel": 0})], benchmark="vecadd")
    new = doc([point(1, seed=1, measured={"resident_wg": 4000}),
               point(2, seed=1, params={"sg_size_compiled": 16, "sg_size_kernel": 16}),
               point(3, seed=1, params={"spin": 4096}),
               # what the compiler made of a changed kernel: the point is still the same point
               point(4, seed=1, params={"nv_registers": 24, "local_mem_kernel": 64})])
    base["points"][2]["params"]["spin"] = 2048
    r = compare(base, new)
    v, j = verdicts(r)
    check(r.code == 0 and v[1] == "changed" and v[2] == "changed", f"changed: residency, sg size: {v}", r)
    check(v[3] == "inconclusive" and "spin" in r.out, f"changed: spin differs, times not compared: {v}", r)
    check(v.get(4) == "changed" and j["counts"].get("new", 0) == 0 and j["counts"].get("missing", 0) == 0,
          f"changed: registers and local memory are outcomes, the point matched: {v} {j['counts']}", r)
    ch = {p["params"]["groups"]: p["changed"] for p in j["points"]}
    check(ch[1] == [{"field": "measured.resident_wg", "base": 4224, "new": 4000}],
          f"changed: residency recorded {ch[1]}")
    check({c["field"] for c in ch[2]} == {"params.sg_size_compiled", "params.sg_size_kernel"},
          f"changed: sub-group sizes recorded {ch[2]}")
    check({(c["field"], c["base"], c["new"]) for c in ch[4]} ==
          {("params.nv_registers", 26, 24), ("params.local_mem_kernel", 0, 64)},
          f"changed: registers and local memory recorded {ch[4]}")
    # the report's reader matches a confirmation's attempts by the same params bench compare does
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    from benchreport.valid import IGNORED_PARAMS
    check(set(IGNORED_PARAMS) == set(j["settings"]["ignored_params"]),
          f"changed: benchreport's ignored params {IGNORED_PARAMS} are bench compare's "
          f"{sorted(j['settings']['ignored_params'])}")


def compiled_point(kernel, simd=32, grf=128, spill=0, status="ok", reason=None):
    """A bench compile point: what ocloc made of one kernel for one target (no timings)."""
    p = {"params": {"target": "pvc", "benchmark": "transpose", "variant": kernel, "kernel": kernel,
                    "sg_size_requested": 32, "grf": "small"},
         "status": status, "reason": reason, "validated": status == "ok"}
    if status == "ok":
        p["compiled"] = {"simd": simd, "grf_count": grf, "spill_mem_bytes": spill,
                         "private_mem_bytes": 0, "local_mem_bytes": 0, "barrier_count": 0,
                         "instructions": 1000}
    return p


def case_compiled():
    """bench compile documents: a new spill and another SIMD regress, more registers change."""
    names = ["same", "spills", "simd", "grf", "less-spill", "breaks"]
    base = doc([compiled_point(n, spill=1024 if n == "less-spill" else 0) for n in names],
               benchmark="compile")
    new = doc([compiled_point("same"), compiled_point("spills", spill=16384),
               compiled_point("simd", simd=16), compiled_point("grf", grf=256),
               compiled_point("less-spill", spill=0),
               compiled_point("breaks", status="failed", reason="Block reads not supported")],
              benchmark="compile")
    r = compare(base, new)
    j = json.loads(r.files["--json"])
    v = {p["params"]["kernel"]: p["verdict"] for p in j["points"]}
    check(v == {"same": "unchanged", "spills": "regressed", "simd": "regressed", "grf": "changed",
                "less-spill": "changed", "breaks": "failed"} and r.code == 1,
          f"compiled: verdicts {v}", r)
    ch = {p["params"]["kernel"]: p["changed"] for p in j["points"]}
    check(ch["spills"] == [{"field": "compiled.spill_mem_bytes", "base": 0, "new": 16384,
                            "worse": True}], f"compiled: the spill recorded {ch['spills']}")
    check(ch["grf"] == [{"field": "compiled.grf_count", "base": 128, "new": 256}],
          f"compiled: registers recorded {ch['grf']}")
    check("compiled.simd" in j["settings"]["compared_outcomes"],
          f"compiled: settings list the compared outcomes {j['settings']}")


def case_new_missing():
    r = compare(doc(sweep(3)), doc([point(2), point(3), point(4)]))
    v, j = verdicts(r)
    check(v == {2: "unchanged", 3: "unchanged", 4: "new", 1: "missing"} and r.code == 0,
          f"new/missing: {v}", r)


def case_suite_doc():
    """A document of several benchmarks, each point tagged: matched per benchmark."""
    a = [dict(point(1), benchmark="vecadd"), dict(point(1), benchmark="transpose")]
    b = [dict(point(1, seed=1), benchmark="transpose"),
         dict(point(1, seed=1, median=130000.0), benchmark="vecadd")]
    r = compare(doc(a, benchmark=None, suite="quick"), doc(b, benchmark=None, suite="quick"))
    j = json.loads(r.files["--json"])
    got = {p["benchmark"]: p["verdict"] for p in j["points"]}
    check(got == {"vecadd": "regressed", "transpose": "unchanged"}, f"suite doc: {got}", r)


def case_suite_noise():
    """A suite's document gives each benchmark its band (its `noise` map); --noise-for wins."""
    base = doc(sweep(), suite="quick", noise={"vecadd": 15})
    slow = doc(sweep(seed=1, scale={4: 1.1}), suite="quick", noise={"vecadd": 15})
    r = compare(base, slow)
    v, j = verdicts(r)
    check(v[4] == "unchanged" and r.code == 0 and j["points"][3]["noise_pct"] == 15.0 and
          j["settings"]["noise_suite"] == {"vecadd": 15.0} and j["settings"]["noise_suite_from"] == "new",
          f"suite noise: 10 % within the suite's 15 %: {v}", r)
    check("the suite's bands (NEW): vecadd +-15 %" in " ".join(r.out.split()),
          "suite noise: the table states the bands", r)   # the header is wrapped to a log's width
    r = compare(base, slow, "--noise-for", "vecadd=5")
    v, j = verdicts(r)
    check(v[4] == "regressed" and j["points"][3]["noise_pct"] == 5.0, f"suite noise: --noise-for wins {v}", r)
    # NEW's map first, BASE's where NEW has none; --noise for benchmarks neither names
    r = compare(base, doc(sweep(seed=1, scale={4: 1.1}), suite="quick", noise={"atomics": 50}))
    v, j = verdicts(r)
    check(v[4] == "regressed" and j["points"][3]["noise_pct"] == 2.0, f"suite noise: NEW's map, not BASE's {v}", r)
    r = compare(base, doc(sweep(seed=1, scale={4: 1.1}), suite="quick"))
    v, j = verdicts(r)
    check(v[4] == "unchanged" and j["settings"]["noise_suite_from"] == "base", f"suite noise: BASE's map {v}", r)
    r = compare(base, slow, "--noise", "20")
    v, j = verdicts(r)
    check(j["points"][0]["noise_pct"] == 15.0, "suite noise: the map over --noise", r)


def case_device():
    other = dict(DEVICE, driver_version="1.2.4")
    r = compare(doc(sweep(2)), doc(sweep(2), device=other))
    check(r.code == 2 and "different devices or drivers" in r.err and "1.2.4" in r.err
          and "--allow-different-device" in r.err, "device: a driver change refused", r)
    check(not r.files, "device: no output left behind")
    r = compare(doc(sweep(2)), doc(sweep(2), device=other), "--allow-different-device")
    check(r.code == 0 and "note: different devices" in r.err, "device: allowed", r)


def case_baseline():
    base = doc(sweep(), suite="gpu")
    with bt.tmpdir() as d:
        bdir = os.path.join(d, "baselines")
        os.mkdir(bdir)
        bt.write_doc(os.path.join(bdir, "test-gpu-9000--gpu.json"), base)
        bt.write_doc(os.path.join(bdir, "test-gpu-9000--quick.json"), doc(sweep(2), suite="quick"))
        newp = bt.write_doc(os.path.join(d, "new.json"), doc(sweep(seed=1, scale={5: 1.1}), suite="gpu"))
        r = bt.run([BENCH, "compare", "--baseline", bdir, newp, "--quiet"])
        check(r.code == 1, f"baseline: picked, regression found: {r.code} {r.err}")
        r = bt.run([BENCH, "compare", "--baseline", bdir, newp])
        check("test-gpu-9000--gpu.json" in r.out, f"baseline: names the file it used:\n{r.out}")
        bt.write_doc(newp, doc(sweep(), suite="guide"))
        r = bt.run([BENCH, "compare", "--baseline", bdir, newp])
        check(r.code == 2 and "test-gpu-9000--guide.json" in r.err
              and "test-gpu-9000--gpu.json" in r.err, f"baseline: none for the suite: {r.err}")


def case_usage():
    base = doc(sweep(2))
    for args, raw, msg in (
            ((), ["@DIR/base.json"], "give two results documents"),
            (("--baseline", "@DIR"), ["@DIR/base.json", "@DIR/new.json"], "with --baseline give one"),
            (("--alpha", "0"), None, "--alpha 0"),
            (("--alpha", "0.9"), None, "--alpha '0.9' is not a number in 0..0.5"),
            (("--alpha", "nan"), None, "--alpha 'nan'"),
            (("--noise", "5x"), None, "--noise '5x'"),
            (("--noise-for", "vecadd"), None, "--noise-for 'vecadd' is not BENCH=PCT"),
            (("--noise-for", "=3"), None, "is not BENCH=PCT"),
            (("--bogus",), None, "unknown option '--bogus'"),
            (("--json", "/nonexistent/dir/c.json"), None, "--json cannot write")):
        r = compare(base, base, *args, outputs=False, raw=raw)
        check(r.code == 2 and msg in r.err, f"usage {args}: exit 2 with {msg!r}", r)
    r = compare(base, base, "--junit", "@DIR/c.xml", "--markdown", "@DIR/c.xml", outputs=False)
    check(r.code == 2 and "same file" in r.err, "usage: two outputs, one file", r)
    # options after the operands, as CI scripts write them
    r = compare(base, base, outputs=False, raw=["@DIR/base.json", "@DIR/new.json", "--quiet"])
    check(r.code == 0 and r.out == "", "usage: an option after the operands", r)
    r = bt.run([BENCH, "compare", "--help"])
    check(r.code == 0 and "seed" in r.out and "--noise-for" in r.out,
          "usage: --help names the ignored params and the options")


def bad_inputs():
    """(name, content of NEW (text or dict), expected message after 'new.json: ')"""
    good = doc(sweep(2))
    text = json.dumps(good, indent=1)
    out = [("empty", "", "empty"),
           ("truncated", text[: len(text) // 2], "truncated JSON at line"),
           ("not-json", "results: yes", "not JSON at line 1"),
           ("top-level", "[1, 2]", "not a results document: the top level is not an object"),
           ("compare-doc", json.dumps({"kind": "compare", "schema_version": 1}),
            "kind: 'compare': not a results document")]

    def mutate(name, fn, msg):
        d = copy.deepcopy(good)
        fn(d)
        out.append((name, d, msg))

    mutate("schema-version", lambda d: d.update(schema_version=2), "schema_version: 2: this bench reads")
    mutate("no-schema", lambda d: d.pop("schema_version"), "schema_version: missing")
    mutate("no-points", lambda d: d.pop("points"), "points: missing")
    mutate("points-type", lambda d: d.update(points={}), "points: is an object, expected an array")
    mutate("no-device", lambda d: d.pop("device"), "device: missing")
    mutate("no-driver", lambda d: d["device"].pop("driver_version"), "device.driver_version: missing")
    mutate("no-params", lambda d: d["points"][1].pop("params"), "points[1].params: missing")
    mutate("params-type", lambda d: d["points"][1].update(params=[1]),
           "points[1].params: is an array, expected an object")
    mutate("no-status", lambda d: d["points"][0].pop("status"), "points[0].status: missing")
    mutate("bad-status", lambda d: d["points"][0].update(status="great"),
           "points[0].status: 'great' is not one of")
    mutate("no-validated", lambda d: d["points"][0].pop("validated"), "points[0].validated: missing")
    mutate("no-samples", lambda d: d["points"][1]["time_ns"].pop("samples"),
           "points[1].time_ns.samples: missing")
    mutate("no-median", lambda d: d["points"][1]["time_ns"].pop("median"),
           "points[1].time_ns.median: missing")
    mutate("zero-median", lambda d: d["points"][1]["time_ns"].update(median=0),
           "points[1].time_ns.median: 0: a median time must be positive")
    mutate("string-sample", lambda d: d["points"][0]["time_ns"]["samples"].__setitem__(3, "fast"),
           "points[0].time_ns.samples[3]: is not a number")
    mutate("negative-sample", lambda d: d["points"][0]["time_ns"]["samples"].__setitem__(3, -5.0),
           "points[0].time_ns.samples[3]: -5")
    mutate("n-mismatch", lambda d: d["points"][0]["time_ns"]["samples"].pop(),
           "points[0].time_ns.n: 12, but time_ns.samples holds 11")
    mutate("median-mismatch", lambda d: d["points"][0]["time_ns"].update(median=1.0),
           "points[0].time_ns.median: 1, but the median of time_ns.samples")
    mutate("no-benchmark", lambda d: d.pop("benchmark"), "benchmark: missing")
    mutate("residency-type", lambda d: d["points"][0].update(measured={"resident_wg": "many"}),
           "points[0].measured.resident_wg: is a string, expected an integer")
    mutate("noise-type", lambda d: d.update(noise=[5]), "noise: is an array, expected an object")
    mutate("noise-band", lambda d: d.update(noise={"vecadd": -1}),
           "noise.vecadd: is not a noise band in percent, 0..1000")
    return out + bad_values(good)


def bad_values(good):
    """Documents with a value out of its range: (name, text of NEW, expected message)."""
    out = []
    # Python's json writes NaN and Infinity as bare tokens, which JSON does not allow
    nan = copy.deepcopy(good)
    nan["points"][1]["time_ns"]["median"] = float("nan")
    out.append(("nan-median", json.dumps(nan), "points[1].time_ns.median: NaN or Infinity"))
    inf = copy.deepcopy(good)
    inf["points"][0]["time_ns"]["samples"][4] = float("inf")
    out.append(("inf-sample", json.dumps(inf), "points[0].time_ns.samples[4]: NaN or Infinity"))
    for name, probe, msg in (
            ("probe-empty", {"before": [], "after": [1.0]}, "points[0].clock_probe_ns.before: holds 0 times: 1 to 16"),
            ("probe-negative", {"before": [1.0], "after": [-5.0]},
             "points[0].clock_probe_ns.after[0]: is not a positive number of ns"),
            ("probe-string", {"before": ["20us"], "after": [1.0]},
             "points[0].clock_probe_ns.before[0]: is not a positive number of ns"),
            ("probe-missing", {"before": [1.0]}, "points[0].clock_probe_ns.after: missing"),
            ("probe-not-object", [1.0, 2.0], "points[0].clock_probe_ns: is an array, expected an object")):
        d = copy.deepcopy(good)
        d["points"][0]["clock_probe_ns"] = probe
        out.append((name, json.dumps(d), msg))
    metric = copy.deepcopy(good)
    metric["points"][0]["metrics"] = {"gbps": float("nan")}
    out.append(("nan-metric", json.dumps(metric), "points[0].metrics.gbps: NaN or Infinity"))
    return out


def case_bad_input():
    good = doc(sweep(2))
    for name, content, msg in bad_inputs():
        for side in ("new", "base"):
            pair = (good, content) if side == "new" else (content, good)
            r = compare(*pair)
            want = f"{side}.json: {msg}"
            check(r.code == 2 and want in r.err and "Traceback" not in r.err
                  and "Sanitizer" not in r.err and "runtime error" not in r.err,
                  f"bad input {name} as {side.upper()}: exit 2 with {want!r}", r)
            check(not r.files, f"bad input {name}: no output left behind")
    r = compare(good, None)
    check(r.code == 2 and "new.json: cannot read: No such file" in r.err, "bad input: no file", r)
    e = bt.run([BENCH, "compare", "", ""])
    check(e.code == 2 and "'' (an empty file name): cannot read" in e.err,
          f"bad input: empty names: exit {e.code}, {e.err!r}")


def case_real():
    """Documents made by bench on a CPU platform: itself, and a copy 10 % slower."""
    with bt.tmpdir() as d:
        a = os.path.join(d, "a.json")
        r = bt.run([BENCH, "vecadd", "--groups", "1..3", "--reps", "10", "--quiet", "--json", a] + EXTRA)
        if not check(r.code == 0, f"real: bench vecadd ran: {r.err}"):
            return
        base = bt.load_doc(a)
        r = compare(base, base)
        v, j = verdicts(r)
        # the same samples: never a change; unchanged where the interval fits the band, a point
        # as noisy as a shared CPU makes too noisy to show it (inconclusive, saying so)
        check(r.code == 0 and set(v.values()) <= {"unchanged", "inconclusive"} and
              all("too noisy" in p["notes"] for p in j["points"] if p["verdict"] == "inconclusive"),
              f"real: itself unchanged or too noisy {v}", r)
        slow = copy.deepcopy(base)
        for p in slow["points"]:
            t = p["time_ns"]
            t["samples"] = [s * 1.10 for s in t["samples"]]
            t["median"] *= 1.10
        r = compare(base, slow)
        v, j = verdicts(r)
        # every sample 10 % slower: regressed wherever the runs' spread allows a verdict,
        # never improved nor unchanged; a point as noisy as a shared CPU makes stays inconclusive
        quiet = {p["params"]["groups"] for p in base["points"]
                 if max(p["time_ns"]["samples"]) < 1.05 * min(p["time_ns"]["samples"])}
        check(r.code == (1 if "regressed" in v.values() else 0)
              and set(v.values()) <= {"regressed", "inconclusive"}
              and all(v[g] == "regressed" for g in quiet), f"real: +10 % regressed {v}", r)
        for p in j["points"]:
            check(abs(p["ratio"] - 1.10) < 1e-9, f"real: ratio {p['ratio']}")


def export(docs, *args):
    """Writes the documents and runs bench export lnt on them: (exit, stdout+stderr, report)."""
    with bt.tmpdir() as d:
        paths = [bt.write_doc(os.path.join(d, f"doc{i}.json"), content)
                 for i, content in enumerate(docs)]
        out = os.path.join(d, "lnt.json")
        cmd = [BENCH, "export"] + [a.replace("@OUT", out) for a in args[:1]] + paths + \
            [a.replace("@OUT", out) for a in args[1:]]
        r = bt.run(cmd)
        report = bt.load_doc(out, missing=None)
        left = [n for n in os.listdir(d) if n.startswith("lnt.json.tmp")]
        return r.code, r.out + r.err, report, left


def case_export():
    """bench export lnt: LNT's report format 2 (the lnt suite imports it into LNT itself)."""
    pts = sweep(3)
    pts.append(point(4, status="failed", reason="wrong"))
    pts.append(point(5, status="skipped"))
    pts.append(copy.deepcopy(pts[0]))                    # the same configuration again
    for p in pts[:3]:
        p["metrics"] = {"bytes": 1.2e6}
        p["wall_ns"] = {"n": 12, "samples": [v + 1000 for v in p["time_ns"]["samples"]]}
    occ = {"benchmark": "occupancy", "params": {"wg_size": 256, "spin": 2048, "sg_size_kernel": 32},
           "status": "ok", "reason": None, "validated": True, "measured": {"resident_wg": 1056}}
    a = doc(pts + [occ], timestamp="2026-11-23T10:00:00Z")
    b = doc(sweep(1), timestamp="2026-11-23T10:05:00Z", end_timestamp="2026-11-23T10:09:30Z")
    code, out, rep, left = export([a, b], "lnt", "--order", "41", "-o", "@OUT")
    check(code == 0 and rep, f"export: exit 0 and a report: {out}")
    if not rep:
        return
    check(rep["format_version"] == "2", "export: format_version '2'")
    m = rep["machine"]
    check(m["name"] == "runner1--test-gpu-9000" and m["device"] == "Test GPU 9000"
          and m["driver"] == "1.2.3" and m["hierarchy"] == "not recorded"
          and all(isinstance(v, str) for v in m.values()), f"export: machine {m}")
    r = rep["run"]
    check(r["start_time"] == "2026-11-23T10:00:00" and r["end_time"] == "2026-11-23T10:09:30"
          and r["llvm_project_revision"] == "41", f"export: run {r}")
    t = {x["name"]: x for x in rep["tests"]}
    name1 = "vecadd.2/groups=1/wg_size=512/n=65536"
    check(set(t) == {name1, "vecadd.2/groups=2/wg_size=512/n=131072",
                     "vecadd.2/groups=3/wg_size=512/n=196608", "vecadd.2/groups=4/wg_size=512/n=262144",
                     name1 + "#2", name1 + "#3", "occupancy/wg_size=256"},
          f"export: test names {sorted(t)}")
    x = t[name1]
    us = [v / 1000 for v in pts[0]["time_ns"]["samples"]]
    check(len(x["execution_time"]) == 12 and all(abs(p - q) < 1e-9 for p, q in zip(x["execution_time"], us)),
          "export: every repetition in us")
    check(len(x["wall_time"]) == 12 and abs(x["wall_time"][0] - us[0] - 1) < 1e-9, "export: wall time in us")
    check(abs(x["bandwidth"][0] - 1.2e6 / pts[0]["time_ns"]["samples"][0]) < 1e-9, "export: GB/s")
    # a point as bench writes it (min, p5, median, p95, max): its summary by default, five
    # values; every repetition with --samples
    full = copy.deepcopy(a)
    for p in full["points"][:3]:
        for k in ("time_ns", "wall_ns"):
            s = sorted(p[k]["samples"])
            p[k].update(min=s[0], p5=s[1], median=bt.median(s), p95=s[-2], max=s[-1])
    code, out, rep, left = export([full], "lnt", "--order", "41", "-o", "@OUT")
    x = {t["name"]: t for t in rep["tests"]}.get(name1, {}) if rep else {}
    s = sorted(pts[0]["time_ns"]["samples"])
    want = [v / 1000 for v in (s[0], s[1], bt.median(s), s[-2], s[-1])]
    check(code == 0 and x.get("execution_time") == want and len(x.get("wall_time", [])) == 5
          and len(x.get("bandwidth", [])) == 5,
          f"export: the summary by default (min, p5, median, p95, max in us): {x}")
    code, out, rep, left = export([full], "lnt", "--order", "41", "--samples", "-o", "@OUT")
    x = {t["name"]: t for t in rep["tests"]}.get(name1, {}) if rep else {}
    check(code == 0 and len(x.get("execution_time", [])) == 12 and len(x.get("wall_time", [])) == 12,
          f"export: --samples sends every repetition: {x}")
    check(t["vecadd.2/groups=4/wg_size=512/n=262144"] == {"name": "vecadd.2/groups=4/wg_size=512/n=262144",
                                                          "execution_status": 1}, "export: a failed point")
    check(t["occupancy/wg_size=256"].get("resident_wg") == 1056, "export: residency")
    for args, docs, msg in (
            (["csv", "-o", "@OUT"], [a], "the first argument is the format: lnt or otava (got 'csv')"),
            (["lnt", "-o", "@OUT"], [a], "--order is required"),
            (["lnt", "--order", "r123", "-o", "@OUT"], [a], "--order 'r123' is not a number"),
            (["lnt", "--order", "3"], [a], "-o FILE is required"),
            (["lnt", "--order", "3", "-o", "/nonexistent/x.json"], [a], "-o cannot write"),
            (["lnt", "--order", "driver", "-o", "@OUT"],
             [doc([point(1)], device=dict(DEVICE, driver_version="3.1+debian"))],
             "device.driver_version: '3.1+debian' is not dotted integers"),
            (["lnt", "--order", "3", "-o", "@OUT"], [a, doc([point(1)], device=dict(DEVICE, name="Other"))],
             "come from different machines"),
            (["lnt", "--order", "3", "-o", "@OUT"], [a, "{"], "doc1.json: truncated JSON"),
            (["lnt", "--order", "3", "-o", "@OUT"], [doc([point(1)], timestamp="yesterday")],
             "doc0.json: timestamp: 'yesterday' is not a UTC ISO 8601 time")):
        code, out, rep, left = export(docs, *args)
        check(code == 2 and msg in out and rep is None and not left,
              f"export {args}: exit 2 with {msg!r}, nothing written: exit {code}\n{out}")
    code, out, rep, _ = export([doc([point(1)])], "lnt", "--order", "driver", "-o", "@OUT")
    check(code == 0 and rep["run"]["llvm_project_revision"] == "1.2.3", f"export: --order driver {out}")


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}

if __name__ == "__main__":
    if CASE not in CASES:
        print(f"unknown case {CASE}; cases: {', '.join(CASES)}")
        sys.exit(2)
    CASES[CASE]()
    sys.exit(bt.verdict())
