"""The guide's published figures against this run: a suite entry that names a table of
results/suites/guide-figures.json carries it in its run (`runs[].figures`); its section draws
the guide's figure (before) beside this run's value (after), row by row, as a table and a chart.

The rows are matched to this run's points (or to the items at the table's `from`) by the
table's own JSON pointers (`key.path`, `where`), as `bench suite` does (bench/tools/
suite/figures.c). The guide measured or computed its figures on its own device (a TGL, a Gen9, a
Data Center GPU Max); this run is on another device, and the page says so.
"""
import math
import textwrap
from html import escape

from .style import BAD, BAD_TEXT, OI, Chart, Html, figure, label_axes, legend_above, proxy, uid

GUIDE = OI["grey"]
OURS = OI["blue"]


def at(value, pointer):
    """The member a JSON pointer (`/params/groups`, `/points/0`) names, or None."""
    if not isinstance(pointer, str) or not pointer.startswith("/"):
        return None
    for part in pointer[1:].split("/"):
        if isinstance(value, dict):
            value = value.get(part)
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


def _items(doc, t):
    if t.get("from"):
        items = at(doc.data, t["from"])
        return items if isinstance(items, list) else []
    return doc.points


def match(doc, t, key):
    """This run's item (a point, or an element of `from`) of the row whose key is `key`."""
    where = t.get("where") or {}
    for it in _items(doc, t):
        if all(at(it, p) == v for p, v in where.items()) and at(it, t["key"]["path"]) == key:
            return it
    return None


def _num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _cell(v, scale=1):
    if isinstance(v, str):
        return v
    if _num(v):
        if isinstance(v, int) and scale == 1:
            return str(v)
        x = v * scale
        return f"{x:.0f}" if abs(x) >= 1e4 else f"{x:.4g}"
    return "-"


def _status(it, points):
    if it is None:
        return "not run"
    return it.get("status", "ok") if points else "ok"


def table(doc, t):
    """The guide's columns, a bar, then this run's, one row per row of the guide's table."""
    points = not t.get("from")
    heads = ([t["key"]["head"]] + [c["head"] for c in t["guide"]] + ["|"]
             + [c["head"] for c in t["ours"]] + (["status"] if points else []))
    rows = []
    for row in t["rows"]:
        it = match(doc, t, row["key"])
        key = _cell(row["key"]) + (" *" if row.get("erratum") else "")
        cells = ([key] + [_cell(row.get(c["name"])) for c in t["guide"]] + ["|"]
                 + [_cell(at(it, c["path"]) if it else None, c.get("scale", 1)) for c in t["ours"]]
                 + ([_status(it, points)] if points else []))
        st = _status(it, points)
        rows.append(f'<tr class="{escape(st if st != "not run" else "skipped")}" '
                    f'data-key="{escape(str(row["key"]))}" data-status="{escape(st)}">'
                    + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
    errata = "".join(f'<li>{escape(t["key"]["head"])} {escape(_cell(r["key"]))}, as published: '
                     f'{escape(r["erratum"])}</li>' for r in t["rows"] if r.get("erratum"))
    return Html("guide-figures-table",
                f'<table class="data guide-figures"><caption>{escape(t["title"])}: the guide\'s '
                f'figures (left of the bar, on {escape(t["device"])}) and this run\'s (right of '
                f'it, on {escape(doc.device_name())})</caption><tr>'
                + "".join(f"<th>{escape(h)}</th>" for h in heads) + "</tr>" + "".join(rows)
                + "</table>" + (f'<ul class="notes errata">{errata}</ul>' if errata else ""))


def _missing(it, points):
    """Why this run has no value for a row: not run, its point's status, or not measured."""
    if it is None:
        return "not run"
    if points and it.get("status") != "ok":
        return it.get("status", "failed")
    return "not measured"


def _values(doc, t):
    """Per row: (label, guide value or None, guide low or None, the guide's words where it has
    no value, ours or None, why ours is missing)."""
    plot = t["plot"]
    scale = plot["ours"].get("scale", 1)
    last = t["guide"][-1]["name"] if t["guide"] else None
    out = []
    for row in t["rows"]:
        it = match(doc, t, row["key"])
        g = row.get(plot["guide"])
        lo = row.get(plot.get("guide_low")) if plot.get("guide_low") else None
        o = at(it, plot["ours"]["path"]) if it else None
        words = row.get(last) if isinstance(row.get(last), str) and row.get(last) else "no figure"
        out.append((_cell(row["key"]), g if _num(g) else None, lo if _num(lo) else None, words,
                    o * scale if _num(o) else None,
                    None if _num(o) else _missing(it, not t.get("from"))))
    return out


def _mark(ax, x, text, colour, text_colour):
    ax.plot([x], [0.03], transform=ax.get_xaxis_transform(), ls="none", marker="x", ms=8, mew=2,
            color=colour, gid=uid("pt-bad-bar"))
    ax.text(x, 0.08, text, transform=ax.get_xaxis_transform(), rotation=90, ha="center",
            va="bottom", fontsize=9, color=text_colour)


def _bars(ax, vals):
    w = 0.38
    for i, (_, g, lo, words, o, why) in enumerate(vals):
        if g is not None:
            b = ax.bar(i - w / 2, g, w * 0.95, color=GUIDE, edgecolor="white", lw=0.6)
            b.patches[0].set_gid(uid("pt-guide-bar"))
            if lo is not None and lo != g:
                ax.plot([i - w / 2] * 2, [lo, g], color=OI["black"], lw=2.0)
        else:
            _mark(ax, i - w / 2, words, GUIDE, OI["black"])
        if o is not None:
            b = ax.bar(i + w / 2, o, w * 0.95, color=OURS, edgecolor="white", lw=0.6)
            b.patches[0].set_gid(uid("pt-ok-bar"))
        else:
            _mark(ax, i + w / 2, why, BAD, BAD_TEXT)


def chart(doc, t):
    """Two bars per row: the guide's figure (grey) and this run's (blue)."""
    vals = _values(doc, t)
    fig = figure(3.8, width=max(8.0, min(10.0, 1.2 + 0.5 * len(vals))))
    ax = fig.add_subplot(1, 1, 1)
    _bars(ax, vals)
    pos = [v for _, g, lo, _, o, _ in vals for v in (g, lo, o) if v is not None and v > 0]
    if pos and max(pos) / min(pos) > 50:
        ax.set_yscale("log")
    ax.set_xticks(range(len(vals)))
    ax.set_xticklabels([textwrap.fill(v[0], 14) for v in vals])
    ax.set_xlim(-0.6, len(vals) - 0.4)
    ax.grid(axis="x", visible=False)
    label_axes(ax, t["key"]["head"], t["plot"]["y"])
    short = t["device"].split(":")[0]
    handles = [proxy(f"the guide, on {short}", GUIDE, marker="s", ls="none", ms=9),
               proxy(f"this run: {t['plot']['ours']['label']}", OURS, marker="s", ls="none",
                     ms=9)]
    if t["plot"].get("guide_low"):
        handles.append(proxy("the guide's range", OI["black"], lw=2.0))
    legend_above(ax, handles, ncol=2)
    title = f"{t['title']}: the guide ({short}) against this run"
    caption = (f"Before: the guide's figure as published ({escape(t['section'])}), measured or "
               f"computed on {escape(t['device'])} ({escape(t['kind'])}). After: this run, on "
               f"{escape(doc.device_name())}, another device: the bars are set side by side, "
               f"not expected to agree. A row this run did not measure is marked with its "
               f"status.")
    return Chart("guide-figures", title, fig, caption)


def items(doc):
    """The before-and-after of a suite entry that names the guide's figures: table and chart."""
    t = doc.figures
    if not t:
        return []
    out = [table(doc, t)]
    if isinstance(t.get("plot"), dict) and any(
            math.isfinite(v) for _, g, _, _, _, _ in _values(doc, t) for v in [g] if v is not None):
        out.append(chart(doc, t))
    return out
