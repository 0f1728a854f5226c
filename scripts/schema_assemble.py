#!/usr/bin/env python3
"""Assembles the results schema from its common part and each benchmark's fragment.

usage: schema_assemble.py OUT COMMON FRAGMENT...

COMMON (results/schema/parts/results.common.json) is the schema of what the harness and the
tools write; each FRAGMENT (bench/measure/NAME/schema.json) is one benchmark folder's part, an
object of at most these members:
- "$defs": its definitions (params_NAME, point_NAME, ...), added to the schema's $defs;
- "allOf": its branches (`if` benchmark is NAME `then` ...), added to the schema's allOf; every
  `const` benchmark name of them is added to the enum of the top-level member `benchmark`;
- "properties": the top-level members only its documents have (latency's `plateaus`).
A name defined twice, an unknown member of a fragment, or a $ref to no definition is an error
(exit 1). The build runs it (meson.build, results_schema_json) and installs OUT.
"""
import json
import sys

FRAGMENT_KEYS = {"$defs", "allOf", "properties", "description"}


def refs(o, acc):
    if isinstance(o, dict):
        for k, v in o.items():
            if k == "$ref" and isinstance(v, str):
                acc.add(v)
            else:
                refs(v, acc)
    elif isinstance(o, list):
        for v in o:
            refs(v, acc)
    return acc


def bench_names(branches):
    names = []
    for b in branches:
        c = b.get("if", {}).get("properties", {}).get("benchmark", {}).get("const")
        if c and c not in names:
            names.append(c)
    return names


def assemble(common_path, fragments):
    schema = json.load(open(common_path))
    problems = []
    enum = schema["properties"]["benchmark"]["enum"]
    for path in fragments:
        frag = json.load(open(path))
        for k in set(frag) - FRAGMENT_KEYS:
            problems.append(f"{path}: unknown member '{k}' (a fragment has {sorted(FRAGMENT_KEYS)})")
        for where, part in (("$defs", frag.get("$defs", {})), ("properties", frag.get("properties", {}))):
            for name, d in part.items():
                if name in schema[where]:
                    problems.append(f"{path}: {where}/{name} is defined twice")
                schema[where][name] = d
        schema["allOf"] += frag.get("allOf", [])
        names = bench_names(frag.get("allOf", []))
        if not names:
            problems.append(f"{path}: no allOf branch names a benchmark")
        for n in names:
            if n in enum:
                problems.append(f"{path}: benchmark '{n}' is named twice")
            enum.append(n)
    for r in sorted(refs(schema, set())):
        if r.startswith("#/$defs/") and r[len("#/$defs/"):] not in schema["$defs"]:
            problems.append(f"$ref {r}: no such definition")
    return schema, problems


def text(schema):
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    out, common, fragments = argv[1], argv[2], argv[3:]
    schema, problems = assemble(common, fragments)
    for p in problems:
        print(f"schema_assemble: {p}", file=sys.stderr)
    if problems:
        return 1
    with open(out, "w") as f:
        f.write(text(schema))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
