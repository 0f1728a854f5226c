#!/usr/bin/env python3
"""bench validate's profiling chapter (bench/tools/validate/profiling.c) against the stub
driver's lies about time (BENCH_STUB_TIME), under stub_run.py over a real CPU driver.

usage: profiling_faults.py FAULT BENCH
Each fault must fail the checks it breaks, by name, and pass the others; `none` and `offset`
(durations true) pass every duration check, and offset fails only profiling/device-host-timer
(the events on the host timer's line), where the driver offers clGetDeviceAndHostTimer
(Intel's CPU runtime does; PoCL 3.1 does not: skipped there, with the reason); coarse (a
1000 ns tick on drivers that declare 1 ns) fails profiling/resolution alone. A lie that
only a launch spanning a wrap can show (wrap32:22, a wrap every 4.2 ms) is nondeterministic:
its checks must fail or be reported as a flake, never pass. A check expected to pass may be
a flake (failed once, passed when run again): a busy host can disturb a CPU device's kernel.
"""
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

CHECKS = ["order", "end-after-start", "scaling", "host-witness", "resolution", "monotonic",
          "not-available", "device-host-timer"]
# the checks each lie must fail (device-host-timer where the driver offers the timer pair)
FAILS = {
    "none": set(),
    "zero": {"end-after-start", "scaling", "host-witness"},
    "reversed": {"order", "end-after-start", "scaling", "host-witness", "device-host-timer"},
    "us-as-ns": {"host-witness", "device-host-timer"},
    "constant": {"end-after-start", "scaling", "host-witness", "monotonic", "device-host-timer"},
    "half-rate": {"host-witness", "device-host-timer"},
    "offset": {"device-host-timer"},
    "coarse": {"resolution"},
    "wrap32:22": None,   # nondeterministic: some of the duration checks fail or flake
}
# what the failure of one check each lie fails must say: the fault seen, with its numbers and
# units (the start of the message: the summary's line may cut its end)
SAYS = {
    "zero": ("end-after-start", r"END - START = 0 ns"),
    "reversed": ("order", r"launch \d+: START \d+ ns after END \d+ ns"),
    "us-as-ns": ("host-witness", r"the events 0\.0\d+ ms more: 0\.00(0[5-9]|1)\d* x"),
    "constant": ("monotonic", r"STARTed at 1000000000 ns, not after launch \d+ \(queue \d\) ENDed at "
                 r"1000000000 ns"),
    # half the host's extra time, give or take what a busy host does to a CPU device's kernel
    "half-rate": ("host-witness", r"ms more: 0\.[3-6]\d* x"),
    "offset": ("device-host-timer", r"QUEUED on the host timer's line is [\d.e+]+ ms after the host's "
               r"bracket"),
    "coarse": ("resolution", r"declared \d+ ns, but all \d+ timestamps lie a multiple of 1000 ns apart"),
}
WRAP_MAY_FAIL = {"order", "end-after-start", "scaling", "host-witness", "monotonic", "device-host-timer"}
NOT_PASSED = re.compile(r"FAIL|flake")


def main():
    fault, bench = sys.argv[1], sys.argv[2]
    env = {} if fault == "none" else {"BENCH_STUB_TIME": fault}
    r = bt.run([bench, "validate", "--include-regex", "^profiling/"], env=env)
    got = {}
    for line in r.out.splitlines():
        m = re.match(r"profiling/(\S+)\s+(\S+)", line)
        if m:
            got[m.group(1)] = m.group(2)
    if sorted(got) != sorted(CHECKS):
        bt.fail(f"{fault}: the chapter's checks are {sorted(got)}, expected {sorted(CHECKS)}", r)
    timer = got["device-host-timer"] != "skip"
    if not timer:
        bt.check("offers no timer pair" in r.out, f"{fault}: device-host-timer skipped without "
                 "the reason", r)
    if FAILS[fault] is None:
        bad = sorted(n for n, res in got.items() if NOT_PASSED.search(res))
        bt.check(bad and set(bad) <= WRAP_MAY_FAIL, f"{fault}: checks failed or flaked: {bad}", r)
        for n in sorted(set(got) - WRAP_MAY_FAIL):
            bt.check(got[n] in ("pass", "flake"), f"{fault}: profiling/{n} is '{got[n]}', expected to pass", r)
        bt.check(r.code != 0, f"{fault}: exit 0", r)
        return bt.verdict(f"{fault}: failed or flaked {bad}")
    want = FAILS[fault] - (set() if timer else {"device-host-timer"})
    for name, res in got.items():
        if name in want:
            bt.check(NOT_PASSED.search(res), f"{fault}: profiling/{name} is '{res}', expected to fail", r)
        elif name != "device-host-timer" or timer:   # a busy host may disturb one run: a flake
            bt.check(res in ("pass", "flake"), f"{fault}: profiling/{name} is '{res}', expected to pass", r)
    bt.check((r.code == 0) == (not want), f"{fault}: exit {r.code}", r)
    if fault in SAYS and SAYS[fault][0] in want:
        name, says = SAYS[fault]
        bt.check(re.search(rf"^  Fail profiling/{name}: .*{says}", r.out, re.M),
                 f"{fault}: profiling/{name}'s failure does not say /{says}/", r)
    return bt.verdict(f"{fault}: failed {sorted(want) or 'none'}, passed the rest"
                      f"{'' if timer else ' (device-host-timer skipped: no timer pair)'}")


if __name__ == "__main__":
    sys.exit(main())
