#!/usr/bin/env python3
"""The report on written-out documents, good and bad, one case per run.

usage: report_inputs.py BENCH CASE

A bad document exits 2 with one line naming the file and the field, never a traceback, and
writes no page (nor a temporary file beside it). The `minimal-*` cases are small valid
documents (every benchmark, points ok, failed, skipped and suspect, and all of one status) that
must render (a suspect point's figures kept, never drawn as measured);
the `drawn-*` cases valid documents with a point or a member that lacks a figure its chart
draws: the page is written, and names what was not drawn and why.
"""
import copy
import html
import json
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402

STATS = {"min": 90.0, "median": 100.0, "mean": 101.0, "p5": 92.0, "p95": 110.0, "max": 111.0,
         "n": 3, "samples": [90.0, 100.0, 111.0]}
MODEL = {"known": True, "waves": 1, "gpu_occupancy": 0.5, "tail_occupancy": 0.0,
         "resident_wg": 2, "limiter": "threads"}


def doc(bench, points, **top):
    d = {"schema_version": 1, "tool": {"name": "bench", "version": "0"},
         "timestamp": "2026-01-01T00:00:00Z", "command": ["bench", bench],
         "host": {"hostname": "h"}, "device": {"name": "D", "platform": "P", "driver_version": "1"},
         "benchmark": bench, "points": points}
    d.update(top)
    return d


def pt(params, status="ok", **fields):
    p = {"params": params, "status": status, "reason": None if status == "ok" else "why",
         "validated": status in ("ok", "suspect")}
    if status in ("ok", "suspect"):   # a suspect point keeps its figures, for diagnosis
        p.update(copy.deepcopy(fields))
    return p


def vecadd(statuses=("ok", "ok", "failed")):
    return doc("vecadd", [pt({"groups": g + 1}, s, time_ns=STATS, model=MODEL,
                             metrics={"gbps": 1.0, "copy_gbps": 2.0})
                          for g, s in enumerate(statuses)])


def latency():
    pts = [pt({"memory": "global", "variant": "single", "working_set_bytes": 1024 << i},
              metrics={"ns_per_load": 1.0 + i, "cycles_per_load": None}) for i in range(4)]
    levels = [{"label": "first-level cache", "first_bytes": 1024, "last_bytes": 4096,
               "ns": 1.5, "cycles": None}]
    return doc("latency", pts, plateaus={"levels": levels, "llc_bytes": 8192},
               setup={"clock": {"mhz": None}})


def occupancy():
    meas = {"resident_wg": 2, "whole_wg": 0, "occupied_wg": 2, "definition": "occupied"}
    return doc("occupancy", [pt({"wg_size": w, "barrier": b, "slm_requested": 0}, measured=meas,
                                model=MODEL) for w in (64, 128) for b in (False, True)])


def minimal_all(status):
    """One document of each benchmark, with points ok, failed, skipped and suspect (or all
    `status`)."""
    def s(i):
        return status or ("ok", "failed", "skipped", "suspect")[i % 4]
    copy_m = {"fraction_of_copy": 0.5, "gbps": 3.0}
    return [
        vecadd([s(i) for i in range(3)]),
        doc("occupancy", [pt({"wg_size": 64 * (i + 1), "barrier": bool(i % 2),
                              "slm_requested": 0}, s(i), model=MODEL,
                             measured={"resident_wg": 2, "whole_wg": 2, "occupied_wg": 2})
                          for i in range(4)]),
        doc("occupancy-waves", [pt({"groups": i + 1}, s(i), time_ns=STATS, model=MODEL)
                                for i in range(3)], waves={"steps_after": [1]}),
        doc("sg-copy", [pt({"variant": v, "bytes": 1 << 20, "sg_backend": "emulated",
                            "sg_width": 16}, s(i), metrics=copy_m)
                        for i, v in enumerate(("gather", "strided", "block"))]),
        doc("transpose", [pt({"variant": v, "n": 64, "sg_backend": "khr", "sg_width": None},
                             s(i), metrics=copy_m)
                          for i, v in enumerate(("shuffle", "local", "naive"))]),
        doc("atomics", [pt({"pattern": pat, "order": o}, s(i),
                           metrics={"atomics_per_s": 1e6, "ns_per_atomic": 2.0})
                        for i, (pat, o) in enumerate([("own", "relaxed"), ("single", "acq_rel"),
                                                      ("chain", "relaxed")])],
            setup={"clock": {"mhz": 1000}}),
        doc("latency", [pt({"memory": "global", "variant": "single",
                            "working_set_bytes": 1 << (10 + i)},
                           s(i), metrics={"ns_per_load": -1.0 if i == 0 else 3.0})
                        for i in range(3)]),
        doc("sg-info", [pt({"global": 32, "local": 32, "sg_backend": "intel", "sg_width": 8}, s(i),
                           mapping={"sizes": [8, 8, 8, 8]}) for i in range(3)]),
        doc("model", [pt({"groups": i + 1}, s(i), model=MODEL) for i in range(3)], device=None),
        doc("no-such-benchmark", [pt({"x": i}, s(i)) for i in range(3)]),
    ]


def edit(d, dotted, value=None, delete=False):
    return bt.edited(d, dotted, value, delete)


def suite(figures=None):
    """A suite's document of one vecadd entry (results/README.md), naming the guide's figures."""
    v = vecadd(("ok",))
    d = {k: v[k] for k in ("schema_version", "tool", "timestamp", "command", "host", "device")}
    run = {"entry": 1, "bench": "vecadd", "benchmark": "vecadd", "args": [], "about": None,
           "exit_code": 0, "first_point": 0, "points": 1}
    if figures is not None:
        run["figures"] = figures
    d.update(suite="s", runs=[run], points=[dict(v["points"][0], benchmark="vecadd", run=1)])
    return d


FIGURES = {"id": "t", "title": "T", "section": "S", "device": "TGL: x", "kind": "k", "bench": "vecadd",
           "key": {"head": "G", "path": "/params/groups"}, "guide": [{"name": "occ", "head": "o"}],
           "ours": [{"head": "m", "path": "/model/gpu_occupancy", "scale": 100}],
           "plot": {"y": "%", "guide": "occ", "ours": {"path": "/model/gpu_occupancy", "scale": 100,
                                                      "label": "model"}},
           "rows": [{"key": 1, "occ": 2.4}]}


# name: (file content: a document, a string or None for no file; stderr must contain)
CASES = {
    "missing-file": (None, "cannot read: No such file or directory"),
    "empty": ("", "empty file"),
    "truncated": (json.dumps(vecadd())[:200], "truncated JSON at line 1"),
    "not-json": ("not json at all\n", "not JSON"),
    "not-object": ("[1, 2]\n", "expected a JSON object, found an array"),
    "no-schema": (edit(vecadd(), "schema_version", delete=True), "schema_version: missing"),
    "schema-2": (edit(vecadd(), "schema_version", 2), "schema_version: 2 is not one of 1"),
    "no-benchmark": (edit(vecadd(), "benchmark", delete=True), "points[0].benchmark: missing"),
    "no-points": (edit(vecadd(), "points", delete=True), "points: missing"),
    "point-no-status": (edit(vecadd(), "points.1.status", delete=True),
                        "points[1].status: missing"),
    "point-bad-status": (edit(vecadd(), "points.0.status", "done"),
                         'points[0].status: "done" is not one of "ok", "failed", "skipped", '
                         '"suspect"'),
    "vecadd-no-median": (edit(vecadd(), "points.1.time_ns.median", delete=True),
                         "points[1].time_ns.median: missing"),
    "vecadd-median-text": (edit(vecadd(), "points.0.time_ns.median", "fast"),
                           "points[0].time_ns.median: is a string, expected a number"),
    "vecadd-median-nan": (json.dumps(vecadd()).replace('"median": 100.0', '"median": NaN', 1),
                          "points[0].time_ns.median: NaN or Infinity"),
    "vecadd-sample-negative": (edit(vecadd(), "points.0.time_ns.samples.0", -1.0),
                               "points[0].time_ns.samples[0]: -1.0: out of range"),
    "vecadd-n-wrong": (edit(vecadd(), "points.0.time_ns.n", 4),
                       "points[0].time_ns.n: 4, but time_ns.samples holds 3"),
    "interrupted": (edit(vecadd(), "interrupted", {"by": "SIGINT", "points_done": 3,
                                                   "points_planned": 9}),
                    "interrupted: the run was cut short (by SIGINT after 3 of 9 points)"),
    "empty-points": (edit(vecadd(), "points", []), "points: empty"),
    "duplicate-key": ('{"schema_version": 1, "schema_version": 1}', 'the key "schema_version" twice'),
    "trailing": (json.dumps(vecadd()) + "\n{}", "trailing data after the JSON value"),
    "deep": ("[" * 5000 + "]" * 5000, "nested deeper than 64 levels"),
    "suite-points-outside": (edit(suite(), "runs.0.points", 2), "runs[0].first_point: points 0..1 lie outside"),
    "suite-figures-no-key": (edit(suite(copy.deepcopy(FIGURES)), "runs.0.figures.key.path", delete=True),
                             "runs[0].figures.key.path: missing"),
    "suite-figures-row-no-key": (edit(suite(copy.deepcopy(FIGURES)), "runs.0.figures.rows.0.key", delete=True),
                                 "runs[0].figures.rows[0].key: missing"),
}
# Valid documents with what a chart draws missing: (document, the page must say)
DRAWN = {
    "drawn-vecadd-no-groups": (edit(vecadd(), "points.2.params.groups", delete=True),
                               "points[2].params.groups: missing"),
    "drawn-latency-level-no-ns": (edit(latency(), "plateaus.levels.0.ns", delete=True),
                                  "plateaus not drawn: plateaus.levels[0].ns: missing"),
    "drawn-occupancy-no-measured": (edit(occupancy(), "points.3.measured", delete=True),
                                    "points[3].measured: missing"),
}
MINIMAL = {"minimal-mixed": None, "minimal-all-failed": "failed", "minimal-all-skipped": "skipped",
           "minimal-all-suspect": "suspect"}


def run(bench, args):
    return bt.run([bench, "report"] + args)


def bad_case(report, case, tmp):
    content, expect = CASES[case]
    path = os.path.join(tmp, f"{case}.json")
    if content is not None:
        bt.write_doc(path, content)
    good = bt.write_doc(os.path.join(tmp, "good.json"), vecadd())
    out = os.path.join(tmp, "out.html")
    r = run(report, [good, path, "-o", out])
    check(r.code == 2, f"exit {r.code}, expected 2")
    line = f"{path}: {expect}"
    check(line in r.err, f"stderr lacks {line!r}")
    check("Traceback" not in r.err and len(r.err.strip().splitlines()) == 1, "stderr is not one line")
    left = [f for f in os.listdir(tmp) if f.startswith("out.html")]
    check(not left, f"left behind: {left}")
    return r


def usage_case(report, case, tmp):
    good = bt.write_doc(os.path.join(tmp, "good.json"), vecadd())
    args, expect = {
        "usage-no-output": ([good], "-o FILE names the page to write"),
        "usage-no-docs": (["-o", os.path.join(tmp, "o.html")], "name one or more results "
                          "documents"),
        "usage-unwritable": ([good, "-o", os.path.join(tmp, "no-such-dir", "o.html")],
                             "cannot write"),
        "usage-output-is-dir": ([good, "-o", tmp], "is a directory"),
        "usage-output-empty": ([good, "-o", ""], "-o cannot write '': an empty name names no file"),
        "usage-output-is-input": ([good, "-o", good], "an input of this command"),
        "usage-png-empty": ([good, "-o", os.path.join(tmp, "o.html"), "--png", ""],
                            "--png '': an empty name names no folder"),
    }[case]
    r = run(report, args)
    check(r.code == 2, f"exit {r.code}, expected 2")
    check(re.search(r"^bench report: usage: .*" + re.escape(expect), r.err, re.M),
          f"stderr lacks 'bench report: usage: ...{expect}'")
    return r


def minimal_case(report, case, tmp):
    paths = [bt.write_doc(os.path.join(tmp, f"{i:02d}-{d['benchmark']}.json"), d)
             for i, d in enumerate(minimal_all(MINIMAL[case]))]
    # the same vecadd twice: a before/after section with every point matched
    paths.append(bt.write_doc(os.path.join(tmp, "vecadd-again.json"), minimal_all(MINIMAL[case])[0]))
    out = os.path.join(tmp, "out.html")
    r = run(report, paths + ["-o", out, "--png", os.path.join(tmp, "png")])
    if check(r.code == 0, f"exit {r.code}, expected 0"):
        with open(out, encoding="utf-8") as f:
            page = f.read()
        for d in minimal_all(MINIMAL[case]):
            check(f'data-benchmark="{d["benchmark"]}"' in page, f"no section for {d['benchmark']}")
        if MINIMAL[case] == "suspect":   # every figure kept, none drawn as measured
            check(not re.search(r"\b\d+ ok\b", page) and re.search(r"\b\d+ suspect\b", page)
                  and "pt-bad-suspect" in page and "pt-bad-bar-suspect" in page,
                  "a suspect point counted or drawn as an ok one, or not marked")
    return r


def drawn_case(report, case, tmp):
    content, expect = DRAWN[case]
    path = bt.write_doc(os.path.join(tmp, "d.json"), content)
    out = os.path.join(tmp, "out.html")
    r = run(report, [path, "-o", out])
    if check(r.code == 0, f"exit {r.code}, expected 0"):
        with open(out, encoding="utf-8") as f:
            page = html.unescape(f.read())
        check(expect in page, f"the page does not say {expect!r}")
    return r


def main():
    report, case = sys.argv[1], sys.argv[2]
    with bt.tmpdir() as tmp:
        if case in CASES:
            r = bad_case(report, case, tmp)
        elif case in DRAWN:
            r = drawn_case(report, case, tmp)
        elif case in MINIMAL:
            r = minimal_case(report, case, tmp)
        else:
            r = usage_case(report, case, tmp)
    if bt.errors:
        print(r.output())
    return bt.verdict()


if __name__ == "__main__":
    sys.exit(main())
