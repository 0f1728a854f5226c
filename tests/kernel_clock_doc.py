#!/usr/bin/env python3
"""cl_khr_kernel_clock in bench latency and bench atomics: cycles read inside the kernel
beside the event-derived figure where the device offers the clock, and the document saying
so where it does not.

usage: kernel_clock_doc.py {latency|atomics} {offered|not-offered} BENCH DEVICE_ARGS...

offered: setup.kernel_clock names a scope the device offers; every timed chase (latency) or
chain (atomics) point has kernel-clock cycles, positive; their rate against the event time
(kernel_clock_ticks_per_ns) of the chases of one work-item is a clock's: the median 0.1 to
10 ticks per ns, and most points within 1.5x of it (one clock times them all; the per-CU
chases are left out, their event time counts chases the driver may run one after another);
the plateaus carry them; the summary prints both figures. not-offered: offered false with the reason, no point and no plateau has
kernel-clock cycles, and the summary says none.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchtest as bt  # noqa: E402

row, want, bench, dev = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
offered = want == "offered"
if row == "latency":
    cmd = [bench, "latency", "--sizes", "4Ki..1Mi", "--steps", "1", "--loads", "16384",
           "--local", "4Ki", "--reps", "3", "--warmup", "1", "--seed", "3"]
    metric, unit = "kernel_clock_cycles_per_load", "clock cycles read inside the kernel"
else:
    cmd = [bench, "atomics", "--patterns", "chain,own", "--ops", "4096", "--reps", "3",
           "--warmup", "1"]
    metric, unit = "kernel_clock_cycles_per_atomic", "chain's clock cycles read inside the kernel"
r, doc = bt.run_with_doc(cmd + dev)
doc = doc or {}
bt.check(r.code == 0, f"exit code {r.code}", r)
kc = doc.get("setup", {}).get("kernel_clock", {})
bt.check(kc.get("offered") is offered and kc.get("measured") is offered,
         f"kernel_clock offered/measured {kc.get('offered')!r}/{kc.get('measured')!r}, want {offered}")
timed = [p for p in doc.get("points", [])
         if row == "latency" or p["params"]["pattern"] == "chain"]
bt.check(timed and all(p["status"] == "ok" for p in timed), f"{len(timed)} timed points, not all ok")
if offered:
    bt.check(kc.get("scope") in kc.get("scopes", []) and kc.get("builtin") == "clock_read_" + str(
        kc.get("scope")), f"scope {kc.get('scope')!r} of {kc.get('scopes')!r}, {kc.get('builtin')!r}")
    rates = []
    for p in timed:
        m = p.get("metrics", {})
        cyc, rate = m.get(metric), m.get("kernel_clock_ticks_per_ns")
        bt.check(isinstance(cyc, float) and cyc > 0, f"{p['params']}: {metric} {cyc!r}")
        # the event figure of a short chase is near the launch overhead's noise: its rate only
        # where the chase took 1 ns or more per step
        ns = m.get("ns_per_load", m.get("ns_per_atomic", 0))
        if isinstance(rate, float) and ns >= 1 and p["params"].get("variant") != "per-cu":
            rates.append(rate)
    med = bt.median(rates) if rates else 0
    near = [x for x in rates if med / 1.5 <= x <= med * 1.5]
    bt.check(len(rates) >= 2 or row == "atomics" and rates, f"rates of {len(rates)} points")
    bt.check(0.1 <= med <= 10, f"ticks per ns {rates}: median {med}, not a clock's rate")
    bt.check(2 * len(near) > len(rates), f"ticks per ns {rates}: most beyond 1.5x of {med}")
    print(f"kernel clock {kc.get('builtin')}: median {med:.3f} ticks per event ns over "
          f"{len(rates)} points")
    levels = doc.get("plateaus", {}).get("levels", []) if row == "latency" else []
    bt.check(all(isinstance(lv.get("kernel_clock_cycles"), float) for lv in levels),
             f"plateaus without kernel-clock cycles: {levels}")
    bt.check(f"{unit}: clock_read_{kc.get('scope')}" in r.out, f"summary lacks '{unit}: clock_read_'", r)
else:
    bt.check("does not offer cl_khr_kernel_clock" in str(kc.get("reason")) and kc.get("scopes") == []
             and kc.get("scope") is None, f"kernel_clock {kc!r}")
    bt.check(not any(metric in p.get("metrics", {}) for p in doc.get("points", [])),
             f"a point has {metric} on a device without the clock")
    bt.check(all(lv.get("kernel_clock_cycles", 0) is None
                 for lv in doc.get("plateaus", {}).get("levels", [])), "a plateau has clock cycles")
    bt.check(f"{unit}: none (" in r.out, f"summary lacks '{unit}: none ('", r)
if bt.errors:
    print(r.output())
sys.exit(bt.verdict(r.out))
