#!/usr/bin/env python3
"""Draws results documents as one self-contained HTML page (`bench report`).

usage: report.py DOC... -o FILE [--png DIR] [--allow-partial] [--timeout SECONDS]

Every document (results/README.md, schema_version 1) gets a section (a document of several
devices or a suite's, one per run): the device and run facts, the benchmark's charts, and its
failed or skipped points. Two documents of one benchmark (or a `bench compare --json` document)
also get a before/after section, and so does a suite's entry that names the guide's published
figures (runs[].figures, results/suites/README.md): the guide's figure against this run's, as a
table and a chart. Charts are inline SVG drawn by matplotlib; --png DIR writes each
as a PNG too. Documents are judged as bench compare and export judge them
(results/schema/input.schema.json); outputs follow the one rule of bench's outputs
(benchreport/outfile.py): never over an input or another output, checked before any drawing,
whole or not at all.

Exit codes: 0 the page was written; 2 bad input or usage (a missing, truncated or invalid
document: the message names the file and the member; an output refused); 1 a failure while
drawing or writing (or matplotlib or jsonschema missing); 128+N ended by signal N (SIGINT,
SIGTERM, SIGHUP), nothing written.
"""
import argparse
import importlib.util
import os
import signal
import sys
import traceback

from benchreport import outfile
from benchreport.doc import BadInput, load_all

PROG = "bench report"
SYSTEM_PYTHON = "/usr/bin/python3"   # Debian's, where python3-matplotlib installs
MODULES = {"matplotlib": "python3-matplotlib", "jsonschema": "python3-jsonschema"}


class Usage(Exception):
    pass


class Failure(Exception):
    """A failure that is not the input's fault and needs no location: exit 1."""


class Interrupted(Exception):
    def __init__(self, sig):
        super().__init__(signal.Signals(sig).name)
        self.sig = sig


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise Usage(message)


def parse(argv):
    ap = Parser(prog=PROG, description=__doc__.splitlines()[0])
    ap.add_argument("docs", nargs="+", metavar="DOC", help="results documents (bench --json)")
    ap.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML page")
    ap.add_argument("--png", metavar="DIR", help="also write each chart as DIR/NN-*.png")
    ap.add_argument("--allow-partial", action="store_true",
                    help="draw interrupted and empty documents (marked as partial)")
    ap.add_argument("--timeout", type=seconds, default=0, metavar="SECONDS",
                    help="stop after SECONDS, exit 1, nothing written (0: never)")
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


class TimedOut(Exception):
    pass


def on_signal(sig, frame):
    if sig == signal.SIGALRM:
        raise TimedOut()
    raise Interrupted(sig)


def seconds(text):
    """--timeout: a whole number of seconds in 0..86400, as bench's own --timeout."""
    if not text.isdigit() or int(text) > 86400:
        raise argparse.ArgumentTypeError(f"'{text}' is out of range: allowed 0..86400")
    return int(text)


def png_dir(path):
    """--png DIR: made where missing (as mkdir -p), refused where it is not a writable folder."""
    if not path:
        raise Usage("--png '': an empty name names no folder")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise Usage(f"--png {path}: cannot make the folder: {e.strerror}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise Usage(f"--png {path}: the folder is not writable")


def run(a):
    files = outfile.Files()
    try:
        for i, p in enumerate(a.docs, 1):
            files.input(f"document {i}", p)
        page = files.output("-o", a.output)
        if a.png is not None:
            png_dir(a.png)
    except outfile.Refused as e:
        raise Usage(str(e)) from None
    docs = [d for p in a.docs for d in load_all(p, a.allow_partial)]
    from benchreport import page as pages
    text, pngs = pages.build(docs, a.png)
    try:
        outs = [(files.output("--png", path), data) for path, data in pngs]
    except outfile.Refused as e:
        page.abort()
        raise Usage(str(e)) from None
    for out, data in outs:
        out.commit(data)
    page.commit(text.encode("utf-8"))
    say(f"{a.output}: {len(docs)} document{'s' if len(docs) > 1 else ''}"
        + (f", {len(pngs)} PNG files in {a.png}" if a.png else ""))
    return 0


stdout_error = None   # why the standard output could not be written (close_stdout reports it)


def say(line):
    global stdout_error
    try:
        print(line, flush=True)
    except OSError as e:
        stdout_error = stdout_error or e


def close_stdout():
    """Output lost without a word is a failure: a full or closed standard output is exit 1."""
    e = stdout_error
    try:
        sys.stdout.flush()
    except OSError as later:
        e = e or later
    if e is None:
        return 0
    print(f"{PROG}: cannot write the standard output: {e.strerror}", file=sys.stderr)
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # nothing more at exit
    return 1


def main(argv):
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGALRM):
        signal.signal(sig, on_signal)
    a = None
    try:
        a = parse(argv)
        signal.alarm(a.timeout)
        need_modules()
        rc = run(a)
    except Usage as e:
        print(f"{PROG}: usage: {e}", file=sys.stderr)
        rc = 2
    except BadInput as e:
        print(f"{PROG}: bad input: {e}", file=sys.stderr)
        rc = 2
    except Failure as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        rc = 1
    except Interrupted as e:
        print(f"\n{PROG}: interrupted by {e}: nothing written", file=sys.stderr)
        rc = 128 + e.sig
    except TimedOut:
        print(f"{PROG}: still running after --timeout {a.timeout} s: stopped, nothing written",
              file=sys.stderr)
        rc = 1
    except OSError as e:   # writing the page or a PNG
        print(f"{PROG}: {e.strerror or e}", file=sys.stderr)
        rc = 1
    except Exception as e:  # a failure of the report itself, not of its input
        if os.environ.get("BENCH_REPORT_DEBUG"):
            traceback.print_exc()
        where = traceback.extract_tb(e.__traceback__)[-1] if e.__traceback__ else None
        at = f" (at {os.path.basename(where.filename)}:{where.lineno})" if where else ""
        print(f"{PROG}: failed: {type(e).__name__}: {e}{at}", file=sys.stderr)
        rc = 1
    finally:
        outfile.remove_named()
    return close_stdout() or rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
