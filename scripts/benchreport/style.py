"""Colours, fonts, axis helpers, and a matplotlib figure turned into inline SVG and PNG.

Text is written as SVG <text> in 'DejaVu Sans' with the generic sans-serif after it
(svg.fonttype none): nothing to fetch, selectable and searchable in the page, and any
sans-serif a viewer has will do. Element ids are prefixed per chart so that several SVGs
share one HTML page without clashing (clip paths and markers are referenced by id).
"""
import io
import itertools
import math
import re

import matplotlib
from cycler import cycler
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter

# Okabe & Ito, "Color Universal Design" (2008): told apart under every common colour-vision
# deficiency; markers and line styles differ too, so no meaning rests on colour alone.
OI = {"black": "#000000", "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73",
      "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7",
      "grey": "#8C8C8C"}
SERIES = [OI[k] for k in ("blue", "orange", "green", "purple", "sky", "vermillion", "black")]
MARKERS = ["o", "s", "D", "^", "v", "P", "X"]
MODEL = OI["vermillion"]   # the model's lines, on every chart
DRIVER = OI["black"]       # the driver's own count (bench occupancy)
BAD = OI["purple"]         # failed, skipped and suspect points
BAD_TEXT = "#8E3A6B"       # the same hue, dark enough to read as text

RC = {
    "svg.fonttype": "none",
    "svg.hashsalt": "bench-report",   # stable ids: the same documents give the same page
    "font.family": ["sans-serif"],
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 11, "axes.labelsize": 11, "axes.titlesize": 12, "xtick.labelsize": 10,
    "ytick.labelsize": 10, "legend.fontsize": 9.5, "figure.titlesize": 12.5,
    "axes.prop_cycle": cycler(color=SERIES),
    "axes.grid": True, "grid.color": "#dcdcdc", "grid.linewidth": 0.6,
    "axes.axisbelow": True, "axes.formatter.use_mathtext": False,
    "lines.linewidth": 1.6, "lines.markersize": 5.5,
    "figure.dpi": 100, "savefig.dpi": 150, "figure.facecolor": "white",
    "figure.constrained_layout.use": True,
    "hatch.linewidth": 0.8,
}
matplotlib.rcParams.update(RC)

WIDTH = 10.0   # inches: 720 pt in the SVG's viewBox, scaled to the page's width


_ids = itertools.count(1)


def uid(name):
    """A unique gid: `pt-ok-*` marks one ok point each, `pt-bad-*` a failed or skipped one."""
    return f"{name}-{next(_ids)}"


def figure(height, width=WIDTH):
    return Figure(figsize=(width, height))


def legend_above(ax, handles, ncol=3):
    """A legend in a band above the axes, out of the data's way."""
    handles = [h for h in handles if h is not None and not h.get_label().startswith("_")]
    if handles:
        ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(0, 1.01, 1, 0.1),
                  ncol=ncol, frameon=False, borderaxespad=0.2, handlelength=2.2,
                  columnspacing=1.4)


def grid_with_legend(fig, nrows, ncols, legend_height=0.5, row_height=4.0, **kw):
    """Axes in a grid below a row that holds the figure's legend; returns (legend_ax, axes)."""
    gs = fig.add_gridspec(nrows + 1, ncols, height_ratios=[legend_height] + [row_height] * nrows,
                          **kw)
    lax = fig.add_subplot(gs[0, :])
    lax.axis("off")
    axes = [[fig.add_subplot(gs[r + 1, c]) for c in range(ncols)] for r in range(nrows)]
    return lax, axes


def legend_in(lax, handles, ncol=4):
    handles = [h for h in handles if h is not None]
    lax.legend(handles=handles, loc="center", ncol=ncol, frameon=False, handlelength=2.2,
               columnspacing=1.6)


def proxy(label, color, marker="none", ls="-", mfc=None, ms=6, lw=1.6):
    return Line2D([], [], color=color, marker=marker, ls=ls, mfc=mfc or color, ms=ms, lw=lw,
                  label=label)


def fmt_bytes(n):
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            v = n / size
            return f"{v:.0f} {unit}" if abs(v - round(v)) < 0.05 else f"{v:.1f} {unit}"
    return f"{n:.0f} B"


def fmt_si(v, unit=""):
    """107 M/s style: three significant digits with an SI prefix."""
    if v == 0 or not math.isfinite(v):
        return f"{v:g} {unit}".strip()
    for prefix, scale in (("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3), ("", 1.0),
                          ("m", 1e-3), ("µ", 1e-6), ("n", 1e-9)):
        if abs(v) >= scale:
            return f"{v / scale:.3g} {prefix}{unit}".strip()
    return f"{v:.3g} {unit}".strip()


def time_unit(values_ns):
    """(divisor, unit) so that the largest value reads between 1 and 1000."""
    top = max((abs(v) for v in values_ns), default=1.0)
    for div, unit in ((1e9, "s"), (1e6, "ms"), (1e3, "µs")):
        if top >= div:
            return div, unit
    return 1.0, "ns"


def byte_axis(ax, which="x"):
    """Logarithmic axis (base 2) with KiB/MiB/GiB labels."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    (ax.set_xscale if which == "x" else ax.set_yscale)("log", base=2)
    axis.set_major_locator(LogLocator(base=2, numticks=12))
    axis.set_major_formatter(FuncFormatter(lambda v, _: fmt_bytes(v)))
    axis.set_minor_formatter(NullFormatter())


def geometric(values):
    """True for sizes that grow by factors (32, 64, ... 1024) rather than by steps (1..48)."""
    vals = sorted({v for v in values if v > 0})
    if len(vals) < 3 or vals[-1] / vals[0] <= 32:
        return False
    ratios = sorted(b / a for a, b in zip(vals, vals[1:]))
    return ratios[len(ratios) // 2] >= 1.4


def count_axis(ax, values, which="x"):
    """Linear for steps, logarithmic (base 2) for counts that grow by factors."""
    if geometric(values):
        (ax.set_xscale if which == "x" else ax.set_yscale)("log", base=2)
        axis = ax.xaxis if which == "x" else ax.yaxis
        axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_formatter(NullFormatter())
        return True
    (ax.xaxis if which == "x" else ax.yaxis).set_major_locator(MaxNLocator(integer=True))
    return False


def log_ticks(axis, fmt=lambda v: f"{v:g}"):
    """Plain tick labels on a log axis (100, not 10^2); the 2s and 5s labelled too when the axis
    spans less than two decades, so that it never shows a lone label."""
    def minor(v, _):
        lo, hi = sorted(axis.get_view_interval())
        if lo <= 0 or hi / lo > 100:
            return ""
        m = v / 10 ** math.floor(math.log10(v) + 1e-9)
        return fmt(v) if round(m, 6) in (2.0, 5.0) else ""
    axis.set_major_formatter(FuncFormatter(lambda v, _: fmt(v)))
    axis.set_minor_formatter(FuncFormatter(minor))


def wide_span(values, factor=50.0):
    vals = [v for v in values if v > 0]
    return bool(vals) and max(vals) / min(vals) > factor


def label_axes(ax, xlabel=None, ylabel=None):
    """Axis labels, given ids so that a test can find them in the SVG."""
    if xlabel:
        ax.set_xlabel(xlabel)
        ax.xaxis.label.set_gid(uid("xlabel"))
    if ylabel:
        ax.set_ylabel(ylabel)
        ax.yaxis.label.set_gid(uid("ylabel"))


def empty_note(ax, what="no point measured"):
    """Says so where a panel has nothing to draw (every point failed or was skipped)."""
    ax.text(0.5, 0.5, f"{what}: every point failed, was skipped or is suspect (see the notes)",
            transform=ax.transAxes, ha="center", va="center", color=BAD_TEXT, fontsize=11)
    ax.set_ylim(*((1, 10) if ax.get_yscale() == "log" else (0, 1)))
    ax.tick_params(axis="y", which="both", labelleft=False)


def bad_marks(ax, xs, statuses, y_axes=0.04):
    """Failed, skipped and suspect points: a mark on the axis's floor, never a value of zero
    (a suspect point's figure came from a clock its host's witness contradicted)."""
    handles = []
    for status, marker in (("failed", "X"), ("skipped", "x"), ("suspect", "d")):
        sx = [x for x, s in zip(xs, statuses) if s == status]
        if sx:
            line, = ax.plot(sx, [y_axes] * len(sx), transform=ax.get_xaxis_transform(),
                            ls="none", marker=marker, ms=8, mew=2, color=BAD, clip_on=False,
                            label=f"{status}: {len(sx)} (no value)", gid=uid(f"pt-bad-{status}"))
            handles.append(line)
    return handles


_ID = re.compile(r'\bid="([^"]+)"')
_HREF = re.compile(r'href="#([^"]+)"')
_URL = re.compile(r'url\(#([^)]+)\)')
_ROOT = re.compile(r"<svg\b[^>]*>")
_VIEWBOX = re.compile(r'viewBox="([^"]+)"')


def to_svg(fig, prefix, title):
    """The figure as an <svg> element for inline use: no prolog, no metadata, no xlink."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg",
                metadata={"Creator": None, "Date": None, "Format": None, "Type": None})
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    viewbox = _VIEWBOX.search(text).group(1)
    text = text.replace("xlink:href=", "href=")
    text = _ID.sub(lambda m: f'id="{prefix}-{m.group(1)}"', text)
    text = _HREF.sub(lambda m: f'href="#{prefix}-{m.group(1)}"', text)
    text = _URL.sub(lambda m: f"url(#{prefix}-{m.group(1)})", text)
    root = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{viewbox}" class="chart-svg" '
            f'role="img" aria-labelledby="{prefix}-title">'
            f'<title id="{prefix}-title">{_esc(title)}</title>')
    return _ROOT.sub(lambda m: root, text, count=1)


def to_png(fig):
    """The chart as PNG bytes (written by the caller, whole or not at all)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


def _esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Chart:
    """One figure of the page: what it is (kind), its title and an HTML caption."""

    def __init__(self, kind, title, fig, caption):
        self.kind, self.title, self.fig, self.caption = kind, title, fig, caption


class Html:
    """A piece of the page that is not a chart (a table), already escaped."""

    def __init__(self, kind, html):
        self.kind, self.html = kind, html


def grouped_bars(ax, groups, series, cell, value, label_fmt="{:.3g}".format):
    """Bars per group (x category) and series (colour); only the series a group has are drawn,
    centred on it. cell(group, series) gives the point or None; value(point) its height.
    A failed, skipped or suspect point gets a mark and its status written upright, not a bar."""
    most = max((sum(cell(g, s) is not None for s in series) for g in groups), default=1) or 1
    width = 0.8 / most
    bars_total = sum(cell(g, s) is not None for g in groups for s in series)
    longest = max((len(label_fmt(value(cell(g, s)))) for g in groups for s in series
                   if cell(g, s) is not None and cell(g, s)["status"] == "ok"), default=0)
    upright = bars_total * (longest + 1) > 90   # labels would touch: write them upright
    for i, g in enumerate(groups):
        present = [s for s in series if cell(g, s) is not None]
        for j, s in enumerate(present):
            x = i + (j - (len(present) - 1) / 2) * width
            p = cell(g, s)
            if p["status"] == "ok":
                v = value(p)
                bars = ax.bar(x, v, width * 0.92, color=s.colour, hatch=s.hatch,
                              edgecolor="white" if not s.hatch else OI["black"], lw=0.6)
                bars.patches[0].set_gid(uid("pt-ok-bar"))
                ax.text(x, v, (" " if upright else "") + label_fmt(v), ha="center",
                        va="bottom", fontsize=8.5, rotation=90 if upright else 0)
            else:
                ax.plot([x], [0.03], transform=ax.get_xaxis_transform(), ls="none",
                        marker="x", ms=8, mew=2, color=BAD, gid=uid(f"pt-bad-bar-{p['status']}"))
                ax.text(x, 0.08, p["status"], transform=ax.get_xaxis_transform(), rotation=90,
                        ha="center", va="bottom", fontsize=9, color=BAD_TEXT)
    ax.set_xticks(range(len(groups)))
    ax.set_xlim(-0.6, len(groups) - 0.4)
    return upright


class Series:
    def __init__(self, key, label, colour, hatch=None):
        self.key, self.label, self.colour, self.hatch = key, label, colour, hatch
