#!/usr/bin/env python3
"""bench validate as a GoogleTest program.

usage: gtest_check.py CASE BENCH DEVICE KERNELS_DIR
CASE is one of:
  list    --gtest_list_tests in GoogleTest's format (a suite a line ending in '.', its tests
          indented by two spaces), C identifiers only, one name per check of --list, the names
          docs/validation.md gives as examples
  filter  --gtest_filter=POSITIVE[-NEGATIVE] with GoogleTest's globs ('*', '?', ':' between
          patterns) runs exactly the checks Python's reading of the same filter picks, with
          [ RUN      ] / [       OK ] / [  SKIPPED ] lines and the totals; exit 0
  failed  a --kernels copy that drops a required work-group size: [  FAILED  ] for
          api.reqdWgMismatch, "1 FAILED TEST", exit 1; --gtest_output=xml:FILE is JUnit XML
          naming each test as the lines on stdout do
  ctest   CMake's gtest_discover_tests on an IMPORTED executable (a wrapper script that runs
          bench validate) discovers the checks and CTest runs each with --gtest_filter: a pass,
          a skip and a failure as CTest reports them (exit 77 without cmake and ctest)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

IDENT = re.compile(r"^[A-Za-z0-9_]+$")
EXAMPLES = {"vecadd/v1": "vecadd.v1", "vecadd/v4/wg=64/sg=auto/barrier": "vecadd.v4_wg_E64_sg_Eauto_barrier",
            "api/wg-above-device-max": "api.wgAboveDeviceMax", "api/non-uniform-1.x": "api.nonUniform_H1_Dx",
            "occupancy-waves/wg=64": "occupancyWaves.wg_E64"}
CTEST_CHECKS = "^api/(buffer-size-zero|reqd-wg-mismatch|reqd-sg-unlisted)$"


def fail(msg, r=None):
    print("FAIL:", msg)
    if r is not None:
        print("--- stdout ---\n" + r.stdout[-5000:] + "\n--- stderr ---\n" + r.stderr[-3000:])
    sys.exit(1)


def validate(ctx, *args, code=None):
    r = subprocess.run([ctx["bench"], "validate", "--device", ctx["device"]] + list(args),
                       capture_output=True, text=True, timeout=600)
    if code is not None and r.returncode != code:
        fail(f"exit {r.returncode}, expected {code}", r)
    return r


def gtest_names(text):
    """The names of a --gtest_list_tests listing, checking its format."""
    names, suite = [], None
    for line in text.splitlines():
        if line.startswith("  "):
            if suite is None or not IDENT.match(line[2:]):
                fail(f"a test line out of place or not an identifier: {line!r}")
            names.append(f"{suite}.{line[2:]}")
        elif line.endswith(".") and IDENT.match(line[:-1]):
            suite = line[:-1]
        else:
            fail(f"not GoogleTest's listing: {line!r}")
    return names


def glob_re(pattern):
    return "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)


def gtest_filter(flt, name):
    """GoogleTest's reading of --gtest_filter."""
    pos, _, neg = flt.partition("-")
    ok = lambda pats: any(re.fullmatch(glob_re(p), name) for p in pats.split(":"))
    return (not pos or ok(pos)) and not (neg and ok(neg))


def case_list(ctx):
    names = gtest_names(validate(ctx, "--gtest_list_tests", code=0).stdout)
    ids = validate(ctx, "--list", code=0).stdout.split()
    if len(names) != len(ids) or len(set(names)) != len(names):
        fail(f"{len(names)} GoogleTest names for {len(ids)} checks")
    for cid, name in EXAMPLES.items():
        if cid in ids and name not in names:
            fail(f"{cid} is not {name}")
    print(f"list: {len(names)} names in GoogleTest's format")


def case_filter(ctx):
    names = gtest_names(validate(ctx, "--gtest_list_tests", code=0).stdout)
    for flt in ("api.*-api.arg*:api.null*", "vecadd.v?", "*E64*:-*barrier", "api.work?te*"):
        want = [n for n in names if gtest_filter(flt, n)]
        r = validate(ctx, "--gtest_filter=" + flt, code=0)
        ran = re.findall(r"^\[ RUN      \] (\S+)$", r.stdout, re.M)
        ended = re.findall(r"^\[(?:       OK |  SKIPPED )\] (\S+) \(\d+ ms\)$", r.stdout, re.M)
        if not want or ran != want or ended != want:
            fail(f"--gtest_filter={flt}: ran {ran}, expected {want}", r)
        if not re.search(rf"^\[==========\] {len(want)} tests? from \d+ test suites? ran\.", r.stdout, re.M):
            fail("no GoogleTest totals line", r)
        print(f"filter {flt}: {len(want)} tests, as GoogleTest picks them")


def mutant(kernels, d):
    k = os.path.join(d, "k")
    shutil.copytree(kernels, k, ignore=lambda _, fs: [f for f in fs if not f.endswith((".cl", ".h"))])
    path = os.path.join(k, "validate_api.cl")
    src = open(path).read()
    find = "__attribute__((reqd_work_group_size(RWG, 1, 1))) "
    if find not in src:
        fail("validate_api.cl no longer has the code this mutant changes")
    open(path, "w").write(src.replace(find, "", 1))
    return k


def case_failed(ctx, d):
    xml = os.path.join(d, "out.xml")
    r = validate(ctx, "--kernels", mutant(ctx["kernels"], d), "--gtest_filter=api.reqdWgMismatch:api.bufferSizeZero",
                 "--gtest_output=xml:" + xml, code=1)
    for line in (r"^\[  FAILED  \] api\.reqdWgMismatch \(\d+ ms\)$", r"^\[       OK \] api\.bufferSizeZero",
                 r"^ 1 FAILED TEST$", r"^\[  FAILED  \] 1 test, listed below:$"):
        if not re.search(line, r.stdout, re.M):
            fail(f"no line {line}", r)
    # GoogleTest's names, as its lines on stdout: suite api, tests bufferSizeZero, ...
    root = ET.parse(xml).getroot()
    cases = sorted(f"{tc.get('classname')}.{tc.get('name')}" for tc in root.iter("testcase"))
    suites = [s.get("name") for s in root.iter("testsuite")]
    ran = sorted(re.findall(r"^\[ RUN      \] (\S+)$", r.stdout, re.M))
    if cases != ["api.bufferSizeZero", "api.reqdWgMismatch"] or cases != ran or suites != ["api"]:
        fail(f"--gtest_output's file holds {cases} in suites {suites}; stdout ran {ran}")
    print("failed: [  FAILED  ], the totals, exit 1, the XML report")


CMAKELISTS = """cmake_minimum_required(VERSION 3.18)
project(bench_validate_ctest NONE)
include(GoogleTest)
enable_testing()
add_executable(bench_validate IMPORTED)
set_target_properties(bench_validate PROPERTIES IMPORTED_LOCATION "${WRAPPER}")
gtest_discover_tests(bench_validate DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 120)
"""


def case_ctest(ctx, d):
    cmake, ctest = shutil.which("cmake"), shutil.which("ctest")
    if not cmake or not ctest:
        print("cmake and ctest are not installed (Debian package cmake): skipped")
        return 77
    wrapper = os.path.join(d, "bench-validate")
    with open(wrapper, "w") as f:
        f.write(f"#!/bin/sh\nexec '{ctx['bench']}' validate --device '{ctx['device']}' --kernels "
                f"'{mutant(ctx['kernels'], d)}' --include-regex '{CTEST_CHECKS}' \"$@\"\n")
    os.chmod(wrapper, 0o755)
    src, build = os.path.join(d, "src"), os.path.join(d, "build")
    os.mkdir(src)
    with open(os.path.join(src, "CMakeLists.txt"), "w") as f:
        f.write(CMAKELISTS)
    r = subprocess.run([cmake, "-S", src, "-B", build, "-DWRAPPER=" + wrapper], capture_output=True, text=True)
    if r.returncode != 0:
        fail("cmake could not configure the project", r)
    r = subprocess.run([ctest, "--test-dir", build, "--output-on-failure", "-j1"], capture_output=True,
                       text=True, timeout=600)
    print(r.stdout)
    want = {"api.bufferSizeZero": "Passed", "api.reqdWgMismatch": r"\*\*\*Failed"}
    for name, how in want.items():
        if not re.search(rf"Test +#\d+: {re.escape(name)} \.+ *{how}", r.stdout):
            fail(f"CTest does not report {name} as {how}", r)
    skipped = re.search(r"Test +#\d+: api\.reqdSgUnlisted \.+ *(\S+)", r.stdout)
    if not skipped or skipped.group(1) not in ("***Skipped", "Passed"):
        fail("CTest did not run api.reqdSgUnlisted", r)
    if r.returncode == 0 or "tests failed out of 3" not in r.stdout:
        fail("CTest did not discover the 3 checks and fail the run for one", r)
    print(f"ctest: 3 checks discovered and run; api.reqdSgUnlisted {skipped.group(1)}")
    return 0


def main():
    case, bench, device, kernels = sys.argv[1:5]
    ctx = {"bench": os.path.abspath(bench), "device": device, "kernels": os.path.abspath(kernels)}
    with tempfile.TemporaryDirectory() as d:
        if case == "list":
            case_list(ctx)
        elif case == "filter":
            case_filter(ctx)
        elif case == "failed":
            case_failed(ctx, d)
        elif case == "ctest":
            return case_ctest(ctx, d)
        else:
            sys.exit("unknown case " + case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
