#!/usr/bin/env python3
"""The JUnit XML bench writes, checked against results/schema/junit.xsd with xmllint.

usage: junit_schema.py validate XSD BENCH DEVICE KERNELS_DIR
       junit_schema.py compare XSD BENCH DEVICE
       junit_schema.py planted XSD
       junit_schema.py file XSD FILE...
validate: `bench validate --junit` on DEVICE over the API checks and the sub-group ones (several
  testsuites; passes, skips), with a kernel copy whose reqd_work_group_size is removed (a
  failure) and a known-issues entry for a passing check (fixed); then again with the failure
  listed as a known issue (skipped). Every file must validate, and between them hold a
  <failure>, a <skipped> and <properties>.
compare: `bench compare --junit` of two vecadd documents made on DEVICE, NEW with planted
  changes (tests/schema/compare_docs.py): regressed and failed points (<failure>), new, missing
  and inconclusive ones (<skipped>).
planted: XML made wrong on purpose (a testcase without a name, a failure without a message,
  an unknown element, a negative count, two failures in one testcase) must fail the schema.
Exit 77 (skip) without xmllint.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

here = os.path.dirname(os.path.abspath(__file__))


def fail(msg, r=None):
    print(f"FAIL: {msg}")
    if r is not None:
        print("--- stdout ---\n" + r.stdout[-4000:] + "--- stderr ---\n" + r.stderr[-4000:])
    sys.exit(1)


def xmllint():
    path = shutil.which("xmllint")
    if not path:
        print("SKIP: xmllint (libxml2-utils) is not installed")
        sys.exit(77)
    return path


def schema_valid(xsd, path):
    """(valid, xmllint's messages)."""
    r = subprocess.run([xmllint(), "--noout", "--schema", xsd, path], capture_output=True, text=True)
    if r.returncode not in (0, 3, 4) or "failed to compile" in r.stderr:
        fail(f"xmllint could not use {xsd}: exit {r.returncode}", r)
    return r.returncode == 0, r.stderr.strip()


def must_validate(xsd, path, what):
    ok, msg = schema_valid(xsd, path)
    if not ok:
        print(open(path).read()[:6000])
        fail(f"{what}: {path} does not validate against {xsd}:\n{msg}")
    root = ET.parse(path).getroot()   # and Python's XML module reads it
    print(f"{what}: valid against {os.path.basename(xsd)} "
          f"({len(root.findall('testsuite'))} testsuites, {len(list(root.iter('testcase')))} testcases)")
    return root


def tags(roots):
    return {e.tag for r in roots for e in r.iter()}


def run(cmd, code):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    if r.returncode != code:
        fail(f"{' '.join(cmd)}: exit {r.returncode}, expected {code}", r)
    return r


def mode_validate(xsd, bench, device, kernels):
    xmllint()
    with tempfile.TemporaryDirectory() as d:
        k = os.path.join(d, "kernels")
        os.mkdir(k)
        for f in os.listdir(kernels):
            if f.endswith((".cl", ".h")):
                shutil.copy(os.path.join(kernels, f), k)
        api = os.path.join(k, "validate_api.cl")
        src = open(api).read()
        find = "__attribute__((reqd_work_group_size(RWG, 1, 1))) "
        if find not in src:
            fail(f"validate_api.cl no longer has {find!r}: the planted failure needs a new mutant")
        with open(api, "w") as f:
            f.write(src.replace(find, "", 1))
        fixed, known = os.path.join(d, "fixed.json"), os.path.join(d, "known.json")
        with open(fixed, "w") as f:
            json.dump({"issues": [{"check": "api/buffer-size-zero", "reason": "planted: long fixed"}]}, f)
        with open(known, "w") as f:
            json.dump({"issues": [{"check": "api/reqd-wg-mismatch", "reason": "planted: <known> & \"quoted\"",
                                   "link": "https://example.invalid/issue?a=1&b=2"}]}, f)
        a, b = os.path.join(d, "a.xml"), os.path.join(d, "b.xml")
        base = [bench, "validate", "--device", device, "--kernels", k, "--quiet"]
        run(base + ["--filter", "[as][pg]*", "--known-issues", fixed, "--junit", a], 1)
        run(base + ["--filter", "api/reqd-wg-mismatch", "--known-issues", known, "--junit", b], 0)
        roots = [must_validate(xsd, a, "validate with a failure"),
                 must_validate(xsd, b, "validate with a known issue")]
    have = tags(roots)
    for t in ("failure", "skipped", "properties", "system-out"):
        if t not in have:
            fail(f"no <{t}> in the files: the schema check did not cover it")
    if len(roots[0].findall("testsuite")) < 2:
        fail("one testsuite only: the filter no longer spans several benchmarks")
    return 0


def mode_compare(xsd, bench, device):
    xmllint()
    with tempfile.TemporaryDirectory() as d:
        xml = os.path.join(d, "compare.xml")
        r = subprocess.run([sys.executable, os.path.join(here, "compare_docs.py"), bench, device,
                            "--dir", d, "--junit", xml], capture_output=True, text=True, timeout=240)
        if r.returncode != 0:
            fail("compare_docs.py failed", r)
        root = must_validate(xsd, xml, "compare")
    have = tags([root])
    for t in ("failure", "skipped", "system-out"):
        if t not in have:
            fail(f"no <{t}> in the file: the schema check did not cover it")
    return 0


GOOD = """<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="t" tests="2" failures="1" errors="0" skipped="0" time="0.5">
  <testsuite name="s" tests="2" failures="1" errors="0" skipped="0" time="0.5">
    <properties><property name="device" value="d"/></properties>
    <testcase classname="s" name="s/a" time="0.25"><system-out>out</system-out></testcase>
    <testcase classname="s" name="s/b" time="0.25"><failure type="fail" message="m">text</failure></testcase>
  </testsuite>
</testsuites>
"""
PLANTED = [
    ("a testcase without a name", ('classname="s" name="s/a"', 'classname="s"')),
    ("a failure without a message", ('type="fail" message="m"', 'type="fail"')),
    ("an unknown element", ("<system-out>out</system-out>", "<stdout>out</stdout>")),
    ("a negative count", ('tests="2" failures="1" errors="0" skipped="0" time="0.5">\n    <prop',
                          'tests="-2" failures="1" errors="0" skipped="0" time="0.5">\n    <prop')),
    ("a time that is not a number", ('name="s/a" time="0.25"', 'name="s/a" time="fast"')),
    ("two results in one testcase", ('<failure type="fail" message="m">text</failure>',
                                     '<failure type="fail" message="m"/><skipped message="x"/>')),
    ("a skipped element without its message", ('<failure type="fail" message="m">text</failure>',
                                               "<skipped/>")),
    ("a testsuite without its counts", ('<testsuite name="s" tests="2"', '<testsuite name="s"')),
]


def mode_planted(xsd):
    xmllint()
    with tempfile.TemporaryDirectory() as d:
        good = os.path.join(d, "good.xml")
        with open(good, "w") as f:
            f.write(GOOD)
        must_validate(xsd, good, "the unplanted file")
        for i, (what, (old, new)) in enumerate(PLANTED):
            if old not in GOOD:
                fail(f"{what}: the planted change does not apply")
            bad = os.path.join(d, f"bad{i}.xml")
            with open(bad, "w") as f:
                f.write(GOOD.replace(old, new, 1))
            ok, msg = schema_valid(xsd, bad)
            if ok:
                fail(f"{what}: not caught")
            print(f"caught: {what}: {msg.splitlines()[0]}")
    print(f"{len(PLANTED)} planted violations caught")
    return 0


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    mode, xsd = sys.argv[1], sys.argv[2]
    if mode == "validate":
        return mode_validate(xsd, *sys.argv[3:6])
    if mode == "compare":
        return mode_compare(xsd, *sys.argv[3:5])
    if mode == "planted":
        return mode_planted(xsd)
    if mode == "file":
        for p in sys.argv[3:]:
            must_validate(xsd, p, p)
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
