#!/usr/bin/env python3
"""The results and compare documents kept under results/ against their schemas.

usage: results_files.py RESULTS_SCHEMA COMPARE_SCHEMA DIR
Every *.json under DIR that is a bench document (schema_version and points at its top level)
is validated: a compare document (kind "compare") against COMPARE_SCHEMA, any other against
RESULTS_SCHEMA. These are documents measured elsewhere (GPUs, baselines), with shapes no CPU
run of the other tests gives: NVIDIA registers, plateaus, vendor attributes. Other JSON files
(known issues) are left alone. Exit 77 (skip) where DIR holds no document, or without
python3-jsonschema.
"""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
import schema_check  # noqa: E402


def main():
    rschema, cschema, top = sys.argv[1:4]
    docs = []
    for d, _, files in sorted(os.walk(top)):
        for f in sorted(files):
            if f.endswith(".json"):
                path = os.path.join(d, f)
                try:
                    doc = bt.load_doc(path)
                except (OSError, ValueError) as e:
                    print(f"{path}: not readable JSON ({e}): left alone")
                    continue
                if isinstance(doc, dict) and "schema_version" in doc and "points" in doc:
                    docs.append((path, doc))
    if not docs:
        bt.skip(f"no results document under {top}")
    rv = schema_check.validator(rschema)   # exits 77 without jsonschema
    cv = schema_check.validator(cschema)
    bad = 0
    for path, doc in docs:
        compare = doc.get("kind") == "compare"
        if schema_check.check(cv if compare else rv, doc, os.path.relpath(path, top)):
            print(f"{os.path.relpath(path, top)}: valid against "
                  f"{os.path.basename(cschema if compare else rschema)}")
        else:
            bad += 1
    print(f"{len(docs)} documents, {bad} invalid")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
