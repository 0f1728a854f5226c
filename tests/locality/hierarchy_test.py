#!/usr/bin/env python3
"""bench locality --hierarchy flat|composite: the multi-stack chapter's runs, skipped (exit 77,
the reason on stderr and in the document's `skipped`) on anything but an Intel GPU with stacks
in that mode, and run where the devices are there.

usage: hierarchy_test.py BENCH STUB_LIB
On PoCL (not a GPU), then on the stub driver presenting Intel's CPU runtime as a GPU (an Intel
GPU of one device, no NUMA partition): each reason in turn, ZE_FLAT_DEVICE_HIERARCHY set and
unset; on the stub's GPU split in two (--sub-devices equally:1) the FLAT run measures.
Exit 0 when every check passed.
"""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402

BENCH, STUB = sys.argv[1], sys.argv[2]
STUB_RUN = str(Path(__file__).resolve().parents[1] / "stub-icd" / "stub_run.py")
QUICK = ["--size", "1Mi", "--loads", "1024", "--reps", "2", "--warmup", "1", "--quiet"]
COMPOSITE = {"ZE_FLAT_DEVICE_HIERARCHY": "COMPOSITE"}


def locality(args, env=None, stub=False):
    """bench locality ARGS (on the stub's Intel GPU where stub), ZE_FLAT_DEVICE_HIERARCHY unset
    unless env sets it: (Result, document or None)."""
    cmd = [BENCH, "locality"] + args + QUICK
    if stub:
        cmd = [sys.executable, STUB_RUN, "--stub", STUB, "--target", "intel", "--device-type", "gpu",
               "--"] + cmd
    os.environ.pop("ZE_FLAT_DEVICE_HIERARCHY", None)
    with bt.tmpdir() as d:
        path = os.path.join(d, "r.json")
        r = bt.run(cmd + ["--json", path], env=env)
        return r, bt.load_doc(path, missing=None)


def skipped(what, args, reason, env=None, stub=False):
    r, doc = locality(args, env, stub)
    check(r.code == 77, f"{what}: exit {r.code}, expected 77", r)
    check(reason in r.err, f"{what}: stderr lacks {reason!r}", r)
    check(doc is not None and reason in doc.get("skipped", "") and doc["points"] == [],
          f"{what}: the document's skipped: {doc and doc.get('skipped')}")


def main():
    skipped("flat on PoCL", ["--hierarchy", "flat", "--device", "PoCL"],
            "the FLAT mode's run needs an Intel GPU with stacks (Data Center GPU Max); "
            "'pthread")
    skipped("composite on PoCL", ["--hierarchy", "composite", "--device", "PoCL"], "is not a GPU")
    skipped("flat on one Intel GPU", ["--hierarchy", "flat"],
            "is the only GPU of its platform in FLAT mode: no second stack", stub=True)
    skipped("composite, the mode unset", ["--hierarchy", "composite"],
            "needs ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE; this process runs with it unset (FLAT)",
            stub=True)
    skipped("flat in a COMPOSITE process", ["--hierarchy", "flat"],
            "needs ZE_FLAT_DEVICE_HIERARCHY=FLAT or unset; this process runs with "
            "ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE", COMPOSITE, stub=True)
    skipped("composite without NUMA", ["--hierarchy", "composite"],
            "offers no NUMA partition in COMPOSITE mode", COMPOSITE, stub=True)
    r, doc = locality(["--hierarchy", "flat", "--sub-devices", "equally:1"], stub=True)
    # every point measured but the copy test of USM allocations (clEnqueueCopyBuffer: buffers only)
    check(r.code == 0 and doc and "skipped" not in doc and len(doc["devices"]) == 2
          and all(p["status"] == "ok" or (p["status"] == "skipped" and p["params"]["test"] == "copy"
                                          and p["params"]["memory"] == "usm") for p in doc["points"])
          and doc["points"],
          f"flat across two parts of the stub's GPU: exit {r.code}", r)
    return bt.verdict("bench locality --hierarchy: every skip names its reason; the FLAT run measures")


if __name__ == "__main__":
    sys.exit(main())
