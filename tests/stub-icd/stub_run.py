#!/usr/bin/env python3
"""Runs a command with the fault-injecting stub driver (stub_icd.c) as the only OpenCL driver.

usage: stub_run.py --stub LIB --target pocl|intel [--fault SPEC] [--kernel NAME]
                   [--device-type gpu|cpu] [--concurrent N] [--once] -- CMD...
Writes stub.icd (naming LIB) into a folder of this run, points OCL_ICD_VENDORS at it and
BENCH_STUB_TARGET at the real driver's library, read from the .icd files of the registry the
test setup gives (OCL_ICD_VENDORS: .deps/icd), then runs CMD and exits with its code. --fault,
--kernel, --device-type and --concurrent set BENCH_STUB_FAULT, BENCH_STUB_KERNEL,
BENCH_STUB_DEVICE_TYPE and BENCH_STUB_CONCURRENT;
--once sets BENCH_STUB_FAULT_ONCE to a file of this run (the faults hit one process: a flake).
BENCH_STUB_PROCESSES is always a file of this run: each process that loads the stub adds a byte
(crash-load:N counts them; a test may remove the file to count afresh).
@TMPDIR@ in CMD is a folder of this run, removed after it. Exit 77 where the registry has no
such driver (an AddressSanitizer registry leaves some out).
"""
import argparse
import os
import subprocess
import sys
import tempfile

NAMES = {"pocl": "pocl", "intel": "intelocl"}


def real_library(target):
    """The library the registry's .icd file for target names, or None."""
    reg = os.environ.get("OCL_ICD_VENDORS", "/etc/OpenCL/vendors")
    if not os.path.isdir(reg):
        return None
    for f in sorted(os.listdir(reg)):
        if f.endswith(".icd"):
            lib = open(os.path.join(reg, f)).read().strip()
            if NAMES[target] in os.path.basename(lib):
                return lib
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stub", required=True)
    ap.add_argument("--target", required=True, choices=sorted(NAMES))
    ap.add_argument("--fault")
    ap.add_argument("--kernel")
    ap.add_argument("--device-type", choices=["gpu", "cpu"])
    ap.add_argument("--concurrent")
    ap.add_argument("--once", action="store_true")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    lib = real_library(a.target)
    if not lib:
        print(f"no {a.target} driver in the registry {os.environ.get('OCL_ICD_VENDORS')}: skipped")
        return 77
    with tempfile.TemporaryDirectory(prefix="bench-stub-") as d:
        icd = os.path.join(d, "icd")
        os.mkdir(icd)
        with open(os.path.join(icd, "stub.icd"), "w") as f:
            f.write(os.path.abspath(a.stub) + "\n")
        env = dict(os.environ, OCL_ICD_VENDORS=icd, BENCH_STUB_TARGET=lib)
        once = os.path.join(d, "once") if a.once else None
        env["BENCH_STUB_PROCESSES"] = os.path.join(d, "processes")
        for var, val in (("BENCH_STUB_FAULT", a.fault), ("BENCH_STUB_KERNEL", a.kernel),
                         ("BENCH_STUB_DEVICE_TYPE", a.device_type), ("BENCH_STUB_FAULT_ONCE", once),
                         ("BENCH_STUB_CONCURRENT", a.concurrent)):
            env.pop(var, None)
            if val:
                env[var] = val
        print(f"stub driver over {lib}: {' '.join(cmd)}", flush=True)
        return subprocess.run([c.replace("@TMPDIR@", d) for c in cmd], env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
