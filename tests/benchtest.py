"""What the test scripts of tests/ share: running bench and other commands, temporary folders,
results documents, copies of the kernel folder with one change, processes interrupted at a
chosen moment, and the verdict as Meson reads it (exit 0 passed, 1 failed, 77 skipped).

A script in tests/ imports it as it is; one in a folder below tests/ puts tests/ on the path:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import benchtest as bt
Two ways to fail: fail() ends the script at once; check() records a failed check and goes on,
and verdict() at the end prints every one and gives the exit code (a script that ends with a
failed check recorded exits 1, whatever exit it asked for). Standard library only.
"""
import atexit
import dataclasses
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

PASS, FAIL, SKIP = 0, 1, 77
# The kernel sources of a kernels folder, as bench --kernels DIR reads them.
KERNEL_SOURCES = (".cl", ".h")
# vecadd.cl's line after which spinning_kernels() makes the kernel spin.
SPIN_ANCHOR = "bench_record_info(info);"
# Waits for a value no one writes: the kernel never ends.
SPIN_LOOP = "\n\twhile (((volatile __global uint *)info)[3] != 0x12345u) {}"
_REQUIRED = object()


# ---- the verdict ----

errors = []   # the failed checks of this run, in order (check() adds, verdict() reports)
_reported = False   # verdict() has printed them


def _no_pass_after_a_failed_check():
    """At exit, after the script's own clean-ups (atexit runs the last registered first): a
    script that recorded a failed check ends with exit 1 whatever exit it asked for, its
    checks printed if verdict() has not; a script that dropped verdict()'s code once passed
    with a failed check printed."""
    if not errors:
        return
    if not _reported:
        verdict()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(FAIL)


atexit.register(_no_pass_after_a_failed_check)


def fail(msg, r=None, tail=4000):
    """Prints 'FAIL: msg' (then r's output, each stream cut to its last tail characters) and
    exits 1."""
    print(f"FAIL: {msg}")
    if r is not None:
        print(r.output(tail))
    sys.exit(FAIL)


def skip(msg):
    """Prints 'SKIP: msg' and exits 77, Meson's code for a skipped test."""
    print(f"SKIP: {msg}")
    sys.exit(SKIP)


def check(cond, msg, r=None):
    """Records msg as a failed check unless cond holds (with r's exit code and output where
    given); returns cond. The script goes on: verdict() ends it."""
    if not cond:
        errors.append(msg if r is None else f"{msg}\n  exit {r.code}\n{r.output(3000)}")
    return cond


def verdict(ok_msg=None):
    """The exit code of a script that used check(): 1 after printing every failed check
    (FAIL: ...), else 0 after printing ok_msg where given."""
    global _reported
    _reported = True
    for e in errors:
        print(f"FAIL: {e}")
    if errors:
        print(f"{len(errors)} check(s) failed")
        return FAIL
    if ok_msg:
        print(ok_msg)
    return PASS


# ---- commands ----

@dataclasses.dataclass
class Result:
    """What a command did: its exit code (negative: the signal that ended it), its standard
    output and error (empty where not captured) and the seconds it ran."""
    cmd: list
    code: int
    out: str = ""
    err: str = ""
    secs: float = 0.0

    def output(self, tail=None):
        """stdout and stderr under headers, each cut to its last tail characters (all: None)."""
        out, err = (self.out, self.err) if tail is None else (self.out[-tail:], self.err[-tail:])
        return f"--- stdout ---\n{out}--- stderr ---\n{err}"


def after_dashes(args):
    """args without a leading '--': the command a script is given after its own options."""
    return list(args[1:] if args and args[0] == "--" else args)


def errors_verdict(cmd, r, errors):
    """A checking script's exit code: 1 printing the command, its first 40 errors and the run's
    output where there are errors; else 0 printing the run's stdout."""
    if errors:
        print("command:", " ".join(cmd))
        print("\n".join(errors[:40]))
        print(r.output())
        return 1
    print(r.out)
    return 0


def environ(env=None):
    """The environment of a command: this process's with env's variables set over it (None:
    this process's, unchanged)."""
    return None if env is None else {**os.environ, **env}


def run(cmd, env=None, timeout=None, input=None, capture=True, **popen):
    """Runs cmd (a list) to its end and returns its Result. env: variables set over this
    process's environment; timeout: seconds before subprocess.TimeoutExpired; input: text on
    its standard input; capture False: its output goes where this script's goes; popen: more
    subprocess.run arguments (cwd, preexec_fn)."""
    t0 = time.monotonic()
    r = subprocess.run(cmd, env=environ(env), timeout=timeout, input=input, text=True,
                       capture_output=capture, **popen)
    return Result(list(cmd), r.returncode, r.stdout or "", r.stderr or "", time.monotonic() - t0)


def must_run(cmd, code=0, what=None, **kw):
    """run(cmd, **kw), failing (exit 1, with its output) unless it exits code."""
    r = run(cmd, **kw)
    if r.code != code:
        fail(f"{what or ' '.join(cmd)}: exit {r.code}, expected {code}", r)
    return r


def run_checked(cmd, code=0, what=None, **kw):
    """run(cmd, **kw), recording a failed check (check()) unless it exits code."""
    r = run(cmd, **kw)
    check(r.code == code, f"{what or ' '.join(cmd)}: exit {r.code}, expected {code}", r)
    return r


def run_with_doc(cmd, option="--json", name="r.json", **kw):
    """Runs cmd with `option FILE` added, FILE in a temporary folder: (its Result, the JSON
    document it wrote there, or None where it wrote none)."""
    with tmpdir() as d:
        path = os.path.join(d, name)
        r = run(list(cmd) + [option, path], **kw)
        return r, load_doc(path, missing=None)


# What makes two runs of one command the same run: the build's bench and the driver registry.
ONCE_ENV = ("OCL_ICD_VENDORS", "LD_LIBRARY_PATH", "BENCH_DEVICE", "BENCH_STUB_TARGET",
            "BENCH_STUB_FAULT", "ASAN_OPTIONS", "UBSAN_OPTIONS")


def _tree_state():
    """Size and time of every file of the source tree bench reads at run time (its data,
    kernels given with --kernels) or a test reads: another state is another run."""
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    state = []
    for top in ("kernels", "results", "tests"):
        for d, _, names in os.walk(os.path.join(src, top)):
            for n in sorted(x for x in names if not x.endswith(".pyc")):   # not Python's cache
                st = os.stat(os.path.join(d, n))
                state.append((os.path.join(d, n), st.st_size, st.st_mtime_ns))
    return sorted(state)


def run_once(cmd, timeout=None):
    """run(cmd), once for every test of this build that asks for the same command: a fixture
    made once per build (one bench validate run read as TAP by one test and as JUnit by
    another). @DIR@ in cmd is a folder the run keeps, for files it writes. Returns (its
    Result, that folder). The run is kept under $BENCH_TEST_CACHE (the test setup's, in the
    build folder), keyed by the command, every file it names (size and time: bench itself
    rebuilt is another run), the files of kernels/, results/ and tests/, and the driver
    registry; a second test waits for the first's run
    (a lock). Without BENCH_TEST_CACHE, or with BENCH_TEST_FRESH=1 (test.sh --repeat: each
    repetition its own run), every call runs the command."""
    import fcntl
    import hashlib
    cache = os.environ.get("BENCH_TEST_CACHE")
    if not cache or os.environ.get("BENCH_TEST_FRESH") == "1":
        d = tempfile.mkdtemp(prefix="bench-once-")
        import atexit
        atexit.register(shutil.rmtree, d, True)   # removed when the test ends
        return run([a.replace("@DIR@", d) for a in cmd], timeout=timeout), d
    key = [list(cmd)] + [(v, os.environ.get(v)) for v in ONCE_ENV]
    key += [(a, os.stat(a).st_size, os.stat(a).st_mtime_ns) for a in cmd if os.path.isfile(a)]
    key += _tree_state()
    d = os.path.join(cache, hashlib.sha256(repr(key).encode()).hexdigest()[:16])
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = os.path.join(d, "result.json")
        if os.path.exists(done):
            with open(done) as f:
                r = Result(**json.load(f))
            print(f"the run of {os.path.basename(cmd[0])} made once for this build: {d}",
                  file=sys.stderr)
            return r, d
        r = run([a.replace("@DIR@", d) for a in cmd], timeout=timeout)
        with open(done + ".tmp", "w") as f:
            json.dump(dataclasses.asdict(r), f)
        os.replace(done + ".tmp", done)
        return r, d


def bench_info(bench, device=None, **kw):
    """The devices `bench info --json [--device DEVICE]` lists; fails (exit 1) where it fails.
    kw: more run() arguments."""
    r = run([bench, "info", "--json"] + (["--device", device] if device else []), **kw)
    if r.code != 0:
        fail(f"bench info: exit {r.code}", r)
    return json.loads(r.out)


def find_tool(*names):
    """The path of the first of names found on PATH, or None."""
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


def need_tool(*names, why):
    """The path of the first of names found on PATH; skips (77) saying why where none is."""
    path = find_tool(*names)
    if path is None:
        skip(why)
    return path


# ---- processes interrupted at a chosen moment ----

def start(cmd, env=None, **popen):
    """Starts cmd with its stdout and stderr on pipes (text) and returns the process, for
    read_until(), send_signals() and finish(). popen: Popen arguments (stderr=STDOUT,
    start_new_session=True)."""
    opts = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True}
    opts.update(popen)
    p = subprocess.Popen(cmd, env=environ(env), **opts)
    p.started = time.monotonic()
    return p


def finish(p, timeout=None):
    """Waits for a process of start() and returns its Result (secs: since it started)."""
    out, err = p.communicate(timeout=timeout)
    return Result(list(p.args), p.returncode, out or "", err or "", time.monotonic() - p.started)


def read_until(p, match, count=1, timeout=None):
    """Reads the stdout of a process of start() line by line until count lines have matched
    (match: a function of the line, or text the line contains), the output ends, or timeout
    seconds have passed; returns what it read."""
    test = match if callable(match) else (lambda line: match in line)
    deadline = None if timeout is None else time.monotonic() + timeout
    seen, text = 0, ""
    while seen < count and (deadline is None or time.monotonic() < deadline):
        line = p.stdout.readline()
        if not line:
            break
        text += line
        seen += bool(test(line))
    return text


def send_signals(p, signals, delay=1.0, gap=0.5):
    """Sends each of signals to p in turn: the first after delay seconds, each other gap
    seconds after the one before."""
    for i, s in enumerate(signals):
        time.sleep(delay if i == 0 else gap)
        p.send_signal(s)


def signal_when(p, match, signals, count=1, delay=1.0, gap=0.5, timeout=None):
    """Once count lines of p's stdout have matched (read_until()), send_signals(); returns the
    lines read."""
    text = read_until(p, match, count, timeout)
    send_signals(p, signals, delay, gap)
    return text


def stop(p, timeout=15):
    """Ends the process group of p (started with start_new_session=True): SIGTERM, then
    SIGKILL where it has not ended after timeout seconds."""
    os.killpg(p.pid, signal.SIGTERM)
    try:
        p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()


# ---- files and documents ----

def tmpdir(prefix="bench-test-", ignore_errors=False):
    """A temporary folder, removed afterwards: `with tmpdir() as d:` (d its path).
    ignore_errors: what cannot be removed is left, without an error."""
    return tempfile.TemporaryDirectory(prefix=prefix, ignore_cleanup_errors=ignore_errors)


def temp_files(path):
    """The temporary files a writer of path left beside it: path.tmp.* and .NAME.tmp.*."""
    d, name = os.path.split(path)
    return glob.glob(path + ".tmp.*") + glob.glob(os.path.join(d, "." + name + ".tmp.*"))


def load_doc(path, missing=_REQUIRED):
    """The JSON document at path; missing (e.g. None) where there is no such file, when given
    (otherwise OSError). A file that is not JSON raises ValueError."""
    if missing is not _REQUIRED and not os.path.exists(path):
        return missing
    with open(path) as f:
        return json.load(f)


def read_doc(path, r=None):
    """The JSON document at path, or fail (exit 1, with r's output) where it is missing or
    not JSON."""
    try:
        return load_doc(path)
    except (OSError, ValueError) as e:
        fail(f"the document {path} is not readable JSON: {e}", r)


def write_doc(path, content):
    """Writes content to path, a str as it is, anything else as JSON; returns path."""
    with open(path, "w") as f:
        f.write(content if isinstance(content, str) else json.dumps(content))
    return path


def edited(doc, dotted, value=None, delete=False, rename=None):
    """A copy of doc with the member at dotted (numbers index arrays: points.0.status) set to
    value, deleted, or renamed to rename (a typo of it), for documents with one fault."""
    d = json.loads(json.dumps(doc))
    cur, parts = d, dotted.split(".")
    for p in parts[:-1]:
        cur = cur[int(p)] if isinstance(cur, list) else cur[p]
    last = int(parts[-1]) if isinstance(cur, list) else parts[-1]
    if rename:
        cur[rename] = cur.pop(last)
    elif delete:
        del cur[last]
    else:
        cur[last] = value
    return d


def file_digest(path):
    """The SHA-256 of a file's bytes, to tell that it was left as it was."""
    import hashlib
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def path_kind(path):
    """What path is, without following a link: link, chr, fifo, dir, file, or None."""
    import stat
    try:
        m = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    return ("link" if stat.S_ISLNK(m) else "chr" if stat.S_ISCHR(m) else "fifo" if stat.S_ISFIFO(m)
            else "dir" if stat.S_ISDIR(m) else "file")


def json_lines(path):
    """The JSON values of a file of one value a line (Meson's testlog.json), blank lines left."""
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def points(doc, **params):
    """The points of a results document whose params hold every value given (all: none)."""
    return [p for p in doc["points"] if all(p["params"].get(k) == v for k, v in params.items())]


def median(xs):
    """The median of the numbers xs (the mean of the middle two of an even count)."""
    s = sorted(xs)
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


# ---- kernels ----

def kernels_copy(src_dir, dst_dir, file=None, find=None, replace=None, count=1, only=None):
    """Copies the kernel sources of src_dir (*.cl and *.h; only: these names) into dst_dir, made
    where missing, for a run with --kernels dst_dir. With file: replaces the first count
    occurrences (-1: all) of find in that file by replace, and returns the line of the first
    (None without file). Fails (exit 1) where the file lacks find: a kernel that no longer has
    the code a test changes needs a new change, never a test that passes without one."""
    os.makedirs(dst_dir, exist_ok=True)
    names = only or [f for f in sorted(os.listdir(src_dir)) if f.endswith(KERNEL_SOURCES)]
    for name in names:
        shutil.copy(os.path.join(src_dir, name), dst_dir)
    if file is None:
        return None
    path = os.path.join(dst_dir, file)
    with open(path) as f:
        text = f.read()
    if find not in text:
        fail(f"{file} no longer has the code this test changes:\n{find}")
    with open(path, "w") as f:
        f.write(text.replace(find, replace, count))
    return text[:text.index(find)].count("\n") + 1


def spinning_kernels(src_dir, dst_dir):
    """A copy of the kernels in dst_dir whose vecadd kernel spins for ever once it has recorded
    its info (a hung kernel, for --timeout and interrupts); returns dst_dir."""
    kernels_copy(src_dir, dst_dir, "vecadd.cl", SPIN_ANCHOR, SPIN_ANCHOR + SPIN_LOOP)
    return dst_dir


def run_cases(namespace, case):
    """Runs the function case_CASE of a script's namespace (its globals()) and returns verdict()'s
    exit code; fails naming the cases there are where it has none of that name."""
    cases = {k[5:]: v for k, v in namespace.items() if k.startswith("case_")}
    if case not in cases:
        fail(f"unknown case {case}: {', '.join(cases)}")
    cases[case]()
    return verdict()
