#!/usr/bin/env python3
"""Renders a report in headless Chromium and fails on a page or console error.

usage: report_render.py BENCH REPORT_PY [SHOTS_DIR]

Skipped (77) where Debian's chromium is not installed. Chromium loads the page from a file
with networking of no use (the page references nothing outside itself), writes a screenshot,
and logs every console message to stderr (`--enable-logging=stderr --v=0`: lines with
`CONSOLE`); a second run dumps the DOM, which must hold every chart the HTML holds. The
screenshot is kept in SHOTS_DIR (or $REPORT_SHOTS) when given, for people to look at.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import report_docs

WIDTH, HEIGHT = 1280, 4000
# Chromium logs much start-up noise on a machine without a session bus or a GPU (dbus, vaapi);
# none of it concerns the page. A console message (an error, a refused or failed load) or any
# line naming the page fails the test.
CONSOLE = re.compile(r"CONSOLE|Uncaught")
QUIET = ["--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-dev-shm-usage", "--no-default-browser-check"]


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run_chromium(exe, profile, url, *extra):
    cmd = [exe, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", *QUIET,
           f"--user-data-dir={profile}", "--hide-scrollbars", "--enable-logging=stderr",
           "--v=0", f"--window-size={WIDTH},{HEIGHT}", *extra, url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def page_errors(stderr, page):
    return [line.strip() for line in stderr.splitlines()
            if CONSOLE.search(line) or (page in line and "bytes written" not in line)]


def main():
    bench, report_py = sys.argv[1], sys.argv[2]
    shots = sys.argv[3] if len(sys.argv) > 3 else os.environ.get("REPORT_SHOTS")
    exe = chromium()
    if exe is None:
        print("chromium is not installed (Debian package chromium): skipped")
        return 77
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        docs = report_docs.make(bench, tmp, small=True)
        page = os.path.join(tmp, "report.html")
        r = report_docs.report(report_py, docs, page)
        if r.returncode != 0:
            print(f"report exit {r.returncode}: {r.stderr}")
            return 1
        with open(page, encoding="utf-8") as f:
            html = f.read()
        url = "file://" + page
        shot = os.path.join(tmp, "report.png")
        r = run_chromium(exe, os.path.join(tmp, "profile"), url, f"--screenshot={shot}")
        if r.returncode != 0:
            failures.append(f"chromium --screenshot exit {r.returncode}")
        failures += [f"page error: {e}" for e in page_errors(r.stderr, page)]
        if not os.path.exists(shot):
            failures.append("no screenshot written")
        else:
            with open(shot, "rb") as f:
                data = f.read()
            if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 50_000:
                failures.append(f"the screenshot looks empty ({len(data)} bytes)")
            if shots:
                os.makedirs(shots, exist_ok=True)
                shutil.copy(shot, os.path.join(shots, "report-cpu.png"))
                shutil.copy(page, os.path.join(shots, "report-cpu.html"))
        r = run_chromium(exe, os.path.join(tmp, "profile"), url, "--dump-dom")
        if r.returncode != 0:
            failures.append(f"chromium --dump-dom exit {r.returncode}")
        failures += [f"page error: {e}" for e in page_errors(r.stderr, page)]
        want = len(re.findall(r"<svg\b", html))
        got = len(re.findall(r"<svg\b", r.stdout))
        if want == 0 or got != want:
            failures.append(f"the rendered DOM holds {got} charts, the page {want}")
        print(f"{want} charts rendered at {WIDTH}x{HEIGHT}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
