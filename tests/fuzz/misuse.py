#!/usr/bin/env python3
"""bench used wrongly, as a new user would: bad values for every option of every command (from
`bench list --json` and the shared tables), unknown and incomplete options, bad and hostile
files for every reader (compare, baseline, export, report, suite, validate --known-issues),
outputs over inputs, device nodes and folders, bad devices and environments, a full standard
output, and held commands under --timeout. The fuzz suite's libFuzzer harnesses try the parsers
with random bytes; this tries the commands with a user's mistakes.

usage: misuse.py BENCH REPORT_PY KERNELS DEVICE [--list]
Each case is clean when the command ends at once with the exit code its kind calls for (2 for
bad usage, naming the bad value and what is allowed; 77 where there is no device; 1 for an
output that cannot be written or a driver failure, naming it), never with a crash, a traceback
or a `bench bug`, and nothing was destroyed (the inputs byte for byte, a device node still one,
no temporary left). Prints every case that is not clean and the counts; exit 1 where one is not.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

BENCH, REPORT, KERNELS, DEVICE = sys.argv[1:5]
RANGE_WORDS = re.compile(r"\d+\.\.\d+|allowed|one of|give |expected|use |\(0, |[0-9] or more|"
                         r"\d+, \d+|apply to|do not apply|not an Intel GPU|POSIX extended")

class Case:
    def __init__(self, name, argv, code=2, must=(), env=None, stdin=None, range_words=False,
                 inputs=(), kinds=(), stdout=None, timeout=120):
        self.name, self.argv, self.code, self.must, self.env = name, argv, code, must, env
        self.range_words, self.inputs, self.kinds, self.stdout = range_words, inputs, kinds, stdout
        self.timeout = timeout


def values(o):
    """Bad values for option o by its kind: (value, must the message name it)."""
    k, lo, hi = o["kind"], o.get("min", 0), o.get("max", 0)
    if k in ("uint", "u64"):
        out = ["abc", "", "1.5", "99999999999999999999999", "0x10", "3x", "-1"]
        if 0 < hi < (1 << 62):
            out.append(str(hi + 1))
        if lo > 0:
            out.append(str(lo - 1))
        return out
    if k == "size":
        return ["1Xi", "-1", "1.5Mi", "", "Mi", "abc"] + ([str(hi + 1)] if 0 < hi < (1 << 62) else [])
    if k in ("range", "size-range"):
        return ["5..1", "1..", "..5", "1..8:0", "1..8:x1", "1..8:x0", "a..b", "", "1,,2"]
    if k in ("names", "choice"):
        return ["nosuch", "", ","]
    if k == "sg":
        return ["3", "auto2", "0", "2000", ""]
    if o["name"] in ("include-regex", "exclude-regex"):   # any other text is an expression
        return ["api/(", "a{2,1}", "[z-a]", ""]
    if k == "custom":
        return ["nosuch", "", "-1", "NaN"]
    return []


def option_cases(cmds):
    out = []
    for c in cmds:
        name, row = c["name"], c["kind"] == "row"
        # the shared tables as the command takes them (sub-groups, shared, or the tools')
        opts = c["options"] + [o for table in c["shared_options"].values() for o in table]
        lead = [name] + (["quick"] if name == "suite" else [])
        dev = ["--device", DEVICE] if row else []
        for o in opts:
            for v in values(o):
                # an option of another form of the row (vecadd --vec) is refused as such
                alien = not o.get("help") and o["kind"] == "custom"
                out.append(Case(f"{name} --{o['name']} {v!r}", lead + [f"--{o['name']}", v] + dev,
                                must=(f"--{o['name']}",) + (() if alien else (v if v.strip() else "'",)),
                                range_words=True))
        for o in opts:   # a value missing at the end of the line
            if o["kind"] != "flag":
                out.append(Case(f"{name} --{o['name']} (no value)", lead + dev + [f"--{o['name']}"],
                                must=("needs a value",)))
        out.append(Case(f"{name} --bogus", lead + ["--bogus"], must=("unknown option '--bogus'",)))
        flags = [o["name"] for o in c["options"] if o["kind"] == "flag"]
        if flags:
            out.append(Case(f"{name} --{flags[0]}=1", lead + [f"--{flags[0]}=1"],
                            must=("takes no value",)))
    return out


def doc(points=2, **top):
    pts = []
    for g in range(1, points + 1):
        s = [float(1000 * g + k) for k in range(10)]
        pts.append({"params": {"groups": g}, "status": "ok", "reason": None, "validated": True,
                    "time_ns": {"median": (s[4] + s[5]) / 2, "p5": s[0], "p95": s[-1], "n": 10,
                                "samples": s}, "metrics": {"gbps": 1.0}})
    d = {"schema_version": 1, "tool": {"name": "bench"}, "timestamp": "2026-11-23T10:00:00Z",
         "command": ["bench"], "host": {"hostname": "h"}, "benchmark": "vecadd", "points": pts,
         "device": {"name": "D", "platform": "P", "driver_version": "1.0", "type": "GPU"}}
    d.update(top)
    return d


def bad_docs(d):
    """name: (path, what the message must contain)."""
    good = json.dumps(doc())
    files = {
        "missing": (None, "No such file"), "folder": ("DIR", "is a directory"),
        "empty": ("", "empty file"), "blank": ("\n \n", "empty file"),
        "truncated": (good[:80], "truncated JSON"), "trailing": (good + "x", "trailing data"),
        "duplicate-key": (good.replace('"tool"', '"points": [], "tool"'), "twice"),
        "nan": (good.replace('"median": 1004.5', '"median": NaN', 1), "NaN"),
        "deep": ("[" * 100 + "]" * 100, "nested deeper"),
        "not-utf8": (b'{"a": "\xff"}', "UTF-8"), "array": ("[]", "object"),
        "schema-2": (json.dumps(doc(schema_version=2)), "schema_version"),
        "no-points": (json.dumps({k: v for k, v in doc().items() if k != "points"}), "points"),
        "interrupted": (json.dumps(doc(interrupted={"by": "SIGINT", "points_done": 1,
                                                    "points_planned": 3})), "--allow-partial"),
        "empty-points": (json.dumps(doc(0)), "--allow-partial"),
        "interrupted-confirmation": (json.dumps(doc(interrupted={
            "by": "SIGINT", "entries_done": 1, "entries_planned": 1, "during": "confirmation"})),
            "--allow-partial"),
        "interrupted-timeout": (json.dumps(doc(interrupted={"by": "timeout", "points_done": 0,
                                                            "points_planned": 2})), "interrupted"),
        "negative-sample": (good.replace("[1000.0,", "[-1000.0,", 1), "samples[0]"),
        "string-median": (good.replace('"median": 1004.5', '"median": "fast"', 1), "median"),
        "compare-kind": (json.dumps(doc(kind="compare")), "kind"),
        "null-device": (json.dumps(doc(device=None)), "device"),
        "dev-null": ("/dev/null", "empty file"),
    }
    out = {}
    for name, (content, must) in files.items():
        path = os.path.join(d, f"bad-{name}.json")
        if content is None:
            pass
        elif content == "DIR":
            os.makedirs(path)
        elif content == "/dev/null":
            path = "/dev/null"
        else:
            with open(path, "wb") as f:
                f.write(content if isinstance(content, bytes) else content.encode())
        out[name] = (path, must)
    return out


def copy_of(good, n):
    """Another file holding the good document (a command refuses one document given twice)."""
    path = f"{good[:-5]}-{n}.json"
    if not os.path.exists(path):
        shutil.copyfile(good, path)
    return path


def reader_cases(d, good):
    out = []
    g2, g3 = copy_of(good, 2), copy_of(good, 3)
    for name, (path, must) in bad_docs(d).items():
        readers = {"compare": ["compare", good, path], "export": ["export", "lnt", path, "--order",
                                                                  "1", "-o", os.path.join(d, "x")],
                   "export-otava": ["export", "otava", good, path, "-o", os.path.join(d, "x")],
                   "history": ["history", good, g2, path],
                   "baseline": ["baseline", good, g2, path, "-o", os.path.join(d, "x")],
                   "report": ["report", path, "-o", os.path.join(d, "x")],
                   "suite-baseline": ["suite", "quick", "--baseline", path, "--device", DEVICE]}
        for reader, argv in readers.items():
            if reader == "report" and name == "null-device":
                continue   # a model of a named GPU: drawn by the report (valid)
            if reader == "history" and name == "folder":
                continue   # a folder is one history's documents (below)
            if reader == "suite-baseline" and name in ("interrupted", "empty-points", "compare-kind",
                                                      "interrupted-confirmation", "interrupted-timeout"):
                must_r = must
            else:
                must_r = must
            out.append(Case(f"{reader} reads {name}", argv, must=(must_r,), inputs=[good]))
    folder = os.path.join(d, "history-folder")   # a run that does not read is never left out unseen
    os.makedirs(os.path.join(folder, "sub"))
    for i, src in enumerate((good, g2)):
        shutil.copyfile(src, os.path.join(folder, f"run{i}.json"))
    with open(os.path.join(folder, "sub", "cut.json"), "w") as f:
        f.write(json.dumps(doc())[:80])
    out.append(Case("history reads a folder holding a truncated *.json", ["history", folder],
                    must=("cut.json: truncated JSON",), inputs=[good]))
    return out


def strict_file_cases(d):
    """Suite files and known-issues files with a user's typos."""
    out = []
    suite = {"name": "t", "entries": [{"bench": "vecadd", "args": ["--groups", "1"]}]}
    known = {"kind": "known-issues", "schema_version": 1,
             "issues": [{"check": "api/*", "reason": "r"}]}
    suite_faults = {
        "entries-typo": ({"name": "t", "entires": []}, "did you mean 'entries'"),
        "bench-unknown": ({"name": "t", "entries": [{"bench": "vecad"}]}, "'vecad' is not a benchmark"),
        "bench-tool": ({"name": "t", "entries": [{"bench": "compare"}]}, "measures no points"),
        "bad-arg": ({"name": "t", "entries": [{"bench": "vecadd", "args": ["--groups", "0"]}]},
                    "--groups '0' is out of range"),
        "session-option": ({"name": "t", "entries": [{"bench": "vecadd", "args": ["--json", "x"]}]},
                           "belongs to the suite's command line"),
        "help-in-suite": ({"name": "t", "entries": [{"bench": "vecadd", "args": ["--help"]}]},
                          "--help has no place"),
        "noise-typo": (dict(suite, noise={"gu": 5}), "did you mean 'gpu'"),
        "noise-big": (dict(suite, noise=5000), "0..1000"),
        "no-entries": ({"name": "t", "entries": []}, "non-empty array"),
        "name-number": ({"name": 5, "entries": suite["entries"]}, "name"),
        "not-json": ("{name: t}", "not JSON"),
        "trailing": (json.dumps(suite) + "}", "trailing data"),
        # the suite's top-level args: a bad one is theirs, not the entry's that never gave it
        "top-args-bad": (dict(suite, args=["--groups", "0"]),
                         "entry 1 of 1: the suite's top-level args, then its own"),
        "top-args-session": (dict(suite, args=["--reps", "3", "--json", "x.json"]),
                             "(top level).args[2]: --json belongs to the suite's command line"),
        "top-args-device": (dict(suite, args=["--device=0"]), "(top level).args[0]: --device belongs"),
        "top-args-string": (dict(suite, args="--reps 3"), "(top level).args: is not an array"),
    }
    known_faults = {
        "devcie": ({**known, "issues": [{"check": "a", "reason": "r", "devcie": "x"}]}, "did you mean 'device'"),
        "kind": ({**known, "kind": "issues"}, "kind"),
        "version": ({**known, "schema_version": 2}, "schema_version"),
        "reason-empty": ({**known, "issues": [{"check": "a", "reason": ""}]}, "reason: empty"),
        "reason-missing": ({**known, "issues": [{"check": "a"}]}, "reason: missing"),
        "expect-bad": ({**known, "issues": [{"check": "a", "reason": "r", "expect": "x"}]},
                       "not fail or beyond-works"),
        "top-unknown": ({**known, "owner": "me"}, "unknown member 'owner'"),
        "issues-object": ({**known, "issues": {}}, "issues"),
        "duplicate": ('{"kind": "known-issues", "kind": "x"}', "twice"),
        "missing": (None, "No such file"),
    }
    for name, (content, must) in suite_faults.items():
        path = bt.write_doc(os.path.join(d, f"suite-{name}.json"), content)
        out.append(Case(f"suite file {name}", ["suite", path, "--device", DEVICE], must=(must,)))
        out.append(Case(f"suite --list file {name}", ["suite", "--list", path], must=(must,)))
    for name, (content, must) in known_faults.items():
        path = os.path.join(d, f"known-{name}.json")
        if content is not None:
            bt.write_doc(path, content)
        out.append(Case(f"known-issues {name}", ["validate", "--known-issues", path, "--list",
                                                 "--device", DEVICE], must=(must,)))
    out += [Case("suite unknown name", ["suite", "quik"], must=("no built-in suite 'quik'",)),
            Case("suite two names", ["suite", "quick", "gpu"], must=("give one suite",)),
            Case("suite --confirm without --baseline", ["suite", "quick", "--confirm", "2"],
                 must=("--baseline",))]
    return out


def output_cases(d, good):
    """Every writer's output over an input, a folder, '', a dangling link, a missing folder,
    and a full device (written at the end: exit 1)."""
    dangling = os.path.join(d, "dangling")
    os.symlink(os.path.join(d, "nothing"), dangling)
    writers = {
        "compare --json": lambda o: ["compare", good, good, "--json", o],
        "compare --junit": lambda o: ["compare", good, good, "--junit", o],
        "compare --markdown": lambda o: ["compare", good, good, "--markdown", o],
        "export -o": lambda o: ["export", "lnt", good, "--order", "1", "-o", o],
        "export otava -o": lambda o: ["export", "otava", good, "-o", o],
        "export otava --config": lambda o: ["export", "otava", good, "-o", os.path.join(d, "ok.csv"),
                                            "--config", o],
        "history --json": lambda o: ["history", good, copy_of(good, 2), copy_of(good, 3), "--json", o],
        "baseline -o": lambda o: ["baseline", good, copy_of(good, 2), copy_of(good, 3), "-o", o],
        "report -o": lambda o: ["report", good, "-o", o],
        "vecadd --json": lambda o: ["vecadd", "--groups", "1", "--reps", "2", "--device", DEVICE,
                                    "--json", o],
        "vecadd --csv": lambda o: ["vecadd", "--groups", "1", "--reps", "2", "--device", DEVICE,
                                   "--csv", o],
        "model --json": lambda o: ["model", "--gpu", "h100", "--json", o],
        "suite --json": lambda o: ["suite", "quick", "--device", DEVICE, "--json", o],
        "validate --junit": lambda o: ["validate", "--device", DEVICE, "--junit", o],
        "validate --write-baseline": lambda o: ["validate", "--device", DEVICE, "--baseline", good,
                                                "--write-baseline", o],
    }
    out = []
    for w, make in writers.items():
        targets = {"an input": (good, 2, "an input of this command"), "a folder": (d, 2, "directory"),
                   "''": ("", 2, "empty name"), "a dangling link": (dangling, 2, "missing file"),
                   "a missing folder": (os.path.join(d, "no", "x"), 2, "No such file"),
                   "a name ending in /": (os.path.join(d, "new") + "/", 2, "folder")}
        if not w.startswith(("compare", "export", "baseline", "report", "history",
                             "validate --write")):
            targets.pop("an input")
        for t, (path, code, must) in targets.items():
            out.append(Case(f"{w} {t}", make(path), code=code, must=(must,), inputs=[good],
                            kinds=[(dangling, "link")]))
        if w in ("compare --json", "export -o", "vecadd --json", "model --json"):
            out.append(Case(f"{w} /dev/full", make("/dev/full"), code=1,
                            must=("No space left on device",), kinds=[("/dev/full", "chr")]))
            out.append(Case(f"{w} /dev/null", make("/dev/null"), code=0,
                            kinds=[("/dev/null", "chr")]))
    return out


def fleet_cases(d):
    """bench suite on a set of devices: -o DIR and each device's log checked before any process
    starts (a log over the suite's file, DIR a file or '')."""
    suite = {"name": "t", "entries": [{"bench": "vecadd", "args": ["--groups", "1"]}]}
    fleet = os.path.join(d, "fleet")
    os.mkdir(fleet)
    log = bt.write_doc(os.path.join(fleet, "device-0.0.log"), suite)
    plain = bt.write_doc(os.path.join(d, "fleet-suite.json"), suite)
    return [Case("suite --device all -o: a log over the suite's file",
                 ["suite", log, "--device", "all", "-o", fleet], must=("an input of this command",),
                 inputs=[log]),
            Case("suite --device all -o a file", ["suite", plain, "--device", "all", "-o", plain],
                 must=("a file of that name is in the way",), inputs=[plain]),
            Case("suite --device all -o ''", ["suite", plain, "--device", "all", "-o", ""],
                 must=("an empty name names no folder",), inputs=[plain])]


def env_cases(d, good):
    out = []
    for c in (["vecadd", "--groups", "1"], ["validate", "--list"], ["info"], ["suite", "quick"],
              ["occupancy"], ["model", "--gpu", "live"]):
        out.append(Case(f"no platform: {c[0]}", c, code=77, env={"OCL_ICD_VENDORS": "/nonexistent"},
                        must=("OCL_ICD_VENDORS",)))
        out.append(Case(f"BENCH_DEVICE=garbage: {c[0]}", c, env={"BENCH_DEVICE": "garbage"},
                        must=("BENCH_DEVICE='garbage'",)) if c[0] not in ("info", "model") else None)
    for spec, must in (("99", "'99'"), ("", "''"), ("1:9", "'1:9'"), ("x,y", "'x'"),
                       ("\udcff\udcfe", "\\xff\\xfe")):
        out.append(Case(f"--device {spec!r}", ["vecadd", "--groups", "1", "--device", spec],
                        must=(must,)))
    out += [Case("--require-device nosuch", ["vecadd", "--groups", "1", "--require-device", "nosuch"],
                 code=77, must=("nosuch",)),
            Case("BENCH_HOST_MEMORY=lots", ["vecadd", "--variant", "1", "--n", "1Mi", "--device", DEVICE],
                 env={"BENCH_HOST_MEMORY": "lots"}, must=("'lots'",)),
            Case("PoCL under HOME=/proc", ["vecadd", "--groups", "1", "--device", "PoCL"],
                 env={"HOME": "/proc", "XDG_CACHE_HOME": ""}, must=("POCL_CACHE_DIR",)),
            Case("no command", [], must=("usage: bench",)),
            Case("unknown command", ["frobnicate"], must=("'frobnicate'",)),
            Case("compare one document", ["compare", good], must=("give two results documents",)),
            Case("compare three documents", ["compare", good, good, good], must=("got 3 files",)),
            Case("export no format", ["export", good, "-o", "x"], must=("the format: lnt or otava",)),
            Case("baseline two runs", ["baseline", good, good, "-o", os.path.join(d, "b")],
                 must=("3 to 64",)),
            Case("report no -o", ["report", good], must=("-o FILE",)),
            Case("stream 70 shapes", ["stream", "--vec", "all", "--per-item", "1..7", "--loop", "all"],
                 must=("70 shapes",)),
            Case("--kernels a file", ["vecadd", "--kernels", good], must=("not a folder",)),
            Case("--kernels a loop", ["vecadd", "--kernels", os.path.join(d, "loop")],
                 must=("Too many levels",)),
            Case("--validate-only --min-time", ["vecadd", "--validate-only", "--min-time", "1"],
                 must=("--min-time has nothing to act on",)),
            Case("vecadd --grf large on a CPU", ["vecadd", "--grf", "large", "--device", DEVICE],
                 must=("not an Intel GPU",)),
            Case("--noise-for unknown benchmark", ["compare", good, good, "--noise-for", "vecad=5"],
                 must=("'vecad' is not a benchmark",))]
    os.symlink("loop", os.path.join(d, "loop"))
    return [c for c in out if c]


def last_cases(d, good):
    """The last wrong and unclear answers of a new user's tries (issue 36), each at its cause."""
    base = bt.write_doc(os.path.join(d, "a-baseline.json"),
                        doc(baseline={"runs": 3, "documents": ["r1", "r2", "r3"], "spread": {}}))
    emptyk = os.path.join(d, "empty-kernels")
    os.makedirs(emptyk)
    open(os.path.join(emptyk, "vecadd.cl"), "w").close()
    tmp = {"TMPDIR": d}
    three = [good, copy_of(good, 2), copy_of(good, 3)]
    # a kernel that writes 400 MB past its output from its third point on (tests/interrupt)
    find = "\tfor (size_t k = start + get_local_id(0); k < end; k += wg)\n"
    wild = os.path.join(d, "wild-kernels")
    bt.kernels_copy(KERNELS, wild, "vecadd.cl", find,
                    "\tif (get_num_groups(0) >= 3 && get_local_id(0) == 0)\n"
                    "\t\tfor (size_t k = 0; k < 100ul * 1024 * 1024; k += 1024)\n"
                    "\t\t\tout[n + k] = (VT)(1);\n" + find)
    wild_json = os.path.join(d, "wild.json")
    cut = bt.write_doc(os.path.join(d, "cut-short.json"),
                       doc(interrupted={"by": "SIGINT", "points_done": 2, "points_planned": 3}))
    said = ("cut-short.json: read with --allow-partial: the run was cut short (by SIGINT after 2 of 3 "
            "points)",)
    out = [
        # Otava failing is no verdict: never exit 1 ("slower"), never a folder left in TMPDIR
        Case("history: Otava exits 1", ["history"] + three, code=3, env=dict(tmp, BENCH_OTAVA="/bin/false"),
             must=("Apache Otava failed", "/bin/false", "exit status 1"), inputs=[good]),
        Case("history: Otava exits 0 without a report", ["history"] + three, code=3,
             env=dict(tmp, BENCH_OTAVA="/bin/true"), must=("Apache Otava failed", "no report"),
             inputs=[good]),
        Case("history: BENCH_OTAVA not executable", ["history"] + three, code=77,
             env=dict(tmp, BENCH_OTAVA=good), must=("is not an executable file",), inputs=[good]),
        # a baseline given as one of its runs would count its samples twice
        Case("baseline: a baseline as run 3", ["baseline", good, copy_of(good, 2), base, "-o",
                                               os.path.join(d, "b")],
             must=("a-baseline.json (run 3) is a baseline, not a run", "3 runs"), inputs=[good, base]),
        Case("baseline: a baseline as run 1", ["baseline", base, good, copy_of(good, 2), "-o",
                                               os.path.join(d, "b")],
             must=("(run 1) is a baseline",), inputs=[good, base]),
        Case("vecadd --kernels nodir", ["vecadd", "--kernels", os.path.join(d, "nodir"), "--device",
                                        DEVICE], must=("nodir", "not a readable folder")),
        Case("model --gpu tgl --kernel nosuch:row", ["model", "--gpu", "tgl", "--kernel", "nosuch:row"],
             must=("no row 'nosuch'",), env={"PATH": "/nonexistent"}),
        Case("--groups factor x0", ["vecadd", "--groups", "1..8:x0", "--device", DEVICE],
             must=("'1..8:x0'", "a factor of 0 never grows", "2 or more")),
        Case("--groups factor x1", ["vecadd", "--groups", "1..8:x1", "--device", DEVICE],
             must=("'1..8:x1'",)),
        Case("info under HOME=/proc: the platform lost", ["info"], code=0,
             env={"HOME": "/proc", "XDG_CACHE_HOME": ""},
             must=("PoCL is registered", "POCL_CACHE_DIR")),
        Case("an empty kernel file", ["vecadd", "--kernels", emptyk, "--groups", "1", "--device", DEVICE],
             code=1, must=(os.path.join(emptyk, "vecadd.cl"), "is empty")),
        # a reader that lets an interrupted document in says so
        Case("compare --allow-partial says so", ["compare", good, cut, "--allow-partial"], code=0,
             must=said, inputs=[good, cut]),
        Case("export lnt --allow-partial says so", ["export", "lnt", cut, "--order", "1", "-o",
                                                    os.path.join(d, "partial-lnt.json"),
                                                    "--allow-partial"], code=0, must=said, inputs=[cut]),
        Case("history --allow-partial says so", ["history", good, copy_of(good, 2), cut,
                                                 "--allow-partial"], code=3,
             env=dict(tmp, BENCH_OTAVA="/bin/false"), must=said, inputs=[good, cut]),
        Case("a kernel writing 400 MB past its buffer", ["vecadd", "--kernels", wild, "--groups", "1..4",
                                                          "--reps", "2", "--device", DEVICE, "--json",
                                                          wild_json],
             code=1, must=("during point 3 of 4 (groups=3)", os.path.join(wild, "vecadd.cl"),
                           "the results of the 2 points completed are written")),
        Case("occupancy --waves --check-driver", ["occupancy", "--waves", "--check-driver", "--device",
                                                   DEVICE], must=("--check-driver does not apply to --waves",)),
        Case("occupancy --check-driver --waves", ["occupancy", "--check-driver", "--waves", "--device",
                                                   DEVICE], must=("--check-driver does not apply to --waves",)),
        Case("occupancy --waves --check-d (abbreviated)", ["occupancy", "--waves", "--check-d",
                                                            "--device", DEVICE],
             must=("--check-driver does not apply to --waves",)),
    ]
    # device keywords where one device is asked for, or inside a list
    for kw in ("all", "gpu", "cpu", "ALL"):
        for where, argv in (("info", ["info", "--device", kw]),
                            ("model", ["model", "--gpu", "live", "--device", kw]),
                            ("a list", ["vecadd", "--groups", "1", "--device", f"0,{kw}"]),
                            ("a list's head", ["vecadd", "--groups", "1", "--device", f"{kw},0"]),
                            ("validate's list", ["validate", "--list", "--device", f"0,{kw}"])):
            out.append(Case(f"--device {kw} in {where}", argv,
                            must=(f"'{kw}' names a set of devices", "only as the whole --device value")))
    return out


def held_cases(d, good):
    held = os.path.join(d, "held-fifo")
    os.mkfifo(held)
    return [Case(f"{w} held by a FIFO, --timeout 1", argv + ["--timeout", "1"], code=1,
                 must=("still running after --timeout 1 s",))
            for w, argv in (("compare", ["compare", good, held]),
                            ("export", ["export", "lnt", held, "--order", "1", "-o",
                                        os.path.join(d, "h")]),
                            ("report", ["report", held, "-o", os.path.join(d, "h")]),
                            ("history", ["history", good, copy_of(good, 2), held]),
                            ("export otava", ["export", "otava", good, held, "-o",
                                              os.path.join(d, "h")]),
                            ("validate --caselist", ["validate", "--device", DEVICE, "--caselist",
                                                     held]))]


def stdout_cases(good):
    return [Case(f"{' '.join(c)} > /dev/full", c, code=1, stdout="/dev/full",
                 must=("cannot write the standard output",))
            for c in (["--help"], ["list"], ["info", "--json"], ["model", "--list"],
                      ["validate", "--list", "--device", DEVICE], ["compare", good, good])]


digest, kind = bt.file_digest, bt.path_kind


def judge(c, d):
    """(clean, why not)."""
    before = {p: digest(p) for p in c.inputs}
    argv = [os.fsencode(a) if isinstance(a, str) else a for a in [BENCH] + c.argv]
    env = dict(os.environ, **(c.env or {}))
    t0 = time.monotonic()
    with open(c.stdout or os.devnull, "w") if c.stdout else open(os.devnull, "w") as out:
        try:
            r = subprocess.run(argv, stdout=subprocess.PIPE if not c.stdout else out,
                               stderr=subprocess.PIPE, env=env, timeout=c.timeout)
        except subprocess.TimeoutExpired:
            return False, f"still running after {c.timeout} s"
    secs = time.monotonic() - t0
    err = r.stderr.decode("utf-8", "replace")
    why = []
    if r.returncode < 0 or r.returncode > 128:
        why.append(f"ended by signal {-r.returncode if r.returncode < 0 else r.returncode - 128}")
    if r.returncode != c.code:
        why.append(f"exit {r.returncode}, expected {c.code}")
    for bad in ("Traceback", "bench bug", "Segmentation", "core dumped", "AddressSanitizer"):
        if bad in err:
            why.append(f"{bad!r} in stderr")
    for m in c.must:
        if m not in err:
            why.append(f"stderr lacks {m!r}")
    if c.code == 2 and c.range_words and not RANGE_WORDS.search(err):
        why.append("stderr names no allowed value or range")
    if c.code == 2 and not err.strip():
        why.append("no message")
    for p, h in before.items():
        if not os.path.exists(p) or digest(p) != h:
            why.append(f"input {p} changed")
    for p, k in c.kinds:
        if kind(p) != k:
            why.append(f"{p} is no longer a {k}")
    left = [f for f in os.listdir(d) if ".tmp." in f or f.startswith("bench-history-")]
    if left:
        why.append(f"left behind {left}")
    if c.code == 2 and secs > 10:
        why.append(f"took {secs:.1f} s for a usage error")
    return not why, "; ".join(why) + (f"\n      {err.strip()[-400:]}" if why else "")


def main():
    cmds = json.loads(bt.must_run([BENCH, "list", "--json"]).out)
    with bt.tmpdir(prefix="bench-misuse-") as d:
        good = bt.write_doc(os.path.join(d, "good.json"), doc())
        cases = (option_cases(cmds) + reader_cases(d, good) + strict_file_cases(d) +
                 output_cases(d, good) + fleet_cases(d) + env_cases(d, good) + last_cases(d, good) +
                 held_cases(d, good) + stdout_cases(good))
        if "--list" in sys.argv:
            for c in cases:
                print(c.name)
            return 0
        unclean = []
        for c in cases:
            ok, why = judge(c, d)
            if not ok:
                unclean.append((c, why))
    for c, why in unclean:
        print(f"NOT CLEAN: {c.name}: bench {' '.join(map(str, c.argv))}\n    {why}")
    print(f"{len(cases)} bad inputs and faults across {len({c.argv[0] if c.argv else '' for c in cases})} "
          f"commands: {len(cases) - len(unclean)} clean, {len(unclean)} not clean")
    return 1 if unclean else 0


if __name__ == "__main__":
    sys.exit(main())
