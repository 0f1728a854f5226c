#!/usr/bin/env python3
"""bench suite on a driver whose profiling clock lies (the stub's BENCH_STUB_TIME=zero), run
under stub_run.py over a real CPU driver.

usage: suite_suspect.py BENCH
- the summary counts the suspect points (`N points (0 ok, 0 failed, 0 skipped, N suspect)`),
  says their figures are not results, and the suite exits 1;
- `--baseline CLEAN --confirm 2` against a clean run of the same suite: every point `suspect`
  (none unchanged, improved or regressed, none confirmed), no entry run again for them, exit 1.
"""
import json
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402

SUITE = {"name": "tiny", "description": "two vecadd points",
         "entries": [{"bench": "vecadd", "args": ["--groups", "1,2", "--reps", "9",
                                                  "--warmup", "1"]}]}


def main():
    bench = sys.argv[1]
    with bt.tmpdir() as d:
        suite = os.path.join(d, "tiny.json")
        with open(suite, "w") as f:
            json.dump(SUITE, f)
        clean = os.path.join(d, "clean.json")
        r = bt.run([bench, "suite", suite, "--json", clean, "--quiet"])
        if r.code != 0:
            bt.fail(f"the clean run: exit {r.code}", r)
        lie = {"BENCH_STUB_TIME": "zero"}
        bad = os.path.join(d, "bad.json")
        r = bt.run([bench, "suite", suite, "--json", bad, "--quiet"], env=lie)
        check(r.code == 1, f"suite under the lie: exit {r.code}, expected 1", r)
        check(re.search(r"2 points \(0 ok, 0 failed, 0 skipped, 2 suspect\)", r.out),
              "suite: the summary counts 2 suspect points", r)
        check("2 suspect points: their times are not to be believed" in r.out,
              "suite: the summary says their figures are not results", r)
        out = os.path.join(d, "confirm.json")
        r = bt.run([bench, "suite", suite, "--baseline", clean, "--confirm", "2", "--json", out],
                   env=lie)
        check(r.code == 1, f"suite --baseline --confirm: exit {r.code}, expected 1", r)
        # a table row: the figures, the verdict, then the benchmark and its params
        rows = re.findall(r"^.*?(\w+)\s+vecadd\s+groups=\d+ n=\d+\s*$", r.out, re.M)
        check(rows == ["suspect", "suspect"], f"suite --confirm: verdicts {rows}", r)
        check("again, round" not in r.out, "suite --confirm: an entry ran again for suspect points", r)
        check(re.search(r"^2 points: 2 suspect$", r.out, re.M), "suite --confirm: the counts", r)
    return bt.verdict("bench suite: 2 suspect points counted, none judged or confirmed, exit 1")


if __name__ == "__main__":
    sys.exit(main())
