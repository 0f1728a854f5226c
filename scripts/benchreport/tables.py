"""The parts of the page that are tables: device and run facts, sg-info's mapping, the notes
(failed and skipped points, caveats), and the points of a benchmark this report has no chart for.
"""
import shlex
from collections import OrderedDict
from html import escape

from .doc import label_params, point_label
from .style import Html, fmt_bytes, time_unit


def _row(name, value, code=False):
    if value in (None, "", []):
        return ""
    v = f"<code>{escape(str(value))}</code>" if code else escape(str(value))
    return f"<tr><th>{escape(name)}</th><td>{v}</td></tr>"


def _device_rows(d):
    if not isinstance(d, dict):
        return _row("device", "none (the model alone)")
    clock = d.get("max_clock_mhz")
    units = f"{d.get('compute_units', '?')} compute units, " + (
        f"{clock} MHz (nominal)" if clock else "clock not reported")
    mem = ", ".join(f"{name} {fmt_bytes(d[key])}" for name, key in (
        ("global", "global_mem_bytes"), ("local", "local_mem_bytes"),
        ("last-level cache", "global_cache_bytes")) if isinstance(d.get(key), int) and d[key])
    sg = d.get("sub_group_sizes")
    return "".join([
        _row("device", f"{d.get('name', '?')} ({d.get('type', '?')}, {d.get('vendor', '?')})"),
        _row("platform", f"{d.get('platform', '?')}, {d.get('platform_version', '?')}"),
        _row("driver", d.get("driver_version")),
        _row("OpenCL", f"{d.get('opencl_version', '?')}; {d.get('opencl_c_version', '?')}"),
        _row("compute", units),
        _row("memory", mem),
        _row("sub-group sizes", ", ".join(map(str, sg)) if isinstance(sg, list) else None),
    ])


def _build_options(data):
    """Every distinct build option string, with the kernels that used it."""
    found = OrderedDict()
    k = data.get("kernel")
    if isinstance(k, dict) and k.get("build_options") is not None:
        found.setdefault(k["build_options"], []).append(k.get("name", "kernel"))
    ks = data.get("kernels")
    entries = ks.items() if isinstance(ks, dict) else enumerate(ks or [])
    for name, kk in entries:
        if isinstance(kk, dict) and kk.get("build_options") is not None:
            label = name if isinstance(name, str) else kk.get("name", f"kernel {name}")
            found.setdefault(kk["build_options"], []).append(label)
    for p in data.get("points") or []:
        if isinstance(p.get("build_options"), str):
            found.setdefault(p["build_options"], []).append("per point")
    return found


def facts(doc):
    data = doc.data
    host = data.get("host") if isinstance(data.get("host"), dict) else {}
    tool = data.get("tool") if isinstance(data.get("tool"), dict) else {}
    cmd = data.get("command")
    opts = _build_options(data)
    opt_rows = "".join(
        f"<tr><th>build options</th><td><code>{escape(o or '(none)')}</code> "
        f"<span class=\"dim\">{escape(', '.join(dict.fromkeys(map(str, names))))}</span></td>"
        f"</tr>" for o, names in list(opts.items())[:12])
    model = data.get("model_device")
    model_text = (", ".join(f"{k}={v}" for k, v in model.items()) if isinstance(model, dict)
                  else model)
    rows = "".join([
        _device_rows(data.get("device")),
        _row("host", " ".join(str(host.get(k, "")) for k in ("hostname", "os", "kernel",
                                                              "machine")).strip()
             + (f", {host['cpus_online']} CPUs online" if "cpus_online" in host else "")),
        _row("date", data.get("timestamp")),
        _row("command", shlex.join(map(str, cmd)) if isinstance(cmd, list) else None, code=True),
        opt_rows,
        _row("model parameters", model_text),
        _row("tool", f"{tool.get('name', 'bench')} {tool.get('version', '?')} "
             f"({tool.get('git_describe', '?')}), schema {data.get('schema_version')}"),
        _row("file", doc.path),
    ])
    return Html("facts", f'<details class="facts" open><summary>Device and run</summary>'
                         f'<table class="facts">{rows}</table></details>')


def notes(doc):
    """Failed and skipped points, the caveats of ok points grouped by reason, the points not
    drawn (each with the member it lacks) and what else of the document was not drawn."""
    groups = OrderedDict()
    for p in doc.points:
        if p["status"] != "ok" or p.get("reason"):
            groups.setdefault((p["status"], p.get("reason") or "no reason given"), []).append(p)
    names = label_params([doc.points + [p for p, _ in doc.undrawn]], doc.volatile())
    items = [f'<li class="caveat"><b>caveat</b>: {escape(c)}</li>' for c in doc.caveats]
    items += [f'<li class="undrawn"><b>not drawn</b>, {escape(p["status"])} point '
              f'({escape(point_label(p, names))}): {escape(why)}</li>' for p, why in doc.undrawn]
    for (status, reason), pts in groups.items():
        what = "note on ok" if status == "ok" else status
        which = "; ".join(point_label(p, names) for p in pts[:6])
        more = f"; and {len(pts) - 6} more" if len(pts) > 6 else ""
        items.append(f'<li class="{escape(status)}"><b>{escape(what)}</b>, {len(pts)} '
                     f'point{"s" if len(pts) > 1 else ""} ({escape(which)}{more}): '
                     f'{escape(reason)}</li>')
    if not items:
        return None
    return Html("notes", '<p class="notes-title">Points with a status or a note</p>'
                         f'<ul class="notes">{"".join(items)}</ul>')


def sg_info(doc):
    rows = []
    for p in doc.points:
        pr = p["params"]
        m = p.get("mapping") if isinstance(p.get("mapping"), dict) else {}
        sizes = m.get("sizes")
        sizes = "+".join(map(str, sizes)) if isinstance(sizes, list) else "-"
        width = pr.get("sg_width")
        cells = [pr["global"], pr["local"], pr["sg_backend"],
                 f"{width if width is not None else 'driver'}",
                 pr.get("sg_width_source") or "-", sizes, m.get("max_sg_size", "-"),
                 m.get("num_sub_groups", "-"), _yn(m.get("partial_last")),
                 _yn(m.get("contiguous")),
                 p["status"] + (f": {p['reason']}" if p.get("reason") else "")]
        rows.append(f'<tr data-status="{escape(p["status"])}" class="{escape(p["status"])}">'
                    + "".join(f"<td>{escape(str(c))}</td>" for c in cells) + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in (
        "global", "local", "backend", "width", "width from", "sub-group sizes", "max size",
        "sub-groups", "last partial", "ids contiguous", "status"))
    return Html("sg-info-table",
                f'<table class="data points"><caption>Sub-group mapping per ND-range</caption>'
                f'<tr>{head}</tr>{"".join(rows)}</table>')


def _yn(v):
    return {True: "yes", False: "no"}.get(v, "-")


def generic(doc):
    """A benchmark without a chart of its own: its points as a table."""
    names = label_params([doc.points], doc.volatile())
    med = [p["time_ns"]["median"] for p in doc.points
           if isinstance(p.get("time_ns"), dict) and isinstance(p["time_ns"].get("median"),
                                                                (int, float))]
    div, unit = time_unit(med) if med else (1.0, "ns")
    rows = []
    for p in doc.points:
        t = p.get("time_ns") if isinstance(p.get("time_ns"), dict) else {}
        m = t.get("median")
        fig = f"{m / div:.4g}" if isinstance(m, (int, float)) else "-"
        if p["status"] == "suspect" and fig != "-":   # kept for diagnosis, never as a result
            fig += " (suspect: not a result)"
        rows.append(f'<tr data-status="{escape(p["status"])}" class="{escape(p["status"])}">'
                    f'<td>{escape(point_label(p, names))}</td><td>{escape(p["status"])}</td>'
                    f'<td>{fig}</td>'
                    f'<td>{escape(p.get("reason") or "")}</td></tr>')
    return Html("points-table",
                f'<table class="data points"><caption>{len(doc.points)} points of '
                f'{escape(doc.benchmark)} (no chart for this benchmark)</caption><tr><th>point'
                f'</th><th>status</th><th>median ({unit})</th><th>reason</th></tr>'
                f'{"".join(rows)}</table>')
