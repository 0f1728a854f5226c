#!/usr/bin/env python3
"""Holds the docs' tables of point parameters, and the CSV's columns, to the rows' params tables.

usage: params_docs.py BENCH README [--write] [-- DEVICE]

From `bench list --json` (each row's typed params table, row.h: struct bench_param), for each
benchmark a row writes:
- README (results/README.md) has a section "### BENCHMARK `params`" whose first table is the
  one made of its params table (member, type, unit, meaning), in the table's order;
- with DEVICE: `bench vecadd --variant 5 --csv` on it has, as its params.* columns, the
  members of vecadd's table in the table's order (every member its points have).
--write rewrites those tables of README from the params tables (a new benchmark's section is
added before "## CSV"). Exit 0 when all agree, 1 naming each difference.
"""
import csv
import io
import json
import os
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402


def cell(text):
    return (text or "").replace("|", "\\|")


def type_cell(p):
    t = p["type"]
    if p["names"]:
        t += ": " + ", ".join(f"`{n}`" for n in p["names"])
    if p["optional"]:
        t += " (some points)"
    return cell(t)


def table(params):
    lines = ["| member | type | unit | meaning |", "|---|---|---|---|"]
    lines += [f"| `{p['name']}` | {type_cell(p)} | {cell(p['unit'])} | {cell(p['help'])} |"
              for p in params]
    return lines


def tables_of(facts):
    """Each benchmark's table lines, from the first row of it (its rows share one table)."""
    out = {}
    for r in facts:
        if r["kind"] == "row" and r["benchmark"] not in out:
            out[r["benchmark"]] = table(r["params"])
    return out


def section(lines, bench):
    """The index of the heading of bench's params section, or None."""
    want = f"### {bench} `params`"
    return next((i for i, line in enumerate(lines) if line.strip() == want), None)


def table_span(lines, head):
    """The [start, end) of the first table after the heading (start == end: none)."""
    i = head + 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or not lines[i].startswith("|"):
        return head + 2, head + 2
    j = i
    while j < len(lines) and lines[j].startswith("|"):
        j += 1
    return i, j


def check_docs(readme, tables):
    lines = open(readme).read().split("\n")
    bad = []
    for bench, want in tables.items():
        head = section(lines, bench)
        if head is None:
            bad.append(f"{readme}: no section '### {bench} `params`'")
            continue
        a, b = table_span(lines, head)
        if lines[a:b] != want:
            bad.append(f"{readme}: the table of '### {bench} `params`' differs from {bench}'s params "
                       "table (tests/schema/params_docs.py --write remakes it)")
    return bad


def write_docs(readme, tables):
    lines = open(readme).read().split("\n")
    for bench, want in tables.items():
        head = section(lines, bench)
        if head is None:
            at = lines.index("## CSV")
            lines[at:at] = [f"### {bench} `params`", ""] + want + [""]
            continue
        a, b = table_span(lines, head)
        if a == b:
            want = want + [""]
        lines[a:b] = want
    with open(readme, "w") as f:
        f.write("\n".join(lines))


def check_csv(bench, device, facts):
    row = next(r for r in facts if r["kind"] == "row" and r["name"] == "stream")
    order = [p["name"] for p in row["params"]]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "out.csv")
        bt.must_run([bench, "vecadd", "--variant", "5", "--n", "64Ki", "--vec", "4", "--per-item", "1",
                     "--reps", "2", "--warmup", "0", "--quiet", "--device", device, "--csv", path])
        head = next(csv.reader(io.StringIO(open(path).read())))
    cols = [c[len("params."):] for c in head if c.startswith("params.")]
    if cols != order:
        return [f"bench vecadd --variant 5 --csv: params columns {cols}, its table {order}"]
    return []


def main(argv):
    args = argv[1:]
    device = None
    if "--" in args:
        device = args[args.index("--") + 1]
        args = args[:args.index("--")]
    bench, readme = args[0], args[1]
    facts = json.loads(bt.must_run([bench, "list", "--json"]).out)
    tables = tables_of(facts)
    if "--write" in args:
        write_docs(readme, tables)
        return 0
    for p in check_docs(readme, tables) + (check_csv(bench, device, facts) if device else []):
        bt.check(False, p)
    return bt.verdict(f"{len(tables)} benchmarks' params tables in {os.path.basename(readme)}"
                      + (", and the CSV's columns" if device else ""))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
