"""The HTML page: one section per document (facts, charts, notes), then the comparisons.

Everything is inline: the charts as <svg>, the style as one <style> element. No script, no
font, no image and no address outside the page.
"""
import os
from collections import OrderedDict
from html import escape

from . import atomics, ceilings, figures, latency, residency, sweeps, tables, verdicts
from .style import Chart, Html, to_png, to_svg

RENDER = {
    "vecadd": sweeps.vecadd,
    "occupancy": residency.residency,
    "occupancy-waves": sweeps.waves,
    "model": sweeps.model,
    "sg-copy": ceilings.sg_copy,
    "transpose": ceilings.transpose,
    "atomics": atomics.atomics,
    "latency": latency.latency,
    "sg-info": lambda doc: [tables.sg_info(doc)],
}

CSS = """
body { font-family: "DejaVu Sans", Verdana, sans-serif; font-size: 15px; line-height: 1.45;
       color: #1a1a1a; background: #fff; margin: 0 auto; max-width: 1120px; padding: 0 24px 48px; }
h1 { font-size: 26px; margin: 24px 0 6px; }
h2 { font-size: 21px; margin: 40px 0 8px; padding-top: 12px; border-top: 3px solid #0072B2; }
h2 .file, .dim { color: #595959; font-weight: normal; font-size: 14px; }
nav ol { columns: 2; margin: 8px 0; }
figure.chart { margin: 16px 0 24px; }
.chart-svg { display: block; width: 100%; height: auto; }
figcaption { font-size: 14px; color: #333; margin-top: 6px; max-width: 960px; }
table { border-collapse: collapse; font-size: 13.5px; margin: 8px 0 16px; }
table.facts th { text-align: left; padding: 2px 14px 2px 0; vertical-align: top; color: #444;
                 white-space: nowrap; font-weight: 600; }
table.facts td { padding: 2px 0; }
table.data th, table.data td { border: 1px solid #d0d0d0; padding: 3px 8px; text-align: left; }
table.data th { background: #f2f2f2; }
table.data caption { text-align: left; font-weight: 600; padding: 4px 0; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 12.5px; word-break: break-all; }
details.facts summary { cursor: pointer; font-weight: 600; margin: 6px 0; }
.notes-title { font-weight: 600; margin: 8px 0 2px; }
ul.notes li.failed, tr.failed td { color: #9e2a5e; }
ul.notes li.skipped, tr.skipped td { color: #6b4a00; }
ul.notes li.suspect, tr.suspect td { color: #9e2a5e; font-style: italic; }
.swatch { display: inline-block; width: 11px; height: 11px; margin-right: 6px;
          border-radius: 2px; vertical-align: -1px; }
.swatch.v-regression { background: #D55E00; } .swatch.v-improvement { background: #0072B2; }
.swatch.v-same { background: #8C8C8C; } .swatch.v-other { background: #000; }
tr.v-regression td:first-child { font-weight: 600; color: #A04600; }
tr.v-improvement td:first-child { color: #005A8C; }
p.rule { background: #f5f5f5; border-left: 4px solid #8C8C8C; padding: 6px 10px; }
"""


class Page:
    def __init__(self, png_dir):
        self.png_dir = png_dir
        self.charts = 0
        self.pngs = []

    def item(self, it, stem):
        if isinstance(it, Html):
            return f'<div class="block" data-kind="{escape(it.kind)}">{it.html}</div>'
        assert isinstance(it, Chart)
        self.charts += 1
        prefix = f"c{self.charts}"
        svg = to_svg(it.fig, prefix, it.title)
        if self.png_dir:
            name = stem if it.kind == stem else f"{stem}-{it.kind}"
            path = os.path.join(self.png_dir, f"{self.charts:02d}-{name}.png")
            self.pngs.append((path, to_png(it.fig)))
        return (f'<figure class="chart" id="{prefix}" data-kind="{escape(it.kind)}">{svg}'
                f'<figcaption>{it.caption}</figcaption></figure>')


def _counts(doc):
    c = OrderedDict((s, 0) for s in ("ok", "failed", "skipped", "suspect"))
    for p in doc.points + [p for p, _ in doc.undrawn]:
        c[p["status"]] += 1
    partial = ", partial" if doc.data.get("interrupted") else ""
    return (", ".join(f"{n} {s}" for s, n in c.items() if n) or "no points") + partial


def _entry(doc):
    """A suite entry's `about`, and why a run measured nothing (skipped as a whole, exit 77)."""
    parts = []
    if doc.about:
        parts.append(f'<p class="about">{escape(doc.about)}</p>')
    if isinstance(doc.data.get("skipped"), str):
        parts.append(f'<p class="rule skipped-run">Skipped as a whole on this device (exit 77): '
                     f'{escape(doc.data["skipped"])}</p>')
    return Html("entry", "".join(parts)) if parts else None


def _doc_section(page, i, doc):
    stem = doc.benchmark
    if doc.verdicts is not None:
        items = [tables.facts(doc)] + _compare_items(
            f"{doc.benchmark}: {doc.name}", verdicts.from_compare(doc), verdicts.RULE_COMPARE)
    else:
        render = RENDER.get(doc.benchmark, lambda d: [tables.generic(d)])
        items = [tables.facts(doc), _entry(doc)] + list(render(doc)) + [tables.notes(doc)]
    body = "".join(page.item(it, stem) for it in items if it is not None)
    counts = _counts(doc)
    return (f'<section id="doc-{i}" class="doc" data-benchmark="{escape(doc.benchmark)}" '
            f'data-file="{escape(doc.name)}"><h2>{escape(doc.benchmark)} on '
            f'{escape(doc.device_name())} <span class="file">{escape(doc.name)}: {counts}'
            f'</span></h2>{body}</section>')


def _compare_items(title, vs, rule):
    items = [Html("rule", f'<p class="rule">{escape(rule)}</p>')]
    if not verdicts.matched(vs):
        return items + [Html("compare-empty", f"<p>No point of one run matches a point of the "
                             f"other by its parameters ({len(vs)} points in all): nothing to "
                             f"compare.</p>")]
    return items + [verdicts.chart(title, vs, rule), verdicts.table(vs)]


def _pairs(docs):
    """Each later document of a benchmark against the first of it on the command line; the runs
    of a document of several devices each against the same device's run of an earlier file."""
    first = {}
    for i, d in enumerate(docs, 1):
        if d.verdicts is not None:
            continue
        key = (d.benchmark, d.device_key)
        if key in first and first[key][1].path != d.path:
            yield first[key], (i, d)
        elif key not in first:
            first[key] = (i, d)


def _compare_section(page, k, old, new):
    (i_old, o), (i_new, n) = old, new
    title = f"{n.benchmark}: {n.name} against {o.name}"
    vs = verdicts.from_pair(o, n)
    summary = verdicts.summary(vs)
    body = "".join(page.item(it, n.benchmark)
                   for it in _compare_items(title, vs, verdicts.RULE_PAIR))
    return (f'<section id="compare-{k}" class="compare" data-benchmark="{escape(n.benchmark)}" '
            f'data-old="{i_old}" data-new="{i_new}"><h2>Before and after: {escape(title)} '
            f'<span class="file">{escape(summary)}</span></h2>{body}</section>')


def _figures_section(page, k, i, doc):
    """Before and after: the guide's published figures against this run (a suite's entry)."""
    t = doc.figures
    title = f"{t['title']}: the guide against {doc.name}"
    body = "".join(page.item(it, doc.benchmark) for it in figures.items(doc))
    return (f'<section id="guide-{k}" class="guide-figures" data-benchmark="{escape(doc.benchmark)}" '
            f'data-doc="{i}" data-table="{escape(str(t.get("id", "")))}"><h2>Before and after: '
            f'{escape(title)} <span class="file">the guide measured {escape(t["device"])}; this '
            f'run {escape(doc.device_name())}, another device</span></h2>'
            f'<p class="rule">The guide\'s section: {escape(t["section"])}. The guide\'s figures '
            f'are its own device\'s, as published; this run\'s are this device\'s. They are set '
            f'side by side, not expected to agree.</p>{body}</section>')


def build(docs, png_dir=None):
    """The page's text, and [(path in png_dir, PNG bytes)] of each chart where png_dir is given."""
    page = Page(png_dir)
    sections, toc = [], []
    for i, d in enumerate(docs, 1):
        sections.append(_doc_section(page, i, d))
        toc.append(f'<li><a href="#doc-{i}">{escape(d.benchmark)}</a> '
                   f'<span class="dim">{escape(d.name)}, {escape(d.device_name())}</span></li>')
    for k, (i, d) in enumerate(((i, d) for i, d in enumerate(docs, 1) if d.figures), 1):
        sections.append(_figures_section(page, k, i, d))
        toc.append(f'<li><a href="#guide-{k}">the guide against this run: '
                   f'{escape(d.figures["title"])}</a> <span class="dim">{escape(d.name)}, '
                   f'{escape(d.device_name())}</span></li>')
    for k, (old, new) in enumerate(_pairs(docs), 1):
        sections.append(_compare_section(page, k, old, new))
        toc.append(f'<li><a href="#compare-{k}">before and after: {escape(new[1].benchmark)}'
                   f'</a> <span class="dim">{escape(new[1].name)} against '
                   f'{escape(old[1].name)}</span></li>')
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>bench report</title><style>{CSS}</style></head><body>"
            f"<header><h1>bench report</h1><p class=\"dim\">{len(docs)} results "
            f"document{'s' if len(docs) != 1 else ''}; every chart is drawn from the documents "
            f"alone.</p><nav><ol>{''.join(toc)}</ol></nav></header>"
            + "".join(sections) + "</body></html>\n"), page.pngs
