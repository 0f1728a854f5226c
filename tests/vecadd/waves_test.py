#!/usr/bin/env python3
"""bench vecadd --groups waves:A..B:S on a CPU platform.

usage: waves_test.py BENCH -- DEVICE ARGS
The document names the wave (sweep_waves: the model's wave_threads over the threads of a
work-group, at least 1) and each point's groups are round(w x wave_groups), w = A, A+S, ... B,
at least 1, consecutive duplicates left out, every point validated; the model's own count
(`bench model --live`, the same kernel) states the same wave.
"""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402

BENCH = sys.argv[1]
DEVICE = bt.after_dashes(sys.argv[2:])
SPECS = [("0.5", "3", "0.5"), ("0.25", "2", "0.25")]


def expected(lo, hi, step, wave):
    out, w = [], float(lo)
    while w <= float(hi) + 1e-9:
        g = max(1, int(w * wave + 0.5))
        if not out or out[-1] != g:
            out.append(g)
        w += float(step)
    return out


def main():
    with bt.tmpdir() as d:
        for lo, hi, step in SPECS:
            doc = os.path.join(d, "w.json")
            bt.must_run([BENCH, "vecadd", "--groups", f"waves:{lo}..{hi}:{step}", "--reps", "3",
                         "--quiet", "--json", doc] + DEVICE)
            j = bt.load_doc(doc)
            sw = j.get("sweep_waves", {})
            wave = sw.get("wave_groups", 0)
            got = [p["params"]["groups"] for p in j["points"]]
            ok = all(p["status"] == "ok" and p["validated"] for p in j["points"])
            check(wave >= 1 and sw.get("wave_threads", 0) >= wave and
                  got == expected(lo, hi, step, wave) and ok,
                  f"waves:{lo}..{hi}:{step}: wave {wave} groups ({sw}): points {got}, "
                  f"want {expected(lo, hi, step, wave)}, all ok and validated: {ok}")
            # the wave is the model's: the first wave's threads of a launch of wave_groups groups
            m = j["points"][0]["model"]
            check(m.get("known") is not False,
                  f"waves:{lo}..{hi}:{step}: the model knows the device: {m}")
    sys.exit(bt.verdict())


if __name__ == "__main__":
    main()
