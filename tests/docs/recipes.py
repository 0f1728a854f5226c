#!/usr/bin/env python3
"""Every command block of docs/ci.md, docs/validation.md and docs/regression.md that a runner
would run, run as the page says, from an installed bench, in a fresh folder, on PoCL.

usage: recipes.py MESON BUILD_DIR SOURCE_DIR [PAGE...]

Every fenced block of a page whose language is sh, yaml or cmake carries a marker on the line
before it: `<!-- recipe: run -->` (run here) or `<!-- recipe: skip: WHY -->` (a GPU, the network,
root, a source tree); a block without one fails, so a new recipe is run or says why not. The
build is installed with `meson install --destdir` into a temporary folder and its bin/ put first
on PATH; each page's run blocks go in turn, in one fresh folder of their own (a block may use
what one before it made), under bash with -o pipefail: a command that exits other than 0 or 1
(1: a regression or an unexpected result reported, which a CI job turns red) fails the block.
A yaml block runs the `script:` items of each job, with its `variables:`.

What a PoCL runner has in place of a GPU runner's, changed in each block's text before it runs
(REPLACE below; each change printed): the GPU suite is a small suite named gpu (vecadd and
occupancy at small sizes: its documents are still *--gpu.json), --require-device gpu is cpu, the
runner's history folder is ./history/gpu (filled with 5 runs of that suite before the page's
blocks), /tmp/ is a folder of the test's, and the fleet job's driver is PoCL's. The folder is a
git repository with results/baselines/ (a checkout that keeps baselines), BENCH_DEVICE names
PoCL, GITHUB_STEP_SUMMARY a file, the test setup's BENCH_PROGRAM_CACHE is kept (speed only), and the GitLab job's variables are set (CI_NODE_INDEX 1 of 2).
bench history gets the build tree's Otava (BENCH_OTAVA); without one, or without meson, exit 77.
Exit 0 when every run block passed, 1 naming each failure.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import yaml

MARKER = re.compile(r"^<!-- recipe: (run|skip: .+) -->$")
FENCE = re.compile(r"^```(\w*)\s*$")
LANGS = ("sh", "yaml", "cmake")
PAGES = ("docs/ci.md", "docs/validation.md", "docs/regression.md")
REPLACE = [
    ("build/bench", "bench"),
    ("scripts/bench", "bench"),
    ("suite gpu ", "suite ./gpu.json "),
    ("--require-device gpu", "--require-device cpu"),
    ("/var/lib/bench/history/gpu", "$PWD/history/gpu"),
    ("/tmp/", "$RECIPE_TMP/"),
    ("'^NVIDIA CUDA$'", "'^Portable Computing Language$'"),
]
SUITE = """{"name": "gpu", "description": "the docs' recipes on PoCL: a small suite in the GPU one's place",
 "noise": {"gpu": 5, "cpu": 300}, "args": ["--reps", "10", "--warmup", "1"],
 "entries": [{"bench": "vecadd", "args": ["--groups", "1..4", "--slice", "4Ki"]},
             {"bench": "occupancy", "args": ["--waves", "--wg", "64", "--groups", "1,2", "--spin", "256"]}]}
"""
# a command's exit other than 0 or 1 ends the block with it
PROLOGUE = """set -o pipefail
trap 'rc=$?; if [ $rc -ne 1 ]; then echo "recipe: exit $rc: $BASH_COMMAND" >&2; exit $rc; fi' ERR
"""
failures = []


def blocks(path):
    """(line, language, marker, text) of each fenced block of a page."""
    lines = open(path).read().split("\n")
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        start, lang = i, m.group(1)
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        marker = MARKER.match(lines[start - 1]) if start else None
        out.append((start + 1, lang, marker.group(1) if marker else None, "\n".join(lines[i + 1:j])))
        i = j + 1
    return out


def scripts(lang, text):
    """The shell scripts of a block: itself (sh), or each job's script items (yaml)."""
    if lang == "sh":
        return [("", {}, text)]
    out = []
    for name, job in (yaml.safe_load(text) or {}).items():
        if isinstance(job, dict) and isinstance(job.get("script"), list):
            env = {k: str(v) for k, v in (job.get("variables") or {}).items()}
            out.append((name, env, "\n".join(job["script"])))
    return out


def adapt(text, where):
    for old, new in REPLACE:
        if old in text:
            print(f"{where}: '{old}' -> '{new}'")
            text = text.replace(old, new)
    return text


def fixture(work, bench_env):
    """The fresh folder a runner has: a git checkout with results/baselines/, the small suite,
    a history of 5 runs, a board's expectation files."""
    os.makedirs(os.path.join(work, "results", "baselines"))
    with open(os.path.join(work, "gpu.json"), "w") as f:
        f.write(SUITE)
    for i in range(5):
        r = subprocess.run(["bench", "suite", "./gpu.json", "--quiet", "-o",
                            os.path.join(work, "history", "gpu", f"2026010{i + 1}T000000-run{i}")],
                           cwd=work, env=bench_env, capture_output=True, text=True)
        if r.returncode:
            raise SystemExit(f"fixture: a history run failed: {r.stderr}")
    board = os.path.join(work, "ci", "boards", "h100")
    os.makedirs(board)
    for name, text in (("fails.csv", "# expected failures\n"), ("flakes.txt", "# flaky\n"),
                       ("skips.txt", "# never run\n^profiling/device-host-timer$\n")):
        with open(os.path.join(board, name), "w") as f:
            f.write(text)
    for cmd in (["git", "init", "-q"], ["git", "config", "user.email", "runner@example.com"],
                ["git", "config", "user.name", "runner"]):
        subprocess.run(cmd, cwd=work, check=True)


def run_page(page, source, prefix, tmp, otava):
    path = os.path.join(source, page)
    todo = []
    for line, lang, marker, text in blocks(path):
        if lang not in LANGS:
            continue
        if marker is None:
            failures.append(f"{page}:{line}: a {lang} block without <!-- recipe: run --> or "
                            "<!-- recipe: skip: WHY -->")
        elif marker == "run":
            todo.append((line, lang, text))
    if not todo:
        return
    work = os.path.join(tmp, page.replace("/", "-"))
    os.makedirs(work)
    # the test setup's program cache stays (each program compiled once per build folder)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("BENCH_", "GITHUB_", "CI_")) or k == "BENCH_PROGRAM_CACHE"}
    env.update(PATH=os.path.join(prefix, "bin") + ":" + env["PATH"], BENCH_DEVICE="PoCL",
               BENCH_OTAVA=otava, RECIPE_TMP=os.path.join(tmp, "t-" + page.replace("/", "-")),
               GITHUB_STEP_SUMMARY=os.path.join(work, "step-summary.md"), CI_NODE_TOTAL="2",
               CI_NODE_INDEX="1", CI_COMMIT_SHORT_SHA="0123abc", CI_COMMIT_BRANCH="main",
               CI_DEFAULT_BRANCH="main", HOME=os.path.join(tmp, "home"))
    os.makedirs(env["RECIPE_TMP"])
    fixture(work, env)
    for line, lang, text in todo:
        for job, variables, script in scripts(lang, text):
            where = f"{page}:{line}{' ' + job if job else ''}"
            script = adapt(script, where)
            t0 = time.monotonic()
            r = subprocess.run(["bash", "-c", PROLOGUE + script], cwd=work, env=dict(env, **variables),
                               capture_output=True, text=True)
            print(f"{where}: exit {r.returncode} in {time.monotonic() - t0:.1f} s")
            if r.returncode not in (0, 1):
                failures.append(f"{where}: exit {r.returncode}\n--- stdout ---\n{r.stdout[-3000:]}"
                                f"\n--- stderr ---\n{r.stderr[-3000:]}")


def main(argv):
    if len(argv) < 4:
        print(__doc__.split("\n")[3], file=sys.stderr)
        return 2
    meson, build, source = argv[1:4]
    pages = argv[4:] or PAGES
    otava = os.path.join(source, ".deps", "otava", "bin", "otava")
    if not shutil.which(meson):
        print("skipped: no meson to install with")
        return 77
    if not os.access(otava, os.X_OK):
        print(f"skipped: no Apache Otava at {otava} for bench history (scripts/setup.sh)")
        return 77
    with tempfile.TemporaryDirectory(prefix="bench-recipes-") as tmp:
        dest = os.path.join(tmp, "dest")
        r = subprocess.run([meson, "install", "-C", build, "--destdir", dest, "--no-rebuild",
                            "--quiet"], capture_output=True, text=True)
        if r.returncode:
            print(f"meson install: exit {r.returncode}: {r.stderr}")
            return 1
        found = [root for root, _, files in os.walk(dest) if "bench" in files and root.endswith("/bin")]
        if not found:
            print(f"no bin/bench under {dest}")
            return 1
        for page in pages:
            run_page(page, source, os.path.dirname(found[0]), tmp, otava)
    for f in failures:
        print(f"FAIL: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
