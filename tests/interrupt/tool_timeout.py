#!/usr/bin/env python3
"""--timeout of the tools: a command held forever (an input that is a FIFO no one writes, a
kernel that never ends in a check of bench validate) stops after its --timeout with exit 1 and a
message naming it (validate: the check), its outputs never written and nothing left behind; a
command that finishes in time is not disturbed.

usage: tool_timeout.py BENCH KERNELS DEVICE
"""
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

BENCH, KERNELS, DEVICE = sys.argv[1:4]
DOC = {"schema_version": 1, "benchmark": "vecadd", "timestamp": "2026-11-23T10:00:00Z",
       "device": {"name": "D", "platform": "P", "driver_version": "1"},
       "points": [{"params": {"groups": 1}, "status": "failed", "reason": "r", "validated": False}]}


def main():
    with bt.tmpdir() as d:
        doc = bt.write_doc(os.path.join(d, "d.json"), json.dumps(DOC))
        doc2 = bt.write_doc(os.path.join(d, "d2.json"), json.dumps(DOC))
        held = os.path.join(d, "held")
        os.mkfifo(held)
        out = os.path.join(d, "out")
        spin = bt.spinning_kernels(KERNELS, os.path.join(d, "k"))
        cases = {
            "compare": ["compare", doc, held, "--json", out],
            "export": ["export", "lnt", held, "--order", "1", "-o", out],
            "baseline": ["baseline", doc, doc2, held, "-o", out],
            "history": ["history", doc, doc2, held, "--json", out],
            "export otava": ["export", "otava", doc, held, "-o", out, "--config", out + ".yaml"],
            "report": ["report", held, "-o", out],
            "validate": ["validate", "--device", DEVICE, "--kernels", spin, "--filter", "vecadd/v1",
                         "--junit", out],
        }
        for name, args in cases.items():
            r = bt.run([BENCH] + args + ["--timeout", "2"], timeout=120)
            what = "check vecadd/v1 still running" if name == "validate" else "still running"
            bt.check(r.code == 1 and f"{what} after --timeout 2 s" in r.err,
                     f"{name}: exit {r.code}, expected 1 saying so", r)
            left = [f for f in os.listdir(d) if f.startswith("out")]
            bt.check(not left, f"{name}: left behind {left}")
        r = bt.run([BENCH, "compare", doc, doc, "--timeout", "60", "--quiet"], timeout=120)
        bt.check(r.code == 1 and "still running" not in r.err, "compare in time: undisturbed", r)
    return bt.verdict(f"{len(cases)} commands held: stopped by --timeout, nothing written")


if __name__ == "__main__":
    sys.exit(main())
