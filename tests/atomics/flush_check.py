#!/usr/bin/env python3
"""Runs `bench atomics --cache cold` and checks the flush buffer against the device's own figure:
max(2 x last-level cache, 64 MiB), rounded up to 4 KiB, with the cache size read from
`bench info --json` (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE). A fixed expectation fails where a driver
reports a large cache: PoCL has reported 480 MiB (a flush of 1006632960 bytes). Where that
buffer exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE the run must refuse it (exit 2) naming the size.

usage: flush_check.py BENCH --device SPEC [bench atomics options...]
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

FLOOR = 64 << 20


def main() -> int:
    bench, args = sys.argv[1], sys.argv[2:]
    spec = args[args.index("--device") + 1]
    dev = bt.bench_info(bench, spec)[0]
    llc = dev["global_cache_bytes"]
    want = (max(2 * llc, FLOOR) + 4095) // 4096 * 4096
    print(f"{dev['name']}: last-level cache {llc} bytes, flush expected {want} bytes, "
          f"max allocation {dev['max_alloc_bytes']} bytes")
    r, doc = bt.run_with_doc([bench, "atomics", "--cache", "cold"] + args)
    if want > dev["max_alloc_bytes"]:
        bt.check(r.code == 2 and f"--cache cold needs a buffer of {want} bytes" in r.err,
                 f"exit {r.code}, expected 2 refusing a {want}-byte buffer")
    elif bt.check(r.code == 0 and doc is not None, f"exit {r.code}, expected 0 and a results document"):
        check_doc(doc, llc, want)
    if bt.errors:
        print(r.output())
    return bt.verdict()


def check_doc(doc, llc, want):
    setup = doc["setup"]
    bt.check(setup["llc_source"] != "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE" or setup["llc_bytes"] == llc,
             f"setup.llc_bytes {setup['llc_bytes']}, the device says {llc}")
    bt.check(setup["flush_bytes"] == want, f"setup.flush_bytes {setup['flush_bytes']}, expected {want}")
    for i, p in enumerate(doc["points"]):
        bt.check(p["status"] == "ok" and p["params"].get("flush") is True and
                 p["params"].get("flush_bytes") == want,
                 f"point {i}: status {p['status']}, flush {p['params'].get('flush')!r}, "
                 f"flush_bytes {p['params'].get('flush_bytes')!r} (expected {want})")
    bt.check(doc["points"], "no points")


if __name__ == "__main__":
    sys.exit(main())
