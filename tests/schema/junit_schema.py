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
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))


def xmllint():
    return bt.need_tool("xmllint", why="xmllint (libxml2-utils) is not installed")


def schema_valid(xsd, path):
    """(valid, xmllint's messages)."""
    r = bt.run([xmllint(), "--noout", "--schema", xsd, path])
    if r.code not in (0, 3, 4) or "failed to compile" in r.err:
        bt.fail(f"xmllint could not use {xsd}: exit {r.code}", r)
    return r.code == 0, r.err.strip()


def must_validate(xsd, path, what):
    ok, msg = schema_valid(xsd, path)
    if not ok:
        print(open(path).read()[:6000])
        bt.fail(f"{what}: {path} does not validate against {xsd}:\n{msg}")
    root = ET.parse(path).getroot()   # and Python's XML module reads it
    print(f"{what}: valid against {os.path.basename(xsd)} "
          f"({len(root.findall('testsuite'))} testsuites, {len(list(root.iter('testcase')))} testcases)")
    return root


def tags(roots):
    return {e.tag for r in roots for e in r.iter()}


def mode_validate(xsd, bench, device, kernels):
    xmllint()
    with bt.tmpdir() as d:
        k = os.path.join(d, "kernels")
        bt.kernels_copy(kernels, k, "validate_api.cl",
                        "__attribute__((reqd_work_group_size(RWG, 1, 1))) ", "")
        head = {"kind": "known-issues", "schema_version": 1}
        fixed = bt.write_doc(os.path.join(d, "fixed.json"), {**head, "issues": [
            {"check": "api/buffer-size-zero", "reason": "planted: long fixed"}]})
        known = bt.write_doc(os.path.join(d, "known.json"), {**head, "issues": [
            {"check": "api/reqd-wg-mismatch", "reason": "planted: <known> & \"quoted\"",
             "link": "https://example.invalid/issue?a=1&b=2"}]})
        a, b = os.path.join(d, "a.xml"), os.path.join(d, "b.xml")
        base = [bench, "validate", "--device", device, "--kernels", k, "--quiet"]
        bt.must_run(base + ["--filter", "[as][pg]*", "--known-issues", fixed, "--junit", a], 1,
                    timeout=240)
        bt.must_run(base + ["--filter", "api/reqd-wg-mismatch", "--known-issues", known, "--junit", b],
                    0, timeout=240)
        roots = [must_validate(xsd, a, "validate with a failure"),
                 must_validate(xsd, b, "validate with a known issue")]
    have = tags(roots)
    for t in ("failure", "skipped", "properties", "system-out"):
        if t not in have:
            bt.fail(f"no <{t}> in the files: the schema check did not cover it")
    if len(roots[0].findall("testsuite")) < 2:
        bt.fail("one testsuite only: the filter no longer spans several benchmarks")
    return 0


def mode_compare(xsd, bench, device):
    xmllint()
    with bt.tmpdir() as d:
        xml = os.path.join(d, "compare.xml")
        bt.must_run([sys.executable, os.path.join(here, "compare_docs.py"), bench, device,
                     "--dir", d, "--junit", xml], what="compare_docs.py", timeout=240)
        root = must_validate(xsd, xml, "compare")
    have = tags([root])
    for t in ("failure", "skipped", "system-out"):
        if t not in have:
            bt.fail(f"no <{t}> in the file: the schema check did not cover it")
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
    with bt.tmpdir() as d:
        good = bt.write_doc(os.path.join(d, "good.xml"), GOOD)
        must_validate(xsd, good, "the unplanted file")
        for i, (what, (old, new)) in enumerate(PLANTED):
            if old not in GOOD:
                bt.fail(f"{what}: the planted change does not apply")
            bad = bt.write_doc(os.path.join(d, f"bad{i}.xml"), GOOD.replace(old, new, 1))
            ok, msg = schema_valid(xsd, bad)
            if ok:
                bt.fail(f"{what}: not caught")
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
