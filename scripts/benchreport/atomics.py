"""`bench atomics`: throughput per contention pattern and memory order; the dependent chain.

Throughput spans decades between local memory and one contended global counter, so its
axis is logarithmic. The chain (one work-item, each result picking the next counter) is a
latency, drawn apart in ns with nominal cycles on a second axis where the device has a clock.
"""
from .ceilings import bar_patch
from .style import (BAD, SERIES, Chart, Series, figure, fmt_si, grid_with_legend, grouped_bars,
                    label_axes, legend_in, log_ticks, proxy)

PATTERNS = ["own", "neighbours", "sg", "wg", "single", "local", "local-wg"]
ORDERS = ["relaxed", "acq_rel", "seq_cst"]


def _ordered(values, order):
    return sorted(values, key=lambda v: (order.index(v) if v in order else len(order), v))


def _cell(points):
    index = {}
    for p in points:
        index.setdefault((p["params"]["pattern"], p["params"]["order"]), p)
    return lambda g, s: index.get((g, s.key))


def atomics(doc):
    pts = doc.points
    orders = _ordered({p["params"]["order"] for p in pts}, ORDERS)
    series = [Series(o, f"order {o}", SERIES[i % len(SERIES)], [None, "//", ".."][i % 3])
              for i, o in enumerate(orders)]
    tput = [p for p in pts if p["params"]["pattern"] != "chain"]
    chain = [p for p in pts if p["params"]["pattern"] == "chain"]
    patterns = _ordered({p["params"]["pattern"] for p in tput}, PATTERNS)
    fig = figure(5.8)
    lax, grid = grid_with_legend(fig, 1, 2, legend_height=0.45, width_ratios=[3.3, 1])
    ax, axc = grid[0]
    ax.set_yscale("log")
    log_ticks(ax.yaxis, lambda v: fmt_si(v))
    grouped_bars(ax, patterns, series, _cell(tput), lambda p: p["metrics"]["atomics_per_s"],
                 lambda v: fmt_si(v, "/s"))
    ax.set_xticklabels(patterns)
    vals = [p["metrics"]["atomics_per_s"] for p in tput if p["status"] == "ok"]
    if vals:
        ax.set_ylim(min(vals) / 3, max(vals) * 30)
    label_axes(ax, "contention pattern", "atomic fetch-adds per second")
    ax.set_title("throughput", fontsize=11)
    mhz = ((doc.data.get("setup") or {}).get("clock") or {}).get("mhz")
    _chain(axc, chain, series, mhz)
    handles = [bar_patch(s) for s in series]
    bad = sorted({p["status"] for p in pts if p["status"] != "ok"})
    handles += [proxy(f"{s} (no value)", BAD, marker="x", ls="none", ms=8) for s in bad]
    legend_in(lax, handles, ncol=4)
    fig.suptitle(f"atomics on {doc.device_name()}")
    clock = (f"nominal cycles at {mhz:g} MHz (CL_DEVICE_MAX_CLOCK_FREQUENCY) on the right axis"
             if mhz else "no cycles: the device reports no clock frequency")
    p0 = pts[0]["params"] if pts else {}
    caption = (f"Left: fetch-adds per second, {p0.get('work_items', '?')} work-items x "
               f"{p0.get('ops', '?')} each over the median launch time, per pattern (own "
               f"counter, neighbours sharing a cache line, one per sub-group, per work-group, "
               f"one for all, local memory) and memory order; log scale. Right: the dependent "
               f"chain, one atomic's latency with the launch overhead subtracted; {clock}. "
               f"API: {p0.get('api', '?')}; flush between launches: "
               f"{'yes' if p0.get('flush') else 'no'}.")
    return [Chart("atomics", "atomics", fig, caption)]


def _chain(ax, chain, series, mhz):
    ax.set_title("dependent chain", fontsize=11)
    if not chain:
        ax.text(0.5, 0.5, "no chain points", ha="center", va="center", transform=ax.transAxes)
        ax.set_xticks([])
        return
    index = {p["params"]["order"]: p for p in chain}
    grouped_bars(ax, ["chain"], series, lambda g, s: index.get(s.key),
                 lambda p: p["metrics"]["ns_per_atomic"], "{:.3g} ns".format)
    ax.set_xticklabels(["one work-item"])
    vals = [p["metrics"]["ns_per_atomic"] for p in chain if p["status"] == "ok"]
    ax.set_ylim(0, max(vals + [1.0]) * 1.25)
    label_axes(ax, None, "latency per atomic (ns)")
    if mhz:
        sec = ax.secondary_yaxis("right", functions=(lambda ns: ns * mhz / 1e3,
                                                     lambda c: c * 1e3 / mhz))
        sec.set_ylabel("nominal cycles")
