"""Results documents for the report tests: real CPU runs of the built bench with small sizes,
a few edited copies (a failed point, a residency the model does not predict) that CPU runs
cannot produce, and bench compare's document of two of them.
"""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

INTEL = ["--device", "Intel(R) OpenCL"]
POCL = ["--device", "PoCL"]
QUICK = ["--reps", "3", "--warmup", "1", "--quiet"]

# name: (bench arguments, device)
RUNS = {
    "vecadd": (["vecadd", "--groups", "1..6"], INTEL),
    "vecadd-again": (["vecadd", "--groups", "1..6"], INTEL),
    "occupancy": (["occupancy", "--wg", "64,128", "--slm", "0,8Ki"], INTEL),
    "occupancy-pocl": (["occupancy", "--wg", "64"], POCL),   # the driver's count not offered
    "waves": (["occupancy", "--waves", "--wg", "64", "--groups", "1..4"], INTEL),
    "sg-info": (["sg-info", "--sg", "8,16"], INTEL),
    "sg-copy": (["sg-copy", "--size", "1Mi"], INTEL),
    "sg-copy-pocl": (["sg-copy", "--size", "1Mi"], POCL),   # block points skipped
    "transpose": (["transpose", "--n", "64"], INTEL),
    "atomics": (["atomics", "--ops", "64"], INTEL),
    "latency": (["latency", "--sizes", "1Ki..256Ki", "--steps", "1", "--loads", "512"], INTEL),
    "latency-pocl": (["latency", "--sizes", "1Ki..64Ki", "--steps", "1", "--loads", "512"],
                     POCL),   # a clock: cycles
}
SMALL = ["vecadd", "vecadd-again", "occupancy", "sg-copy-pocl", "latency-pocl"]


def run_bench(bench, name):
    """The document of one run, made once per build for both report tests (benchtest.run_once:
    report-chromium reads the SMALL ones report-structure reads too); never written to."""
    args, dev = RUNS[name]
    cmd = [bench] + args + dev + QUICK + ["--json", os.path.join("@DIR@", f"{name}.json")]
    r, d = bt.run_once(cmd)
    path = os.path.join(d, f"{name}.json")
    if r.code not in (0, 1) or not os.path.exists(path):
        bt.fail(f"bench failed ({r.code}): {' '.join(cmd)}\n{r.err}")
    return path


def _write(folder, name, doc):
    return bt.write_doc(os.path.join(folder, name), doc)


def with_failed_point(folder, vecadd_path):
    """vecadd with its third point failed: no time, a reason, as bench writes a failure."""
    doc = bt.load_doc(vecadd_path)
    p = doc["points"][2]
    for k in ("time_ns", "wall_ns", "copy_time_ns", "metrics"):
        p.pop(k, None)
    p.update(status="failed", validated=False, reason="output word 17 is 0xdeadbeef, expected 34")
    return _write(folder, "vecadd-failed.json", doc)


def with_disagreement(folder, occ_path):
    """occupancy with the model predicting one group more than measured at the first point."""
    doc = bt.load_doc(occ_path)
    p = doc["points"][0]
    p["model"]["resident_wg"] = p["measured"]["resident_wg"] + 1
    return _write(folder, "occupancy-disagree.json", doc)


def compare_result(bench, folder, old_path, new_path):
    """bench compare's document of two runs (exit 0, or 1 where a point regressed)."""
    path = os.path.join(folder, "compare.json")
    r = bt.run([bench, "compare", old_path, new_path, "--json", path, "--quiet"])
    if r.code not in (0, 1) or not os.path.exists(path):
        bt.fail(f"bench compare failed ({r.code})", r)
    return path


def make(bench, folder, small=False):
    """Runs bench and writes the edited copies; returns the documents' paths in report order."""
    paths = {name: run_bench(bench, name) for name in (SMALL if small else RUNS)}
    out = list(paths.values())
    if not small:
        out.append(with_failed_point(folder, paths["vecadd"]))
        out.append(with_disagreement(folder, paths["occupancy"]))
        out.append(compare_result(bench, folder, paths["vecadd"], out[-2]))
    return out


def report(bench, docs, out, png=None):
    cmd = [bench, "report"] + docs + ["-o", out] + (["--png", png] if png else [])
    return bt.run(cmd)
