#!/usr/bin/env python3
"""Holds every measurement row to the facts a row must carry in its own file.

usage: rows_facts.py BENCH SCHEMA MESON_BUILD TESTS_DIR [DEVICE...]

From `bench list --json` (the rows' own tables), for every row:
- options: each listed option has help text, and no help text types a default or a range
  (--help adds them from the table: min, max, def, def_note);
- help: `bench ROW --help` shows each option's default at most once;
- params: the params table names, for each benchmark its rows write, the properties of
  the schema's params_BENCHMARK (with what it takes from $ref and allOf), marks as
  every point's exactly the members the schema requires, and gives each member the type
  (and names) the schema gives it;
- schema: results.schema.json sends that benchmark's points to its point_BENCHMARK;
- checks: bench validate --list on each DEVICE plans at least one check of the row;
- builds: the row describes its builds (bench compile, bench model --kernel);
- tests: its tests folder (meson.build's bench_rows) runs the row by name;
- folder: its folder of bench/measure/ holds its rows and parts by their fixed names alone.
Exit 0 when every row has all of them, 1 naming each row and what it lacks.
"""
import json
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402


def schema_props(schema, d, seen=None):
    """The properties a $defs entry allows and those it requires, through $ref and allOf."""
    seen = seen or set()
    props, req = set(d.get("properties", {})), set(d.get("required", []))
    refs = [d["$ref"]] if "$ref" in d else []
    refs += [a["$ref"] for a in d.get("allOf", []) if "$ref" in a]
    for a in d.get("allOf", []):
        props |= set(a.get("properties", {}))
    for r in refs:
        name = r.split("/")[-1]
        if name in seen:
            continue
        seen.add(name)
        p, q = schema_props(schema, schema["$defs"][name], seen)
        props |= p
        req |= q
    return props, req


# What each type of a params table (row.h: enum bench_ptype) admits, as JSON kinds.
TYPE_KINDS = {"count": {"uint"}, "count_or_null": {"uint", "null"}, "integer": {"int"},
              "boolean": {"bool"}, "boolean_or_null": {"bool", "null"}, "string": {"string"},
              "string_or_null": {"string", "null"}, "name": {"string"},
              "name_or_null": {"string", "null"}, "counts": {"array"}}


def prop_of(schema, d, name, seen=None):
    """The schema of member `name` of a $defs entry, through $ref and allOf (a `true` defers)."""
    seen = seen or set()
    p = d.get("properties", {}).get(name)
    if p not in (None, True):
        return p
    for r in ([d["$ref"]] if "$ref" in d else []) + [a["$ref"] for a in d.get("allOf", []) if "$ref" in a]:
        if r not in seen:
            seen.add(r)
            q = prop_of(schema, schema["$defs"][r.split("/")[-1]], name, seen)
            if q is not None:
                return q
    return p


def kinds(schema, p):
    """The JSON kinds a property schema admits, and the strings of its enum (None: any)."""
    if p is True or p is None:
        return {"uint", "int", "null", "string", "bool", "array"}, None
    if "$ref" in p:
        k, e = kinds(schema, schema["$defs"][p["$ref"].split("/")[-1]])
        return k, e
    if "anyOf" in p:
        ks, es = set(), set()
        for a in p["anyOf"]:
            k, e = kinds(schema, a)
            ks |= k
            es = None if e is None or es is None else es | e
        return ks, es
    if "enum" in p or "const" in p:
        vals = p.get("enum", [p.get("const")])
        ks = {"null" if v is None else "bool" if isinstance(v, bool) else "string"
              if isinstance(v, str) else "uint" if isinstance(v, int) and v >= 0 else "int"
              if isinstance(v, int) else "number" for v in vals}
        return ks, {v for v in vals if isinstance(v, str)}
    t = p.get("type")
    ts = t if isinstance(t, list) else [t]
    ks = set()
    for t in ts:
        if t == "integer":
            ks.add("uint" if p.get("minimum", -1) >= 0 else "int")
        elif t in ("string", "null", "array"):
            ks.add(t)
        elif t == "boolean":
            ks.add("bool")
        elif t == "number":
            ks.add("number")
    return ks, None


def type_problems(schema, d, param):
    """A member whose type, or names, the schema does not give as its table does."""
    p = prop_of(schema, d, param["name"])
    got, enum = kinds(schema, p)
    want = TYPE_KINDS[param["type"]]
    if got != want:
        return [f"params member {param['name']}: the table's {param['type']} admits {sorted(want)}, "
                f"the schema {sorted(got)}"]
    if param["names"] and enum is not None and set(param["names"]) != enum:
        return [f"params member {param['name']}: the table's names {param['names']} differ from "
                f"the schema's enum {sorted(enum)}"]
    return []


def routed(schema, bench):
    """Whether the schema's allOf sends a document of `bench` to its point definition."""
    want = "#/$defs/point_" + bench.replace("-", "_")
    for branch in schema.get("allOf", []):
        cond = branch.get("if", {}).get("properties", {}).get("benchmark", {})
        items = branch.get("then", {}).get("properties", {}).get("points", {}).get("items", {})
        if cond.get("const") == bench and items.get("$ref") == want:
            return True
    return False


def option_problems(row):
    bad = []
    for o in row["options"]:
        h = o["help"]
        if h is None:
            continue   # a spelling kept for older command lines: not listed
        if re.search(r"(?<!-)\bdefault\b", h):
            bad.append(f"--{o['name']}: its help types a default (give def or def_note)")
        if o["max"] and re.search(rf"\b{o['min']}\.\.{o['max']}\b", h):
            bad.append(f"--{o['name']}: its help types its range {o['min']}..{o['max']}")
    return bad


def help_problems(bench, row):
    out = bt.must_run([bench, row["name"], "--help"]).out
    bad = []
    for entry in re.split(r"\n  (?=-)", out):
        name = re.match(r"(?:-\w, )?--([\w-]+)", entry)
        if name and len(re.findall(r"\bdefault\b", entry)) > 1:
            bad.append(f"--help shows --{name.group(1)}'s default twice")
    return bad


def params_problems(schema, rows_of_bench):
    bad = []
    for bench, rows in rows_of_bench.items():
        d = schema["$defs"].get("params_" + bench.replace("-", "_"))
        if d is None:
            bad.append((rows[0]["name"], f"the schema has no params_{bench}"))
            continue
        props, req = schema_props(schema, d)
        props.discard("cache")   # the harness's member of every point's params (--cache cold)
        names = set().union(*({p["name"] for p in r["params"]} for r in rows))
        every = set.intersection(*({p["name"] for p in r["params"] if not p["optional"]} for r in rows))
        for r in rows:
            for param in r["params"]:
                bad += [(r["name"], t) for t in type_problems(schema, d, param)]
            if names != props:
                bad.append((r["name"], f"params table {sorted(names - props)} not in the schema, "
                                       f"schema {sorted(props - names)} not in the table"))
            if every != req:
                bad.append((r["name"], f"every point's members {sorted(every)} differ from the "
                                       f"schema's required {sorted(req)}"))
        if not routed(schema, bench):
            bad.append((rows[0]["name"], f"the schema's allOf does not route {bench} to point_"
                                         f"{bench.replace('-', '_')}"))
    return bad


def planned(bench, devices):
    """The check ids bench validate --list plans on each device."""
    ids = {}
    for dev in devices:
        r = bt.must_run([bench, "validate", "--list", "--device", dev])
        ids[dev] = [line.split()[0] for line in r.out.splitlines() if line.strip()]
    return ids


def folder_problems(meson_build):
    """Each benchmark's folder holds its rows and parts by their fixed names, and nothing else."""
    text = open(meson_build).read()
    block = re.search(r"bench_rows = \[(.*?)\n\]", text, re.S).group(1)
    parts = re.findall(r"'(\w+)'", re.search(r"measure_parts = \[(.*?)\]", text).group(1))
    want = {}
    for row, folder, _ in re.findall(r"\['(\w+)', '(\w+)', '([\w-]+)'\]", block):
        want.setdefault(folder, {"host.h", "schema.json"} | {p + ".c" for p in parts})
        want[folder].add("row.c" if row == folder else row + ".c")
    measure = Path(meson_build).parent / "bench" / "measure"
    bad = []
    for folder, names in want.items():
        for f in sorted(os.listdir(measure / folder)):
            if f not in names:
                bad.append((folder, f"bench/measure/{folder}/{f}: not a row of bench_rows nor a part "
                                    f"of measure_parts (CONTRIBUTING.md, 'Adding a benchmark')"))
        if folder in [r for r, *_ in re.findall(r"\['(\w+)', '(\w+)', '([\w-]+)'\]", block)] \
                and "row.c" not in os.listdir(measure / folder):
            bad.append((folder, f"bench/measure/{folder}/row.c: missing"))
    return bad


def test_dirs(meson_build):
    """bench_rows of meson.build: the row, its benchmark's folder (bench/measure/, kernels/), its tests folder."""
    text = open(meson_build).read()
    block = re.search(r"bench_rows = \[(.*?)\n\]", text, re.S).group(1)
    return {m[0]: m[2] for m in re.findall(r"\['(\w+)', '([\w.]+)', '([\w-]+)'\]", block)}


def main(argv):
    bench, schema_path, meson_build, tests_dir = argv[1:5]
    devices = argv[5:]
    facts = json.loads(bt.must_run([bench, "list", "--json"]).out)
    schema = json.load(open(schema_path))
    rows = [c for c in facts if c["kind"] == "row"]
    dirs = test_dirs(meson_build)
    ids = planned(bench, devices)
    problems = []
    by_bench = {}
    for r in rows:
        by_bench.setdefault(r["benchmark"], []).append(r)
        problems += [(r["name"], p) for p in option_problems(r) + help_problems(bench, r)]
        if not r["builds"]:
            problems.append((r["name"], "no builds (bench compile cannot compile it)"))
        if not r["checks"]:
            problems.append((r["name"], "no checks for bench validate"))
        for dev, planned_ids in ids.items():
            if not any(i.startswith(r["name"] + "/") for i in planned_ids):
                problems.append((r["name"], f"bench validate plans no check of it on '{dev}'"))
        folder = dirs.get(r["name"].replace("-", "_"))
        tests = os.path.join(tests_dir, folder or "", "meson.build")
        if not folder or not os.path.exists(tests):
            problems.append((r["name"], "no tests folder in meson.build's bench_rows"))
        elif f"'{r['name']}'" not in open(tests).read():
            problems.append((r["name"], f"{tests} runs no bench {r['name']}"))
    for t in (c for c in facts if c["kind"] == "tool"):
        problems += [(t["name"], p) for p in option_problems(t)]
    problems += params_problems(schema, by_bench)
    problems += folder_problems(meson_build)
    for name, what in problems:
        bt.check(False, f"{name}: {what}")
    return bt.verdict(f"{len(rows)} rows, every fact in place")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
