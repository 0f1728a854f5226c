#!/usr/bin/env python3
"""Renders a report in headless Chromium and fails on a page or console error.

usage: report_render.py BENCH [SHOTS_DIR]

Skipped (77) where Debian's chromium is not installed. Chromium loads the page from a file
with networking of no use (the page references nothing outside itself), writes a screenshot,
and logs every console message to stderr (`--enable-logging=stderr --v=0`: lines with
`CONSOLE`); a second run dumps the DOM, which must hold every chart the HTML holds. The
screenshot is kept in SHOTS_DIR (or $REPORT_SHOTS) when given, for people to look at.
"""
import os
import re
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
import report_docs  # noqa: E402

WIDTH, HEIGHT = 1280, 4000
# Chromium logs much start-up noise on a machine without a session bus or a GPU (dbus, vaapi);
# none of it concerns the page. A console message (an error, a refused or failed load) or any
# line naming the page fails the test.
CONSOLE = re.compile(r"CONSOLE|Uncaught")
QUIET = ["--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-dev-shm-usage", "--no-default-browser-check"]


def run_chromium(exe, profile, url, *extra):
    cmd = [exe, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", *QUIET,
           f"--user-data-dir={profile}", "--hide-scrollbars", "--enable-logging=stderr",
           "--v=0", f"--window-size={WIDTH},{HEIGHT}", *extra, url]
    return bt.run(cmd, timeout=300)


def page_errors(stderr, page):
    return [line.strip() for line in stderr.splitlines()
            if CONSOLE.search(line) or (page in line and "bytes written" not in line)]


def main():
    bench = sys.argv[1]
    shots = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("REPORT_SHOTS")
    exe = bt.need_tool("chromium", "chromium-browser",
                       why="chromium is not installed (Debian package chromium)")
    with bt.tmpdir() as tmp:
        docs = report_docs.make(bench, tmp, small=True)
        page = os.path.join(tmp, "report.html")
        r = report_docs.report(bench, docs, page)
        if r.code != 0:
            bt.fail(f"report exit {r.code}: {r.err}")
        with open(page, encoding="utf-8") as f:
            html = f.read()
        url = "file://" + page
        shot = os.path.join(tmp, "report.png")
        r = run_chromium(exe, os.path.join(tmp, "profile"), url, f"--screenshot={shot}")
        bt.check(r.code == 0, f"chromium --screenshot exit {r.code}")
        for e in page_errors(r.err, page):
            bt.check(False, f"page error: {e}")
        if bt.check(os.path.exists(shot), "no screenshot written"):
            check_shot(shot, page, shots)
        r = run_chromium(exe, os.path.join(tmp, "profile"), url, "--dump-dom")
        bt.check(r.code == 0, f"chromium --dump-dom exit {r.code}")
        for e in page_errors(r.err, page):
            bt.check(False, f"page error: {e}")
        want = len(re.findall(r"<svg\b", html))
        got = len(re.findall(r"<svg\b", r.out))
        bt.check(want != 0 and got == want, f"the rendered DOM holds {got} charts, the page {want}")
        print(f"{want} charts rendered at {WIDTH}x{HEIGHT}")
    return bt.verdict()


def check_shot(shot, page, shots):
    """The screenshot is a PNG of some size; kept in shots (with the page) where given."""
    with open(shot, "rb") as f:
        data = f.read()
    bt.check(data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 50_000,
             f"the screenshot looks empty ({len(data)} bytes)")
    if shots:
        os.makedirs(shots, exist_ok=True)
        shutil.copy(shot, os.path.join(shots, "report-cpu.png"))
        shutil.copy(page, os.path.join(shots, "report-cpu.html"))


if __name__ == "__main__":
    sys.exit(main())
