#!/usr/bin/env python3
"""Runs a libFuzzer harness for a fixed number of runs over the committed seeds.

usage: run_fuzz.py FUZZER SEEDS_DIR [libFuzzer flags...]
       run_fuzz.py --skip REASON
New inputs go to a temporary corpus (the committed seeds are never written); a crash's input is
kept in the current folder as crash-*. Exit 77 (skipped) with --skip: clang's libFuzzer is missing.
"""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402


def main() -> int:
    if len(sys.argv) >= 2 and sys.argv[1] == "--skip":
        bt.skip(" ".join(sys.argv[2:]))
    fuzzer, seeds, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
    with bt.tmpdir(prefix="bench-fuzz-") as corpus:
        cmd = [fuzzer, "-seed=1", "-error_exitcode=1", "-print_final_stats=1", "-artifact_prefix=" + os.getcwd() + "/",
               *flags, corpus, seeds]
        print(" ".join(cmd), flush=True)
        return bt.run(cmd, capture=False).code


if __name__ == "__main__":
    sys.exit(main())
