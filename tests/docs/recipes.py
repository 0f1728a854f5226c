#!/usr/bin/env python3
"""Every command block of docs/ci.md, docs/validation.md and docs/regression.md that a runner
would run, run as the page says, from an installed bench, in a fresh folder, on PoCL.

usage: recipes.py MESON BUILD_DIR SOURCE_DIR [PAGE...]

Every fenced block of a page whose language is sh, yaml or cmake carries a marker on the line
before it: `<!-- recipe: run -->` (run here) or `<!-- recipe: skip: WHY -->` (GPUs, the network,
root, a server); a block without one fails, so a new recipe is run or says why not. The
build is installed with `meson install --destdir` into a temporary folder and its bin/ put first
on PATH; each page's run blocks go in turn, in one fresh folder of their own (a block may use
what one before it made), under bash with -o pipefail: a command that exits other than 0 or 1
(1: a regression or an unexpected result reported, which a CI job turns red) fails the block.
A yaml block is a whole pipeline file, GitLab's or GitHub Actions': each job runs in a fresh
checkout of the page's folder, its steps in order, what cannot run here checked for form
(pipelines.py says how). A cmake block is a CMakeLists.txt: configured with cmake in a folder of
its own beside the wrapper script its comment `# NAME: COMMAND` describes, then `ctest` runs
every test it discovers, which must be every check `bench validate --list` plans (ctest's exit 8,
a check failed, counts as 1); not run, and said so, where cmake or ctest is not installed.

What a PoCL runner has in place of a GPU runner's, changed in each block's text before it runs
(REPLACE below; each change printed): the GPU suite is a small suite named gpu (vecadd and
occupancy at small sizes: its documents are still *--gpu.json), --require-device gpu is cpu, the
runner's history folder is ./history/gpu (filled with 5 runs of that suite before the page's
blocks), /tmp/ is a folder of the test's, and the fleet job's driver is PoCL's. The folder is a
git repository with results/baselines/ (a checkout that keeps baselines), BENCH_DEVICE names
PoCL, GITHUB_STEP_SUMMARY a file, the test setup's BENCH_PROGRAM_CACHE is kept (speed only), and the GitLab job's variables are set (CI_NODE_INDEX 1 of 2).
bench history gets the build tree's Otava (BENCH_OTAVA); without one, or without meson, exit 77.
Exit 0 when every run block passed, 1 naming each failure. RECIPES_VERBOSE=1 prints each block's
output (the end of its stdout and stderr) after its exit line.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import yaml

import pipelines

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
    ("--device GPU", "--device PoCL"),
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


def adapt(text, where):
    for old, new in REPLACE:
        if old in text:
            print(f"{where}: '{old}' -> '{new}'")
            text = text.replace(old, new)
    return text


def run_cmake(where, text, work, env):
    """A CMakeLists.txt with its wrapper, configured and run by ctest; its problems."""
    cmake, ctest = shutil.which("cmake"), shutil.which("ctest")
    if not cmake or not ctest:
        print(f"{where}: not run: cmake and ctest are not installed (Debian package cmake)")
        return []
    wrapper = re.search(r"#\s*([\w.-]+): (.+)$", text, re.M)
    if not wrapper:
        return [f"{where}: no '# NAME: COMMAND' comment describing the wrapper script"]
    d = os.path.join(work, f"cmake-{where.split(':')[-1]}")
    os.makedirs(d)
    with open(os.path.join(d, "CMakeLists.txt"), "w") as f:
        f.write(text + "\n")
    path = os.path.join(d, wrapper.group(1))
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + adapt(wrapper.group(2), where) + "\n")
    os.chmod(path, 0o755)
    t0 = time.monotonic()
    r = subprocess.run([cmake, "-S", d, "-B", os.path.join(d, "build")], env=env, capture_output=True,
                       text=True)
    if r.returncode:
        return [f"{where}: cmake: exit {r.returncode}\n{r.stdout[-2000:]}{r.stderr[-2000:]}"]
    r = subprocess.run([ctest, "--test-dir", os.path.join(d, "build")], env=env, capture_output=True,
                       text=True)
    planned = subprocess.run(["bench", "validate", "--list"], env=env, capture_output=True, text=True)
    ran = re.search(r"tests? failed out of (\d+)", r.stdout)
    print(f"{where}: ctest: exit {r.returncode} in {time.monotonic() - t0:.1f} s, "
          f"{ran.group(1) if ran else 'no'} tests")
    if r.returncode not in (0, 8) or not ran or int(ran.group(1)) != len(planned.stdout.split()):
        return [f"{where}: ctest: exit {r.returncode}, {ran.group(1) if ran else 'no'} tests of the "
                f"{len(planned.stdout.split())} checks planned\n{r.stdout[-3000:]}{r.stderr[-2000:]}"]
    return []


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
    ctx = {"adapt": adapt, "run": run_block, "source": source}
    for line, lang, text in todo:
        where = f"{page}:{line}"
        if lang == "cmake":
            failures.extend(run_cmake(where, text, work, env))
            continue
        if lang == "yaml":
            failures.extend(pipelines.run_pipeline(ctx, where, yaml.safe_load(text), work, tmp, env))
            continue
        failures.extend(run_block(adapt(text, where), where, work, env))



def run_block(script, where, cwd, env):
    """Runs one block's text after PROLOGUE in cwd; its problems (an exit other than 0 or 1)."""
    t0 = time.monotonic()
    r = subprocess.run(["bash", "-c", PROLOGUE + script], cwd=cwd, env=env,
                       capture_output=True, text=True)
    print(f"{where}: exit {r.returncode} in {time.monotonic() - t0:.1f} s")
    if os.environ.get("RECIPES_VERBOSE"):
        print(f"--- stdout ---\n{r.stdout[-4000:]}\n--- stderr ---\n{r.stderr[-4000:]}")
    if r.returncode not in (0, 1):
        return [f"{where}: exit {r.returncode}\n--- stdout ---\n{r.stdout[-3000:]}"
                f"\n--- stderr ---\n{r.stderr[-3000:]}"]
    return []


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
