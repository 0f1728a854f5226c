#!/usr/bin/env python3
"""The documents `bench suite FILE -o DIR` writes: each entry's (with its suite_entry) against
the results schema, and the suite's own against what the readers require (input.schema.json
beside it), from a suite of the sweep in waves and a latency curve, timed with the caches
flushed (--cache cold: each point's params.cache), as a GPU run is.

usage: suite_dir.py SCHEMA BENCH -- DEVICE ARGS
Exit 0 when every document is valid and holds the members named below, 1 otherwise, 77
without python3-jsonschema.
"""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
import schema_check  # noqa: E402
from run_doc import has  # noqa: E402

SCHEMA, BENCH = sys.argv[1], sys.argv[2]
DEVICE = bt.after_dashes(sys.argv[3:])


def main():
    v = schema_check.validator(SCHEMA)   # exits 77 without jsonschema
    vin = schema_check.validator(schema_check.input_schema())
    # --llc: each flush 64 MiB, not twice the cache a driver declares (PoCL can say 300 MiB,
    # and the memory roof is flushed before each of its launches too)
    suite = {"name": "cold", "args": ["--reps", "3", "--warmup", "1", "--cache", "cold", "--llc", "1Mi"],
             "entries": [
        {"bench": "vecadd", "args": ["--groups", "waves:0.5..1:0.5", "--slice", "4Ki"]},
        {"bench": "latency", "args": ["--sizes", "4Ki,8Ki,16Ki", "--steps", "1", "--loads", "1024",
                                      "--chases", "single"]}]}
    with bt.tmpdir() as d:
        path = bt.write_doc(os.path.join(d, "cold.json"), suite)
        out = os.path.join(d, "out")
        bt.must_run([BENCH, "suite", path, "-o", out, "--quiet"] + DEVICE)
        docs = sorted(Path(out).glob("*.json"))
        bt.check(len(docs) == 3, f"the suite's document and one an entry: {[p.name for p in docs]}")
        want = {"cold-01-vecadd.json": ["/suite_entry/of", "/sweep_waves/wave_groups",
                                        "/points/0/params/cache"],
                "cold-02-latency.json": ["/suite_entry/entry", "/points/0/params/cache"]}
        for p in docs:
            doc = bt.load_doc(p)
            entry = "suite_entry" in doc or p.name.startswith("cold-")
            bt.check(schema_check.check(v if entry else vin, doc, p.name),
                     f"{p.name}: valid against {'the results' if entry else 'the input'} schema")
            for ptr in want.get(p.name, []):
                bt.check(has(doc, ptr), f"{p.name} holds {ptr}")


if __name__ == "__main__":
    main()
    sys.exit(bt.verdict("ok: suite -o DIR documents"))
