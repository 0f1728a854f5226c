"""Results documents written by hand for the tests of bench compare (compare_test.py,
verdict_test.py): points of known samples, documents around them, and bench compare run on
them with every output read back.
"""
import dataclasses
import json
import os
import random
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

BENCH = sys.argv[1] if len(sys.argv) > 1 else "bench"
DEVICE = {"name": "Test GPU 9000", "platform": "Test Platform", "driver_version": "1.2.3",
          "type": "GPU"}


def point(groups, median=100000.0, reps=12, cv=1.0, seed=0, status="ok", samples=None, **extra):
    """A vecadd-like point: `reps` samples around `median` ns, integer ns (ties happen), or
    the samples given, in their order."""
    rnd = random.Random(groups * 1000 + seed)
    gauss = [float(round(rnd.gauss(median, median * cv / 100))) for _ in range(reps)]
    samples = gauss if samples is None else list(samples)
    p = {"params": {"variant": 2, "groups": groups, "wg_size": 512, "sg_size_compiled": 32,
                    "sg_size_kernel": 32, "n": groups * 65536, "seed": rnd.getrandbits(63)},
         "status": status, "reason": None, "validated": status == "ok"}
    if status in ("ok", "suspect"):   # a suspect point keeps its samples, for diagnosis
        s = sorted(samples)
        p["time_ns"] = {"min": s[0], "median": bt.median(s), "mean": sum(s) / len(s), "n": len(s),
                        "samples": samples}
    for k, v in extra.items():
        if k == "params":
            p["params"].update(v)
        else:
            p[k] = v
    return p


def clock(agree=True, finding=None, figure="event"):
    """A point's `clock` member: the host's witness of its times (bench/harness/witness.c)."""
    return {"figure": figure, "agree": agree, "host_min_ns": 412000.0,
            "unexplained_ns": 0.0 if agree else 411000.0, "disordered": 0, "finding": finding}


def suspect(p, reason="clock: the event says 1 ns where the host waited 412 us"):
    """p made suspect as the harness writes one: status and reason, its samples kept, validated,
    its clock disagreeing."""
    p.update(status="suspect", reason=reason, validated=True,
             clock=clock(False, reason.split(": ", 1)[-1]))
    return p


def disagreeing(p, finding="the event says 1 ns where the host waited 412 us"):
    """p left ok, but its clock member says the host's witness disagreed."""
    p["clock"] = clock(False, finding)
    return p


def doc(points, device=None, benchmark="vecadd", **extra):
    d = {"schema_version": 1, "tool": {"name": "bench", "version": "0.1.0"},
         "timestamp": "2026-11-23T10:00:00Z", "command": ["bench", benchmark],
         "host": {"hostname": "runner1"}, "device": device or DEVICE, "benchmark": benchmark,
         "points": points}
    d.update(extra)
    if benchmark is None:   # a suite's document: each point names its own
        del d["benchmark"]
    return d


def sweep(n=8, seed=0, scale=None, reps=12, cv=1.0):
    """n points; scale maps a group number to a factor on its median."""
    scale = scale or {}
    return [point(g, 100000.0 * scale.get(g, 1.0), reps=reps, cv=cv, seed=seed)
            for g in range(1, n + 1)]


@dataclasses.dataclass
class Run(bt.Result):
    """bench compare's Result, with the text of each output it wrote (by option)."""
    files: dict = dataclasses.field(default_factory=dict)


def compare(base, new, *args, outputs=True, raw=None):
    """Writes the documents (dicts, or text for raw) and runs bench compare on them."""
    with bt.tmpdir() as d:
        paths = []
        for name, content in (("base.json", base), ("new.json", new)):
            path = os.path.join(d, name)
            if content is not None:
                bt.write_doc(path, content)
            paths.append(path)
        outs = {}
        cmd = [BENCH, "compare"]
        if outputs:
            for opt, name in (("--json", "c.json"), ("--junit", "c.xml"), ("--markdown", "c.md")):
                outs[opt] = os.path.join(d, name)
                cmd += [opt, outs[opt]]
        cmd += [a.replace("@DIR", d) for a in args]
        cmd += paths if raw is None else [p.replace("@DIR", d) for p in raw]
        r = bt.run(cmd)
        files = {}
        for opt, path in outs.items():
            if os.path.exists(path):
                with open(path) as f:
                    files[opt] = f.read()
        return Run(**vars(r), files=files)


def verdicts(run):
    j = json.loads(run.files["--json"])
    return {p["params"]["groups"]: p["verdict"] for p in j["points"]}, j


def junit(run):
    root = ET.fromstring(run.files["--junit"])
    return root, root.findall(".//testcase")


def probed(points, before, after=None):
    """The points with clock probe times (ns) before and after their launches."""
    for p in points:
        p["clock_probe_ns"] = {"before": list(before), "after": list(after or before)}
    return points
