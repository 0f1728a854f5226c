#!/usr/bin/env python3
"""scripts/plant-slowdown.py: every family's plant builds and validates on a CPU platform.

usage: plants_test.py BENCH PERCENT -- DEVICE ARGS
  Plants PERCENT % in all seven families at once and runs, with --kernels on the planted
  copy, each family's benchmark at small sizes: every point must come out ok and validated,
  or skipped as the platform skips it anyway (a plant does more work of the same kind and
  keeps the output exact). plant.json names the
  families and their points. Then the script's refusals: a PERCENT out of range, an unknown
  family, OUT_DIR the kernels folder, and a kernel that no longer holds the text a plant
  changes (exit 1 naming the file), so a kernel edit cannot silently disable a plant.
(The slowdowns' sizes are measured on GPUs: docs/regression.md.)
"""
import os
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402

BENCH, PERCENT = sys.argv[1], sys.argv[2]
DEVICE = bt.after_dashes(sys.argv[3:])
ROOT = Path(__file__).resolve().parents[2]
PLANT = [sys.executable, str(ROOT / "scripts" / "plant-slowdown.py")]
KERNELS = str(ROOT / "kernels")
QUICK = ["--reps", "3", "--warmup", "1", "--quiet"]
RUNS = {
    "vecadd": ["vecadd", "--groups", "1..3", "--slice", "16Ki"],
    "stream": ["vecadd", "--variant", "1", "--n", "1Mi"],
    "stream5": ["stream", "--n", "1Mi"],
    "sg-copy": ["sg-copy", "--size", "4Mi"],
    "transpose": ["transpose", "--n", "256,512"],
    "atomics": ["atomics", "--ops", "64"],
    "latency": ["latency", "--sizes", "1Ki,64Ki,1Mi"],
    "waves": ["occupancy", "--waves", "--wg", "64", "--groups", "1..4", "--spin", "640"],
    "check": ["occupancy", "--check", "--wg", "64,128"],
}


def main():
    with bt.tmpdir() as d:
        out = os.path.join(d, "planted")
        bt.must_run(PLANT + [KERNELS, out, PERCENT, "--family", "all"])
        plant = bt.load_doc(os.path.join(out, "plant.json"))
        check(plant["percent"] == int(PERCENT) and len(plant["families"]) == 7 and
              set(plant["planted"]) == set(plant["families"]),
              f"plant.json: {PERCENT} %, seven families, their points: {plant}")
        for name, args in RUNS.items():
            doc = os.path.join(d, name + ".json")
            r = bt.run([BENCH] + args + QUICK + ["--kernels", out, "--json", doc] + DEVICE)
            pts = bt.load_doc(doc)["points"] if os.path.exists(doc) else []
            # a point the platform cannot run is skipped with or without the plant
            bad = [p.get("reason") for p in pts
                   if p["status"] == "failed" or (p["status"] == "ok" and not p.get("validated"))]
            ok = sum(p["status"] == "ok" for p in pts)
            check(r.code == 0 and ok and not bad,
                  f"{name}: planted {PERCENT} %: {ok} of {len(pts)} points ok and validated, "
                  f"none failed: {bad}", r)
        for args, code, msg in [([KERNELS, out, "0"], 2, "PERCENT 0: allowed 1..50"),
                                ([KERNELS, out, "10", "--family", "fill"], 2, "--family 'fill'"),
                                ([KERNELS, KERNELS], 2, "is KERNELS_DIR")]:
            r = bt.run(PLANT + args)
            check(r.code == code and msg in r.err, f"refused: {args[2:]}: exit {r.code}: {r.err[-300:]}", r)
        edited = os.path.join(d, "edited")
        shutil.copytree(KERNELS, edited)
        lat = os.path.join(edited, "latency.cl")
        Path(lat).write_text(Path(lat).read_text().replace("idx = buf[idx];", "idx = buf[idx + 0];"))
        r = bt.run(PLANT + [edited, os.path.join(d, "again"), "10", "--family", "latency"])
        check(r.code == 1 and "latency.cl no longer has" in r.err,
              f"a kernel edited under a plant: exit {r.code}: {r.err[-300:]}", r)
    sys.exit(bt.verdict())


if __name__ == "__main__":
    main()
