#!/usr/bin/env python3
"""The manual pages render, and each holds every option its command's --help lists.

usage: man_test.py BENCH MANDIR

For bench(1) and bench-CMD(1) of every command of `bench list --json`: groff renders the page
with no warning (-ww), lexgrog (man-db) reads its NAME line where it is installed, and the
rendered text holds the command's summary and every option that `bench CMD --help` prints
(read from the help text, not from the tables the pages come from), and every option of those
tables with help. bench(1) names every command. Exit 0, 1 naming each miss, 77 without groff.
"""
import json
import os
import re
import shutil
import subprocess
import sys

HELP_OPT = re.compile(r"^  (?:-(\w), )?--([\w-]+)", re.M)


def render(page):
    """The page as plain text (dashes as '-'), and groff's warnings."""
    r = subprocess.run(["groff", "-man", "-ww", "-Tutf8", "-P-cbou", page], capture_output=True,
                       text=True, env=dict(os.environ, LC_ALL="C.UTF-8"))
    text = r.stdout.replace("\u2212", "-").replace("\u2010", "-")
    return re.sub(r"\s+", " ", text), r.stderr.strip() or (f"exit {r.returncode}" if r.returncode else "")


def help_options(bench, cmd):
    r = subprocess.run([bench, cmd, "--help"], capture_output=True, text=True)
    return {("-" + s) if s else None for s, _ in HELP_OPT.findall(r.stdout)} - {None}, \
        {"--" + n for _, n in HELP_OPT.findall(r.stdout)}


def check_page(bench, mandir, c):
    problems = []
    page = os.path.join(mandir, f"bench-{c['name']}.1")
    if not os.path.exists(page):
        return [f"no page {page}"]
    text, warnings = render(page)
    if warnings:
        problems.append(f"groff: {warnings}")
    shorts, longs = help_options(bench, c["name"])
    if not longs:
        problems.append(f"bench {c['name']} --help lists no option")
    tables = {"--" + o["name"] for o in c["options"] + sum(c["shared_options"].values(), [])
              if o["help"]}
    for opt in sorted(longs | shorts | tables | {"--help"}):
        if not re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", text):
            problems.append(f"option {opt} missing")
    if " ".join(c["summary"].split()) not in text:
        problems.append("summary missing")
    if shutil.which("lexgrog"):
        r = subprocess.run(["lexgrog", page], capture_output=True, text=True)
        if r.returncode or f"bench-{c['name']}" not in r.stdout:
            problems.append(f"lexgrog: {r.stdout.strip()} {r.stderr.strip()}")
    return problems


def main(argv):
    if len(argv) != 3:
        print(__doc__.split("\n")[2], file=sys.stderr)
        return 2
    bench, mandir = (os.path.abspath(a) for a in argv[1:])
    if not shutil.which("groff"):
        print("skipped: no groff (Debian: groff-base)")
        return 77
    cmds = json.loads(subprocess.run([bench, "list", "--json"], capture_output=True, text=True,
                                     check=True).stdout)
    problems = []
    for c in cmds:
        problems += [(f"bench-{c['name']}.1", p) for p in check_page(bench, mandir, c)]
    text, warnings = render(os.path.join(mandir, "bench.1"))
    if warnings:
        problems.append(("bench.1", f"groff: {warnings}"))
    for c in cmds:
        if f"bench-{c['name']}(1)" not in text:
            problems.append(("bench.1", f"no bench-{c['name']}(1)"))
    for opt in ("--help", "--version"):
        if opt not in text:
            problems.append(("bench.1", f"option {opt} missing"))
    for page, what in problems:
        print(f"{page}: {what}")
    print(f"{len(cmds) + 1} pages, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
