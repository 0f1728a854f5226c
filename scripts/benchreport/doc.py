"""Reading results documents and checking every field the report uses.

A document is checked whole before anything is drawn: a missing, truncated or non-JSON file,
or a field missing or of the wrong type, is a BadInput naming the file and the field
(`points[3].time_ns.median`). The charts then read the checked fields directly.
"""
import json
import os

SCHEMA_VERSION = 1
STATUSES = ("ok", "failed", "skipped")
# Parameters that differ between runs of the same configuration: left out when points of two
# runs are matched (as scripts/compare.py does), and of labels.
VOLATILE = {"seed", "spin"}
# The occupancy probe calibrates its launch size (`groups` is doubled while the peak equals it).
VOLATILE_BY_BENCH = {"occupancy": {"groups"}}


class BadInput(Exception):
    """A results document the report cannot use: the file, the field and what is wrong."""

    def __init__(self, path, field, msg):
        super().__init__(f"{path}: {field}: {msg}" if field else f"{path}: {msg}")


# Field kinds: a trailing '?' allows null or absence.
def _kind_ok(value, kind):
    if kind == "num":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, {"str": str, "bool": bool, "obj": dict, "list": list}[kind])


_KIND_NAMES = {"num": "a number", "int": "an integer", "str": "a string", "bool": "true or false",
               "obj": "an object", "list": "an array"}


def _json_type(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return {int: "an integer", float: "a number", str: "a string", list: "an array",
            dict: "an object"}.get(type(value), type(value).__name__)


class Checker:
    """Checks dotted paths (`time_ns.median`) of one document, naming failures by full path."""

    def __init__(self, path):
        self.path = path

    def field(self, obj, dotted, kind, where=""):
        optional = kind.endswith("?")
        kind = kind.rstrip("?")
        cur, name = obj, where
        for part in dotted.split("."):
            name = f"{name}.{part}" if name else part
            if not isinstance(cur, dict):
                raise BadInput(self.path, name, f"missing (its parent is {_json_type(cur)})")
            if part not in cur:
                if optional:
                    return None
                raise BadInput(self.path, name, "missing")
            cur = cur[part]
            if cur is None and optional:
                return None
        if not _kind_ok(cur, kind):
            raise BadInput(self.path, name,
                           f"expected {_KIND_NAMES[kind]}, found {_json_type(cur)}")
        return cur

    def fields(self, obj, spec, where=""):
        for dotted, kind in spec:
            self.field(obj, dotted, kind, where)


# Per benchmark: fields of every point's params, fields of ok points, top-level fields.
TIME = [("time_ns.median", "num"), ("time_ns.p5", "num"), ("time_ns.p95", "num")]
MODEL_FIELDS = [("waves", "int"), ("gpu_occupancy", "num"), ("tail_occupancy", "num"),
                ("resident_wg", "int")]
SPECS = {
    "vecadd": dict(params=[("groups", "int")],
                   ok=TIME + [("metrics.gbps", "num"), ("metrics.copy_gbps", "num?")]),
    "occupancy": dict(params=[("wg_size", "int"), ("barrier", "bool"), ("slm_requested", "int"),
                              ("sg_size_requested", "int?")],
                      ok=[("measured.resident_wg", "int"), ("measured.whole_wg", "int"),
                          ("measured.occupied_wg", "int"), ("measured.definition", "str?"),
                          ("driver", "obj?"), ("driver.offered", "bool?"),
                          ("driver.resident_wg", "int?")]),
    "occupancy-waves": dict(params=[("groups", "int")], ok=TIME,
                            top=[("waves", "obj?"), ("waves.model_capacity_wg", "int?"),
                                 ("waves.steps_after", "list?")]),
    "sg-copy": dict(params=[("variant", "str"), ("bytes", "int"), ("sg_backend", "str"),
                            ("sg_width", "int?")],
                    ok=[("metrics.fraction_of_copy", "num"), ("metrics.gbps", "num")]),
    "transpose": dict(params=[("variant", "str"), ("n", "int"), ("sg_backend", "str"),
                              ("sg_width", "int?")],
                      ok=[("metrics.fraction_of_copy", "num"), ("metrics.gbps", "num")]),
    "atomics": dict(params=[("pattern", "str"), ("order", "str")],
                    ok=[("metrics.atomics_per_s", "num"), ("metrics.ns_per_atomic", "num"),
                        ("metrics.cycles_per_atomic", "num?")],
                    top=[("setup.clock.mhz", "num?")]),
    "latency": dict(params=[("memory", "str"), ("variant", "str"), ("working_set_bytes", "int")],
                    ok=[("metrics.ns_per_load", "num"), ("metrics.cycles_per_load", "num?")],
                    top=[("plateaus", "obj?"), ("plateaus.levels", "list?"),
                         ("plateaus.llc_bytes", "int?"), ("setup.clock.mhz", "num?"),
                         ("reference", "obj?"), ("reference.levels", "list?")]),
    "sg-info": dict(params=[("global", "int"), ("local", "int"), ("sg_backend", "str"),
                            ("sg_width", "int?")],
                    ok=[("mapping", "obj?"), ("mapping.sizes", "list?")]),
    "model": dict(params=[("groups", "int")],
                  ok=[("model.gpu_occupancy", "num"), ("model.tail_occupancy", "num"),
                      ("model.waves", "int")]),
}
LEVEL = [("label", "str"), ("first_bytes", "int"), ("last_bytes", "int"), ("ns", "num"),
         ("cycles", "num?")]
REFERENCE_LEVEL = [("guide_level", "str"), ("guide_cycles_min", "num?"),
                   ("guide_cycles_max", "num?"), ("measured_level", "str?"),
                   ("measured_cycles", "num?")]
# A `bench compare --json` result (not written yet): one verdict per matched point.
VERDICT = [("params", "obj"), ("verdict", "str"), ("ratio", "num?"), ("interval", "list?"),
           ("old", "obj?"), ("new", "obj?"), ("old.status", "str?"), ("new.status", "str?"),
           ("old.time_ns.median", "num?"), ("new.time_ns.median", "num?")]


class Doc:
    """One checked results document, or one device's run of a document of several."""

    def __init__(self, path, data, device_key=None):
        self.path = path
        self.name = os.path.basename(path) + (f" [{device_key}]" if device_key else "")
        self.device_key = device_key
        self.data = data
        self.benchmark = data["benchmark"]
        self.points = data.get("points", [])
        self.verdicts = data.get("verdicts")
        self.figures = None   # a suite entry's: the guide's table it is set beside
        self.about = None     # a suite entry's `about`

    @property
    def ok_points(self):
        return [p for p in self.points if p["status"] == "ok"]

    @property
    def bad_points(self):
        return [p for p in self.points if p["status"] != "ok"]

    def device_name(self):
        d = self.data.get("device")
        if isinstance(d, dict):
            return f"{d.get('name', '?')} ({d.get('platform', '?')})"
        return "no device"

    def volatile(self):
        return VOLATILE | VOLATILE_BY_BENCH.get(self.benchmark, set())


def _read(path):
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise BadInput(path, None, f"cannot read: {e.strerror}") from None
    if not raw.strip():
        raise BadInput(path, None, "empty file, not a results document")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadInput(path, None, f"not UTF-8 text (byte {e.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        end = len(text.rstrip())
        why = "truncated (the JSON ends early)" if e.pos >= end else "not JSON"
        raise BadInput(path, None, f"{why}: {e.msg} at line {e.lineno} column {e.colno}") from None


def _check_points(c, data, spec):
    points = c.field(data, "points", "list")
    for i, p in enumerate(points):
        where = f"points[{i}]"
        c.field(p, "params", "obj", where)
        status = c.field(p, "status", "str", where)
        if status not in STATUSES:
            raise BadInput(c.path, f"{where}.status",
                           f"'{status}' is not one of {', '.join(STATUSES)}")
        c.field(p, "reason", "str?", where)
        c.fields(p["params"], spec.get("params", []), f"{where}.params")
        if status == "ok":
            c.fields(p, spec.get("ok", []), where)
            model = c.field(p, "model", "obj?", where)
            if model is not None and model.get("known", True) and "waves" in model:
                c.fields(model, MODEL_FIELDS, f"{where}.model")


def _check_top(c, data, spec):
    c.fields(data, spec.get("top", []))
    levels = (data.get("plateaus") or {}).get("levels") or []
    for i, lv in enumerate(levels):
        c.fields(lv, LEVEL, f"plateaus.levels[{i}]")
    refs = (data.get("reference") or {}).get("levels") or []
    for i, lv in enumerate(refs):
        c.fields(lv, REFERENCE_LEVEL, f"reference.levels[{i}]")


def _check_verdicts(c, data):
    verdicts = c.field(data, "verdicts", "list")
    for i, v in enumerate(verdicts):
        c.fields(v, VERDICT, f"verdicts[{i}]")
        iv = v.get("interval")
        if iv is not None and (len(iv) != 2 or not all(_kind_ok(x, "num") for x in iv)):
            raise BadInput(c.path, f"verdicts[{i}].interval", "expected [low, high] ratios")


# The members a document of several devices states once for all its runs (bench/multi_doc.c).
SHARED = ("schema_version", "tool", "timestamp", "end_timestamp", "command", "host", "environment",
          "device_hierarchy", "benchmark", "settings")
RUN_OWN = ("device", "concurrent", "exit_code", "first_point", "points")


def _split(c, data, spec):
    """A document of several devices (`device_runs`) as one document per device and phase:
    the shared members, the run's own, its device's record and its points."""
    runs = c.field(data, "device_runs", "list")
    devices = {}
    for i, d in enumerate(c.field(data, "devices", "list")):
        devices[c.field(d, "label", "str", f"devices[{i}]")] = d
    points = data["points"]
    out = []
    for i, r in enumerate(runs):
        where = f"device_runs[{i}]"
        label = c.field(r, "device", "str", where)
        first = c.field(r, "first_point", "int", where)
        n = c.field(r, "points", "int", where)
        together = c.field(r, "concurrent", "bool", where)
        if label not in devices:
            raise BadInput(c.path, f"{where}.device", f"'{label}' is not one of devices[].label")
        if first < 0 or n < 0 or first + n > len(points):
            raise BadInput(c.path, f"{where}.first_point",
                           f"points {first}..{first + n - 1} lie outside points[0..{len(points) - 1}]")
        sub = {k: data[k] for k in SHARED if k in data}
        sub.update({k: v for k, v in r.items() if k not in RUN_OWN})
        sub["device"] = devices[label]
        sub["points"] = points[first:first + n]
        _check_top(c, sub, spec)
        key = label + (", at once" if together else "")
        out.append(Doc(c.path, sub, key))
    return out


# A suite's document (results/README.md, 'A suite's document'): members stated once for every
# entry, and a run's members that are the suite's, not the entry's document's.
SUITE_SHARED = ("schema_version", "tool", "timestamp", "end_timestamp", "command", "host",
                "environment", "device_hierarchy", "device", "model_device", "time_origin")
SUITE_RUN_OWN = ("entry", "bench", "args", "about", "exit_code", "first_point", "points", "figures")
# The members of a table of the guide's figures the report reads (results/suites/README.md).
FIGURES = [("title", "str"), ("section", "str"), ("device", "str"), ("kind", "str"),
           ("key.head", "str"), ("key.path", "str"), ("guide", "list"), ("ours", "list"),
           ("rows", "list"), ("from", "str?"), ("where", "obj?"), ("plot", "obj?"),
           ("plot.y", "str?"), ("plot.guide", "str?"), ("plot.ours.path", "str?"),
           ("plot.ours.label", "str?")]


def _check_figures(c, t, where):
    c.fields(t, FIGURES, where)
    for i, col in enumerate(t["guide"]):
        c.fields(col, [("name", "str"), ("head", "str")], f"{where}.guide[{i}]")
    for i, col in enumerate(t["ours"]):
        c.fields(col, [("head", "str"), ("path", "str"), ("scale", "num?")], f"{where}.ours[{i}]")
    for i, row in enumerate(t["rows"]):
        if not isinstance(row, dict) or "key" not in row:
            raise BadInput(c.path, f"{where}.rows[{i}].key", "missing")


def _suite_runs(c, data):
    """A suite's document as one document per entry: the suite's shared members, the run's own,
    its points; an entry that names the guide's figures carries that table."""
    points = c.field(data, "points", "list")
    out = []
    for i, r in enumerate(c.field(data, "runs", "list")):
        where = f"runs[{i}]"
        bench = c.field(r, "benchmark", "str", where)
        entry = c.field(r, "entry", "int", where)
        first = c.field(r, "first_point", "int?", where) or 0
        n = c.field(r, "points", "int?", where) or 0
        if first < 0 or n < 0 or first + n > len(points):
            raise BadInput(c.path, f"{where}.first_point",
                           f"points {first}..{first + n - 1} lie outside points[0..{len(points) - 1}]")
        sub = {k: data[k] for k in SUITE_SHARED if k in data}
        sub.update({k: v for k, v in r.items() if k not in SUITE_RUN_OWN})
        sub["points"] = points[first:first + n]
        spec = SPECS.get(bench, {})
        _check_points(c, sub, spec)
        _check_top(c, sub, spec)
        doc = Doc(c.path, sub, f"entry {entry}")
        if r.get("figures") is not None:
            c.field(r, "figures", "obj", where)
            _check_figures(c, r["figures"], f"{where}.figures")
            doc.figures = r["figures"]
        doc.about = r.get("about")
        out.append(doc)
    return out


def load_all(path):
    """Reads and checks one document: a list of one Doc, or one per device's run where the
    document holds several devices, or one per entry of a suite's document; raises BadInput."""
    data = _read(path)
    if isinstance(data, dict) and "suite" in data and "runs" in data and "benchmark" not in data:
        c = Checker(path)
        version = c.field(data, "schema_version", "int")
        if version != SCHEMA_VERSION:
            raise BadInput(path, "schema_version",
                           f"{version} is not supported (this report reads {SCHEMA_VERSION})")
        return _suite_runs(c, data)
    doc = load(path)
    if "device_runs" not in doc.data:
        return [doc]
    return _split(Checker(path), doc.data, SPECS.get(doc.benchmark, {}))


def load(path):
    """Reads and checks one document; raises BadInput."""
    data = _read(path)
    c = Checker(path)
    if not isinstance(data, dict):
        raise BadInput(path, None, f"expected a JSON object, found {_json_type(data)}")
    version = c.field(data, "schema_version", "int")
    if version != SCHEMA_VERSION:
        raise BadInput(path, "schema_version",
                       f"{version} is not supported (this report reads {SCHEMA_VERSION})")
    bench = c.field(data, "benchmark", "str")
    c.field(data, "device", "obj?")
    c.field(data, "command", "list?")
    c.field(data, "timestamp", "str?")
    if "verdicts" in data:
        _check_verdicts(c, data)
    if "points" in data or "verdicts" not in data:
        spec = SPECS.get(bench, {})
        _check_points(c, data, spec)
        _check_top(c, data, spec)
    return Doc(path, data)


def point_key(point, volatile):
    """The point's identity across runs: its params without the volatile ones."""
    return json.dumps({k: v for k, v in point["params"].items() if k not in volatile},
                      sort_keys=True)


def varying_params(points, volatile):
    """Names of the scalar params that differ between the points, in first-seen order."""
    seen = {}
    for p in points:
        for k, v in p["params"].items():
            if k in volatile or isinstance(v, (dict, list)):
                continue
            seen.setdefault(k, set()).add(json.dumps(v))
    return [k for k, vals in seen.items() if len(vals) > 1]


def label_params(groups, volatile):
    """The params that tell the points of each group (a document) apart, less those that follow
    from the ones before (vecadd's `n` from `groups`, atomics' `order_used` from `order`)."""
    names = []
    for points in groups:
        names += [k for k in varying_params(points, volatile) if k not in names]
    points = [p for g in groups for p in g]
    kept = []
    for k in names:
        seen = {}
        determined = True
        for p in points:
            pre = json.dumps([p["params"].get(n) for n in kept])
            val = json.dumps(p["params"].get(k))
            if seen.setdefault(pre, val) != val:
                determined = False
                break
        if not determined or not kept:
            kept.append(k)
    return kept


def point_label(point, names):
    """`groups=7 wg_size=256`: the point's values of the given params."""
    parts = [f"{k}={point['params'].get(k)}" for k in names if k in point["params"]]
    return " ".join(parts) or "the only point"
