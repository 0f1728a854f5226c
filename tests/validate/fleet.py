#!/usr/bin/env python3
"""bench validate as a CI fleet runs it: shards, caselists, selection, Mesa's expectations,
deqp-runner's files, the driver's identity in every output.

usage: fleet.py CASE BENCH DEVICE KERNELS_DIR
CASE is one of:
  shards    for N in 1, 2, 3, 5, 7: shard K of N (--fraction N --fraction-start K) is the list's
            checks K, K+N, K+2N, ... (deqp-runner's meaning), and shards 1..N together are the
            whole list, each check in one shard only
  select    --caselist (its order; an unknown name or one twice: exit 2 naming it),
            --include-regex (repeated: any), --exclude-regex, with --filter and --exclude
  expect    a --kernels copy whose vecadd variant 4 corrupts a word (the v4 check fails, v3
            passes): Fail, then --write-baseline; that baseline makes it ExpectedFail (exit 0); a
            baseline line for the passing v3 is UnexpectedImprovement(Pass) (exit 1); bench's own
            results.csv and failures.csv fed back as --baseline, and deqp-runner's Missing,
            Crash, KnownFlake and UnexpectedImprovement lines, judged as deqp-runner judges
            them; --flakes naming v4 is
            KnownFlake; --skips naming v4 is Skip; a known issue gives its reason beside the
            baseline's status; results.csv and failures.csv in deqp-runner's columns
  outputs   an output that is an input (the same name, a symbolic link, a hard link) or another
            output: exit 2 naming both; the identity (platform, driver, device) in results.csv,
            failures.csv, JUnit's properties, TAP and the summary; --results-dir made before
            --junit and --write-baseline inside it are checked; --require-driver: 77 naming
            what was found, or the run
"""
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

V4 = "vecadd/v4/wg=64/sg=auto/barrier"
V3 = "vecadd/v3/wg=64/sg=auto"
PAIR = "vecadd/v[34]/wg=64/sg=auto*"
FIND = "#if BARRIER\n\tbarrier(CLK_GLOBAL_MEM_FENCE);\n#endif"
REPLACE = ("#if BARRIER\n\tbarrier(CLK_GLOBAL_MEM_FENCE);\n\tif (get_local_id(0) == 0 && start < end)"
           "\n\t\tout[start] ^= 1u;\n#endif")


def fail(msg, r=None):
    print("FAIL:", msg)
    if r is not None:
        print("--- stdout ---\n" + r.stdout[-5000:] + "\n--- stderr ---\n" + r.stderr[-5000:])
    sys.exit(1)


def bench(ctx, *args, code=None):
    r = subprocess.run([ctx["bench"], "validate", "--device", ctx["device"]] + list(args),
                       capture_output=True, text=True, timeout=600)
    if code is not None and r.returncode != code:
        fail(f"validate {' '.join(args)}: exit {r.returncode}, expected {code}", r)
    return r


def listed(ctx, *args):
    return bench(ctx, "--list", *args, code=0).stdout.split()


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def csv(path):
    rows = {}
    for line in open(path).read().splitlines():
        if not line.startswith("#"):
            name, status, secs = line.split(",")
            float(secs)
            rows[name] = status
    return rows


def case_shards(ctx):
    full = listed(ctx)
    for n in (1, 2, 3, 5, 7):
        seen = []
        for k in range(1, n + 1):
            shard = listed(ctx, "--fraction", str(n), "--fraction-start", str(k))
            if shard != full[k - 1::n]:
                fail(f"shard {k} of {n} is {shard[:4]}..., expected checks {k}, {k + n}, ... of the list")
            seen += shard
        if sorted(seen) != sorted(full) or len(seen) != len(set(seen)):
            fail(f"the {n} shards do not cover the {len(full)} checks once each")
    print(f"shards: 1..N of N cover the {len(full)} checks once each (N = 1, 2, 3, 5, 7)")


def case_select(ctx, d):
    full = listed(ctx)
    names = [full[-1], full[0], full[len(full) // 2]]
    cl = write(os.path.join(d, "cases.txt"), "# a caselist\n\n" + "\n".join(names) + "\n")
    if listed(ctx, "--caselist", cl) != names:
        fail("--caselist does not keep the file's order")
    bad = write(os.path.join(d, "bad.txt"), f"{full[0]}\nno/such-check\nnor/this\n")
    r = bench(ctx, "--caselist", bad, "--list", code=2)
    if "'no/such-check'" not in r.stderr or "'nor/this'" not in r.stderr:
        fail("an unknown caselist name is not named", r)
    twice = write(os.path.join(d, "twice.txt"), f"{full[0]}\n{full[0]}\n")
    if "twice" not in bench(ctx, "--caselist", twice, "--list", code=2).stderr:
        fail("a name listed twice is not refused")
    api = [n for n in full if re.search("^api/", n) and not re.search("arg", n)]
    if listed(ctx, "--include-regex", "^api/", "--exclude-regex", "arg") != api:
        fail("--include-regex ^api/ --exclude-regex arg")
    both = [n for n in full if n.startswith(("api/", "stream/"))]
    if listed(ctx, "--include-regex", "^api/", "--include-regex", "^stream/") != both:
        fail("two --include-regex are not their union")
    globbed = [n for n in full if n.startswith("api/") and not n.startswith("api/arg")]
    if listed(ctx, "--filter", "api/*", "--exclude", "api/arg*,nothing") != globbed:
        fail("--filter and --exclude globs")
    bench(ctx, "--include-regex", "(", "--list", code=2)
    print("select: caselist order and errors, regular expressions and globs")


def mutant_kernels(src, dst):
    os.mkdir(dst)
    for f in os.listdir(src):
        if f.endswith((".cl", ".h")):
            text = open(os.path.join(src, f)).read()
            if f == "vecadd.cl":
                if FIND not in text:
                    fail("vecadd.cl no longer has the code this mutant changes")
                text = text.replace(FIND, REPLACE, 1)
            write(os.path.join(dst, f), text)
    return dst


def feed_back(ctx, d, run, base):
    """bench's own files as the next --baseline, each meaning what deqp-runner makes of it
    (RunnerStatus::with_baseline): results.csv's ExpectedFail expects the failure again, failures.csv's
    UnexpectedImprovement(Pass) and KnownFlake expect nothing, Missing and Crash make a pass and a
    failure improvements."""
    rd = os.path.join(d, "r")
    saved = os.path.join(d, "fed")
    bench(ctx, *run, "--baseline", base, code=0)           # V3 Pass, V4 ExpectedFail
    os.makedirs(saved, exist_ok=True)
    results = write(os.path.join(saved, "results.csv"), open(os.path.join(rd, "results.csv")).read())
    r = bench(ctx, *run, "--baseline", results, code=0)
    if csv(os.path.join(rd, "results.csv")) != {V3: "Pass", V4: "ExpectedFail"}:
        fail("results.csv fed back: its ExpectedFail is not expected again", r)
    for name, text, code, want in (
            ("improved.csv", f"{V3},UnexpectedImprovement(Pass)\n{V4},KnownFlake\n", 1,
             {V3: "Pass", V4: "Fail"}),
            ("missing.csv", f"{V3},Missing\n{V4},Missing\n", 1,
             {V3: "UnexpectedImprovement(Pass)", V4: "Fail"}),
            ("crash.csv", f"{V4},Crash,0.5\n", 1, {V3: "Pass", V4: "UnexpectedImprovement(Fail)"}),
            ("old.csv", f"{V3},UnexpectedPass\n{V4},ExpectedFail\n{V3}x,Flake\n", 0,
             {V3: "Pass", V4: "ExpectedFail"})):
        r = bench(ctx, *run, "--baseline", write(os.path.join(saved, name), text), code=code)
        got = csv(os.path.join(rd, "results.csv"))
        if got != want:
            fail(f"--baseline {name} ({text.strip()!r}): results.csv {got}, expected {want}", r)
    r = bench(ctx, *run, "--baseline", write(os.path.join(saved, "skips.csv"), f"{V4},Fail\n"),
              "--skips", write(os.path.join(saved, "skips.txt"), "vecadd/v4\n"), code=0)
    if csv(os.path.join(rd, "results.csv")) != {V3: "Pass", V4: "Skip"}:
        fail("a check --skips names is not Skip whatever the baseline expects", r)


def case_expect(ctx, d):
    k = mutant_kernels(ctx["kernels"], os.path.join(d, "k"))
    rd, base = os.path.join(d, "r"), os.path.join(d, "base.csv")
    run = ["--kernels", k, "--filter", PAIR, "--results-dir", rd, "--flake-runs", "1"]
    bench(ctx, *run, "--write-baseline", base, code=1)
    if csv(os.path.join(rd, "results.csv")) != {V3: "Pass", V4: "Fail"}:
        fail(f"results.csv: {open(os.path.join(rd, 'results.csv')).read()}")
    if csv(os.path.join(rd, "failures.csv")) != {V4: "Fail"}:
        fail("failures.csv does not hold the one failure")
    lines = [ln for ln in open(base).read().splitlines() if not ln.startswith("#")]
    if lines != [f"{V4},Fail"]:
        fail(f"--write-baseline wrote {lines}")
    bench(ctx, *run, "--baseline", base, code=0)
    if csv(os.path.join(rd, "results.csv"))[V4] != "ExpectedFail" or csv(os.path.join(rd, "failures.csv")):
        fail("the baseline's failure is not ExpectedFail")
    more = write(os.path.join(d, "more.csv"), open(base).read() + f"{V3},Fail\n")
    r = bench(ctx, *run, "--baseline", more, code=1)
    if (csv(os.path.join(rd, "failures.csv")) != {V3: "UnexpectedImprovement(Pass)"} or
            "UNEXPECTED PASS" not in r.stdout):
        fail("a passing check the baseline expects to fail is not UnexpectedImprovement(Pass)", r)
    feed_back(ctx, d, run, base)
    flakes = write(os.path.join(d, "flakes.txt"), "# flaky\nvecadd/v4/.*barrier$\n")
    bench(ctx, *run, "--flakes", flakes, code=0)
    if csv(os.path.join(rd, "results.csv"))[V4] != "KnownFlake":
        fail("--flakes does not make the failure KnownFlake")
    r = bench(ctx, *run, "--skips", flakes, code=0)
    if csv(os.path.join(rd, "results.csv"))[V4] != "Skip" or "--skips" not in r.stdout:
        fail("--skips does not skip the check", r)
    known = write(os.path.join(d, "known.json"), '{"kind": "known-issues", "schema_version": 1, '
                  '"issues": [{"check": "vecadd/v4/*", "reason": "planted: the v4 mutant"}]}')
    r = bench(ctx, *run, "--baseline", base, "--known-issues", known, code=0)
    if not re.search(r"known +[0-9.]+ +known issue: planted: the v4 mutant;.*baseline expects Fail", r.stdout):
        fail("the known issue's reason does not stand beside the baseline's status", r)
    bad = write(os.path.join(d, "bad.csv"), f"{V4},Broken\n")
    r = bench(ctx, *run, "--baseline", bad, code=2)
    if "line 1" not in r.stderr or "'Broken'" not in r.stderr:
        fail("a bad baseline status is not named with its line", r)
    print("expect: Fail, the next baseline, ExpectedFail, UnexpectedImprovement, files fed back, "
          "KnownFlake, Skip, reasons")


def case_outputs(ctx, d):
    base = write(os.path.join(d, "base.csv"), "api/arg-index,Fail\n")
    link, hard = os.path.join(d, "link.csv"), os.path.join(d, "hard.csv")
    os.symlink(base, link)
    os.link(base, hard)
    one = ["--filter", "api/arg-index"]
    for out in (base, link, hard):
        r = bench(ctx, *one, "--baseline", base, "--write-baseline", out, code=2)
        if "an input of this command" not in r.stderr:
            fail(f"--write-baseline {out} over --baseline {base} is not refused", r)
    r = bench(ctx, *one, "--junit", os.path.join(d, "x.xml"), "--write-baseline", os.path.join(d, "x.xml"), code=2)
    if "it is the same file as --junit" not in r.stderr:
        fail("two outputs to one file are not refused", r)
    if open(base).read() != "api/arg-index,Fail\n":
        fail("the baseline was touched")
    rd, junit = os.path.join(d, "r"), os.path.join(d, "j.xml")
    r = bench(ctx, "--filter", "api/arg-*", "--results-dir", rd, "--junit", junit, "--tap", code=0)
    ident = re.search(r"# bench validate on (platform '.*', driver '.*', device '.*')", r.stdout)
    if not ident:
        fail("TAP names no platform, driver and device", r)
    for f in ("results.csv", "failures.csv"):
        if ident.group(1) not in open(os.path.join(rd, f)).readline():
            fail(f"{f} does not start with the identity")
    props = {p.get("name"): p.get("value") for p in ET.parse(junit).getroot().iter("property")}
    if not {"platform", "driver", "device"} <= set(props) or props["device"] not in ident.group(1):
        fail(f"JUnit's properties: {props}")
    if ident.group(1) not in r.stderr:
        fail("the summary does not name the identity", r)
    # the fleet job of docs/validation.md on a fresh checkout: the folder made before the
    # outputs inside it are checked
    nest = os.path.join(d, "fresh", "results")
    bench(ctx, "--filter", "api/arg-index", "--results-dir", nest, "--junit",
          os.path.join(nest, "junit.xml"), "--write-baseline", os.path.join(nest, "fails.csv"), code=0)
    for f in ("results.csv", "failures.csv", "junit.xml", "fails.csv"):
        if not os.path.isfile(os.path.join(nest, f)):
            fail(f"--results-dir {nest} with --junit inside it: no {f}")
    r = bench(ctx, "--require-driver", "^no such driver$", "--list", code=77)
    if "matches none of what was found: platform '" not in r.stderr:
        fail("--require-driver does not say what it found", r)
    bench(ctx, "--require-driver", re.escape(props["driver"]), "--filter", "api/arg-index", code=0)
    print("outputs: never over an input, the identity everywhere, --require-driver")


def main():
    case, bench_exe, device, kernels = sys.argv[1:5]
    ctx = {"bench": bench_exe, "device": device, "kernels": kernels}
    with tempfile.TemporaryDirectory() as d:
        if case == "shards":
            case_shards(ctx)
        elif case == "select":
            case_select(ctx, d)
        elif case == "expect":
            case_expect(ctx, d)
        elif case == "outputs":
            case_outputs(ctx, d)
        else:
            sys.exit("unknown case " + case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
