#!/usr/bin/env python3
"""Writes bench's manual pages from `bench list --json`: bench(1) and bench-CMD(1) per command.

usage: man.py BENCH VERSION DATADIR OUTDIR COMMAND...

The pages come from the tables `bench CMD --help` prints (each command's synopsis, its own
options, the sub-group and shared options it takes, with their ranges, defaults and values), so
the two cannot drift. COMMAND... are the pages the build expects (dist/meson.build); a command
of bench without one, or one bench does not have, fails the build naming it. DATADIR is the
installed data folder, for the FILES section. Exit 0, or 1 naming what is wrong.
"""
import json
import os
import re
import subprocess
import sys
import time

TITLE = "GPU thread-mapping and occupancy benchmarks for OpenCL devices"
GROUPS = [("options", "OPTIONS"), ("sub-groups", "SUB-GROUP OPTIONS"),
          ("shared", "OPTIONS SHARED BY THE BENCHMARKS"), ("tools", "OPTIONS SHARED BY THE TOOLS")]
EXIT = [("0", "ok"), ("1", "a point failed or a check disagreed"), ("2", "bad usage: the message "
        "names the value and the allowed range"), ("77", "no capable device (or no ocloc for "
        "bench compile)")]
ENVIRONMENT = [
    ("BENCH_DEVICE", "the device when no --device is given"),
    ("OCL_ICD_VENDORS", "the folder of .icd files the OpenCL ICD loader reads instead of "
     "/etc/OpenCL/vendors"),
    ("BENCH_OCLOC", "Intel's offline compiler for bench compile (else ocloc on PATH)"),
    ("BENCH_SCRIPTS", "another folder holding report.py and benchreport/ for bench report"),
    ("BENCH_PROGRAM_CACHE", "a folder where programs built from source are kept and loaded by "
     "later builds of the same source, options and driver (unset: every build from source)"),
    ("BENCH_OTAVA", "Apache Otava's otava executable for bench history (else otava on PATH, "
     "else $XDG_DATA_HOME/bench/otava/bin/otava, ~/.local/share/bench/otava/bin/otava by default: "
     "python3 -m venv ~/.local/share/bench/otava && ~/.local/share/bench/otava/bin/pip install "
     "apache-otava==0.8.0 makes it)"),
    ("XDG_DATA_HOME", "where bench history looks for its own Otava (bench/otava under it; "
     "unset: ~/.local/share)"),
]
# A line of a help text that is an item of a list: a word, two spaces or more, its text (or
# an item's continuation, indented); such lines keep their own lines in a page.
LIST_LINE = re.compile(r"^(\S+ {2,}\S| {2,}\S)")
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z0-9][\w-]*)")


def esc(text):
    """Roff text: backslashes escaped, each option's dashes as \\- (never a break point)."""
    text = text.replace("\\", "\\e")
    text = OPTION.sub(lambda m: m.group(1).replace("-", "\\-"), text)
    return "\n".join("\\&" + line if line[:1] in (".", "'") else line for line in text.split("\n"))


def split_synopsis(synopsis):
    """The usage lines (each a form of the command) and the description's lines."""
    lines = synopsis.rstrip("\n").split("\n")
    forms = [lines[0][len("usage: "):] if lines[0].startswith("usage: ") else lines[0]]
    i = 1
    while i < len(lines) and lines[i].startswith("   ") and lines[i].strip():
        line = lines[i].strip()
        if line.startswith("bench "):
            forms.append(line)
        else:
            forms[-1] += " " + line
        i += 1
    return forms, lines[i:]


def description(lines):
    """Paragraphs from lines indented by two spaces or none; deeper ones kept as they are."""
    out, para, block = [], [], []

    def flush():
        if para:
            out.extend([".PP", esc(" ".join(para))])
            para.clear()
        if block:
            out.extend([".PP", ".RS 2", ".nf", esc("\n".join(block)), ".fi", ".RE"])
            block.clear()
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        if not line.strip():
            flush()
        elif indent > 2:
            if para:
                flush()
            block.append(line[2:])
        else:
            if block:
                flush()
            para.append(line.strip())
    flush()
    return out


def option(o):
    """One option as a tagged paragraph: its spellings, its value, help, range and default."""
    lead = (f"\\fB\\-{o['short']}\\fR, " if o["short"] else "") + "\\fB" + esc("--" + o["name"]) + "\\fR"
    if o["metavar"]:
        lead += " \\fI" + esc(o["metavar"]) + "\\fR"
    lines = o["help"].split("\n")
    at = next((i for i, line in enumerate(lines) if i and LIST_LINE.match(line)), len(lines))
    text = " ".join(lines[:at])
    if o["facts"]:
        text += f" ({o['facts']})"
    if o["names"] and o["kind"] in ("choice", "names") and at == len(lines):
        text += ". Values: " + ", ".join(o["names"]) + "."
    out = [".TP", lead, esc(text)]
    if at < len(lines):   # a list, a line an item, as --help prints it
        out += [".br", ".nf", esc("\n".join(lines[at:])), ".fi"]
    return out


def header(name, version):
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    date = time.strftime("%Y-%m-%d", time.gmtime(int(epoch))) if epoch else ""
    return [f'.TH {esc(name.upper())} 1 "{date}" "gpu-occupancy-bench {version}" "User Commands"',
            ".nh", ".ad l"]


def command_page(c, version):
    name = "bench-" + c["name"]
    forms, desc = split_synopsis(c["synopsis"])
    page = header(name, version) + [".SH NAME", name.replace("-", "\\-") + " \\- " + esc(c["summary"]),
                                    ".SH SYNOPSIS"]
    for i, form in enumerate(forms):
        page += ([".br"] if i else []) + ["\\fB" + esc(form) + "\\fR"]
    page += [".SH DESCRIPTION"] + (description(desc) or [esc(f"bench {c['name']}: {c['summary']}.")])
    if c["kind"] == "row":
        page += [".PP", esc("Every point's output is validated word by word before it is timed; "
                            "--json FILE writes the results document.")]
    for key, title in GROUPS:
        opts = c["options"] if key == "options" else c["shared_options"].get(key, [])
        opts = [o for o in opts if o["help"]]
        if key == "options":
            opts.append({"name": "help", "short": None, "metavar": None, "facts": "", "names": None,
                         "kind": "flag", "help": "print the command's usage and options, and exit"})
        if opts:
            page.append(".SH " + title)
            for o in opts:
                page += option(o)
    page += exit_status() + [".SH SEE ALSO", "\\fBbench\\fR(1)"]
    return page


def exit_status():
    out = [".SH EXIT STATUS"]
    for code, what in EXIT:
        out += [".TP", code, esc(what)]
    return out


def page_ref(c):
    return "\\fB" + esc("bench-" + c["name"]).replace("-", "\\-") + "\\fR(1)"


def main_page(cmds, version, datadir):
    page = header("bench", version) + [
        ".SH NAME", "bench \\- " + esc(TITLE), ".SH SYNOPSIS",
        "\\fBbench\\fR [\\fB\\-\\-help\\fR|\\fB\\-\\-version\\fR] \\fIcommand\\fR [\\fIoptions\\fR]",
        ".SH DESCRIPTION",
        esc("bench measures how work-group size, sub-group (SIMD) size, barriers and local memory "
            "decide how many hardware threads an OpenCL kernel occupies, and what that does to its "
            "speed, on any OpenCL device. Every kernel's output is validated, every launch timed "
            "with profiling events, and an analytic occupancy model stands beside every "
            "measurement. Each command has a page of its own: bench-COMMAND(1), and "
            "'bench COMMAND --help' prints the same options."),
        ".SH COMMANDS"]
    for c in cmds:
        page += [".TP", page_ref(c), esc(c["summary"])]
    page += [".SH OPTIONS", ".TP", "\\fB\\-\\-help\\fR", "the commands, a line each",
             ".TP", "\\fB\\-\\-version\\fR",
             esc("the version and git description, the OpenCL headers and ICD loader bench was "
                 "built against, the ICD loader it loaded, and the folder of its data")]
    page += exit_status() + [".SH ENVIRONMENT"]
    for var, what in ENVIRONMENT:
        page += [".TP", var, esc(what)]
    page += [".SH FILES", ".TP", esc(datadir),
             esc("bench's data, found from the executable's own location (a moved prefix works): "
                 "known-issues/ (bench validate --known-issues NAME), suites/ and schema/ (the "
                 "results documents' JSON Schema), lnt/bench.yaml (the test suite an LNT server "
                 "needs for bench export lnt's reports), python/ (bench report's module)"),
             ".SH SEE ALSO", ", ".join(page_ref(c) for c in cmds) + ", \\fBclinfo\\fR(1)"]
    return page


def main(argv):
    if len(argv) < 5:
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    bench, version, datadir, outdir = argv[1:5]
    expected = set(argv[5:])
    cmds = json.loads(subprocess.run([bench, "list", "--json"], capture_output=True, text=True,
                                     check=True).stdout)
    names = {c["name"] for c in cmds}
    if names != expected:
        for n in sorted(names - expected):
            print(f"man.py: bench has the command '{n}' and dist/meson.build no page for it "
                  "(add it to bench_tools, or bench_rows)", file=sys.stderr)
        for n in sorted(expected - names):
            print(f"man.py: dist/meson.build expects a page for '{n}', which bench lacks",
                  file=sys.stderr)
        return 1
    pages = {"bench.1": main_page(cmds, version, datadir)}
    for c in cmds:
        pages[f"bench-{c['name']}.1"] = command_page(c, version)
    for name, lines in pages.items():
        with open(os.path.join(outdir, name), "w") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
