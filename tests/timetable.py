#!/usr/bin/env python3
"""Prints where the time of a scripts/test.sh run went: each stage's wall time, then the
slowest tests of all its meson testlogs (their own duration as meson measured it).

usage: timetable.py [--top N] STAGE=SECONDS[=TESTLOG]...
A STAGE is a step of test.sh (set-up, a build, a meson test run); TESTLOG, where given, is that
run's meson-logs/testlog-*.json. Each test is named with its stage's name, so a test run in two
stages is listed once per stage. Prints nothing that scripts/test.sh's last line counts.
"""
import argparse
import os
import sys

import benchtest as bt


def stage_arg(s):
    parts = s.split("=")
    if len(parts) not in (2, 3) or not parts[1].isdigit():
        raise argparse.ArgumentTypeError(f"'{s}': give STAGE=SECONDS[=TESTLOG]")
    return parts[0], int(parts[1]), parts[2] if len(parts) == 3 else None


def minutes(s):
    return f"{s // 60}:{s % 60:02d}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("stages", nargs="+", type=stage_arg)
    a = ap.parse_args()
    tests, total = [], 0
    print("time by stage (wall, m:ss; tests: their own time added up, run 2 at a time):")
    for name, wall, log in a.stages:
        total += wall
        own = 0.0
        if log and os.path.exists(log):
            for r in bt.json_lines(log):
                own += r.get("duration", 0.0)
                tests.append((r.get("duration", 0.0), r["name"].split(":", 1)[-1], name, r["result"]))
        extra = f"  ({own:.0f} s of tests)" if log else ""
        print(f"  {name:<28} {minutes(wall):>6}{extra}")
    print(f"  {'all':<28} {minutes(total):>6}")
    tests.sort(reverse=True)
    print(f"the {min(a.top, len(tests))} slowest tests (s):")
    for dur, name, stage, result in tests[:a.top]:
        print(f"  {dur:7.1f}  {name}  [{stage}]{'' if result in ('OK', 'SKIP') else '  ' + result}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
