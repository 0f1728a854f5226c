#!/usr/bin/env python3
"""Draws results documents as one self-contained HTML page (`bench report`).

usage: report.py DOC... -o FILE [--png DIR]

Every document (results/README.md, schema_version 1) gets a section (a document of several
devices, one per device and run; a suite's document, one per entry): the device and run facts,
the benchmark's charts, and its failed or skipped points. Two documents of one benchmark (or a
`bench compare --json` result) also get a before/after section, and so does a suite's entry that
names the guide's published figures (runs[].figures, results/suites/README.md): the guide's
figure against this run's, as a table and a chart. Charts are inline SVG drawn by
matplotlib; --png DIR writes each as a PNG too.

Exit codes: 0 the page was written; 2 bad input or usage (a missing, truncated or non-JSON
document, a missing field: the message names the file and the field; an unwritable output);
1 a failure while drawing or writing (or matplotlib missing).
"""
import argparse
import importlib.util
import os
import sys
import tempfile
import traceback

from benchreport.doc import BadInput, load_all

PROG = "bench report"
SYSTEM_PYTHON = "/usr/bin/python3"   # Debian's, where python3-matplotlib installs


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
    ap.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML page")
    ap.add_argument("--png", metavar="DIR", help="also write each chart as DIR/NN-*.png")
    return ap.parse_args(argv)


def need_matplotlib():
    """Imports matplotlib, or runs this script again under Debian's Python, which has it when
    the python3 on PATH is another one (a virtual environment, pyenv)."""
    if importlib.util.find_spec("matplotlib") is not None:
        return
    here = os.path.realpath(sys.executable or "")
    if (not os.environ.get("BENCH_REPORT_REEXEC") and os.path.exists(SYSTEM_PYTHON)
            and os.path.realpath(SYSTEM_PYTHON) != here):
        os.environ["BENCH_REPORT_REEXEC"] = "1"
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, os.path.abspath(__file__)] + sys.argv[1:])
    raise Failure("matplotlib is missing: install Debian's python3-matplotlib")


def reserve(path):
    """A temporary file beside the output, made before any drawing: an unwritable path fails
    at once, and the page appears whole or not at all."""
    if os.path.isdir(path):
        raise Usage(f"-o {path} is a directory")
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".tmp.", dir=folder)
    except OSError as e:
        raise Usage(f"-o {path}: cannot write there: {e.strerror}") from None
    return fd, tmp


def run(a):
    docs = [d for p in a.docs for d in load_all(p)]
    need_matplotlib()
    if a.png:
        try:
            os.makedirs(a.png, exist_ok=True)
        except OSError as e:
            raise Usage(f"--png {a.png}: cannot create the folder: {e.strerror}") from None
        if not os.access(a.png, os.W_OK):
            raise Usage(f"--png {a.png}: the folder is not writable")
    fd, tmp = reserve(a.output)
    try:
        from benchreport import page
        text, pngs = page.build(docs, a.png)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            fd = None
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, a.output)
        tmp = None
    finally:
        if fd is not None:
            os.close(fd)
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
    print(f"{a.output}: {len(docs)} document{'s' if len(docs) > 1 else ''}"
          + (f", {len(pngs)} PNG files in {a.png}" if a.png else ""))
    return 0


def main(argv):
    try:
        return run(parse(argv))
    except Usage as e:
        print(f"{PROG}: usage: {e}", file=sys.stderr)
        return 2
    except BadInput as e:
        print(f"{PROG}: bad input: {e}", file=sys.stderr)
        return 2
    except Failure as e:
        print(f"{PROG}: {e}", file=sys.stderr)
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
