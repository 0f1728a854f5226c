#!/usr/bin/env python3
"""Fails unless both CPU OpenCL platforms the project tests on are visible:
PoCL and Intel's CPU runtime (with its sub-group extensions).

usage: platforms.py BENCH
"""
import sys

import benchtest as bt

devs = bt.bench_info(sys.argv[1])
pocl = [d for d in devs if "PoCL" in d["platform_version"] and d["type"] == "CPU"]
intel = [d for d in devs if d["platform"] == "Intel(R) OpenCL" and d["type"] == "CPU"]
bt.check(pocl, "PoCL CPU platform missing: run scripts/setup.sh (apt pocl-opencl-icd)")
if bt.check(intel, "Intel CPU runtime missing: run scripts/setup.sh (pip intel-opencl-rt)"):
    bt.check(intel[0]["cl_intel_required_subgroup_size"] and intel[0]["sub_group_sizes"],
             "Intel CPU runtime lacks cl_intel_required_subgroup_size")
for d in devs:
    print(f"{d['index']}: {d['name']} [{d['platform']}] sub-group sizes {d['sub_group_sizes']}")
sys.exit(bt.verdict())
