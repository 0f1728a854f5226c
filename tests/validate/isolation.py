#!/usr/bin/env python3
"""bench validate runs each check in a process of its own: crashes, hangs, flakes, signals.

usage: isolation.py CASE BENCH DEVICE KERNELS_DIR
CASE is one of (the stub cases run under tests/stub-icd/stub_run.py, with its fault):
  crash        the stub dies of SIGSEGV in clEnqueueNDRangeKernel of the vecadd kernels:
               vecadd/v1 is Crash (the signal's name and the child's last line, the stub's own),
               the API check after it passes, exit 1; results.csv and JUnit say so; the same
               with --checks-per-process 1
  hang-driver  the stub's clFinish never returns: Timeout after --check-timeout, the run goes on;
               half way (5 s) a line on stderr says that bench waits, and until when
  hang-kernel  a --kernels copy whose vecadd kernel spins forever, on the real driver: Timeout
  flake        the stub crashes in one process only (--once): the re-run passes, Flake, exit 0
  missing      the stub kills the second process that loads it (crash-load:2), the first
               check's: it died before it began the check, so the check has no result, Missing
               (deqp-runner's status), in results.csv, failures.csv, JUnit and the summary; not
               run again (--flake-runs 1) and still Missing where the baseline names it Missing
               (deqp-runner judges no Missing against its baseline), exit 1 both times; the
               next check runs in a new process and passes
  missing-hang the stub hangs the second process as it loads (hang-load:2): half its
               --check-timeout in, a line says the check is not begun and will be Missing;
               then it is Missing (its process began no check), the next check passes, exit 1
  sigint       SIGINT while a check spins: exit 130, the checks that ended written (results.csv,
               JUnit), each saying the run was interrupted (results.csv's last comment, JUnit's
               error testcase, errors="1" and complete=false), nothing of the run left running
  sigterm      the same with SIGTERM: exit 143
  sigkill      SIGKILL of bench validate while a check spins: results.csv holds the checks that
               ended and says it was written mid-run, and the child dies with its parent
Every case checks that no process of the run is left behind.
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

API = "api/buffer-size-zero"
SPIN = "vecadd/v3/wg=64/sg=auto"


def fail(msg, out=""):
    print("FAIL:", msg)
    if out:
        print("--- output ---\n" + out[-6000:])
    sys.exit(1)


def spinning_kernels(src, dst):
    for f in os.listdir(src):
        if f.endswith((".cl", ".h")):
            with open(os.path.join(src, f)) as a, open(os.path.join(dst, f), "w") as b:
                b.write(a.read())
    path = os.path.join(dst, "vecadd.cl")
    text = open(path).read()
    anchor = "bench_record_info(info);"
    if anchor not in text:
        sys.exit("vecadd.cl no longer has the line this test makes spin: " + anchor)
    spin = anchor + "\n\twhile (((volatile __global uint *)info)[3] != 0x12345u) {}"
    open(path, "w").write(text.replace(anchor, spin, 1))


def children_of(pid):
    """Processes still running a check for the bench validate process pid."""
    tag = f"--run-check\0{pid}:".encode()
    left = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                if tag in open(f"/proc/{p}/cmdline", "rb").read():
                    left.append(int(p))
            except OSError:
                pass
    return left


def none_left(pid, out, wait=10.0):
    t0 = time.monotonic()
    while children_of(pid) and time.monotonic() - t0 < wait:
        time.sleep(0.2)
    if children_of(pid):
        fail(f"processes of the run still running: {children_of(pid)}", out)


def results(path):
    """results.csv as {check: status}, and its comment lines."""
    rows, comments = {}, []
    for line in open(path).read().splitlines():
        if line.startswith("#"):
            comments.append(line)
            continue
        name, status, secs = line.split(",")
        float(secs)
        rows[name] = status
    return rows, comments


def run(cmd, d, signal_after=None, sig=None):
    """Runs bench validate; with signal_after, sends sig once results.csv holds that check."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if signal_after:
        csv = os.path.join(d, "r", "results.csv")
        t0 = time.monotonic()
        while time.monotonic() - t0 < 120 and p.poll() is None:
            if os.path.exists(csv) and signal_after in open(csv).read():
                break
            time.sleep(0.2)
        time.sleep(1.0)   # the spinning check is in flight now
        p.send_signal(sig)
    out, _ = p.communicate(timeout=300)
    return p.returncode, out, p.pid


def caselist(d, names):
    path = os.path.join(d, "cases.txt")
    with open(path, "w") as f:
        f.write("# isolation.py\n" + "\n".join(names) + "\n")
    return path


def check_crash_or_hang(case, code, out, d):
    want = {"crash": "Crash", "hang-driver": "Timeout", "hang-kernel": "Timeout"}[case]
    first = "vecadd/v1" if case != "hang-kernel" else SPIN
    rows, comments = results(os.path.join(d, "r", "results.csv"))
    if code != 1:
        fail(f"exit {code}, expected 1", out)
    if rows.get(first) != want or rows.get(API) != "Pass":
        fail(f"results.csv says {rows}, expected {first} {want} and {API} Pass", out)
    if not comments or "device" not in comments[0]:
        fail(f"results.csv names no device: {comments}", out)
    if case == "crash" and not re.search(r"CRASH .*SIGSEGV.*a segmentation fault in clEnqueueNDRangeKernel", out):
        fail("the table does not give the signal and the child's last output", out)
    if case != "crash" and "(--check-timeout)" not in out:
        fail("the table does not say the check ran past --check-timeout", out)
    # a hung check is never a silent wait: half its --check-timeout in, bench says it waits and
    # until when (the clock time), then what happens
    if case != "crash" and not re.search(
            re.escape(f"bench validate: {first} still running after 5 s; waiting until ") +
            r"\d\d:\d\d:\d\d UTC \(--check-timeout 10 s\), then its process is killed", out):
        fail("no line saying that bench waits for the hung check, and until when", out)
    if case == "hang-driver" and "a call that never returns in clFinish" not in out:
        fail("the child's last output is not quoted", out)
    junit = open(os.path.join(d, "j.xml")).read()
    if f'type="{want}"' not in junit:
        fail(f"the JUnit file has no failure of type {want}", junit)


def check_missing(bench_cmd, d):
    """Runs the case twice (the second with a baseline naming the check Missing)."""
    processes = os.environ.get("BENCH_STUB_PROCESSES")
    if not processes:
        fail("no BENCH_STUB_PROCESSES: run under stub_run.py")
    base = os.path.join(d, "base.csv")
    with open(base, "w") as f:
        f.write(f"{API},Missing\n")
    for extra in ([], ["--baseline", base]):
        if os.path.exists(processes):
            os.unlink(processes)   # the parent is process 1, the first check's process 2
        code, out, pid = run(bench_cmd + extra, d)
        none_left(pid, out)
        rows, _ = results(os.path.join(d, "r", "results.csv"))
        failures, _ = results(os.path.join(d, "r", "failures.csv")) if os.path.getsize(
            os.path.join(d, "r", "failures.csv")) else ({}, [])
        if code != 1 or rows != {API: "Missing", "api/arg-index": "Pass"}:
            fail(f"{' '.join(extra)}: exit {code}, results.csv {rows}: expected 1, {API} Missing "
                 "and api/arg-index Pass", out)
        if failures != {API: "Missing"}:
            fail(f"failures.csv says {failures}, expected {API} Missing", out)
        if not re.search(re.escape(API) + r" +MISSING .*no result: its process died of SIGSEGV "
                         r"before it began the check", out):
            fail("the table does not say the check's process died before it began it", out)
        if "Missing 1" not in out or "1 missing (no result)" not in out:
            fail("the summary does not count the Missing", out)
        junit = open(os.path.join(d, "j.xml")).read()
        if '<failure type="Missing"' not in junit or "status: Missing (1 run)" not in junit:
            fail("the JUnit file has no failure of type Missing, run once", junit)
    return out


def check_signal(case, code, out, d):
    want = {"sigint": 130, "sigterm": 143, "sigkill": -signal.SIGKILL}[case]
    if code != want:
        fail(f"exit {code}, expected {want}", out)
    rows, comments = results(os.path.join(d, "r", "results.csv"))
    if rows != {API: "Pass"}:
        fail(f"results.csv says {rows}: expected the one check that ended, {API}", out)
    # the file's last line says the run was not whole: the signal, or (SIGKILL) written mid-run
    last = comments[-1] if comments else ""
    sig = {"sigint": "SIGINT", "sigterm": "SIGTERM"}.get(case)
    if (f"# incomplete: interrupted by {sig}: 1 of 3 checks ended" if sig
            else "# incomplete: 1 of 3 checks ended so far") not in last:
        fail(f"results.csv does not end saying the run was cut short: {comments}", out)
    if case != "sigkill":
        junit = open(os.path.join(d, "j.xml")).read()
        if junit.count("<testcase ") != 2 or "interrupted by SIG" not in out:
            fail("the JUnit file or the summary does not hold what ended", out + junit)
        # a CI job counting errors sees the run cut short: an error testcase, the counts, a property
        if (f'<error type="Interrupted" message="interrupted by {sig}: 1 of 3 checks ended'
                not in junit or 'errors="1"' not in junit
                or '<property name="complete" value="false"/>' not in junit):
            fail("the JUnit file does not say the run was interrupted", junit)


def main():
    case, bench, device, kernels = sys.argv[1:5]
    with tempfile.TemporaryDirectory() as d:
        base = [bench, "validate", "--device", device, "--results-dir", os.path.join(d, "r"),
                "--junit", os.path.join(d, "j.xml"), "--flake-runs", "0"]
        k = os.path.join(d, "k")
        os.mkdir(k)
        spinning_kernels(kernels, k)
        if case in ("crash", "hang-driver", "flake"):
            cmd = base + ["--caselist", caselist(d, ["vecadd/v1", API]), "--check-timeout", "10"]
            if case == "flake":
                cmd[cmd.index("--flake-runs") + 1] = "1"
            if case == "crash":   # a process per check: the same results
                code, out, pid = run(cmd + ["--checks-per-process", "1"], d)
                none_left(pid, out)
                check_crash_or_hang(case, code, out, d)
            code, out, pid = run(cmd, d)
        elif case == "missing":
            cmd = base + ["--caselist", caselist(d, [API, "api/arg-index"])]
            cmd[cmd.index("--flake-runs") + 1] = "1"
            print(check_missing(cmd, d))
            print(f"ok: {case}")
            return 0
        elif case == "missing-hang":
            cmd = base + ["--caselist", caselist(d, [API, "api/arg-index"]), "--check-timeout", "4"]
            code, out, pid = run(cmd, d)
            none_left(pid, out)
            rows, _ = results(os.path.join(d, "r", "results.csv"))
            if code != 1 or rows != {API: "Missing", "api/arg-index": "Pass"}:
                fail(f"exit {code}, results.csv {rows}: expected 1, {API} Missing", out)
            if not re.search(re.escape(f"bench validate: {API} not begun by its process after 2 s; "
                                       "waiting until ") + r"\d\d:\d\d:\d\d UTC \(--check-timeout 4 s\), "
                             r"then its process is killed and the check is Missing", out):
                fail("no line saying that the check's process has not begun it", out)
            if "no result: its process began no check within 4 s (--check-timeout)" not in out:
                fail("the table does not say the process began no check in time", out)
            print(out)
            print(f"ok: {case}")
            return 0
        elif case == "hang-kernel":
            cmd = base + ["--caselist", caselist(d, [SPIN, API]), "--kernels", k, "--check-timeout", "10"]
            code, out, pid = run(cmd, d)
        elif case in ("sigint", "sigterm", "sigkill"):
            sig = {"sigint": signal.SIGINT, "sigterm": signal.SIGTERM, "sigkill": signal.SIGKILL}[case]
            cmd = base + ["--caselist", caselist(d, [API, SPIN, "api/arg-index"]), "--kernels", k]
            code, out, pid = run(cmd, d, API, sig)
        else:
            sys.exit("unknown case " + case)
        none_left(pid, out)
        if case == "flake":
            rows, _ = results(os.path.join(d, "r", "results.csv"))
            if code != 0 or rows.get("vecadd/v1") != "Flake" or rows.get(API) != "Pass":
                fail(f"exit {code}, results {rows}: expected 0, vecadd/v1 Flake", out)
        elif case in ("sigint", "sigterm", "sigkill"):
            check_signal(case, code, out, d)
        else:
            check_crash_or_hang(case, code, out, d)
    print(out)
    print(f"ok: {case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
