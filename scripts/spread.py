#!/usr/bin/env python3
"""Run-to-run spread: the coefficient of variation of each point's median time across
several results documents of the same benchmark (repeated runs of one command).

usage: spread.py RUN1.json RUN2.json [RUN3.json ...]
Prints, per point (matched by params, seed left out), the medians and their CV %,
then the largest and the median CV. Exit 2 on bad input.
"""
import json
import statistics
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from compare import key, label, load, usage_error  # noqa: E402


def main():
    paths = sys.argv[1:]
    if len(paths) < 2:
        usage_error("give two or more results documents of the same benchmark")
    docs = [load(p) for p in paths]
    if len({d.get("benchmark") for d in docs}) != 1:
        usage_error("the documents are of different benchmarks")
    runs = [{key(p): p for p in d["points"] if p["status"] == "ok" and "time_ns" in p} for d in docs]
    cvs = []
    for k, first in runs[0].items():
        medians = [r[k]["time_ns"]["median"] for r in runs if k in r]
        if len(medians) < 2:
            continue
        cv = statistics.stdev(medians) / statistics.mean(medians) * 100
        cvs.append(cv)
        print(f"{label(first)}: medians " + " ".join(f"{m / 1e3:.2f}" for m in medians)
              + f" us, CV {cv:.2f}%")
    if not cvs:
        usage_error("no point is ok in two documents")
    print(f"{len(cvs)} points over {len(docs)} runs: CV of the medians: median "
          f"{statistics.median(cvs):.2f}%, largest {max(cvs):.2f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
