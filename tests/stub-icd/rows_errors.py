#!/usr/bin/env python3
"""Every row's error paths on the stub driver: a build that fails, a launch refused for
resources, a device lost. Run under stub_run.py (the stub is the only driver).

usage: rows_errors.py FAULT BENCH
Each measurement row (`bench list --json`) runs with --validate-only --quiet (locality on two
sub-devices, as its check runs it; latency, transpose, sg-copy and stream at small sizes: the
error paths are the same at any size, and at their default sizes these rows spent a minute
making chains and references for points whose launch the stub refuses) under BENCH_STUB_FAULT:
  build        exit 1; CL_BUILD_PROGRAM_FAILURE and the stub's build log on stderr
  oor-launch   exit 1; CL_OUT_OF_RESOURCES on stderr
  device-lost  device-lost:3 and :5 (lost during the set-up): exit 1 and CL_DEVICE_NOT_AVAILABLE;
               device-lost:40 (lost in the middle of the run): exit 0 or 1, and 1 names
               CL_DEVICE_NOT_AVAILABLE
Never a crash (a signal), a hang (180 s), a usage error or a 'bench bug'; a line that names the
error blames the driver ("bench ROW: driver: ...") or is a point's failure ("bench ROW: point
{...} failed: ...").
"""
import json
import os
import re
import subprocess
import sys

ROW_ARGS = {"locality": ["--size", "1Mi", "--loads", "2048", "--sub-devices", "counts:1,1"],
            "latency": ["--sizes", "1Ki..64Ki"], "transpose": ["--n", "256"],
            "sg-copy": ["--size", "4Mi"], "stream": ["--n", "1Mi"]}
BUILD_LOG = "the build failed on request (BENCH_STUB_FAULT=build)"
LIMIT_S = 180


def rows(bench):
    r = subprocess.run([bench, "list", "--json"], capture_output=True, text=True, check=True)
    return [c["name"] for c in json.loads(r.stdout) if c["kind"] == "row"]


def run(bench, row, fault):
    env = dict(os.environ, BENCH_STUB_FAULT=fault)
    cmd = [bench, row, "--validate-only", "--quiet"] + ROW_ARGS.get(row, [])
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=LIMIT_S)
    except subprocess.TimeoutExpired:
        return None, f"{row} under {fault}: no end after {LIMIT_S} s (a hang)"
    return r, None


def problems(r, row, fault, codes, names):
    """What is wrong with one run: its exit code, its messages."""
    if r.returncode < 0:
        return [f"killed by signal {-r.returncode} (a crash)"]
    bad = []
    if r.returncode not in codes:
        bad.append(f"exit {r.returncode}, expected {' or '.join(map(str, codes))}")
    if r.returncode == 1:
        bad += [f"stderr lacks {n!r}" for n in names if n not in r.stderr]
        blame = re.compile(r"^bench [\w-]+: (driver: |point \{.*\} failed: )")
        bad += [f"a message without blame: {line[:160]!r}" for line in r.stderr.splitlines()
                if names[0] in line and not blame.match(line)]
    if "bench bug" in r.stderr:
        bad.append("a 'bench bug' message")
    if "usage:" in r.stderr:
        bad.append("a usage error")
    return bad


def cases(fault):
    """(BENCH_STUB_FAULT, allowed exit codes, names a failure must print) for a FAULT."""
    if fault == "build":
        return [("build", (1,), ["CL_BUILD_PROGRAM_FAILURE", BUILD_LOG])]
    if fault == "oor-launch":
        return [("oor-launch", (1,), ["CL_OUT_OF_RESOURCES"])]
    if fault == "device-lost":
        return [("device-lost:3", (1,), ["CL_DEVICE_NOT_AVAILABLE"]),
                ("device-lost:5", (1,), ["CL_DEVICE_NOT_AVAILABLE"]),
                ("device-lost:40", (0, 1), ["CL_DEVICE_NOT_AVAILABLE"])]
    sys.exit(f"unknown fault {fault}")


def main():
    fault, bench = sys.argv[1:3]
    failed = 0
    for row in rows(bench):
        for spec, codes, names in cases(fault):
            r, hang = run(bench, row, spec)
            bad = [hang] if hang else problems(r, row, spec, codes, names)
            last = "" if hang else (r.stderr.strip().splitlines() or [""])[-1][:200]
            print(f"{'FAIL' if bad else 'ok  '} {row} under {spec}: "
                  f"{'; '.join(bad) if bad else f'exit {r.returncode}'} | {last}")
            if bad and r is not None:
                print("--- stderr ---\n" + r.stderr[-3000:])
            failed += bool(bad)
    print(f"{failed} rows misbehaved" if failed else "every row names the error and exits as it should")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
