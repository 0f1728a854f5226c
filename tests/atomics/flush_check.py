#!/usr/bin/env python3
"""Runs `bench atomics --cache cold` and checks the flush buffer against the device's own figure:
max(2 x last-level cache, 64 MiB), rounded up to 4 KiB, with the cache size read from
`bench info --json` (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE). A fixed expectation fails where a driver
reports a large cache: PoCL has reported 480 MiB (a flush of 1006632960 bytes). Where that
buffer exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE the run must refuse it (exit 2) naming the size.

usage: flush_check.py BENCH --device SPEC [bench atomics options...]
"""
import json
import os
import subprocess
import sys
import tempfile

FLOOR = 64 << 20


def main() -> int:
    bench, args = sys.argv[1], sys.argv[2:]
    spec = args[args.index("--device") + 1]
    info = subprocess.run([bench, "info", "--json", "--device", spec], capture_output=True, text=True)
    if info.returncode != 0:
        print(info.stdout + info.stderr)
        return 1
    dev = json.loads(info.stdout)[0]
    llc = dev["global_cache_bytes"]
    want = (max(2 * llc, FLOOR) + 4095) // 4096 * 4096
    print(f"{dev['name']}: last-level cache {llc} bytes, flush expected {want} bytes, "
          f"max allocation {dev['max_alloc_bytes']} bytes")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        r = subprocess.run([bench, "atomics", "--cache", "cold", "--json", path] + args,
                           capture_output=True, text=True)
        errors = []
        if want > dev["max_alloc_bytes"]:
            if r.returncode != 2 or f"--cache cold needs a buffer of {want} bytes" not in r.stderr:
                errors.append(f"exit {r.returncode}, expected 2 refusing a {want}-byte buffer")
        elif r.returncode != 0 or not os.path.exists(path):
            errors.append(f"exit {r.returncode}, expected 0 and a results document")
        else:
            with open(path) as f:
                doc = json.load(f)
            setup = doc["setup"]
            if setup["llc_source"] == "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE" and setup["llc_bytes"] != llc:
                errors.append(f"setup.llc_bytes {setup['llc_bytes']}, the device says {llc}")
            if setup["flush_bytes"] != want:
                errors.append(f"setup.flush_bytes {setup['flush_bytes']}, expected {want}")
            for i, p in enumerate(doc["points"]):
                if p["status"] != "ok" or p["params"].get("flush") is not True or \
                   p["params"].get("flush_bytes") != want:
                    errors.append(f"point {i}: status {p['status']}, flush "
                                  f"{p['params'].get('flush')!r}, flush_bytes "
                                  f"{p['params'].get('flush_bytes')!r} (expected {want})")
            if not doc["points"]:
                errors.append("no points")
        if errors:
            print("\n".join(errors) + "\n--- stdout ---\n" + r.stdout + "--- stderr ---\n" + r.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
