#!/usr/bin/env python3
"""Known-issues files and suite files held strictly, the same way by bench
(bench/tools/validate/expect.c, bench/tools/suite/file.c) and by their JSON Schemas (results/schema/known-issues.schema.json,
suite.schema.json): the committed files are valid under both; each file with one fault (an
unknown member, a typo of a member, a wrong kind, a schema_version that is not 1, an empty
reason, ...) is refused by both, and bench names the member (a typo with the member it resembles).

usage: strict_files.py BENCH SCHEMA_DIR SOURCE_ROOT DEVICE
Exit 0, 1 naming every disagreement, 77 without python3-jsonschema.
"""
import glob
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

BENCH, SCHEMAS, ROOT, DEVICE = sys.argv[1:5]

ISSUE = {"check": "api/*", "reason": "what the driver does", "device": "NVIDIA*"}
KNOWN = {"kind": "known-issues", "schema_version": 1, "issues": [ISSUE]}
ENTRY = {"bench": "vecadd", "args": ["--groups", "1"], "about": "one point"}
SUITE = {"name": "t", "description": "a test", "noise": {"gpu": 5, "cpu": 300},
         "args": ["--reps", "3"], "entries": [ENTRY]}


def with_(doc, path, value=None, delete=False):
    return bt.edited(doc, path, value, delete)


def renamed(doc, path, new):
    """The member at path renamed to new (a typo), its value kept."""
    return bt.edited(doc, path, rename=new)


# name: (content, what bench's message must contain)
KNOWN_FAULTS = {
    "devcie": (renamed(KNOWN, "issues.0.device", "devcie"),
               "issues[0]: unknown member 'devcie' (did you mean 'device'?"),
    "unknown-member": (with_(KNOWN, "issues.0.severity", "high"), "unknown member 'severity'"),
    "top-unknown": (with_(KNOWN, "comment", "x"), "(top level): unknown member 'comment'"),
    "issue-typo": (renamed(KNOWN, "issues", "isues"), "did you mean 'issues'?"),
    "kind-wrong": (with_(KNOWN, "kind", "suite"), "kind: not \"known-issues\""),
    "kind-missing": (with_(KNOWN, "kind", delete=True), "kind: missing"),
    "version-2": (with_(KNOWN, "schema_version", 2), "schema_version: not 1"),
    "version-missing": (with_(KNOWN, "schema_version", delete=True), "schema_version: missing"),
    "version-text": (with_(KNOWN, "schema_version", "1"), "schema_version: not 1"),
    "reason-empty": (with_(KNOWN, "issues.0.reason", ""), "issues[0].reason: empty"),
    "reason-missing": (with_(KNOWN, "issues.0.reason", delete=True), "issues[0].reason: missing"),
    "reason-number": (with_(KNOWN, "issues.0.reason", 3), "issues[0].reason: is not a string"),
    "check-empty": (with_(KNOWN, "issues.0.check", ""), "issues[0].check: empty"),
    "driver-number": (with_(KNOWN, "issues.0.driver", 580), "issues[0].driver: is not a string"),
    "expect-bad": (with_(KNOWN, "issues.0.expect", "pass"), "expect: 'pass' is not fail or beyond-works"),
    "issues-object": (with_(KNOWN, "issues", {}), "issues: is not an array"),
    "issue-text": (with_(KNOWN, "issues.0", "api/*"), "issues[0]: not an object"),
    "duplicate-key": ('{"kind": "known-issues", "kind": "known-issues", "schema_version": 1, '
                      '"issues": []}', "twice in one object"),
    "trailing": (json.dumps(KNOWN) + "]", "trailing data"),
}
SUITE_FAULTS = {
    "entries-typo": (renamed(SUITE, "entries", "entires"), "did you mean 'entries'?"),
    "bench-typo": (renamed(SUITE, "entries.0.bench", "bnech"), "did you mean 'bench'?"),
    "unknown-member": (with_(SUITE, "owner", "me"), "(top level): unknown member 'owner'"),
    "name-empty": (with_(SUITE, "name", ""), "name: is not a non-empty string"),
    "name-missing": (with_(SUITE, "name", delete=True), "name: missing"),
    "entries-empty": (with_(SUITE, "entries", []), "entries: is not a non-empty array"),
    "args-text": (with_(SUITE, "args", "--reps 3"), "args: is not an array of strings"),
    "arg-number": (with_(SUITE, "entries.0.args.1", 1), "entries[0].args[1]: is not a string"),
    "noise-too-big": (with_(SUITE, "noise", 2000), "noise: is not a percent in 0..1000"),
    "noise-typo": (renamed(SUITE, "noise.gpu", "gu"), "did you mean 'gpu'?"),
    "noise-text": (with_(SUITE, "noise.cpu", "x"), "noise.cpu: is not a percent"),
    "about-empty": (with_(SUITE, "entries.0.about", ""), "about: is not a non-empty string"),
    "description-number": (with_(SUITE, "description", 1), "description: is not a non-empty string"),
    "entry-text": (with_(SUITE, "entries.0", "vecadd"), "entries[0]: is not an object"),
}


def validator(name):
    try:
        from jsonschema import Draft202012Validator
    except ImportError:
        bt.skip("python3-jsonschema is not installed")
    with open(os.path.join(SCHEMAS, name)) as f:
        return Draft202012Validator(json.load(f))


def schema_refuses(v, content):
    try:
        doc = json.loads(content, object_pairs_hook=no_twice)
    except ValueError:
        return True   # not JSON (a key twice, trailing data): no schema reads it
    return not v.is_valid(doc)


def no_twice(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("a key twice")
    return dict(pairs)


def run_known(path):
    return bt.run([BENCH, "validate", "--known-issues", path, "--list", "--device", DEVICE])


def run_suite(path):
    return bt.run([BENCH, "suite", "--list", path])


def main():
    kv, sv = validator("known-issues.schema.json"), validator("suite.schema.json")
    n = 0
    for f in sorted(glob.glob(os.path.join(ROOT, "results", "known-issues", "*.json"))):
        bt.check(kv.is_valid(bt.load_doc(f)), f"{f}: not valid under known-issues.schema.json")
        bt.run_checked([BENCH, "validate", "--known-issues", f, "--list", "--device", DEVICE])
    for f in sorted(glob.glob(os.path.join(ROOT, "results", "suites", "*.json"))):
        if f.endswith("-figures.json"):   # the guide's figures, not a suite (tests/suite/guide_test.py)
            continue
        bt.check(sv.is_valid(bt.load_doc(f)), f"{f}: not valid under suite.schema.json")
        bt.run_checked([BENCH, "suite", "--list", f])
    with bt.tmpdir() as d:
        for kind, v, faults, run in (("known-issues", kv, KNOWN_FAULTS, run_known),
                                     ("suite", sv, SUITE_FAULTS, run_suite)):
            good = bt.write_doc(os.path.join(d, f"{kind}-good.json"), KNOWN if v is kv else SUITE)
            r = run(good)
            bt.check(r.code == 0, f"{kind}: the good file: exit {r.code}", r)
            for name, (content, must) in faults.items():
                text = content if isinstance(content, str) else json.dumps(content)
                path = bt.write_doc(os.path.join(d, f"{kind}-{name}.json"), text)
                bt.check(schema_refuses(v, text), f"{kind} {name}: the schema accepts it")
                r = run(path)
                bt.check(r.code == 2 and must in r.err,
                         f"{kind} {name}: exit {r.code}, expected 2 naming {must!r}", r)
                n += 1
    return bt.verdict(f"{n} faulty known-issues and suite files refused by bench and the schemas")


if __name__ == "__main__":
    sys.exit(main())
