"""`bench latency`: ns (and nominal cycles) per dependent load against the working set.

Both axes are logarithmic (working sets span 1 KiB to gigabytes, latencies 1 to 1000 ns).
The document's plateaus are shaded and labelled with their level and median; nothing is
re-detected here. A point whose time is below the launch overhead's noise (ns <= 0) cannot sit
on a log axis and is marked on the floor instead.
"""
import html
import math

from .style import (MARKERS, OI, SERIES, Chart, Html, bad_marks, byte_axis, empty_note, figure,
                    fmt_bytes,
                    label_axes, legend_above, log_ticks, proxy, uid)

SHADES = ["#DCEBF7", "#FBE9CF"]   # light tints of the palette's blue and orange
VARIANT_LABELS = {"single": "one chase (one work-item)",
                  "per-cu": "one chase per compute unit, at once",
                  "local": "local memory (one work-item)"}


def _series(pts):
    keys = []
    for p in pts:
        k = (p["params"]["memory"], p["params"]["variant"])
        if k not in keys:
            keys.append(k)
    return keys


def _plot_series(ax, pts, key, i):
    sp = sorted((p for p in pts if (p["params"]["memory"], p["params"]["variant"]) == key),
                key=lambda p: p["params"]["working_set_bytes"])
    ok = [p for p in sp if p["status"] == "ok" and p["metrics"]["ns_per_load"] > 0]
    noise = [p for p in sp if p["status"] == "ok" and p["metrics"]["ns_per_load"] <= 0]
    bad = [p for p in sp if p["status"] != "ok"]
    colour = OI["green"] if key[0] == "local" else SERIES[i % len(SERIES)]
    marker = "D" if key[0] == "local" else MARKERS[i % len(MARKERS)]
    label = VARIANT_LABELS.get(key[1], f"{key[0]} {key[1]}")
    handles = []
    line, = ax.plot([p["params"]["working_set_bytes"] for p in ok],
                    [p["metrics"]["ns_per_load"] for p in ok], marker=marker, color=colour,
                    ms=7 if key[0] == "local" else 5, label=label, gid=uid("pt-ok-latency"))
    if ok:
        handles.append(line)
    if noise:
        mark, = ax.plot([p["params"]["working_set_bytes"] for p in noise], [0.04] * len(noise),
                        transform=ax.get_xaxis_transform(), ls="none", marker="v", ms=8,
                        color=colour, mfc="none", mew=1.6, clip_on=False,
                        label=f"{label}: below the launch overhead's noise",
                        gid=uid("pt-ok-noise"))
        handles.append(mark)
    handles += bad_marks(ax, [p["params"]["working_set_bytes"] for p in bad],
                         [p["status"] for p in bad])
    return handles


def _plateaus(ax, levels, mhz):
    """Shades each plateau, draws its median and writes its label at the top."""
    prev_top = None
    for i, lv in enumerate(levels):
        lo, hi = lv["first_bytes"], lv["last_bytes"]
        ax.axvspan(lo, hi, color=SHADES[i % 2], lw=0, zorder=0)
        ax.plot([lo, hi], [lv["ns"], lv["ns"]], color=OI["black"], ls="--", lw=1.4, zorder=3)
        cyc = lv.get("cycles")
        if cyc is None and mhz:
            cyc = lv["ns"] * mhz / 1e3
        text = f"{lv['label']}\n{lv['ns']:.3g} ns" + (f", {cyc:.0f} cycles" if cyc else "")
        narrow = math.log2(max(hi, lo + 1) / lo) < 3
        y = 0.97 if not (narrow and prev_top == 0.97) else 0.84
        prev_top = y
        ax.text(math.sqrt(lo * hi), y, text, transform=ax.get_xaxis_transform(), ha="center",
                va="top", fontsize=9, bbox=dict(boxstyle="round,pad=0.25", fc="white",
                                                ec=OI["grey"], lw=0.6, alpha=0.9))


def latency(doc):
    pts = doc.points
    data = doc.data
    mhz = ((data.get("setup") or {}).get("clock") or {}).get("mhz")
    plateaus = data.get("plateaus") or {}
    levels = plateaus.get("levels") or []
    fig = figure(6.4)
    ax = fig.subplots()
    byte_axis(ax, "x")
    ax.set_yscale("log")
    log_ticks(ax.yaxis)
    handles = []
    for i, key in enumerate(_series(pts)):
        handles += _plot_series(ax, pts, key, i)
    _plateaus(ax, levels, mhz)
    if levels:
        handles.append(proxy("plateau (shaded): its median", OI["black"], ls="--", lw=1.4))
    ns = [p["metrics"]["ns_per_load"] for p in pts if p["status"] == "ok"
          and p["metrics"]["ns_per_load"] > 0] + [lv["ns"] for lv in levels]
    if ns:
        ax.set_ylim(min(ns) / 2, max(ns) * 6)   # room for the plateau labels at the top
    else:
        empty_note(ax)
    llc = plateaus.get("llc_bytes")
    if llc:
        handles.append(ax.axvline(llc, color=OI["grey"], ls=":", lw=1.6,
                                  label=f"last-level cache size, {fmt_bytes(llc)}"))
    label_axes(ax, "working set", "latency per dependent load (ns)")
    if mhz:
        sec = ax.secondary_yaxis("right", functions=(lambda v: v * mhz / 1e3,
                                                     lambda c: c * 1e3 / mhz))
        sec.set_ylabel(f"nominal cycles at {mhz:g} MHz")
        log_ticks(sec.yaxis)
    legend_above(ax, handles, ncol=2)
    fig.suptitle(f"pointer-chase latency on {doc.device_name()}")
    setup = data.get("setup") or {}
    rule = (plateaus.get("rule") or {}).get("text") if isinstance(plateaus.get("rule"), dict) \
        else None
    caption = (f"Latency of one dependent load (a 0-load launch's time subtracted) against the "
               f"working set, log-log, stride {setup.get('stride_bytes', '?')} B, "
               f"{setup.get('loads', '?')} loads per launch. Shaded: the plateaus the benchmark "
               f"found on the {html.escape(str(plateaus.get('curve', 'measured')))} curve, "
               f"labelled with their median"
               + (f" (rule: {html.escape(rule)})" if rule else "") + ". "
               + ("Cycles are nominal: ns x the reported clock." if mhz else
                  "No cycles: the device reports no clock frequency."))
    items = [Chart("latency", "latency", fig, caption)]
    if levels:
        items.append(Html("plateaus", _levels_table(levels, mhz)))
    refs = (data.get("reference") or {}).get("levels") or []
    if refs:
        items.append(Html("reference", _reference_table(data["reference"], refs)))
    return items


def _levels_table(levels, mhz):
    rows = []
    for lv in levels:
        cyc = lv.get("cycles")
        rows.append(f"<tr><td>{html.escape(lv['label'])}</td><td>{fmt_bytes(lv['first_bytes'])}"
                    f" - {fmt_bytes(lv['last_bytes'])}</td><td>{lv['ns']:.3g}</td>"
                    f"<td>{f'{cyc:.0f}' if cyc is not None else '-'}</td></tr>")
    return ('<table class="data"><caption>Plateaus (from the document)</caption><tr><th>level'
            '</th><th>working sets</th><th>ns per load</th><th>cycles</th></tr>'
            + "".join(rows) + "</table>")


def _reference_table(ref, refs):
    def rng(lo, hi):
        if lo is None:
            return "-"
        return f"{lo:g}" if hi in (None, lo) else f"{lo:g}-{hi:g}"
    rows = "".join(
        f"<tr><td>{html.escape(r['guide_level'])}</td>"
        f"<td>{rng(r.get('guide_cycles_min'), r.get('guide_cycles_max'))}</td>"
        f"<td>{html.escape(str(r.get('measured_level') or '-'))}</td>"
        f"<td>{'-' if r.get('measured_cycles') is None else format(r['measured_cycles'], '.0f')}"
        f"</td></tr>" for r in refs)
    return (f'<table class="data"><caption>{html.escape(str(ref.get("source", "reference")))}'
            f'</caption><tr><th>published level</th><th>cycles</th><th>measured level</th>'
            f'<th>measured cycles</th></tr>{rows}</table>')

