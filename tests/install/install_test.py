#!/usr/bin/env python3
"""bench installed with `meson install --destdir`, its prefix moved, and run with no source tree.

usage: install_test.py MESON BUILD_DIR SOURCE_DIR

Installs the build into a temporary folder, moves the installed prefix elsewhere (so only what
bench finds from its own location can work), checks what was installed (the data, the manual
pages, the bash completion), then runs the installed bench from a temporary folder: --version,
info, vecadd on every device, suite quick (short), compare of two documents it wrote, validate
with a known-issues file named by its installed name, suite --list of an installed suite file,
report, compile without ocloc, and history without Otava (the one command that installs it
where this bench finds it); the LNT schema installed; the installed completion offers the installed known-issues
names. Under strace, no file of the source or build tree may be opened (the driver registry of
OCL_ICD_VENDORS and the drivers it names are the test's environment, not bench's). Exit 0, 1
naming what failed, 77 where meson or strace is missing (the runs are done first).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

STRACE = shutil.which("strace")
failures = []


def fail(what):
    failures.append(what)
    print("FAIL:", what)


def real(p):
    return os.path.realpath(p)


def under(path, root):
    return path == root or path.startswith(root.rstrip("/") + "/")


class Tree:
    """The installed tree, the forbidden roots and the driver files allowed under them."""

    def __init__(self, tmp, build, source):
        self.tmp, self.runs = tmp, 0
        self.forbidden = sorted({build, source, real(build), real(source)})
        self.allowed = []
        reg = os.environ.get("OCL_ICD_VENDORS")
        if reg and os.path.isdir(reg):
            self.allowed.append(real(reg))
            for f in os.listdir(reg):
                lib = open(os.path.join(reg, f)).readline().strip() if f.endswith(".icd") else ""
                if lib.startswith("/"):   # the driver's own prefix: <prefix>/lib/libdriver.so
                    self.allowed.append(os.path.dirname(os.path.dirname(real(lib))))

    def bad_paths(self, log):
        """The calls (strace's lines) that name a file of the forbidden trees."""
        bad = {}
        for line in open(log, errors="replace"):
            for p in re.findall(r'"(/[^"]*)"', line):
                p = os.path.normpath(p)
                if any(under(p, r) for r in self.forbidden) and \
                        not any(under(p, a) or under(real(p), a) for a in self.allowed):
                    bad.setdefault(p, line.strip())
        return bad

    def run(self, argv, code, env=None, what=None):
        """Runs the installed bench (under strace where there is one); checks the exit code."""
        self.runs += 1
        log = os.path.join(self.tmp, f"strace-{self.runs}.txt")
        cmd = ([STRACE, "-f", "-qq", "-s", "4096", "-e", "trace=%file", "-o", log] if STRACE else [])
        # PWD as the folder it runs in: a driver stats $PWD (the test runner's own folder)
        r = subprocess.run(cmd + argv, capture_output=True, text=True, cwd=self.work,
                           env=dict(env or os.environ, PWD=self.work), timeout=600)
        what = what or " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(argv))
        if r.returncode not in (code if isinstance(code, tuple) else (code,)):
            fail(f"{what}: exit {r.returncode}, wanted {code}\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
        if STRACE:
            for p, call in sorted(self.bad_paths(log).items())[:10]:
                fail(f"{what}: reached {p}, a file of the source or build tree: {call}")
        return r


def install(meson, build, dest):
    r = subprocess.run([meson, "install", "-C", build, "--no-rebuild", "--quiet", "--destdir", dest],
                       capture_output=True, text=True)
    if r.returncode:
        fail(f"meson install: exit {r.returncode}: {r.stdout}{r.stderr}")
        return None
    found = [os.path.join(d, "bench") for d, _, files in os.walk(dest)
             if "bench" in files and os.path.basename(d) == "bin"]
    if len(found) != 1:
        fail(f"meson install: wanted one bin/bench, found {found}")
        return None
    return os.path.dirname(os.path.dirname(found[0]))


def check_files(prefix, source, cmds):
    """The data, pages and completion are where bench and the tools that read them look."""
    data = os.path.join(prefix, "share", "gpu-occupancy-bench")
    want = {os.path.join(data, "python", "report.py"),
            os.path.join(data, "python", "benchreport", "__init__.py"),
            os.path.join(prefix, "share", "bash-completion", "completions", "bench"),
            os.path.join(prefix, "share", "man", "man1", "bench.1")}
    want |= {os.path.join(prefix, "share", "man", "man1", f"bench-{c}.1") for c in cmds}
    want.add(os.path.join(data, "schema", "results.schema.json"))   # the build's, assembled
    want.add(os.path.join(data, "lnt", "bench.yaml"))   # LNT's test suite, for the server
    for sub in ("known-issues", "suites", "schema"):
        src = os.path.join(source, "results", sub)
        want |= {os.path.join(data, sub, f) for f in os.listdir(src)
                 if f.endswith((".json", ".xsd"))}
    for f in sorted(want):
        if not os.path.isfile(f):
            fail(f"not installed: {os.path.relpath(f, prefix)}")
    return data


def runs(t, bench, data, env):
    r = t.run([bench, "--version"], 0, env)
    if not re.match(r"bench [0-9]+\.[0-9]+\.[0-9]+ \(", r.stdout):
        fail(f"--version: first line {r.stdout.splitlines()[:1]}")
    if f"data: {data} (installed)" not in r.stdout:
        fail(f"--version: no line 'data: {data} (installed)' in\n{r.stdout}")
    devices = json.loads(t.run([bench, "info", "--json"], 0, env).stdout or "[]")
    t.run([bench, "info"], 0, env)
    if not devices:
        fail("bench info --json: no device")
    docs = []
    for d in devices:
        docs.append(os.path.join(t.work, f"vecadd-{d['index']}.json"))
        t.run([bench, "vecadd", "--groups", "1..4", "--reps", "5", "--device", str(d["index"]),
               "--quiet", "--json", docs[-1]], 0, env)
    again = os.path.join(t.work, "vecadd-again.json")
    t.run([bench, "vecadd", "--groups", "1..4", "--reps", "5", "--device", "0", "--quiet",
           "--json", again], 0, env)
    suite = os.path.join(t.work, "quick.json")
    t.run([bench, "suite", "quick", "--reps", "2", "--warmup", "0", "--quiet", "--json", suite], 0, env)
    cmp_doc = os.path.join(t.work, "compare.json")
    t.run([bench, "compare", docs[0], again, "--json", cmp_doc], (0, 1), env)
    if not os.path.exists(cmp_doc) or not json.load(open(cmp_doc)).get("points"):
        fail("bench compare: no comparison document with points")
    return docs, again


def checks(t, bench, data, docs, again, env):
    names = sorted(f[:-5] for f in os.listdir(os.path.join(data, "known-issues")) if f.endswith(".json"))
    r = t.run([bench, "validate", "--filter", "vecadd/v1*", "--known-issues", names[0], "--tap"], 0, env)
    if not re.search(r"^ok \d+ .*vecadd/v1", r.stdout, re.M):
        fail(f"validate: no passing vecadd/v1 check in\n{r.stdout[-1500:]}")
    r = t.run([bench, "validate", "--known-issues", "no-such-name", "--list"], 2, env)
    if ", ".join(names) not in r.stderr:
        fail(f"validate --known-issues no-such-name: the names there ({names}) not in: {r.stderr}")
    t.run([bench, "suite", "--list", os.path.join(data, "suites", "quick.json")], 0, env)
    page = os.path.join(t.work, "report.html")
    t.run([bench, "report", docs[0], again, "-o", page], 0, env)
    if not os.path.exists(page) or "<svg" not in open(page).read():
        fail("bench report: no page with charts")
    bare = dict(env, PATH="/usr/bin:/bin")
    bare.pop("BENCH_OCLOC", None)
    # bench history without Otava: the one command that installs it where an installed bench
    # finds it, never a source tree's script
    home = dict(bare, HOME=os.path.join(t.work, "home"), XDG_DATA_HOME="")
    if not shutil.which("otava", path=home["PATH"]):
        r = t.run([bench, "history", docs[0], again], 77, home)
        venv = os.path.join(home["HOME"], ".local", "share", "bench", "otava")
        if (f"python3 -m venv {venv} && {venv}/bin/pip install apache-otava==" not in r.stderr
                or "setup.sh" in r.stderr or ".deps" in r.stderr):
            fail(f"history without Otava: an installed bench's one command wanted: {r.stderr}")
    if not shutil.which("ocloc", path=bare["PATH"]):
        r = t.run([bench, "compile", "--target", "pvc", "--benchmark", "vecadd"], 77, bare)
        if "intel-opencl-icd" not in r.stderr or ".deps" in r.stderr:
            fail(f"compile without ocloc: an installed bench's advice wanted: {r.stderr}")


def check_completion(prefix, bench, data, work):
    """The installed completion offers the known-issues names installed beside this bench."""
    names = {f[:-5] for f in os.listdir(os.path.join(data, "known-issues")) if f.endswith(".json")}
    script = ('. "$1"; COMP_WORDS=("$2" validate --known-issues ""); COMP_CWORD=3; _bench; '
              'printf "%s\\n" "${COMPREPLY[@]}"')
    comp = os.path.join(prefix, "share", "bash-completion", "completions", "bench")
    r = subprocess.run(["bash", "-c", script, "bash", comp, bench], capture_output=True, text=True,
                       cwd=work)
    if not names <= set(r.stdout.split()):
        fail(f"the installed completion of --known-issues: {sorted(names)} not in {r.stdout.split()}")


def main(argv):
    if len(argv) != 4:
        print(__doc__.split("\n")[2], file=sys.stderr)
        return 2
    meson, build, source = argv[1:]
    if not shutil.which(meson):
        print("skipped: no meson to install with")
        return 77
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCH_")}
    if env.get("OCL_ICD_VENDORS"):
        env["OCL_ICD_VENDORS"] = real(env["OCL_ICD_VENDORS"])
        os.environ["OCL_ICD_VENDORS"] = env["OCL_ICD_VENDORS"]
    cmds = [c["name"] for c in json.loads(subprocess.run(
        [os.path.join(build, "bench"), "list", "--json"], capture_output=True, check=True).stdout)]
    with tempfile.TemporaryDirectory(prefix="bench-install-") as tmp:
        prefix = install(meson, build, os.path.join(tmp, "dest"))
        if prefix:
            moved = os.path.join(tmp, "moved")
            shutil.move(prefix, moved)
            t = Tree(tmp, build, source)
            t.work = os.path.join(tmp, "work")
            os.mkdir(t.work)
            env["MPLCONFIGDIR"] = os.path.join(tmp, "mpl")
            data = check_files(moved, source, cmds)
            bench = os.path.join(moved, "bin", "bench")
            docs, again = runs(t, bench, data, env)
            checks(t, bench, data, docs, again, env)
            check_completion(moved, bench, data, t.work)
            print(f"{t.runs} runs of the installed bench from {moved}")
    if failures:
        print(f"{len(failures)} failures")
        return 1
    if not STRACE:
        print("skipped: every run passed, but without strace nothing checked that no file of "
              "the source or build tree was opened")
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
