#!/usr/bin/env python3
"""One judgement of a results document: bench compare, bench export lnt and bench report (and
the Python judgement itself, scripts/benchreport/valid.py with results/schema/input.schema.json)
given the same documents, each a valid document with one fault, must all refuse it (exit 2)
naming the same member or the same kind of fault; the valid variants must all be read.

usage: readers.py BENCH REPORT_PY
Exit 0 when every reader agrees on every document, 1 otherwise (each disagreement listed), 77
where python3-jsonschema is missing.
"""
import copy
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

BENCH, REPORT = sys.argv[1], sys.argv[2]
sys.path.insert(0, str(Path(REPORT).resolve().parent))
from benchreport import jsonfile, valid  # noqa: E402

DEVICE = {"name": "Test GPU 9000", "platform": "Test Platform", "driver_version": "1.2.3",
          "type": "GPU"}


def point(groups, status="ok"):
    samples = [float(1000 * groups + k) for k in range(12)]
    p = {"params": {"variant": 2, "groups": groups, "seed": groups}, "status": status,
         "reason": None if status == "ok" else "why", "validated": status == "ok"}
    if status == "ok":
        s = sorted(samples)
        p["time_ns"] = {"min": s[0], "median": (s[5] + s[6]) / 2, "p5": s[0], "p95": s[-1],
                        "max": s[-1], "n": 12, "samples": samples}
        p["metrics"] = {"gbps": 1.0}
    return p


def good():
    return {"schema_version": 1, "tool": {"name": "bench", "version": "0.1.0"},
            "timestamp": "2026-11-23T10:00:00Z", "command": ["bench", "vecadd"],
            "host": {"hostname": "runner1"}, "device": dict(DEVICE), "benchmark": "vecadd",
            "points": [point(1), point(2), point(3, "failed")]}


def edit(path, value=None, delete=False):
    """A fault: the member at dotted path (numbers index arrays) set to value, or deleted."""
    return lambda d: bt.edited(d, path, value, delete)


def raw(transform):
    """A fault in the text: transform(text of the good document)."""
    return lambda d: transform(json.dumps(d))


ATTEMPT = dict(point(1), params={"variant": 2, "groups": 1, "seed": 9})
# name: (fault, what every reader's message must contain)
FAULTS = {
    "empty": (raw(lambda t: ""), "empty file"),
    "blank": (raw(lambda t: "  \n\t"), "empty file"),
    "truncated": (raw(lambda t: t[: len(t) // 2]), "truncated JSON"),
    "trailing": (raw(lambda t: t + " {}"), "trailing data"),
    "duplicate-key": (raw(lambda t: t.replace('"benchmark": "vecadd"',
                                              '"benchmark": "vecadd", "benchmark": "vecadd"')),
                      "twice in one object"),
    "nan-median": (raw(lambda t: t.replace('"median": 1005.5', '"median": NaN', 1)),
                   "points[0].time_ns.median: NaN or Infinity"),
    "infinity-sample": (raw(lambda t: t.replace('[1000.0,', '[Infinity,', 1)),
                        "points[0].time_ns.samples[0]: NaN or Infinity"),
    "overflow-sample": (raw(lambda t: t.replace('[1000.0,', '[1e999,', 1)),
                        "a number beyond the range of a double"),
    "deep": (raw(lambda t: t[:-1] + ', "x": ' + "[" * 80 + "]" * 80 + "}"), "nested deeper than 64"),
    "not-utf8": (lambda d: json.dumps(d).encode().replace(b"runner1", b"runner\xff"), "UTF-8"),
    "nul-in-string": (raw(lambda t: t.replace("runner1", "run\\u0000ner")), "U+0000"),
    "huge-integer": (raw(lambda t: t.replace('"groups": 1,', '"groups": 99999999999999999999999,', 1)),
                     "an integer beyond 64 bits"),
    "top-array": (raw(lambda t: "[" + t + "]"), "object"),
    "lone-surrogate": (raw(lambda t: t.replace("runner1", "run\\ud800ner")), "lone surrogate"),
    "kind-compare": (edit("kind", "compare"), "kind"),
    "no-schema-version": (edit("schema_version", delete=True), "schema_version: missing"),
    "schema-version-2": (edit("schema_version", 2), "schema_version"),
    "schema-version-text": (edit("schema_version", "1"), "schema_version"),
    "no-device": (edit("device", delete=True), "device: missing"),
    "device-text": (edit("device", "gpu"), "device"),
    "no-device-name": (edit("device.name", delete=True), "device.name: missing"),
    "driver-number": (edit("device.driver_version", 3), "device.driver_version"),
    "host-text": (edit("host", "runner1"), "host"),
    "hostname-number": (edit("host.hostname", 1), "host.hostname"),
    "timestamp-number": (edit("timestamp", 5), "timestamp"),
    "benchmark-number": (edit("benchmark", 5), "benchmark"),
    "suite-number": (edit("suite", 5), "suite"),
    "noise-too-big": (edit("noise", {"vecadd": 2000}), "noise.vecadd"),
    "no-points": (edit("points", delete=True), "points: missing"),
    "points-object": (edit("points", {}), "points"),
    "point-text": (edit("points.0", "ok"), "points[0]"),
    "no-params": (edit("points.0.params", delete=True), "points[0].params: missing"),
    "params-array": (edit("points.0.params", []), "points[0].params"),
    "no-status": (edit("points.1.status", delete=True), "points[1].status: missing"),
    "status-done": (edit("points.1.status", "done"), "points[1].status"),
    "no-validated": (edit("points.0.validated", delete=True), "points[0].validated: missing"),
    "validated-text": (edit("points.0.validated", "yes"), "points[0].validated"),
    "reason-number": (edit("points.2.reason", 5), "points[2].reason"),
    "time-array": (edit("points.0.time_ns", []), "points[0].time_ns"),
    "no-samples": (edit("points.0.time_ns.samples", delete=True), "points[0].time_ns.samples: missing"),
    "samples-empty": (edit("points.0.time_ns.samples", []), "points[0].time_ns.samples"),
    "sample-text": (edit("points.0.time_ns.samples.3", "x"), "points[0].time_ns.samples[3]"),
    "sample-negative": (edit("points.0.time_ns.samples.3", -1.0), "points[0].time_ns.samples[3]"),
    "no-n": (edit("points.0.time_ns.n", delete=True), "points[0].time_ns.n: missing"),
    "n-wrong": (edit("points.0.time_ns.n", 11), "points[0].time_ns.n: 11, but"),
    "n-real": (edit("points.0.time_ns.n", 12.5), "points[0].time_ns.n"),
    "no-median": (edit("points.0.time_ns.median", delete=True), "points[0].time_ns.median: missing"),
    "median-zero": (edit("points.0.time_ns.median", 0), "points[0].time_ns.median"),
    "median-text": (edit("points.0.time_ns.median", "fast"), "points[0].time_ns.median"),
    "median-not-theirs": (edit("points.0.time_ns.median", 999.0), "points[0].time_ns.median"),
    "probe-empty": (edit("points.0.clock_probe_ns", {"before": [], "after": [1.0]}),
                    "points[0].clock_probe_ns.before"),
    "probe-zero": (edit("points.0.clock_probe_ns", {"before": [0.0], "after": [1.0]}),
                   "points[0].clock_probe_ns.before[0]"),
    "probe-no-after": (edit("points.0.clock_probe_ns", {"before": [1.0]}),
                       "points[0].clock_probe_ns.after: missing"),
    "spread-no-run": (edit("points.0.run_spread", {"runs": 0, "spread_pct": 2.0}),
                      "points[0].run_spread.runs"),
    "spread-negative": (edit("points.0.run_spread", {"runs": 3, "spread_pct": -2.0}),
                        "points[0].run_spread.spread_pct"),
    "spread-within-negative": (edit("points.0.run_spread", {"runs": 3, "spread_pct": 2.0,
                                                            "within_pct": -1.0}),
                               "points[0].run_spread.within_pct"),
    "spread-entry-text": (edit("points.0.run_spread", {"runs": 3, "spread_pct": 2.0,
                                                       "entry_spread_pct": "wide"}),
                          "points[0].run_spread.entry_spread_pct"),
    "resident-text": (edit("points.0.measured", {"resident_wg": "x"}), "points[0].measured.resident_wg"),
    "attempt-nested": (edit("points.0.attempts", [dict(ATTEMPT, attempts=[])]),
                       "points[0].attempts[0]"),
    "attempt-other-point": (edit("points.0.attempts", [dict(ATTEMPT, params={"groups": 7})]),
                            "points[0].attempts[0]"),
    "point-benchmark-number": (edit("points.0.benchmark", 5), "points[0].benchmark"),
    "suite-point-no-benchmark": (edit("benchmark", delete=True), "benchmark"),
    "concurrent-text": (edit("points.0.concurrent", "yes"), "points[0].concurrent"),
    "interrupted": (edit("interrupted", {"by": "SIGINT", "points_done": 3, "points_planned": 9}),
                    "interrupted: the run was cut short (by SIGINT after 3 of 9 points)"),
    "interrupted-text": (edit("interrupted", "SIGINT"), "interrupted"),
    "no-point": (edit("points", []), "points: empty"),
    "device-run-outside": (edit("device_runs", [{"device": "a", "first_point": 2, "points": 5}]),
                           "device_runs[0].first_point: points 2..6 lie outside points[0..2]"),
    "device-run-unknown": (lambda d: dict(edit("device_runs", [{"device": "b", "first_point": 0,
                                                                 "points": 1}])(d),
                                          devices=[{"label": "a"}]),
                           "device_runs[0].device"),
    "device-no-label": (edit("devices", [{"name": "a"}]), "devices[0].label: missing"),
    "suite-run-outside": (edit("runs", [{"first_point": 0, "points": 9}]), "runs[0].first_point"),
}
# Valid variants every reader reads.
VALID = {
    "good": lambda d: d,
    "n-integral-real": edit("points.0.time_ns.n", 12.0),
    "unknown-member": edit("extra", {"anything": [1, 2]}),
    "reason-null": edit("points.0.reason", None),
    "failed-without-times": edit("points.1.status", "failed"),
    "attempt-same-point": edit("points.0.attempts", [ATTEMPT]),
    "resident-null": edit("points.0.measured", {"resident_wg": None}),
    "spread-one-run": edit("points.0.run_spread", {"runs": 1, "spread_pct": 0.0, "within_pct": 1.5,
                                                   "entry_spread_pct": 2.0, "dropped": [
                                                       {"run": 2, "probe_ns": 9.0, "median_ns": 1.0}]}),
}
# Valid only with --allow-partial: (fault, option)
PARTIAL = ("interrupted", "no-point")


def write(d, name, content):
    path = os.path.join(d, name)
    mode = "wb" if isinstance(content, bytes) else "w"
    with open(path, mode) as f:
        f.write(content if isinstance(content, (str, bytes)) else json.dumps(content))
    return path


def readers(d, path, partial=False):
    """Each reader's (exit code, stderr) on the document at path."""
    base = write(d, "base.json", good())
    extra = ["--allow-partial"] if partial else []
    out = {"compare": bt.run([BENCH, "compare", base, path, "--quiet"] + extra),
           "export": bt.run([BENCH, "export", "lnt", path, "--order", "1", "-o",
                             os.path.join(d, "lnt.json")] + extra),
           "report": bt.run([BENCH, "report", path, "-o", os.path.join(d, "r.html")] + extra)}
    return {k: (r.code, r.err) for k, r in out.items()}


def judge(content, partial=False):
    """The Python judgement itself: None (valid), or its message."""
    try:
        data = jsonfile.parse(content if isinstance(content, bytes) else
                              (content if isinstance(content, str) else json.dumps(content)).encode())
        if not isinstance(data, dict):
            return "expected a JSON object"
        if data.get("kind") == "compare":
            valid.check_schema("compare.schema.json", data)
            return None
        valid.check_results(data, partial)
    except (jsonfile.JsonError, valid.Invalid) as e:
        return f"{getattr(e, 'field', '') or ''}: {e}"
    return None


def partial_marks(d):
    """An interrupted document read with --allow-partial is marked so by each reader."""
    path = write(d, "partial.json", FAULTS["interrupted"][0](good()))
    base = write(d, "base.json", good())
    r = bt.run([BENCH, "compare", base, path, "--allow-partial", "--json", os.path.join(d, "c.json")])
    bt.check("(partial: interrupted by SIGINT)" in r.out and
             json.load(open(os.path.join(d, "c.json")))["new"].get("interrupted") == "SIGINT",
             "compare --allow-partial: NEW marked partial in the table and the document", r)
    out = os.path.join(d, "lnt.json")
    r = bt.run([BENCH, "export", "lnt", path, "--order", "1", "-o", out, "--allow-partial"])
    bt.check(r.code == 0 and "SIGINT" in json.load(open(out))["run"].get("interrupted", ""),
             "export --allow-partial: the LNT run says it was interrupted", r)
    page = os.path.join(d, "r.html")
    r = bt.run([BENCH, "report", path, "-o", page, "--allow-partial"])
    bt.check(r.code == 0 and "partial" in open(page).read(), "report --allow-partial: marked", r)


def export_choices(d):
    """export: a document given twice refused; an ok point without figures named, left out."""
    path = write(d, "twice.json", good())
    r = bt.run([BENCH, "export", "lnt", path, path, "--order", "1", "-o", os.path.join(d, "t.json")])
    bt.check(r.code == 2 and "is document 1" in r.err, "export: a document given twice refused", r)
    untimed = edit("points.1.time_ns", delete=True)(good())
    path = write(d, "untimed.json", untimed)
    r = bt.run([BENCH, "export", "lnt", path, "--order", "1", "-o", os.path.join(d, "u.json")])
    bt.check(r.code == 0 and "1 ok point without a time or residency" in r.err,
             "export: an ok point without times is named as left out", r)


def main():
    if valid.missing_module():
        bt.skip("python3-jsonschema is not installed")
    refused = agreed = 0
    with bt.tmpdir() as d:
        for name, (fault, must) in FAULTS.items():
            content = fault(good())
            path = write(d, f"{name}.json", content)
            got = readers(d, path)
            verdict = judge(content)
            bt.check(verdict is not None, f"{name}: the schema and its rules accept it")
            for reader, (code, err) in got.items():
                ok = code == 2 and must in err and "Traceback" not in err
                bt.check(ok, f"{name}: {reader}: exit {code}, expected 2 naming {must!r}:\n{err}")
                agreed += ok
            refused += 1
        for name, variant in VALID.items():
            content = variant(good())
            path = write(d, f"{name}.json", content)
            bt.check(judge(content) is None, f"{name}: the judgement refuses it: {judge(content)}")
            for reader, (code, err) in readers(d, path).items():
                bt.check(code in (0, 1) if reader == "compare" else code == 0,
                         f"{name}: {reader} refuses a valid document: exit {code}\n{err}")
        for name in PARTIAL:
            content = FAULTS[name][0](good())
            path = write(d, f"{name}-partial.json", content)
            bt.check(judge(content, partial=True) is None, f"{name}: --allow-partial: refused")
            for reader, (code, err) in readers(d, path, partial=True).items():
                want = (0, 1) if reader == "compare" else (0, 2) if name == "no-point" else (0,)
                bt.check(code in want, f"{name} --allow-partial: {reader}: exit {code}\n{err}")
        partial_marks(d)
        export_choices(d)
    return bt.verdict(f"{refused} faulty documents refused by compare, export and report alike "
                      f"({agreed} refusals naming the member), {len(VALID)} valid ones read by all")


if __name__ == "__main__":
    sys.exit(main())
