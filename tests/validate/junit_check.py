#!/usr/bin/env python3
"""Runs bench validate with --junit and --tap, then reads both back.

usage: junit_check.py [--once [--emit-tap]] [--expect-code N] [--expect-result ID=RESULT]...
                      [--xsd FILE] -- CMD...
CMD gets --junit FILE --tap added. With --once the run is made once for this build and
shared by every test that asks for the same CMD (benchtest.run_once): with --emit-tap its TAP
stream is printed and its exit code returned, for Meson to read (protocol 'tap'), and nothing
else is checked; without, the JUnit checks below read the same run's file. The JUnit file must parse with Python's XML module
and have the shape GitLab and Jenkins read: <testsuites> with counts, one <testsuite>
per benchmark (the first part of each check id) whose counts agree with its testcases,
one <testcase> per TAP line, each with classname, name and time, at most one <failure>
(with a message) or <skipped> (with a message). Every TAP check must have its testcase,
not ok lines exactly the failures and expected failures. With --xsd, the file must also
validate against that schema (results/schema/junit.xsd) with `xmllint --schema`, where xmllint
is installed (libxml2-utils; without it the schema check alone is left out, and says so).
"""
import argparse
import os
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402


def check_junit(path):
    root = ET.parse(path).getroot()
    if root.tag != "testsuites":
        bt.fail(f"root is <{root.tag}>, not <testsuites>")
    cases = {}
    total = {"tests": 0, "failures": 0, "skipped": 0}
    for suite in root:
        if suite.tag != "testsuite":
            bt.fail(f"<{suite.tag}> under <testsuites>")
        name = suite.get("name")
        n = {"tests": 0, "failures": 0, "skipped": 0}
        for tc in suite.findall("testcase"):
            cid, cls = tc.get("name"), tc.get("classname")
            if not cid or cls != name or cid.split("/")[0] != name.split("/")[0]:
                bt.fail(f"testcase {cid!r} of class {cls!r} in testsuite {name!r}")
            float(tc.get("time"))
            kids = [k.tag for k in tc if k.tag in ("failure", "skipped", "error")]
            if len(kids) > 1:
                bt.fail(f"testcase {cid}: {kids}")
            for k in tc:
                if k.tag in ("failure", "skipped") and not k.get("message"):
                    bt.fail(f"testcase {cid}: <{k.tag}> without a message")
            n["tests"] += 1
            n["failures"] += kids == ["failure"]
            n["skipped"] += kids == ["skipped"]
            if cid in cases:
                bt.fail(f"testcase {cid} twice")
            cases[cid] = kids[0] if kids else "pass"
        for k, v in n.items():
            if int(suite.get(k)) != v:
                bt.fail(f"testsuite {name}: {k}={suite.get(k)}, its testcases say {v}")
            total[k] += v
        errors = sum(1 for tc in suite.findall("testcase") if tc.find("error") is not None)
        if int(suite.get("errors")) != errors:
            bt.fail(f"testsuite {name}: errors={suite.get('errors')}, its testcases say {errors}")
        if errors and name != "bench-validate":   # only the interruption is an error
            bt.fail(f"testsuite {name}: {errors} testcases in error")
    for k, v in total.items():
        if int(root.get(k)) != v:
            bt.fail(f"testsuites: {k}={root.get(k)}, the testcases say {v}")
    return cases


def check_xsd(path, xsd):
    xmllint = bt.find_tool("xmllint")
    if not xmllint:
        print(f"xmllint not installed (libxml2-utils): not checked against {xsd}")
        return
    r = bt.run([xmllint, "--noout", "--schema", xsd, path])
    if r.code != 0:
        bt.fail(f"the JUnit file does not validate against {xsd}:\n{r.err.strip()}")
    print(f"the JUnit file validates against {xsd}")


def check_tap(out):
    lines = out.splitlines()
    if not lines or lines[0] != "TAP version 13":
        bt.fail("TAP does not start with 'TAP version 13'")
    m = re.match(r"1\.\.(\d+)$", lines[1])
    if not m:
        bt.fail("no plan on the second line")
    tests = [re.match(r"(ok|not ok) (\d+) - (\S+)(.*)$", l) for l in lines if re.match(r"(not )?ok ", l)]
    if len(tests) != int(m.group(1)) or any(t is None for t in tests):
        bt.fail(f"plan 1..{m.group(1)}, {len(tests)} test lines")
    for i, t in enumerate(tests, 1):
        if int(t.group(2)) != i:
            bt.fail(f"test line {i} numbered {t.group(2)}")
    return {t.group(3): (t.group(1), t.group(4)) for t in tests}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--expect-code", type=int, default=0)
    ap.add_argument("--expect-result", action="append", default=[])
    ap.add_argument("--xsd")
    ap.add_argument("--once", action="store_true")
    ap.add_argument("--emit-tap", action="store_true")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = bt.after_dashes(a.cmd)
    if a.once:
        r, d = bt.run_once(cmd + ["--junit", os.path.join("@DIR@", "validate.xml"), "--tap"])
        if a.emit_tap:
            sys.stdout.write(r.out)
            sys.stderr.write(r.err)
            return r.code
        return check_run(r, os.path.join(d, "validate.xml"), a)
    with bt.tmpdir() as d:
        junit = os.path.join(d, "validate.xml")
        return check_run(bt.run(cmd + ["--junit", junit, "--tap"]), junit, a)


def check_run(r, junit, a):
    """The checks of one run (its Result, its JUnit file) against the options."""
    print(r.err)
    if r.code != a.expect_code:
        print(r.out)
        bt.fail(f"exit {r.code}, expected {a.expect_code}")
    cases = check_junit(junit)
    if a.xsd:
        check_xsd(junit, a.xsd)
    tap = check_tap(r.out)
    if set(tap) != set(cases):
        bt.fail(f"TAP and JUnit name different checks: {set(tap) ^ set(cases)}")
    for cid, (ok, directive) in tap.items():
        want = "failure" if ok == "not ok" and "# TODO" not in directive else None
        if want and cases[cid] != "failure":
            bt.fail(f"{cid}: not ok in TAP, {cases[cid]} in JUnit")
        if "# SKIP" in directive and cases[cid] != "skipped":
            bt.fail(f"{cid}: skipped in TAP, {cases[cid]} in JUnit")
    for er in a.expect_result:
        cid, want = er.split("=", 1)
        got = cases.get(cid)
        if got != want:
            bt.fail(f"{cid}: {got} in JUnit, expected {want}")
    print(f"{len(cases)} checks: TAP and JUnit agree; JUnit structure checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
