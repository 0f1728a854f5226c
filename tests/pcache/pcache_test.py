#!/usr/bin/env python3
"""The program cache (host/pcache.h) on one device: pcache_test.py BENCH DEVICE.

A first run with BENCH_PROGRAM_CACHE set builds from source and keeps each program (folder
0700, entries 0600, each holding its key); a second run loads them all (no entry written
again) and every point still validates; an entry cut short, or whose key differs in one
byte, is never used (built afresh and replaced); a relative folder is the one the run
started in; a file where the folder should be is left as it was, and the run still works.
"""
import os
import stat
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

MAGIC = b"BENCHPC1"


def entries(cache):
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in Path(cache).glob("*.bin")}


def run_ok(bench, device, work, cache, what):
    env = dict(os.environ, BENCH_PROGRAM_CACHE=str(cache))
    doc = Path(work) / "r.json"
    r = bt.must_run([bench, "vecadd", "--groups", "1..3", "--reps", "2", "--warmup", "0",
                     "--device", device, "--quiet", "--json", str(doc)], what=what, env=env,
                    cwd=work)
    pts = bt.read_doc(doc, r)["points"]
    bt.check(pts and all(p["status"] == "ok" for p in pts),
             f"{what}: every point validated ok: {[p['status'] for p in pts]}", r)
    return r


def main():
    bench, device = os.path.abspath(sys.argv[1]), sys.argv[2]
    with bt.tmpdir() as work:
        cache = Path(work) / "cache"
        os.environ.pop("BENCH_PROGRAM_CACHE", None)
        run_ok(bench, device, work, cache, "first run (builds from source)")
        first = entries(cache)
        if not first:
            bt.fail(f"no program kept in {cache} (the driver's library file unknown?)")
        bt.check(stat.S_IMODE(cache.stat().st_mode) == 0o700,
                 f"the cache folder is 0700: {oct(cache.stat().st_mode)}")
        for name in first:
            f = cache / name
            data = f.read_bytes()
            bt.check(stat.S_IMODE(f.stat().st_mode) == 0o600, f"{name} is 0600")
            bt.check(data.startswith(MAGIC), f"{name} starts with {MAGIC!r}")
            bt.check(b"\noptions " in data and b"\ndriver /" in data,
                     f"{name} holds its key (driver file, options)")
        bt.check(not list(cache.glob(".new-*")), "no half-written entry is left")

        run_ok(bench, device, work, cache, "second run (loads every program)")
        bt.check(entries(cache) == first,
                 f"the second run wrote no entry: {sorted(first)} -> {sorted(entries(cache))}")

        # an entry cut short, and one whose key differs, are built afresh and replaced
        names = sorted(first)
        cut, other = names[0], names[-1]
        data = (cache / cut).read_bytes()
        whole = len(data)
        (cache / cut).write_bytes(data[: whole // 2])
        data = (cache / other).read_bytes()
        at = data.index(b"\noptions ") + len(b"\noptions")
        (cache / other).write_bytes(data[:at] + b"\x01" + data[at + 1:])
        if cut == other:
            bt.fail("one entry only: the two faults need two")
        before = entries(cache)
        run_ok(bench, device, work, cache, "a run over a cut entry and a changed key")
        after = entries(cache)
        for name in (cut, other):
            bt.check(name in after and after[name] != before[name],
                     f"{name} was built afresh and replaced")
        again = (cache / cut).read_bytes()
        bt.check(again.startswith(MAGIC) and len(again) > whole // 2,
                 f"{cut} is whole again: {len(again)} bytes, {whole} before it was cut to "
                 f"{whole // 2}")
        for name in set(names) - {cut, other}:
            bt.check(after.get(name) == before[name], f"{name}, untouched, was loaded")

        # relative to the folder the run starts in
        run_ok(bench, device, work, "rel-cache", "a relative folder")
        rel = set(entries(Path(work) / "rel-cache"))
        bt.check(rel == set(first),
                 f"a relative folder holds the same entries, under the run's folder: {sorted(rel)}")

        # a file where the folder should be: left as it is, the run unharmed
        blocker = Path(work) / "not-a-dir"
        blocker.write_text("the user's\n")
        run_ok(bench, device, work, blocker, "a file in the cache folder's place")
        bt.check(blocker.read_text() == "the user's\n", "the file is left as it was")
    return bt.verdict(f"program cache on {device}: kept, loaded, cut and changed entries rebuilt")


if __name__ == "__main__":
    sys.exit(main())
