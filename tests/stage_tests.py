#!/usr/bin/env python3
"""The tests a later stage of scripts/test.sh runs again, chosen by a rule from the build's own
test list (meson introspect --tests), so that a stage runs only what its setting adds to.

usage: stage_tests.py BUILDDIR sanitizers|intelgpu [--why]
Prints one test name a line (for `meson test NAME...`); --why prints the rule each matched.

  sanitizers  the tests of the unit and cli suites whose command line runs a program of this
              build (bench, a unit test, the example row): under AddressSanitizer and UBSan
              only the build's own code is checked, so a test that runs nothing built (a Python
              check of the source tree or of the driver registry) adds nothing there.
  intelgpu    the tests whose outcome can depend on the driver registry holding Debian's Intel
              GPU driver, which finds no GPU (it offers no platform, but is loaded into every
              process that enumerates platforms):
                registry  the registry itself (icd-registry);
                choice    a test of the cpu, cli or gpu suite that lets bench choose or list
                          devices from what the registry offers: its command line names no
                          platform ('PoCL', 'Intel(R) OpenCL') and does not replace the registry
                          (the stub driver's tests, OCL_ICD_VENDORS given); and the gpu suite,
                          whose checks skip (77) where no GPU is found;
                process   a test of the cpu suite of what happens to a process the driver is
                          loaded in, which its threads and handlers could change: signals,
                          interrupts, hung kernels and timeouts, faults, checks in child
                          processes, several devices at once (the names below), the stub
                          driver's left out.
              The rest (a kernel run and validated on a platform named, a document read) loads
              the same driver and runs the same code with either registry: it runs once, in
              the first stage.
"""
import json
import os
import re
import subprocess
import sys

PLATFORMS = ("PoCL", "Intel(R) OpenCL")
# Device choice: what the test's name or command line says it is about.
CHOICE = re.compile(r"device|platform|clinfo|\binfo\b|--concurrent|\bgpu\b|GPU")
# Tests of the process: names by prefix (tests/interrupt, tests/validate, tests/multi,
# tests/suite).
PROCESS = ("interrupt-", "validate-isolation-", "tool-timeout-", "suite-interrupt-",
           "suite-timeout-", "suite-stopped-", "multi-", "validate-devices-",
           "suite-devices-")


def suites(t):
    return {s.split(":")[-1] for s in t["suite"]}


def runs_built(t, builddir):
    """Whether the test's command line names a program of the build (not a script)."""
    wd = t.get("workdir") or builddir
    for a in t["cmd"] + t.get("args", []):
        if a.endswith((".py", ".sh")):
            continue
        p = a if os.path.isabs(a) else os.path.join(wd, a)
        p = os.path.realpath(p)
        if (p.startswith(os.path.realpath(builddir) + os.sep) and os.path.isfile(p)
                and os.access(p, os.X_OK)):
            return True
    return False


def pinned(cmd):
    """Whether the command the test runs (after a wrapper's '--') names a platform."""
    run = cmd[cmd.index("--") + 1:] if "--" in cmd else cmd
    return any(p in a for a in run for p in PLATFORMS)


def intelgpu_rule(t):
    name, cmd, s = t["name"], " ".join(t["cmd"]), suites(t)
    if name == "icd-registry":
        return "registry"
    if not s & {"cpu", "cli", "gpu"}:
        return None
    if "gpu" in s:
        return "choice"
    # the stub driver's tests give bench a registry of their own: the same run either way
    if "stub_run.py" in cmd or "OCL_ICD_VENDORS=" in cmd:
        return None
    if name.startswith(PROCESS) and "cpu" in s:
        return "process"
    if not pinned(t["cmd"]) and any(
            a.endswith("/bench") or a == "./bench" for a in t["cmd"]) and CHOICE.search(
            name + " " + cmd):
        return "choice"
    return None


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ("sanitizers", "intelgpu"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    builddir, mode, why = sys.argv[1], sys.argv[2], "--why" in sys.argv[3:]
    r = subprocess.run(["meson", "introspect", "--tests", builddir], capture_output=True,
                       text=True, check=True)
    for t in json.loads(r.stdout):
        if mode == "sanitizers":
            rule = "built" if suites(t) & {"unit", "cli"} and runs_built(t, builddir) else None
        else:
            rule = intelgpu_rule(t)
        if rule:
            print(f"{t['name']}\t{rule}" if why else t["name"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
