#!/usr/bin/env python3
"""Builds a report from CPU runs' documents and checks the page's structure.

usage: report_structure.py BENCH

Checks: a section per document with the benchmark's chart (sg-info: its table); every chart
has labelled axes with the expected words; every ok point is drawn once (a marker or a bar
with a `pt-ok-*` id) and every failed or skipped point is marked (`pt-bad-*`); each SVG is
well-formed XML; the before/after sections list regressions first; ids are unique; nothing
outside the page is referenced (the SVG namespace is the one address allowed); a PNG per chart.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
import report_docs  # noqa: E402
from benchtest import check  # noqa: E402

SVG_NS = "http://www.w3.org/2000/svg"
ALLOWED_URLS = {SVG_NS}
# Per benchmark: the chart kind, and words its axis labels must contain.
EXPECT = {
    "vecadd": ("sweep", ["work-groups per launch", "kernel time (", "bandwidth (GB/s)",
                         "model: waves", "model: last wave's occupancy (%)"]),
    "occupancy": ("residency", ["work-group size (work-items)", "resident work-groups"]),
    "occupancy-waves": ("occupancy-waves", ["work-groups per launch", "kernel time (",
                                            "model: waves"]),
    "sg-copy": ("sg-copy", ["bytes per buffer", "fraction of the ceiling"]),
    "transpose": ("transpose", ["matrix (ints)", "fraction of the ceiling"]),
    "atomics": ("atomics", ["contention pattern", "atomic fetch-adds per second",
                            "latency per atomic (ns)"]),
    "latency": ("latency", ["working set", "latency per dependent load (ns)"]),
    "compare": ("before-after", ["change of the median time"]),
}
ORDER = {"regression": 0, "improvement": 1, "same": 2, "other": 3}
SVG_NAMES = "{%s}" % SVG_NS


def sections(page):
    """(attributes, body) of every <section>."""
    out = []
    for m in re.finditer(r"<section ([^>]*)>(.*?)</section>", page, re.S):
        attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(1)))
        out.append((attrs, m.group(2)))
    return out


def figures(body):
    return [(dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(1))), m.group(2))
            for m in re.finditer(r'<figure class="chart" ([^>]*)>(.*?)</figure>', body, re.S)]


def svg_of(fig_body, where):
    m = re.search(r"<svg\b.*?</svg>", fig_body, re.S)
    check(m is not None, f"{where}: no <svg>")
    if m is None:
        return None
    try:
        return ET.fromstring(m.group(0))
    except ET.ParseError as e:
        check(False, f"{where}: the SVG is not well-formed XML: {e}")
        return None


def texts(el):
    return " ".join(t.strip() for t in el.itertext() if t.strip())


def marks(svg, kind):
    """Points drawn: <use> markers inside groups with a pt-KIND-* id, one per pt-KIND-bar-*."""
    n = 0
    for g in svg.iter(SVG_NAMES + "g"):
        gid = g.get("id", "")
        m = re.match(r"c\d+-pt-(\w+)-(.*)", gid)
        if not m or m.group(1) != kind:
            continue
        if m.group(2).startswith("bar"):
            n += 1
        else:
            n += sum(1 for _ in g.iter(SVG_NAMES + "use"))
    return n


def check_axes(svg, where, words):
    labels = {"xlabel": [], "ylabel": []}
    for g in svg.iter(SVG_NAMES + "g"):
        m = re.match(r"c\d+-([xy]label)-\d+$", g.get("id", ""))
        if m:
            labels[m.group(1)].append(texts(g))
    check(any(labels["xlabel"]), f"{where}: no x-axis label")
    check(any(labels["ylabel"]), f"{where}: no y-axis label")
    joined = " | ".join(labels["xlabel"] + labels["ylabel"])
    for w in words:
        check(w in joined, f"{where}: no axis label containing {w!r} (labels: {joined})")


def check_doc_section(attrs, body, doc):
    name = attrs.get("data-file")
    bench = "compare" if doc.get("kind") == "compare" else doc["benchmark"]
    where = f"section {name}"
    check(attrs.get("data-benchmark") == bench, f"{where}: benchmark {attrs.get('data-benchmark')}")
    check("Device and run" in body and "<th>command</th>" in body, f"{where}: no run facts")
    if bench == "sg-info":
        rows = re.findall(r'<tr data-status="(\w+)"', body)
        check(len(rows) == len(doc["points"]), f"{where}: {len(rows)} table rows, "
              f"{len(doc['points'])} points")
        return 0
    figs = figures(body)
    kind, words = EXPECT[bench]
    kinds = [a.get("data-kind") for a, _ in figs]
    check(kind in kinds, f"{where}: no {kind} chart (charts: {kinds})")
    pts = [] if bench == "compare" else doc.get("points", [])
    ok = sum(p["status"] == "ok" for p in pts)
    bad = len(pts) - ok
    drawn_ok = drawn_bad = drawn_cmp = 0
    for a, fb in figs:
        svg = svg_of(fb, f"{where} chart {a.get('id')}")
        if svg is None:
            continue
        check_axes(svg, f"{where} chart {a.get('data-kind')}", words)
        drawn_ok += marks(svg, "ok")
        drawn_bad += marks(svg, "bad")
        drawn_cmp += marks(svg, "cmp")
    if bench == "compare":
        both = sum(v["base"] is not None and v["new"] is not None for v in doc["points"])
        check(drawn_cmp == both, f"{where}: {drawn_cmp} verdicts drawn, {both} of both runs in "
              "the document")
        check_verdict_table(body, where, len(doc["points"]))
    else:
        check(drawn_ok == ok, f"{where}: {drawn_ok} ok points drawn, {ok} in the document")
        check(drawn_bad == bad, f"{where}: {drawn_bad} failed/skipped points marked, {bad} in "
              f"the document")
        if bad:
            check('class="notes"' in body, f"{where}: failed/skipped points not listed")
    return len(figs)


def check_verdict_table(body, where, expected):
    classes = re.findall(r'<tr class="v-\w+" data-verdict="(\w+)"', body)
    check(len(classes) == expected, f"{where}: {len(classes)} verdict rows, {expected} expected")
    ranks = [ORDER[c] for c in classes]
    check(ranks == sorted(ranks), f"{where}: verdicts not ordered regressions first: {classes}")


def check_self_contained(page):
    for url in re.findall(r"[a-z]+://[^\s\"'<>)]*", page):
        check(url in ALLOWED_URLS, f"external reference in the page: {url}")
    for m in re.finditer(r'xmlns(:\w+)?="([^"]*)"', page):
        check(m.group(2) == SVG_NS, f"namespace other than SVG's: {m.group(0)}")
    for bad in ("<script", "<link", "<img", "<iframe", "<object", "<embed", "@import",
                "@font-face", " src="):
        check(bad not in page.lower(), f"the page contains {bad!r}")
    for m in re.finditer(r'href="([^"]*)"', page):
        check(m.group(1).startswith("#"), f"link out of the page: {m.group(0)}")
    for m in re.finditer(r"url\(([^)]*)\)", page):
        check(m.group(1).startswith("#"), f"url() out of the page: {m.group(0)}")
    ids = re.findall(r'\bid="([^"]+)"', page)
    dup = sorted({i for i in ids if ids.count(i) > 1})
    check(not dup, f"duplicate ids: {dup[:10]}")


def check_driver(by_file):
    """The driver's count on the residency chart: Intel's CPU runtime offers it (a dotted step
    line, each point whose measurement differs marked and listed), PoCL does not (said so)."""
    intel = by_file.get("occupancy.json", ({}, ""))[1]
    check(re.search(r'id="c\d+-driver-resident-', intel) is not None,
          "occupancy (Intel): no line of the driver's count")
    check("clGetKernelMaxConcurrentWorkGroupCountINTEL" in intel,
          "occupancy (Intel): the caption does not name the driver's count")
    differs = re.search(r"(\d+) of (\d+) differ from the driver", intel)
    if check(differs is not None, "occupancy (Intel): no count of points that differ from the driver"):
        n = int(differs.group(1))
        check((n > 0) == (re.search(r'id="c\d+-driver-disagree-', intel) is not None),
              f"occupancy (Intel): {n} points differ from the driver, marks disagree")
        check(n == 0 or ", driver " in intel, "occupancy (Intel): the differences are not listed")
        check(n == 0 or "Why the driver" in intel, "occupancy (Intel): the differences unexplained")
    pocl = by_file.get("occupancy-pocl.json", ({}, ""))[1]
    check("The driver&#x27;s count: not offered" in pocl or "The driver's count: not offered" in pocl,
          "occupancy (PoCL): the caption does not say the driver's count is not offered")
    check("does not list cl_intel_concurrent_dispatch" in pocl,
          "occupancy (PoCL): the reason it is not offered is missing")
    check(re.search(r'id="c\d+-driver-resident-', pocl) is None,
          "occupancy (PoCL): a driver's line without a count")


def main():
    bench = sys.argv[1]
    with bt.tmpdir() as tmp:
        docs = report_docs.make(bench, tmp)
        out, png = os.path.join(tmp, "report.html"), os.path.join(tmp, "png")
        r = report_docs.report(bench, docs, out, png)
        if not check(r.code == 0, f"report exit {r.code}: {r.err}"):
            return bt.verdict()
        check("Traceback" not in r.err, f"report printed a traceback: {r.err}")
        with open(out, encoding="utf-8") as f:
            page = f.read()
        check(page.startswith("<!DOCTYPE html>"), "the page does not start with <!DOCTYPE html>")
        check_self_contained(page)
        secs = sections(page)
        by_file = {a.get("data-file"): (a, b) for a, b in secs if "doc" in a.get("class", "")}
        nfig = 0
        for path in docs:
            doc = bt.load_doc(path)
            name = os.path.basename(path)
            check(name in by_file, f"no section for {name}")
            if name in by_file:
                nfig += check_doc_section(*by_file[name], doc)
        compares = [(a, b) for a, b in secs if a.get("class") == "compare"]
        check(len(compares) >= 1, "no before/after section for the two vecadd runs")
        for a, b in compares:
            where = f"before/after {a.get('id')}"
            n = len(re.findall(r'<tr class="v-\w+" data-verdict', b))
            check_verdict_table(b, where, n)
            both = len(re.findall(r'data-both="yes"', b))
            figs = figures(b)
            drawn = sum(marks(s, "cmp") for s in (svg_of(fb, where) for _, fb in figs)
                        if s is not None)
            check(drawn == both, f"{where}: {drawn} points drawn, {both} found in both runs")
            nfig += len(figs)
        check("disagree" in by_file.get("occupancy-disagree.json", ({}, ""))[1],
              "the occupancy point the model does not predict is not marked")
        check_driver(by_file)
        pngs = sorted(os.listdir(png)) if os.path.isdir(png) else []
        check(len(pngs) == nfig, f"{len(pngs)} PNG files for {nfig} charts")
        for p in pngs:
            with open(os.path.join(png, p), "rb") as f:
                check(f.read(8) == b"\x89PNG\r\n\x1a\n", f"{p} is not a PNG")
        print(f"{len(docs)} documents, {nfig} charts, {len(page)} bytes")
    return bt.verdict()


if __name__ == "__main__":
    sys.exit(main())
