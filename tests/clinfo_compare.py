#!/usr/bin/env python3
"""Compares `bench info --json` with `clinfo --raw` for every device both see:
every property they share must agree, exactly where it is stable (MOVING below is not).

usage: clinfo_compare.py BENCH [--move-memory]
--move-memory runs bench under an RLIMIT_DATA below the memory clinfo read (data_limit), which
PoCL's global memory follows: the memory a driver sees has moved between the two readings, as on
a resized virtual machine. Exit 77 (skip) where no figure followed it.
"""
import re
import resource
import sys

import benchtest as bt

ATOMIC = {"CL_DEVICE_ATOMIC_ORDER_RELAXED": "relaxed", "CL_DEVICE_ATOMIC_ORDER_ACQ_REL": "acq_rel",
          "CL_DEVICE_ATOMIC_ORDER_SEQ_CST": "seq_cst", "CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM": "work_item",
          "CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP": "work_group", "CL_DEVICE_ATOMIC_SCOPE_DEVICE": "device",
          "CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES": "all_devices"}

# clinfo property -> (bench key, how to read clinfo's text)
FIELDS = {
    "CL_DEVICE_NAME": ("name", str.strip),
    "CL_DEVICE_VENDOR": ("vendor", str.strip),
    "CL_DEVICE_VERSION": ("opencl_version", str.strip),
    "CL_DRIVER_VERSION": ("driver_version", str.strip),
    "CL_DEVICE_OPENCL_C_VERSION": ("opencl_c_version", str.strip),
    "CL_DEVICE_MAX_COMPUTE_UNITS": ("compute_units", int),
    "CL_DEVICE_MAX_CLOCK_FREQUENCY": ("max_clock_mhz", int),
    "CL_DEVICE_MAX_WORK_GROUP_SIZE": ("max_work_group_size", int),
    "CL_DEVICE_LOCAL_MEM_SIZE": ("local_mem_bytes", int),
    "CL_DEVICE_GLOBAL_MEM_SIZE": ("global_mem_bytes", int),
    "CL_DEVICE_MAX_MEM_ALLOC_SIZE": ("max_alloc_bytes", int),
    "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE": ("global_cache_bytes", int),
    "CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE": ("global_cacheline_bytes", int),
    "CL_DEVICE_PROFILING_TIMER_RESOLUTION": ("timer_resolution_ns", int),
    "CL_DEVICE_MAX_NUM_SUB_GROUPS": ("max_sub_groups", int),
    "CL_DEVICE_SUB_GROUP_SIZES_INTEL": ("sub_group_sizes", lambda s: [int(x) for x in s.split()]),
    "CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES":
        ("atomic_memory_capabilities", lambda s: sorted(ATOMIC[x.strip()] for x in s.split("|"))),
    "CL_DEVICE_EXTENSIONS": ("extensions", lambda s: sorted(s.split())),
}
NORMALISE = {"atomic_memory_capabilities": sorted, "extensions": lambda s: sorted(s.split())}

# Properties a CPU driver derives from the memory the system has at the moment it is asked, so
# two processes (clinfo, then bench) may read different values. PoCL 3.1 reports a share of the
# memory hwloc finds (3/4 of it up to 7 GiB, all but 2 GiB above), capped by RLIMIT_DATA, and a
# maximum allocation of a quarter of that rounded up to a power of two; Intel's CPU runtime
# reports MemTotal. On a virtual machine whose memory is resized (balloon, hot-plug in 128 MiB
# blocks) these move: PoCL's global memory read 4701118464 then 4801781760 bytes, 96 MiB (3/4 of
# 128 MiB) apart. They must agree within a factor of two, which still catches reading the wrong
# property or unit.
MOVING = {"CL_DEVICE_GLOBAL_MEM_SIZE", "CL_DEVICE_MAX_MEM_ALLOC_SIZE"}


def agrees(prop, want, have):
    if prop in MOVING:
        return isinstance(have, int) and want > 0 and want / 2 <= have <= want * 2
    return have == want


def parse_clinfo(text):
    platforms, props = {}, {}
    for line in text.splitlines():
        m = re.match(r"\s*\[(\w+)/(\*|\d+)\]\s+(CL_\w+)\s+(.*)$", line)
        if not m:
            continue
        tag, dev, prop, val = m.groups()
        if dev == "*":
            if prop == "CL_PLATFORM_NAME":
                platforms.setdefault(val.strip(), []).append(tag)
        else:
            props.setdefault((tag, int(dev)), {})[prop] = val
    return platforms, props


def data_limit(props):
    """3/4 of the smallest global memory clinfo read (PoCL follows RLIMIT_DATA), at least 1 GiB."""
    sizes = [int(p["CL_DEVICE_GLOBAL_MEM_SIZE"]) for p in props.values()
             if "CL_DEVICE_GLOBAL_MEM_SIZE" in p]
    return max(min(sizes) * 3 // 4, 1 << 30) if sizes else None


def main() -> int:
    if not bt.find_tool("clinfo"):
        bt.fail("clinfo is not installed (scripts/setup.sh installs it)")
    platforms, props = parse_clinfo(bt.run(["clinfo", "--raw"]).out)
    limit = data_limit(props) if "--move-memory" in sys.argv[2:] else None
    devices = bt.bench_info(sys.argv[1], preexec_fn=(
        lambda: resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))) if limit else None)
    compared, moved = 0, 0
    for d in devices:
        tags = platforms.get(d["platform"], [])
        if not bt.check(tags, f"clinfo lists no platform {d['platform']!r}"):
            continue
        p = props.get((tags[0], d["device_index"]), {})
        for prop, (key, conv) in FIELDS.items():
            if prop not in p:
                continue
            want = conv(p[prop])
            have = d.get(key)
            have = NORMALISE.get(key, lambda x: x)(have) if have is not None else None
            ok = agrees(prop, want, have)
            bt.check(ok, f"{d['name']} [{d['platform']}]: {prop}: clinfo {want!r}, bench {have!r}"
                     + (" (beyond a factor of two)" if prop in MOVING else ""))
            if ok and have != want:
                print(f"{d['name']} [{d['platform']}]: {prop} moved: clinfo {want}, bench {have}")
                moved += 1
            compared += 1
        print(f"{d['name']} [{d['platform']}]: compared {len([f for f in FIELDS if f in p])} properties")
    bt.check(compared > 0, "nothing compared")
    if not bt.errors and limit and not moved:
        bt.skip(f"no memory figure followed RLIMIT_DATA = {limit} bytes")
    return bt.verdict()


if __name__ == "__main__":
    sys.exit(main())
