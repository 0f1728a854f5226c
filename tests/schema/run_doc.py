#!/usr/bin/env python3
"""Runs one bench command with --json and validates the document it writes against a schema
(and a results document against input.schema.json, what its readers require).

usage: run_doc.py --schema SCHEMA [--code N] [--has POINTER]...
                  [--kernels DIR --mutate FILE FIND REPLACE] -- CMD...
CMD gets `--json FILE` added (and `--kernels COPY` with --mutate: FILE of a copy of DIR with
FIND replaced by REPLACE, which must be found). The command must exit N (default 0) and write
a document valid against SCHEMA (tests/schema/schema_check.py: the first violation's path is
printed). Each --has POINTER (a JSON pointer; '*' matches any array index) must name a member
of the document, so that the shapes a test is meant to cover do not silently go away.
Exit 77 (skip) without python3-jsonschema, or where the command skips (77).
"""
import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
import schema_check  # noqa: E402


def has(doc, pointer):
    """True when the JSON pointer names a member ('*': some element of an array)."""
    nodes = [doc]
    for part in pointer.strip("/").split("/"):
        nxt = []
        for n in nodes:
            if part == "*" and isinstance(n, list):
                nxt.extend(n)
            elif isinstance(n, dict) and part in n:
                nxt.append(n[part])
            elif isinstance(n, list) and part.isdigit() and int(part) < len(n):
                nxt.append(n[int(part)])
        nodes = nxt
    return bool(nodes)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--schema", required=True)
    ap.add_argument("--code", type=int, default=0)
    ap.add_argument("--has", action="append", default=[])
    ap.add_argument("--kernels")
    ap.add_argument("--mutate", nargs=3, metavar=("FILE", "FIND", "REPLACE"))
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = bt.after_dashes(a.cmd)
    v = schema_check.validator(a.schema)   # exits 77 without jsonschema
    with bt.tmpdir() as d:
        out = os.path.join(d, "doc.json")
        extra = ["--json", out]
        if a.mutate:
            k = os.path.join(d, "kernels")
            bt.kernels_copy(a.kernels, k, *a.mutate)
            extra += ["--kernels", k]
        r = bt.run(cmd + extra, timeout=240)
        if r.code == 77 and a.code != 77:   # e.g. bench compile without ocloc
            bt.skip(r.err.strip())
        if r.code != a.code:
            bt.fail(f"{' '.join(cmd)}: exit {r.code}, expected {a.code}", r)
        doc = bt.read_doc(out, r)
    if not schema_check.check(v, doc, "the document"):
        print(f"command: {' '.join(cmd + extra)}")
        return 1
    # every document bench writes is one its readers read (compare, export, report)
    reader = schema_check.input_schema()
    if doc.get("kind") != "compare" and not schema_check.check(
            schema_check.validator(reader), doc, "the document, as its readers read it"):
        return 1
    missing = [p for p in a.has if not has(doc, p)]
    if missing:
        bt.fail(f"the document is valid but lacks what this test covers: {missing}")
    kinds = sorted({p.get("status") for p in doc.get("points", [])})
    print(f"{doc.get('benchmark', doc.get('kind'))}: {len(doc.get('points', []))} points "
          f"({', '.join(map(str, kinds))}), valid against {os.path.basename(a.schema)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
