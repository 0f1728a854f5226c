"""Before/after: two runs of one benchmark, or a `bench compare --json` result, per point.

With two documents the verdict is the ratio of medians (new / old) against a band of ±2 %:
slower above it, faster below, the same inside; a status that left `ok` is a regression, one
that reached it a fix. The interval drawn is new p5 / old p95 .. new p95 / old p5.

A `bench compare --json` document (results/schema/compare.schema.json) is drawn from its own
verdicts: each of its points carries `benchmark`, `params`, `verdict`, `notes`, `base` and `new`
(`status`, `median_ns`, or null where the point is on one side only), `ratio` and `interval`
[low, high]; the verdict is mapped to a class by the tables below.
"""
import math
from html import escape

from matplotlib.ticker import FuncFormatter, NullFormatter

from .doc import label_params, point_key, point_label
from .style import (OI, Chart, Html, figure, grid_with_legend, label_axes, legend_in, proxy,
                    time_unit, uid)

BAND = 0.02   # ±2 %: the ratio of medians inside it is "same"
CLASSES = {"regression": (OI["vermillion"], "^", "regression"),
           "improvement": (OI["blue"], "v", "improvement"),
           "same": (OI["grey"], "o", "same, within ±2 %"),
           "other": (OI["black"], "s", "not compared")}
ORDER = {"regression": 0, "improvement": 1, "same": 2, "other": 3}
WORDS = {"regression": {"regressed", "failed", "changed"},
         "improvement": {"improved"},
         "same": {"unchanged"}}   # inconclusive, suspect, new, missing: other
MAX_ROWS = 120   # rows drawn; the table below the chart lists every one


class Verdict:
    def __init__(self, label, verdict, cls, ratio=None, interval=None, old=None, new=None,
                 note=""):
        self.label, self.verdict, self.cls = label, verdict, cls
        self.ratio, self.interval, self.old, self.new, self.note = ratio, interval, old, new, note

    def sort_key(self, i):
        r = self.ratio if self.ratio is not None else math.inf
        within = {"regression": -r, "improvement": r}.get(self.cls, i)
        return (ORDER[self.cls], within, i)


def _median(p):
    t = p.get("time_ns") if isinstance(p, dict) else None
    m = t.get("median") if isinstance(t, dict) else None
    return m if isinstance(m, (int, float)) else None


def _interval(o, n):
    ot, nt = o.get("time_ns") or {}, n.get("time_ns") or {}
    try:
        return (nt["p5"] / ot["p95"], nt["p95"] / ot["p5"])
    except (KeyError, TypeError, ZeroDivisionError):
        return None


def _judge(label, o, n):
    sides = [f"{w} suspect: {p.get('reason') or 'no reason given'}"
             for w, p in (("old", o), ("new", n)) if p["status"] == "suspect"]
    if sides:   # times not to be believed: never slower, faster or the same
        return Verdict(label, "suspect", "other", old=o, new=n, note="; ".join(sides))
    if o["status"] != n["status"]:
        cls = ("regression" if o["status"] == "ok" else
               "improvement" if n["status"] == "ok" else "other")
        return Verdict(label, f"now {n['status']}", cls, old=o, new=n,
                       note=f"{o['status']} -> {n['status']}: {n.get('reason') or ''}".strip())
    om, nm = _median(o), _median(n)
    if n["status"] != "ok" or om is None or nm is None or om <= 0:
        return Verdict(label, f"{n['status']}, no times", "other", old=o, new=n)
    ratio = nm / om
    verdict = "slower" if ratio > 1 + BAND else "faster" if ratio < 1 - BAND else "same"
    cls = {"slower": "regression", "faster": "improvement", "same": "same"}[verdict]
    note = ""
    ro = (o.get("measured") or {}).get("resident_wg")
    rn = (n.get("measured") or {}).get("resident_wg")
    if ro != rn:
        verdict, cls, note = "residency changed", "regression", f"resident {ro} -> {rn}"
    return Verdict(label, verdict, cls, ratio, _interval(o, n), o, n, note)


def from_pair(old, new):
    vol = old.volatile() | new.volatile()
    names = label_params([old.points, new.points], vol)
    olds = {point_key(p, vol): p for p in old.points}
    out = []
    for p in new.points:
        o = olds.pop(point_key(p, vol), None)
        if o is None:
            out.append(Verdict(point_label(p, names), "new point", "other", new=p))
        else:
            out.append(_judge(point_label(p, names), o, p))
    out += [Verdict(point_label(o, names), "gone", "other", old=o) for o in olds.values()]
    return _sorted(out)


def _side(s):
    """A compared point's side as the point the chart and table read: status, median time."""
    if s is None:
        return None
    p = {"status": s["status"]}
    if s.get("median_ns") is not None:
        p["time_ns"] = {"median": s["median_ns"]}
    return p


def from_compare(doc):
    vs = doc.verdicts or []
    names = label_params([vs], doc.volatile())
    several = len({v["benchmark"] for v in vs}) > 1
    out = []
    for v in vs:
        word = v["verdict"]
        cls = next((c for c, words in WORDS.items() if word in words), "other")
        label = (f"{v['benchmark']} " if several else "") + point_label(v, names)
        out.append(Verdict(label, word, cls, v.get("ratio"),
                           tuple(v["interval"]) if v.get("interval") else None,
                           _side(v.get("base")), _side(v.get("new")), v.get("notes") or ""))
    return _sorted(out)


def _sorted(vs):
    return [v for _, v in sorted(((v.sort_key(i), v) for i, v in enumerate(vs)),
                                 key=lambda t: t[0])]


TICK_SETS = [(1.3, [1.05, 1.1, 1.2]), (2.5, [1.2, 1.5, 2]), (math.inf, [2, 5, 10])]


def _ratio_label(r):
    if abs(r - 1) < 1e-9:
        return "0"
    if r >= 2:
        return f"{r:g}x slower"
    if r <= 0.5:
        return f"{1 / r:g}x faster"
    return f"{(r - 1) * 100:+.0f} %"


def _short(label, limit=64):
    return label if len(label) <= limit else label[:limit - 3] + "..."


def chart(title, verdicts, rule_text):
    both = [v for v in verdicts if v.old is not None and v.new is not None]
    shown = both[:MAX_ROWS]
    n = max(len(shown), 1)
    fig = figure(2.2 + 0.27 * n)
    lax, grid = grid_with_legend(fig, 1, 1, legend_height=0.55, row_height=1.0 + 0.27 * n)
    ax = grid[0][0]
    ax.set_xscale("log")
    ax.axvspan(1 - BAND, 1 + BAND, color="#E6E6E6", lw=0, zorder=0)
    ax.axvline(1.0, color=OI["black"], lw=0.8, zorder=1)
    ends = [1.06]
    for cls, (colour, marker, _) in CLASSES.items():
        rows = [(i, v) for i, v in enumerate(shown) if v.cls == cls]
        timed = [(i, v) for i, v in rows if v.ratio is not None and v.ratio > 0]
        for i, v in timed:
            if v.interval and min(v.interval) > 0:
                ax.plot(v.interval, [i, i], color=colour, lw=2.2, alpha=0.55,
                        solid_capstyle="butt")
                ends += [max(v.interval), 1 / min(v.interval)]
            ends += [v.ratio, 1 / v.ratio]
        if timed:
            ax.plot([v.ratio for _, v in timed], [i for i, _ in timed], ls="none", marker=marker,
                    ms=7, color=colour, gid=uid(f"pt-cmp-{cls}"), zorder=4)
        untimed = [i for i, v in rows if v.ratio is None or v.ratio <= 0]
        if untimed:
            ax.plot([1.0] * len(untimed), untimed, ls="none", marker="X", ms=8, color=colour,
                    gid=uid(f"pt-cmp-status-{cls}"), zorder=4)
    lim = min(max(e for e in ends if math.isfinite(e)) * 1.1, 12.0)
    ax.set_xlim(1 / lim, lim)
    ticks = next(t for top, t in TICK_SETS if lim <= top)
    ax.set_xticks([1 / t for t in reversed(ticks)] + [1.0] + ticks)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: _ratio_label(v)))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.tick_params(axis="x", which="minor", bottom=False)
    ax.set_yticks(range(len(shown)))
    ax.set_yticklabels([f"{_short(v.label)}  [{v.verdict}]" for v in shown], fontsize=8.5)
    ax.set_ylim(len(shown) - 0.5, -0.5)
    ax.grid(axis="y", visible=False)
    label_axes(ax, "change of the median time, new / old (log scale)",
               "point (its parameters) [verdict]")
    handles = [proxy(label, colour, marker=marker, ls="none", ms=7)
               for cls, (colour, marker, label) in CLASSES.items()
               if any(v.cls == cls and v.ratio for v in shown)]
    if any(v.interval for v in shown):
        handles.append(proxy("interval: new p5 / old p95 to new p95 / old p5", OI["grey"],
                             lw=2.2))
    if any(not v.ratio for v in shown):
        handles.append(proxy("no ratio: status changed, or no times", OI["black"],
                             marker="X", ls="none", ms=8))
    legend_in(lax, handles, ncol=2)
    fig.suptitle(title)
    more = (f" The first {MAX_ROWS} of {len(both)} are drawn; the table lists all."
            if len(both) > MAX_ROWS else "")
    if len(both) < len(verdicts):
        more += (f" {len(verdicts) - len(both)} points found in one run only are listed in the "
                 f"table.")
    caption = f"One row per point, regressions first. {escape(rule_text)}{more}"
    return Chart("before-after", title, fig, caption)


NAMES = {"regression": ("regression", "regressions"),
         "improvement": ("improvement", "improvements"),
         "same": ("the same", "the same"), "other": ("not compared", "not compared")}


def summary(verdicts):
    """`3 regressions, 40 the same`: the count of each class, regressions first."""
    counts = {c: sum(v.cls == c for v in verdicts) for c in ORDER}
    return ", ".join(f"{n} {NAMES[c][n != 1]}" for c, n in counts.items() if n)


def matched(verdicts):
    """Whether any point was found in both runs."""
    return any(v.old is not None and v.new is not None for v in verdicts)


def _pct(r):
    return f"{(r - 1) * 100:+.1f} %"


def _row(v, t):
    both = "yes" if v.old is not None and v.new is not None else "no"
    change = _pct(v.ratio) if v.ratio is not None else "-"
    interval = f"{_pct(v.interval[0])} .. {_pct(v.interval[1])}" if v.interval else "-"
    return (f'<tr class="v-{v.cls}" data-verdict="{escape(v.cls)}" data-both="{both}">'
            f'<td><span class="swatch v-{v.cls}"></span>{escape(v.verdict)}</td>'
            f'<td>{escape(v.label)}</td><td>{t(v.old)}</td><td>{t(v.new)}</td>'
            f'<td>{change}</td><td>{interval}</td><td>{escape(v.note)}</td></tr>')


def table(verdicts):
    meds = [m for v in verdicts for m in (_median(v.old), _median(v.new)) if m is not None]
    div, unit = time_unit(meds) if meds else (1.0, "ns")

    def t(p):
        m = _median(p)
        return f"{m / div:.4g}" if m is not None else escape(str((p or {}).get("status", "-")))
    rows = "".join(_row(v, t) for v in verdicts)
    return Html("compare-table",
                f'<table class="data verdicts"><tr><th>verdict</th><th>point</th>'
                f'<th>old median ({unit})</th><th>new median ({unit})</th><th>change</th>'
                f'<th>interval</th><th>note</th></tr>{rows}</table>')


RULE_PAIR = ("Verdict from the ratio of the median times (new / old) with a ±2 % band: slower "
             "above +2 %, faster below -2 %, the same inside it (the band is shaded); it does "
             "not weigh the runs' spread, which the interval bars show. A point whose status "
             "left ok counts as a regression, one whose measured residency changed too.")
RULE_COMPARE = ("Verdicts and intervals as the bench compare result states them; the ratio is "
                "new / old median time where it gives none.")
