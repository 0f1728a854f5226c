"""sg-copy and transpose: each kernel's bandwidth as a fraction of the copy ceiling.

The ceiling is the faster of clEnqueueCopyBuffer and the suite's stream_copy kernel of the same
bytes, timed in the same run; a bar of 1.0 is a
kernel as fast as the driver's own copy. Bars are grouped by size, one colour per variant,
and the sub-group backend and width of each are in the legend.
"""
from matplotlib.patches import Patch

from .style import (BAD, OI, SERIES, Chart, Series, figure, fmt_bytes, grouped_bars, label_axes,
                    legend_above, log_ticks, proxy, wide_span)

SG_COPY_ORDER = ["gather", "strided", "block"]
TRANSPOSE_ORDER = ["guide16", "shuffle", "shuffle-bcast", "local", "naive"]
HATCHES = [None, "//", "..", "xx", "\\\\"]


def _width(p):
    w = p["params"].get("sg_width")
    return f"width {w}" if w is not None else "width by the driver"


def _shape(p):
    """transpose's shuffle shape ("32 v4 x2 butterfly cols"), None for other points."""
    q = p["params"]
    if q.get("tile") is None:
        return None
    return f"{q['tile']} v{q.get('vec')} x{q.get('tiles_per_sg')} {q.get('exchange')} {q.get('walk')}"


def _key(p):
    return (p["params"]["variant"], p["params"]["sg_backend"], p["params"].get("sg_width"),
            _shape(p))


def _series(points, order, uses_sg):
    """One series per (variant, backend, width, shape), in the benchmark's order of variants."""
    keys = []
    for p in points:
        k = _key(p)
        if k not in keys:
            keys.append(k)
    keys.sort(key=lambda k: (order.index(k[0]) if k[0] in order else len(order), k[1],
                             k[2] or 0, k[3] or ""))
    variants = []
    for k in keys:
        if k[0] not in variants:
            variants.append(k[0])
    out = []
    for k in keys:
        vi = variants.index(k[0])
        sample = next(p for p in points if _key(p) == k)
        detail = (f"{k[1]}, {_width(sample)}" if uses_sg(sample) else "no sub-groups")
        colour = SERIES[vi % len(SERIES)]
        hatch = HATCHES[len([o for o in out if o.key[0] == k[0]]) % len(HATCHES)]
        name = f"{k[0]} {k[3]}" if k[3] else k[0]
        out.append(Series(k, f"{name} ({detail})", colour, hatch))
    return out


def _chart(doc, kind, groups, group_labels, series, cell, xlabel, title, caption):
    ok = [p for p in doc.points if p["status"] == "ok"]
    fig = figure(5.6)
    ax = fig.subplots()
    values = [p["metrics"].get("fraction_of_ceiling", p["metrics"]["fraction_of_copy"]) for p in ok]
    if wide_span(values, 30):
        ax.set_yscale("log")
        log_ticks(ax.yaxis)
    upright = grouped_bars(ax, groups, series, cell, lambda p: p["metrics"].get("fraction_of_ceiling", p["metrics"]["fraction_of_copy"]))
    ax.set_xticklabels(group_labels)
    top = max(values + [1.0])
    if ax.get_yscale() == "log":
        ax.set_ylim(min(v for v in values if v > 0) / 3 if any(v > 0 for v in values) else 1e-3,
                    top * (12 if upright else 4))
    else:
        ax.set_ylim(0, top * (1.35 if upright else 1.2))
    ceiling = ax.axhline(1.0, color=OI["black"], ls="--", lw=1.2,
                         label="ceiling (the faster of clEnqueueCopyBuffer and a copy kernel, same bytes)")
    label_axes(ax, xlabel, "fraction of the ceiling")
    handles = [bar_patch(s) for s in series]
    bad = {p["status"] for p in doc.points if p["status"] != "ok"}
    handles += [ceiling] + [proxy(f"{s} (no value)", BAD, marker="x", ls="none", ms=8)
                            for s in sorted(bad)]
    legend_above(ax, handles, ncol=3)
    fig.suptitle(f"{title} on {doc.device_name()}")
    return [Chart(kind, title, fig, caption)]


def bar_patch(s):
    return Patch(facecolor=s.colour, hatch=s.hatch, edgecolor=OI["black"] if s.hatch else
                 "white", label=s.label)


def _cell(points, gkey):
    index = {}
    for p in points:
        index[(gkey(p),) + _key(p)] = p

    def cell(g, s):
        return index.get((g,) + s.key)
    return cell


CAPTION = ("Each bar: the kernel's bandwidth divided by that of clEnqueueCopyBuffer moving the "
           "same bytes in the same run (median times). 1.0 is the driver's own copy; on a CPU "
           "a kernel can beat it where its buffers stay in cache.")


def sg_copy(doc):
    pts = doc.points
    sizes = sorted({p["params"]["bytes"] for p in pts})
    series = _series(pts, SG_COPY_ORDER, lambda p: True)
    return _chart(doc, "sg-copy", sizes, [fmt_bytes(s) for s in sizes], series,
                  _cell(pts, lambda p: p["params"]["bytes"]), "bytes per buffer",
                  "sub-group copies", CAPTION + " Gather: 16 contiguous ints per work-item; "
                  "strided: lane l every width-th int; block: sub-group block reads and writes.")


def transpose(doc):
    pts = doc.points
    ns = sorted({p["params"]["n"] for p in pts})
    series = _series(pts, TRANSPOSE_ORDER,
                     lambda p: p["params"].get("uses_sub_groups",
                                               p["params"]["variant"] not in ("local", "naive")))
    labels = [f"{n} × {n}" + (" (guide)" if n == 16 else "") for n in ns]
    return _chart(doc, "transpose", ns, labels, series, _cell(pts, lambda p: p["params"]["n"]),
                  "matrix (ints)", "transposes", CAPTION + " GB/s count the bytes read and "
                  "written; guide16 is the guide's single 16 x 16 example.")
