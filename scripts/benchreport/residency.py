"""`bench occupancy`: measured resident work-groups against the model and the driver, per
work-group size.

One row of panels without barriers and one with, one column per local-memory size. The model
is a dashed step line, the driver's own count (cl_intel_concurrent_dispatch, where offered) a
dotted one with diamonds, the measured counts are markers: filled circles for groups wholly on
the device, open squares for groups occupying it. A ring marks each point where the count held
to the model (`measured.resident_wg`: whole on GPUs, occupied on CPUs) differs from it, a
square ring each point where the driver's count differs from it. Where the document has several
required sub-group sizes, each has its own colour, slightly apart.
"""
import html

from matplotlib.ticker import MaxNLocator

from .style import (BAD, DRIVER, MODEL, OI, SERIES, Chart, Html, bad_marks, count_axis, figure,
                    fmt_bytes, geometric, grid_with_legend, label_axes, legend_in, proxy, uid)

MAX_COLS = 4


def _model_resident(p):
    m = p.get("model")
    if isinstance(m, dict) and m.get("known", True) and isinstance(m.get("resident_wg"), int):
        return m["resident_wg"]
    return None


def _driver_resident(p):
    d = p.get("driver")
    if isinstance(d, dict) and isinstance(d.get("resident_wg"), int):
        return d["resident_wg"]
    return None


def _driver_offered(pts):
    """True where the driver answered, False where it offers no count, None: not recorded."""
    ds = [p["driver"] for p in pts if isinstance(p.get("driver"), dict)]
    return any(d.get("offered") for d in ds) if ds else None


def _dodge(xs_all, n, j, log):
    """Horizontal offset of series j of n, so that equal values stay visible side by side."""
    if n == 1:
        return lambda x: x
    xs = sorted(set(xs_all))
    step = min((b - a for a, b in zip(xs, xs[1:])), default=1) if not log else 0
    off = (j - (n - 1) / 2) * 0.12
    return (lambda x: x * 2 ** off) if log else (lambda x: x + off * step)


def _panel(ax, pts, sgs, colours, log):
    """Draws one (barrier, local memory) panel; returns the points whose measurement differs
    from the model, and those whose measurement differs from the driver's count."""
    disagree, driver_off = [], []
    xs_all = [p["params"]["wg_size"] for p in pts]
    for j, sg in enumerate(sgs):
        move = _dodge(xs_all, len(sgs), j, log)
        sp = sorted((p for p in pts if p["params"].get("sg_size_requested") == sg),
                    key=lambda p: p["params"]["wg_size"])
        whole_c, occ_c = colours[sg]
        model = [(move(p["params"]["wg_size"]), _model_resident(p)) for p in sp]
        model = [m for m in model if m[1] is not None]
        if model:
            ax.plot([m[0] for m in model], [m[1] for m in model], color=MODEL, ls="--", lw=1.6,
                    drawstyle="steps-mid", gid=uid("model-resident"), zorder=2)
        drv = [(move(p["params"]["wg_size"]), _driver_resident(p)) for p in sp]
        drv = [d for d in drv if d[1] is not None]
        if drv:
            ax.plot([d[0] for d in drv], [d[1] for d in drv], color=DRIVER, ls=":", lw=1.6,
                    marker="D", ms=4, drawstyle="steps-mid", gid=uid("driver-resident"),
                    zorder=2)
        ok = [p for p in sp if p["status"] == "ok"]
        xs = [move(p["params"]["wg_size"]) for p in ok]
        if ok:   # (an empty unclipped line upsets the constrained layout)
            ax.plot(xs, [p["measured"]["whole_wg"] for p in ok], ls="none", marker="o", ms=5.5,
                    color=whole_c, gid=uid("sec-whole"), zorder=4, clip_on=False)
            ax.plot(xs, [p["measured"]["occupied_wg"] for p in ok], ls="none", marker="s",
                    ms=10, mfc="none", mew=1.6, color=occ_c, gid=uid("pt-ok-occupied"),
                    zorder=3, clip_on=False)
        for p in ok:
            m = _model_resident(p)
            if m is not None and m != p["measured"]["resident_wg"]:
                disagree.append((move(p["params"]["wg_size"]), p))
            d = _driver_resident(p)
            if d is not None and d != p["measured"]["resident_wg"]:
                driver_off.append((move(p["params"]["wg_size"]), p))
        bad = [p for p in sp if p["status"] != "ok"]
        bad_marks(ax, [move(p["params"]["wg_size"]) for p in bad], [p["status"] for p in bad])
    if disagree:
        ax.plot([x for x, _ in disagree], [p["measured"]["resident_wg"] for _, p in disagree],
                ls="none", marker="o", ms=18, mfc="none", mew=2.2, color=MODEL,
                gid=uid("disagree"), zorder=5, clip_on=False)
    if driver_off:
        ax.plot([x for x, _ in driver_off], [p["measured"]["resident_wg"] for _, p in driver_off],
                ls="none", marker="s", ms=22, mfc="none", mew=1.8, color=DRIVER,
                gid=uid("driver-disagree"), zorder=5, clip_on=False)
    return [p for _, p in disagree], [p for _, p in driver_off]


def _colours(sgs):
    """(whole, occupied) colours per required sub-group size."""
    if len(sgs) == 1:
        return {sgs[0]: (OI["blue"], OI["green"])}
    return {sg: (SERIES[i % len(SERIES)],) * 2 for i, sg in enumerate(sgs)}


def _legend(lax, sgs, colours, bad_statuses, any_disagree, any_driver, any_driver_off):
    handles = []
    if len(sgs) == 1:
        handles += [proxy("measured: whole groups", colours[sgs[0]][0], marker="o", ls="none"),
                    proxy("measured: occupying groups", colours[sgs[0]][1], marker="s",
                          ls="none", mfc="none", ms=10)]
    else:
        handles += [proxy(f"sub-group {sg if sg is not None else 'auto'}", colours[sg][0],
                          lw=3) for sg in sgs]
        handles += [proxy("measured: whole groups", OI["black"], marker="o", ls="none"),
                    proxy("measured: occupying groups", OI["black"], marker="s", ls="none",
                          mfc="none", ms=10)]
    handles.append(proxy("model (step)", MODEL, ls="--"))
    if any_driver:
        handles.append(proxy("driver's count (step)", DRIVER, ls=":", marker="D", ms=4))
    if any_disagree:
        handles.append(proxy("differs from the model", MODEL, marker="o", ls="none", mfc="none",
                             ms=14, lw=2.2))
    if any_driver_off:
        handles.append(proxy("differs from the driver", DRIVER, marker="s", ls="none",
                             mfc="none", ms=14, lw=1.8))
    handles += [proxy(f"{s} (no value)", BAD, marker="X" if s == "failed" else "x", ls="none",
                      ms=8) for s in bad_statuses]
    legend_in(lax, handles, ncol=3)


def _top(pts):
    vals = [p["measured"][k] for p in pts if p["status"] == "ok"
            for k in ("whole_wg", "occupied_wg", "resident_wg")]
    vals += [m for m in map(_model_resident, pts) if m is not None]
    vals += [d for d in map(_driver_resident, pts) if d is not None]
    return max(vals + [1])


def residency(doc):
    pts = doc.points
    slms = sorted({p["params"]["slm_requested"] for p in pts}) or [0]
    barriers = sorted({p["params"]["barrier"] for p in pts}) or [False]
    sgs = sorted({p["params"].get("sg_size_requested") for p in pts}, key=lambda s: s or 0)
    colours = _colours(sgs)
    ncols = min(MAX_COLS, len(slms))
    slm_rows = [slms[i:i + ncols] for i in range(0, len(slms), ncols)]
    panels = [(b, row) for b in barriers for row in slm_rows]
    fig = figure(0.9 + 3.3 * len(panels))
    lax, grid = grid_with_legend(fig, len(panels), ncols, legend_height=0.6, row_height=3.3)
    log = geometric([p["params"]["wg_size"] for p in pts])
    top = _top(pts)
    disagree, driver_off = [], []
    for (barrier, row), axes in zip(panels, grid):
        for c, ax in enumerate(axes):
            if c >= len(row):
                ax.axis("off")
                continue
            slm = row[c]
            sub = [p for p in pts if p["params"]["barrier"] == barrier
                   and p["params"]["slm_requested"] == slm]
            count_axis(ax, [p["params"]["wg_size"] for p in pts])
            dm, dd = _panel(ax, sub, sgs, colours, log)
            disagree += dm
            driver_off += dd
            ax.set_ylim(-0.04 * top, top * 1.18 + 0.5)
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_title(f"{'barriers' if barrier else 'no barriers'}, local memory "
                         f"{fmt_bytes(slm)} per group", fontsize=10.5)
            label_axes(ax, "work-group size (work-items)", "resident work-groups")
    offered = _driver_offered(pts)
    _legend(lax, sgs, colours, sorted({p["status"] for p in pts if p["status"] != "ok"}),
            bool(disagree), any(_driver_resident(p) is not None for p in pts), bool(driver_off))
    fig.suptitle(f"resident work-groups on {doc.device_name()}")
    ok = [p for p in pts if p["status"] == "ok"]
    defs = sorted({p["measured"].get("definition") or "?" for p in ok})
    caption = (f"Measured peak of work-groups resident at once against the model, per "
               f"work-group size; panels by barriers and local memory per group. The count held "
               f"to the model is '{' / '.join(defs)}' (whole on GPUs; occupied on CPUs, where a "
               f"group's work-items run one after another on one thread). {len(disagree)} of "
               f"{len(ok)} measured points differ from the model. {_driver_words(offered, pts)}"
               f"{f'{len(driver_off)} of {len(ok)} differ from the driver.' if offered else ''}")
    items = [Chart("residency", "residency", fig, caption)]
    if disagree or driver_off:
        items.append(Html("disagreements", _disagreements(disagree, driver_off, _driver_why(doc))))
    return items


def _driver_words(offered, pts):
    if offered is None:
        return "The document records no driver's count. "
    if not offered:
        reason = next((p["driver"].get("reason") for p in pts
                       if isinstance(p.get("driver"), dict) and p["driver"].get("reason")), None)
        reason = (reason or "no reason given").removeprefix("not offered: ")
        return f"The driver's count: not offered ({html.escape(reason)}). "
    return "The driver's count is clGetKernelMaxConcurrentWorkGroupCountINTEL's. "


def _where(p):
    return (f"work-group {p['params']['wg_size']}, "
            f"{'barriers' if p['params']['barrier'] else 'no barriers'}, local memory "
            f"{fmt_bytes(p['params']['slm_requested'])}: measured {p['measured']['resident_wg']} "
            f"({html.escape(str(p['measured'].get('definition')))})")


def _driver_why(doc):
    """bench's explanation of the driver's count against the measurement, each one once."""
    ans = doc.data.get("residency_answers")
    ans = ans if isinstance(ans, dict) else {}
    whys = [e.get("why") for e in ans.get("disagreements") or []
            if e.get("pair") == "driver-measured" and e.get("why")]
    return list(dict.fromkeys(whys))


def _disagreements(model_off, driver_off, driver_why):
    rows = "".join(f"<li>{_where(p)}, model {_model_resident(p)}</li>" for p in model_off)
    rows += "".join(f"<li>{_where(p)}, driver {_driver_resident(p)}</li>" for p in driver_off)
    why = "".join(f"<p>Why the driver's count differs (bench): {html.escape(w)}</p>"
                  for w in driver_why if driver_off)
    return (f'<p class="notes-title">Differences from the model and the driver</p>'
            f'<ul class="notes disagree">{rows}</ul>{why}')
