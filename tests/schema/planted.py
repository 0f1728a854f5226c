#!/usr/bin/env python3
"""Planted violations: documents made wrong on purpose must fail their schema, naming the path.

usage: planted.py BENCH RESULTS_SCHEMA COMPARE_SCHEMA DEVICE
Writes a model document of a named GPU (no device needed) and, on DEVICE, a vecadd document (variant 1) and a compare document of it with itself; each must be valid as written. Then
each planted change (a wrong type, a missing member, an unknown key, a value out of its set)
must make schema_check.py exit 1 with the path of the change as the first violation.
Exit 77 (skip) without python3-jsonschema.
"""
import copy
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
import schema_check  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))

RESULTS = [
    # (what, the first violation's path, change)
    ("a number written as a string", "/points/0/params/wg_size",
     lambda d: d["points"][0]["params"].__setitem__("wg_size", "1024")),
    ("a required member missing", "/points/0",
     lambda d: d["points"][0].pop("status")),
    ("another schema version", "/schema_version",
     lambda d: d.__setitem__("schema_version", 2)),
    ("a key no document has", "/",
     lambda d: d.__setitem__("bogus", 1)),
    ("a model vendor out of its set", "/points/0/model/vendor",
     lambda d: d["points"][0]["model"].__setitem__("vendor", "ibm")),
    ("a boolean written as a number", "/points/0/params/barrier",
     lambda d: d["points"][0]["params"].__setitem__("barrier", 0)),
    ("a timestamp not in UTC ISO 8601", "/timestamp",
     lambda d: d.__setitem__("timestamp", "2026-11-22 02:22:01")),
    ("a null where a count is", "/points/0/model/threads",
     lambda d: d["points"][0]["model"].__setitem__("threads", None)),
]
TIMED = [
    ("an OpenCL device without its name", "/device",
     lambda d: d["device"].pop("name")),
    ("a timed point that was not validated", "/points/0/validated",
     lambda d: d["points"][0].__setitem__("validated", False)),
    ("a failed point without a reason", "/points/0/reason",
     lambda d: d["points"][0].update(status="failed", reason=None)),
    ("a point above its ceiling without a reason", "/points/0/reason",
     lambda d: (d["points"][0]["metrics"].__setitem__("fraction_of_ceiling", 1.5),
                d["points"][0].__setitem__("reason", None))),
    ("a variant 5 member in a variant 1 point", "/points/0/params/vec",
     lambda d: d["points"][0]["params"].__setitem__("vec", 4)),
    ("statistics without their samples", "/points/0/time_ns",
     lambda d: d["points"][0]["time_ns"].pop("samples")),
]
COMPARE = [
    ("a verdict out of its set", "/points/0/verdict",
     lambda d: d["points"][0].__setitem__("verdict", "worse")),
    ("a negative count", "/counts/regressed",
     lambda d: d["counts"].__setitem__("regressed", -1)),
    ("a ratio written as a string", "/points/0/ratio",
     lambda d: d["points"][0].__setitem__("ratio", "1.0")),
    ("a results document's kind", "/kind",
     lambda d: d.__setitem__("kind", "results")),
]


def plant(v, schema, doc, cases, d, tag):
    if not schema_check.check(v, doc, f"{tag} as written"):
        bt.fail(f"{tag} as written is not valid: nothing can be planted in it")
    files = []
    for i, (what, path, change) in enumerate(cases):
        bad = copy.deepcopy(doc)
        change(bad)
        errs = schema_check.violations(v, bad)
        if not errs:
            bt.fail(f"{tag}, {what}: not caught")
        got = schema_check.pointer(errs[0].absolute_path)
        if got != path:
            bt.fail(f"{tag}, {what}: first violation at {got}, expected {path}: "
                 f"{schema_check.describe(errs[0])}")
        print(f"caught: {tag}, {what}: {schema_check.describe(errs[0])}")
        f = bt.write_doc(os.path.join(d, f"{tag.replace(' ', '-')}-{i}.json"), bad)
        files.append((f, path))
    # the command line names each too, and exits 1
    r = bt.run([sys.executable, os.path.join(here, "schema_check.py"), schema] +
               [f for f, _ in files])
    for f, path in files:
        if r.code != 1 or f"{f}: INVALID, first violation at {path}:" not in r.out:
            bt.fail(f"{tag}: schema_check.py exit {r.code}, {f} not reported at {path}", r, None)


def main():
    bench, rschema, cschema, device = sys.argv[1:5]
    rv = schema_check.validator(rschema)   # exits 77 without jsonschema
    cv = schema_check.validator(cschema)
    with bt.tmpdir() as d:
        named, timed, cmp = (os.path.join(d, n) for n in ("named.json", "timed.json", "cmp.json"))
        bt.must_run([bench, "model", "--gpu", "h100", "--groups", "1,264", "--json", named, "--quiet"],
                    timeout=120)
        bt.must_run([bench, "vecadd", "--variant", "1", "--n", "4Ki", "--reps", "2", "--warmup", "0",
                     "--device", device, "--json", timed, "--quiet"], timeout=120)
        bt.must_run([bench, "compare", timed, timed, "--json", cmp, "--quiet"], timeout=120)
        docs = [bt.load_doc(f) for f in (named, timed, cmp)]
        plant(rv, rschema, docs[0], RESULTS, d, "model document")
        plant(rv, rschema, docs[1], TIMED, d, "vecadd document")
        plant(cv, cschema, docs[2], COMPARE, d, "compare document")
    print(f"{len(RESULTS) + len(TIMED) + len(COMPARE)} planted violations caught, each at its path")
    return 0


if __name__ == "__main__":
    sys.exit(main())
