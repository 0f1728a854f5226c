#!/usr/bin/env python3
"""Fails unless both CPU OpenCL platforms the project tests on are visible:
PoCL and Intel's CPU runtime (with its sub-group extensions).

usage: platforms.py BENCH
"""
import json
import subprocess
import sys

out = subprocess.run([sys.argv[1], "info", "--json"], capture_output=True, text=True)
if out.returncode != 0:
    print(out.stderr)
    sys.exit(1)
devs = json.loads(out.stdout)
pocl = [d for d in devs if "PoCL" in d["platform_version"] and d["type"] == "CPU"]
intel = [d for d in devs if d["platform"] == "Intel(R) OpenCL" and d["type"] == "CPU"]
ok = True
if not pocl:
    print("PoCL CPU platform missing: run scripts/setup.sh (apt pocl-opencl-icd)")
    ok = False
if not intel:
    print("Intel CPU runtime missing: run scripts/setup.sh (pip intel-opencl-rt)")
    ok = False
elif not intel[0]["cl_intel_required_subgroup_size"] or not intel[0]["sub_group_sizes"]:
    print("Intel CPU runtime lacks cl_intel_required_subgroup_size")
    ok = False
for d in devs:
    print(f"{d['index']}: {d['name']} [{d['platform']}] sub-group sizes {d['sub_group_sizes']}")
sys.exit(0 if ok else 1)
