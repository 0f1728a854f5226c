"""Sweeps over the number of work-groups: vecadd, occupancy --waves, and the model alone.

The model's waves and occupancy are drawn as step lines on a second axis, and its wave
boundaries (every `resident_wg` groups) as dotted lines, so that a step in the measured time
can be read against the point where the model says the device fills.
"""
from collections import Counter

from matplotlib.ticker import MaxNLocator

from .style import (MODEL, OI, Chart, bad_marks, count_axis, empty_note, figure, label_axes,
                    legend_above, log_ticks, time_unit, uid, wide_span)

MAX_BOUNDARIES = 16   # more wave boundaries than this would hide the data


def _model(p):
    m = p.get("model")
    if isinstance(m, dict) and m.get("known", True) and isinstance(m.get("waves"), int):
        return m
    return None


def _model_steps(points, xkey="groups"):
    """(x, waves, last wave's occupancy %, resident) for every point the model covers."""
    rows = []
    for p in points:
        m = _model(p)
        if m is None or not isinstance(m.get("gpu_occupancy"), (int, float)):
            continue
        tail = m.get("tail_occupancy") or 0.0
        rows.append((p["params"][xkey], m["waves"], 100.0 * (tail or m["gpu_occupancy"]),
                     m.get("resident_wg"), m.get("limiter")))
    return sorted(rows, key=lambda r: r[0])


def _boundaries(axes, rows, xmax):
    """Dotted lines where the model's waves are full: k x resident groups."""
    resident = Counter(r[3] for r in rows if isinstance(r[3], int) and r[3] > 0).most_common(1)
    if not resident:
        return None, None
    r = resident[0][0]
    if xmax / r > MAX_BOUNDARIES:
        return None, r
    line = None
    for ax in axes:
        for k in range(1, int((xmax - 0.5) // r) + 1):
            line = ax.axvline(k * r + 0.5, color=MODEL, ls=":", lw=1.1, alpha=0.8,
                              label=f"model: device full every {r} groups")
    return line, r


def _time_panel(ax, ok, xkey, what, log):
    xs = [p["params"][xkey] for p in ok]
    div, unit = time_unit([p["time_ns"]["p95"] for p in ok])
    p5 = [p["time_ns"]["p5"] / div for p in ok]
    p95 = [p["time_ns"]["p95"] / div for p in ok]
    med = [p["time_ns"]["median"] / div for p in ok]
    band = ax.fill_between(xs, p5, p95, color=OI["blue"], alpha=0.22, lw=0,
                           label="p5-p95 of the timed launches")
    line, = ax.plot(xs, med, marker="o", color=OI["blue"], label=f"median {what}",
                    gid=uid("pt-ok-time"))
    if log:   # sizes growing by factors: the time does too
        ax.set_yscale("log")
        log_ticks(ax.yaxis)
    else:
        ax.set_ylim(bottom=0)
    label_axes(ax, None, f"{what} ({unit})")
    return [band, line]


def _waves_twin(ax, rows):
    if not rows:
        return None
    tw = ax.twinx()
    tw.grid(False)
    line, = tw.plot([r[0] for r in rows], [r[1] for r in rows], drawstyle="steps-mid",
                    color=MODEL, lw=1.8, label="model: waves (right axis)", gid=uid("model-waves"))
    tw.set_ylim(0, max(r[1] for r in rows) * 1.12 + 0.5)
    tw.yaxis.set_major_locator(MaxNLocator(integer=True))
    label_axes(tw, None, "model: waves")
    return line


def _occupancy_twin(ax, rows):
    if not rows:
        return None
    tw = ax.twinx()
    tw.grid(False)
    line, = tw.plot([r[0] for r in rows], [r[2] for r in rows], drawstyle="steps-mid",
                    color=MODEL, lw=1.3, ls="--", label="model: occupancy of the last wave "
                    "(right axis)", gid=uid("model-occupancy"))
    tw.set_ylim(0, _pct_top([r[2] for r in rows]))
    label_axes(tw, None, "model: last wave's occupancy (%)")
    return line


def _pct_top(values):
    """0-100 % where the occupancy gets anywhere near full; else room for the small values a
    GPU far from full shows (0.2 % to 9 % for vecadd's 48 groups on an H200)."""
    top = max(values, default=100.0)
    return 108.0 if top > 40 else top * 1.25 or 1.0


def _model_caption(rows, resident):
    if not rows:
        return "The points carry no model prediction (the model does not know this device)."
    limiters = ", ".join(sorted({str(r[4]) for r in rows if r[4]}))
    text = (f"The model keeps {resident} work-groups resident at once"
            if resident else "The model's residency varies between points")
    return f"{text}; limiter: {limiters or 'not stated'}."


def vecadd(doc):
    pts = sorted(doc.points, key=lambda p: p["params"]["groups"])
    ok = [p for p in pts if p["status"] == "ok"]
    bad = [p for p in pts if p["status"] != "ok"]
    variant = pts[0]["params"].get("variant", "?") if pts else "?"
    fig = figure(7.6)
    ax_t, ax_b = fig.subplots(2, 1, sharex=True)
    rows = _model_steps(pts)
    xs_all = [p["params"]["groups"] for p in pts] or [1]
    xlog = count_axis(ax_b, xs_all)
    handles = _time_panel(ax_t, ok, "groups", "kernel time", xlog) if ok else []
    if not ok:
        empty_note(ax_t)
        label_axes(ax_t, None, "kernel time")
    handles.append(_waves_twin(ax_t, rows))
    boundary, resident = _boundaries([ax_t, ax_b], rows, max(xs_all))
    handles.append(boundary)
    handles += bad_marks(ax_t, [p["params"]["groups"] for p in bad], [p["status"] for p in bad])
    legend_above(ax_t, handles, ncol=3)

    xs = [p["params"]["groups"] for p in ok]
    gb, = ax_b.plot(xs, [p["metrics"]["gbps"] for p in ok], marker="s", color=OI["green"],
                    label="bandwidth (bytes read + written / median time)", gid=uid("sec-gbps"))
    copy = [(p["params"]["groups"], p["metrics"].get("ceiling_gbps", p["metrics"].get("copy_gbps")))
            for p in ok]
    copy = [c for c in copy if isinstance(c[1], (int, float))]
    ceil = None
    if copy:
        ceil, = ax_b.plot([c[0] for c in copy], [c[1] for c in copy], color=OI["grey"], ls="-.",
                          label="ceiling (the faster of clEnqueueCopyBuffer and a copy kernel, same bytes)")
    if wide_span([p["metrics"]["gbps"] for p in ok] + [c[1] for c in copy], 30):
        ax_b.set_yscale("log")   # a compute-bound kernel far below the copy ceiling
        log_ticks(ax_b.yaxis)
    else:
        ax_b.set_ylim(bottom=0)
    label_axes(ax_b, "work-groups per launch", "bandwidth (GB/s)")
    legend_above(ax_b, [gb, ceil, _occupancy_twin(ax_b, rows)], ncol=2)
    fig.suptitle(f"vecadd variant {variant} on {doc.device_name()}")
    n = ok[0]["time_ns"].get("n", "the") if ok else "the"
    caption = (f"Top: median kernel time of {n} timed launches per point, the band from p5 to "
               f"p95; the model's waves as a step line (right axis). Bottom: bandwidth and the "
               f"ceiling (the faster of the driver's copy and the suite's copy kernel) measured "
               f"in the same run; the model's occupancy of the last (or only) wave (right axis). Dotted lines: the model's device is full. "
               f"{_model_caption(rows, resident)}")
    return [Chart("sweep", f"vecadd variant {variant}", fig, caption)]


def waves(doc):
    """occupancy --waves: fixed work per group; time steps each time the device fills."""
    pts = sorted(doc.points, key=lambda p: p["params"]["groups"])
    ok = [p for p in pts if p["status"] == "ok"]
    bad = [p for p in pts if p["status"] != "ok"]
    fig = figure(5.4)
    ax = fig.subplots()
    xs_all = [p["params"]["groups"] for p in pts] or [1]
    xlog = count_axis(ax, xs_all)
    handles = _time_panel(ax, ok, "groups", "kernel time", xlog) if ok else []
    if not ok:
        empty_note(ax)
        label_axes(ax, None, "kernel time")
    rows = _model_steps(pts)
    handles.append(_waves_twin(ax, rows))
    boundary, resident = _boundaries([ax], rows, max(xs_all))
    handles.append(boundary)
    w = doc.data.get("waves") or {}
    steps = [s for s in (w.get("steps_after") or []) if isinstance(s, (int, float))]
    if steps:
        st, = ax.plot([s + 0.5 for s in steps], [0.97] * len(steps), ls="none", marker="v",
                      ms=8, color=OI["black"], transform=ax.get_xaxis_transform(),
                      clip_on=False, label="measured step: G to G+1 costs > 1/4 group")
        handles.append(st)
    handles += bad_marks(ax, [p["params"]["groups"] for p in bad], [p["status"] for p in bad])
    label_axes(ax, "work-groups per launch (fixed work each)", None)
    legend_above(ax, handles, ncol=2)
    wg = pts[0]["params"].get("wg_size", "?") if pts else "?"
    fig.suptitle(f"occupancy --waves, work-group {wg}, on {doc.device_name()}")
    cap = w.get("model_capacity_wg")
    caption = (f"Median time of a launch against the number of work-groups, each doing the "
               f"same work: the time steps up each time one more wave is needed. Triangles: "
               f"the steps the benchmark detected ({w.get('rule', 'its rule')}). The model's "
               f"capacity: {cap if cap is not None else 'not stated'} work-groups. "
               f"{_model_caption(rows, resident)}")
    return [Chart("occupancy-waves", "occupancy waves", fig, caption)]


def model(doc):
    """`bench model`: the prediction alone, occupancy and waves against work-groups."""
    pts = sorted(doc.points, key=lambda p: p["params"]["groups"])
    ok = [p for p in pts if p["status"] == "ok"]
    fig = figure(5.0)
    ax = fig.subplots()
    xs = [p["params"]["groups"] for p in ok]
    count_axis(ax, xs or [1])
    first, = ax.plot(xs, [100 * p["model"]["gpu_occupancy"] for p in ok], marker="o",
                     drawstyle="steps-mid", color=OI["blue"], label="first wave's occupancy",
                     gid=uid("pt-ok-first"))
    last, = ax.plot(xs, [100 * (p["model"]["tail_occupancy"] or p["model"]["gpu_occupancy"])
                         for p in ok], ls="--", color=OI["orange"], drawstyle="steps-mid",
                    label="last wave's occupancy")
    ax.set_ylim(0, _pct_top([100 * p["model"]["gpu_occupancy"] for p in ok]))
    if not ok:
        empty_note(ax, "no prediction")
    label_axes(ax, "work-groups per launch", "occupancy of the device (%)")
    tw = _waves_twin(ax, _model_steps(ok))
    bad = [p for p in pts if p["status"] != "ok"]
    handles = [first, last, tw] + bad_marks(ax, [p["params"]["groups"] for p in bad],
                                             [p["status"] for p in bad])
    legend_above(ax, handles, ncol=3)
    name = (ok[0]["model"].get("device") if ok else None) or "?"
    fig.suptitle(f"occupancy model for {name}")
    caption = ("The analytic model's prediction (no measurement): occupancy of the first and of "
               "the last wave, and the number of waves (right axis).")
    return [Chart("model", f"model of {name}", fig, caption)]

