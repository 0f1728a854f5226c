#!/usr/bin/env python3
"""Draws results documents as one self-contained HTML page: `bench report`'s renderer.

usage: report.py DOC... [--png DIR] [--allow-partial]   (run by bench report, never alone)

Every document (results/README.md, schema_version 1) gets a section (a document of several
devices or a suite's, one per run): the device and run facts, the benchmark's charts, and its
failed or skipped points. Two documents of one benchmark (or a `bench compare --json` document)
also get a before/after section, and so does a suite's entry that names the guide's published
figures (runs[].figures, results/suites/README.md): the guide's figure against this run's, as a
table and a chart. Charts are inline SVG drawn by matplotlib; --png DIR draws each as a PNG
too. Documents are judged as bench compare and export judge them
(results/schema/input.schema.json).

This script writes no file: bench report (bench/tools/report/report.c) registers the documents,
reserves the outputs by the one rule of bench's outputs (host/outfile.h) and writes what this
script hands back on descriptor 3, as frames: each PNG as "png LEN NAME\n" and LEN bytes, then
the page as "page LEN DOCS\n" (DOCS: the documents drawn) and LEN bytes.

Exit codes: 0 the frames were handed back; 2 bad input or usage (a missing, truncated or invalid
document: the message names the file and the member); 1 a failure while drawing (or matplotlib
or jsonschema missing). A signal ends it at once: bench report says so.
"""
import argparse
import importlib.util
import os
import signal
import sys
import traceback

from benchreport.doc import BadInput, load_all

PROG = "bench report"
SYSTEM_PYTHON = "/usr/bin/python3"   # Debian's, where python3-matplotlib installs
FRAMES_FD = 3   # bench report reads the frames here (bench/tools/report/report.c)
MODULES = {"matplotlib": "python3-matplotlib", "jsonschema": "python3-jsonschema"}


class Usage(Exception):
    pass


class Failure(Exception):
    """A failure that is not the input's fault and needs no location: exit 1."""


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise Usage(message)


def parse(argv):
    ap = Parser(prog=PROG, description=__doc__.splitlines()[0])
    ap.add_argument("docs", nargs="+", metavar="DOC", help="results documents (bench --json)")
    ap.add_argument("--png", metavar="DIR", help="also draw each chart as DIR/NN-*.png")
    ap.add_argument("--allow-partial", action="store_true",
                    help="draw interrupted and empty documents (marked as partial)")
    return ap.parse_args(argv)


def need_modules():
    """Imports what the report needs, or runs this script again under Debian's Python, which has
    it when the python3 on PATH is another one (a virtual environment, pyenv)."""
    missing = [pkg for mod, pkg in MODULES.items() if importlib.util.find_spec(mod) is None]
    if not missing:
        return
    here = os.path.realpath(sys.executable or "")
    if (not os.environ.get("BENCH_REPORT_REEXEC") and os.path.exists(SYSTEM_PYTHON)
            and os.path.realpath(SYSTEM_PYTHON) != here):
        os.environ["BENCH_REPORT_REEXEC"] = "1"
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, os.path.abspath(__file__)] + sys.argv[1:])
    raise Failure(f"{', '.join(missing)} missing: install Debian's {' '.join(missing)}")


def emit(frames, n_docs, text, pngs):
    """The PNGs and the page, as frames (the module's docstring) on the file frames."""
    for path, data in pngs:
        frames.write(f"png {len(data)} {os.path.basename(path)}\n".encode() + data)
    page = text.encode("utf-8")
    frames.write(f"page {len(page)} {n_docs}\n".encode() + page)
    frames.flush()


def run(a, frames):
    docs = [d for p in a.docs for d in load_all(p, a.allow_partial)]
    from benchreport import page as pages
    text, pngs = pages.build(docs, a.png)
    emit(frames, len(docs), text, pngs)
    return 0


def main(argv):
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)   # bench report says so, and writes nothing
    try:
        frames = os.fdopen(FRAMES_FD, "wb", closefd=False)
    except OSError:
        print(f"{PROG}: report.py is bench report's renderer: run bench report", file=sys.stderr)
        return 2
    try:
        a = parse(argv)
        need_modules()
        return run(a, frames)
    except Usage as e:
        print(f"{PROG}: usage: {e}", file=sys.stderr)
        return 2
    except BadInput as e:
        print(f"{PROG}: bad input: {e}", file=sys.stderr)
        return 2
    except Failure as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 1
    except OSError as e:   # handing the frames back
        print(f"{PROG}: {e.strerror or e}", file=sys.stderr)
        return 1
    except Exception as e:  # a failure of the report itself, not of its input
        if os.environ.get("BENCH_REPORT_DEBUG"):
            traceback.print_exc()
        where = traceback.extract_tb(e.__traceback__)[-1] if e.__traceback__ else None
        at = f" (at {os.path.basename(where.filename)}:{where.lineno})" if where else ""
        print(f"{PROG}: failed: {type(e).__name__}: {e}{at}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
