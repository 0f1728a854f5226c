#!/usr/bin/env python3
"""The Debian package: built with Debian's tools, checked by lintian, unpacked and run.

usage: package_test.py SOURCE_DIR

Copies the source tree (its files that git tracks or would track; without git, all but build
folders and .deps) into a temporary folder, builds the source and binary packages there with
`dpkg-buildpackage --no-sign` (debian/rules: dh with the meson build system, the unit suite as
its tests), checks that whatever the build left in the tree is named by .gitignore, runs lintian on both (any error fails; every tag is printed), checks the
package's declared dependencies, unpacks it with `dpkg -x` into a throwaway root, and runs the
unpacked bench: --version (the package's version, its data found in that root), info, vecadd
--groups 1..4.
Exit 0, 1 naming what failed, 77 where dpkg-buildpackage, debhelper or lintian is missing or the
build dependencies are not installed (scripts/setup.sh installs them).
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TOOLS = {"dpkg-buildpackage": "dpkg-dev", "dh": "debhelper", "lintian": "lintian",
         "dpkg-checkbuilddeps": "dpkg-dev"}
DECLARED = {"Depends": [r"ocl-icd-libopencl1 \| libopencl1", r"libjansson4\b", r"python3\b",
                        r"python3-matplotlib\b", r"python3-jsonschema\b"],
            "Recommends": [r"\bopencl-icd\b"], "Suggests": [r"intel-opencl-icd\b"]}
failures = []


def fail(what):
    failures.append(what)
    print("FAIL:", what)


def source_files(src):
    """The files of the source tree, relative: git's list, or a walk less builds and .deps."""
    r = subprocess.run(["git", "-C", src, "ls-files", "-co", "--exclude-standard", "-z"],
                       capture_output=True, text=True)
    if r.returncode == 0 and r.stdout:
        names = [n for n in r.stdout.split("\0") if n]
    else:
        names = []
        for d, dirs, files in os.walk(src):
            dirs[:] = [x for x in dirs if not (d == src and (x.startswith(("build", ".deps", ".git"))))
                       and x != "__pycache__"]
            names += [os.path.relpath(os.path.join(d, f), src) for f in files]
    return [n for n in names if not n.startswith(".deps") and os.path.isfile(os.path.join(src, n))
            and not os.path.islink(os.path.join(src, n))]


def copy_tree(src, dst):
    for n in source_files(src):
        os.makedirs(os.path.dirname(os.path.join(dst, n)), exist_ok=True)
        shutil.copy2(os.path.join(src, n), os.path.join(dst, n))


def timed(what, argv, **kw):
    t0 = time.monotonic()
    r = subprocess.run(argv, capture_output=True, text=True, **kw)
    print(f"{what}: exit {r.returncode}, {time.monotonic() - t0:.0f} s")
    return r


def left_behind(src, tree):
    """What dpkg-buildpackage left in the tree that the source had not: each path must be one
    the repository's .gitignore names, so that building in a checkout leaves it clean."""
    made = []
    for root, dirs, files in os.walk(tree):
        for name in dirs + files:
            rel = os.path.relpath(os.path.join(root, name), tree)
            if not os.path.lexists(os.path.join(src, rel)):
                if name in dirs:
                    dirs.remove(name)   # a new folder: itself, not its contents
                    rel += "/"          # as a folder (a pattern ending in / names folders only)
                made.append(rel)
    for rel in made:
        r = subprocess.run(["git", "-C", src, "check-ignore", "-q", "--no-index", rel])
        if r.returncode == 1:
            fail(f"dpkg-buildpackage leaves {rel} in the source tree, which .gitignore does not name")


def build(src, tmp, version):
    tree = os.path.join(tmp, f"gpu-occupancy-bench-{version}")
    copy_tree(src, tree)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MESON", "MALLOC_"))}
    env["DEB_BUILD_OPTIONS"] = (env.get("DEB_BUILD_OPTIONS", "") + f" parallel={os.cpu_count()}").strip()
    r = timed("dpkg-buildpackage --no-sign", ["dpkg-buildpackage", "--no-sign"], cwd=tree, env=env,
              timeout=1800)
    if r.returncode:
        fail(f"dpkg-buildpackage: exit {r.returncode}\n{(r.stdout + r.stderr)[-4000:]}")
        return None, None
    left_behind(src, tree)
    changes = glob.glob(os.path.join(tmp, "*.changes"))
    debs = [d for d in glob.glob(os.path.join(tmp, "*.deb")) if "-dbgsym_" not in d]
    if len(changes) != 1 or len(debs) != 1:
        fail(f"dpkg-buildpackage: wanted one .changes and one .deb, found {changes} {debs}")
        return None, None
    return changes[0], debs[0]


def check_lintian(changes):
    r = timed("lintian", ["lintian", "--fail-on", "error", "--display-info", "--pedantic", changes])
    tags = [line for line in r.stdout.splitlines() if re.match(r"^[EWIPX]: ", line)]
    for line in tags:
        print("  lintian", line)
    if r.returncode or any(t.startswith("E: ") for t in tags):
        fail(f"lintian: exit {r.returncode}, {sum(t.startswith('E: ') for t in tags)} errors")


def check_control(deb):
    for field, wants in DECLARED.items():
        value = subprocess.run(["dpkg-deb", "-f", deb, field], capture_output=True,
                               text=True).stdout.strip()
        print(f"{field}: {value}")
        for w in wants:
            if not re.search(w, value):
                fail(f"{field} lacks {w}: {value}")


def run_unpacked(deb, root, version):
    subprocess.run(["dpkg", "-x", deb, root], check=True)
    bench = os.path.join(root, "usr", "bin", "bench")
    for f in ("usr/share/man/man1/bench.1.gz", "usr/share/man/man1/bench-vecadd.1.gz",
              "usr/share/bash-completion/completions/bench",
              "usr/share/gpu-occupancy-bench/python/report.py", "usr/share/doc/gpu-occupancy-bench/copyright"):
        if not os.path.isfile(os.path.join(root, f)):
            fail(f"not in the package: /{f}")
    # the package's version (debian/changelog) is bench's own (meson.build)
    runs = [(["--version"], "^bench " + re.escape(version) + r" \(.*\ndata: " +
             re.escape(f"{root}/usr/share/gpu-occupancy-bench (installed)")),
            (["info"], r"Device 0 "), (["vecadd", "--groups", "1..4"], r"")]
    for args, want in runs:
        r = timed("bench " + " ".join(args), [bench] + args, cwd=root, timeout=600)
        if r.returncode or not re.search(want, r.stdout, re.S):
            fail(f"unpacked bench {' '.join(args)}: exit {r.returncode}, wanted '{want}'\n"
                 f"{r.stdout[-2000:]}{r.stderr[-2000:]}")


def main(argv):
    if len(argv) != 2:
        print(__doc__.split("\n")[2], file=sys.stderr)
        return 2
    src = argv[1]
    missing = sorted({pkg for tool, pkg in TOOLS.items() if not shutil.which(tool)})
    if missing:
        print(f"skipped: missing {', '.join(missing)} (scripts/setup.sh installs them)")
        return 77
    r = subprocess.run(["dpkg-checkbuilddeps"], cwd=src, capture_output=True, text=True)
    if r.returncode and "nmet build dependencies" in r.stderr:
        print(f"skipped: {r.stderr.strip()} (scripts/setup.sh installs them)")
        return 77
    if r.returncode:
        print(f"FAIL: dpkg-checkbuilddeps: exit {r.returncode}: {r.stderr.strip()}")
        return 1
    t0 = time.monotonic()
    version = subprocess.run(["dpkg-parsechangelog", "-l", os.path.join(src, "debian", "changelog"),
                              "-S", "Version"], capture_output=True, text=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="bench-package-") as tmp:
        changes, deb = build(src, tmp, version)
        if deb:
            check_lintian(changes)
            check_control(deb)
            run_unpacked(deb, os.path.join(tmp, "root"), version)
    print(f"{len(failures)} failures, {time.monotonic() - t0:.0f} s in all")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
