#!/usr/bin/env python3
"""Validates JSON documents against a JSON Schema (draft 2020-12) with python3-jsonschema.

usage: schema_check.py SCHEMA DOC...
Exit 0 when every document is valid; 1 when one is not, printing for each invalid document
the path of its first violation (the most relevant error, jsonschema's best_match), then the
others (at most 10), each as /a/0/b: message; 77 (skip) when jsonschema is not installed.
Works with Debian 12's python3-jsonschema 4.10 and with later versions.
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402


def load_jsonschema():
    """The jsonschema module, or exit 77 (Meson's skip) where it is not installed."""
    try:
        import jsonschema  # noqa: F401
        from jsonschema import Draft202012Validator  # noqa: F401
    except ImportError as e:
        bt.skip(f"python3-jsonschema with draft 2020-12 is not installed ({e})")
    return jsonschema


def input_schema():
    """results/schema/input.schema.json of the source tree (the results schema itself is the
    build's, assembled from its parts: meson.build's results_schema_json)."""
    return str(Path(__file__).resolve().parents[2] / "results" / "schema" / "input.schema.json")


def pointer(path):
    """A JSON Pointer of an error's location in the document ('' is the root)."""
    return "/" + "/".join(str(p) for p in path)


def validator(schema_path):
    js = load_jsonschema()
    schema = bt.load_doc(schema_path)
    js.Draft202012Validator.check_schema(schema)
    return js.Draft202012Validator(schema)


def violations(v, doc):
    """The errors of doc, the most relevant first (best_match), then in document order."""
    from jsonschema.exceptions import best_match
    errors = list(v.iter_errors(doc))
    if not errors:
        return []
    first = best_match(errors)   # may be an error from inside an anyOf: the one that explains most
    rest = [e for e in errors if e is not first]
    rest.sort(key=lambda e: [str(p) for p in e.absolute_path])
    return [first] + rest


def describe(e):
    where = pointer(e.absolute_path)
    msg = e.message
    if len(msg) > 300:
        msg = msg[:297] + "..."
    return f"{where}: {msg} (schema {pointer(e.absolute_schema_path)})"


def check(v, doc, name, out=sys.stdout):
    """Prints the violations of doc; returns True when there are none."""
    errs = violations(v, doc)
    if not errs:
        return True
    print(f"{name}: INVALID, first violation at {describe(errs[0])}", file=out)
    value = json.dumps(errs[0].instance)
    print(f"  the value there: {value if len(value) <= 200 else value[:197] + '...'}", file=out)
    for e in errs[1:11]:
        print(f"  also {describe(e)}", file=out)
    if len(errs) > 11:
        print(f"  and {len(errs) - 11} more", file=out)
    return False


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    v = validator(argv[1])
    ok = True
    for path in argv[2:]:
        try:
            doc = bt.load_doc(path)
        except (OSError, ValueError) as e:
            print(f"{path}: INVALID, not a readable JSON document: {e}")
            ok = False
            continue
        if check(v, doc, path):
            print(f"{path}: valid against {argv[1]}")
        else:
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
