"""Reading results documents, judged as bench compare and export judge them (valid.py).

A document is checked whole before anything is drawn: a missing, truncated or non-JSON file, or
one that breaks results/schema/input.schema.json or its rules, is a BadInput naming the file and
the member (`points[3].time_ns.median`); so is an interrupted or empty one without
--allow-partial. A valid document is drawn: a point that lacks a figure its chart draws (a
document written by hand) is listed as not drawn, with the member it lacks, never refused. A
document of several devices, and a suite's document, are drawn one run at a time.
"""
import json
import os

from . import jsonfile, valid

# Parameters that differ between runs of the same configuration: left out when points of two
# runs are matched (as bench compare does: bench/tools/compare/doc.c), and of labels.
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


_json_type = valid.kind_words


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

    def problem(self, obj, spec, where=""):
        """The first field of spec that obj lacks or holds of the wrong kind, in words; None."""
        try:
            self.fields(obj, spec, where)
        except BadInput as e:
            return str(e).split(": ", 1)[1] if ": " in str(e) else str(e)
        return None


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

class Doc:
    """One judged results document, or one run of a document of several devices or a suite's.

    points: the points drawn (ok points with every figure their chart draws, failed, skipped,
    suspect);
    undrawn: (point, why) of the ok points that lack one; caveats: what else was not drawn, and
    whether the run was cut short."""

    def __init__(self, path, data, device_key=None, benchmark=None):
        self.path = path
        self.name = os.path.basename(path) + (f" [{device_key}]" if device_key else "")
        self.device_key = device_key
        self.data = data
        self.benchmark = benchmark or data.get("benchmark") or "results"
        self.verdicts = None
        self.caveats = []
        intr = data.get("interrupted")
        if isinstance(intr, dict):
            self.caveats.append(f"a partial document (--allow-partial): the run was cut short by "
                                f"{intr.get('by', '?')}")
        self.points, self.undrawn = _drawable(path, _trusted(data),
                                              SPECS.get(self.benchmark, {}))
        self.caveats += _check_top(Checker(path), data, SPECS.get(self.benchmark, {}))
        # a suite entry's: its `about`, and the guide's figures it is set beside (checked)
        self.about = data.get("about") if isinstance(data.get("about"), str) else None
        self.figures = data.get("figures")

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


class CompareDoc(Doc):
    """A `bench compare --json` document: its verdicts, drawn as they are."""

    def __init__(self, path, data):
        super().__init__(path, {**data, "points": [], "device": (data["new"] or {}).get("device")},
                         benchmark="compare")
        self.verdicts = data["points"]


def _read(path):
    try:
        return jsonfile.load(path)
    except OSError as e:
        raise BadInput(path, None, f"cannot read: {e.strerror}") from None
    except jsonfile.JsonError as e:
        raise BadInput(path, None, str(e)) from None


def _trusted(data):
    """The document's points, each whose times are not to be believed made `suspect` (as bench
    compare judges them): an ok point whose `clock` says the host's witness disagreed, or a timed
    point of a session whose `clock_check` failed. Its figures are then never drawn as measured:
    a suspect point is marked as failed and skipped ones are, with its reason in the notes."""
    check = data.get("clock_check")
    bad_session = isinstance(check, dict) and check.get("ok") is False
    out = []
    for p in data.get("points", []):
        clock = p.get("clock") if isinstance(p.get("clock"), dict) else {}
        why = None
        if p.get("status") == "ok" and clock.get("agree") is False:
            why = ("clock.agree false: "
                   + (clock.get("finding") or "the host's witness disagreed"))
        elif p.get("status") == "ok" and bad_session and "time_ns" in p:
            why = "clock_check failed: " + (check.get("reason") or "the clock ran at another rate")
        out.append({**p, "status": "suspect", "reason": why} if why else p)
    return out


def _drawable(path, points, spec):
    """(the points drawn, [(point, why)] of the ok points that lack a figure their chart draws)."""
    c = Checker(path)
    drawn, undrawn = [], []
    for i, p in enumerate(points):
        where = f"points[{i}]"
        why = c.problem(p["params"], spec.get("params", []), f"{where}.params")
        if p["status"] == "ok" and not why:
            why = c.problem(p, spec.get("ok", []), where)
            model = p.get("model")
            if not why and isinstance(model, dict) and model.get("known", True) and "waves" in model:
                why = c.problem(model, MODEL_FIELDS, f"{where}.model")
        if why:   # an ok point without a figure, any point without the params its chart sorts by
            undrawn.append((p, why))
        else:
            drawn.append(p)
    return drawn, undrawn


def _check_top(c, data, spec):
    """What of the top-level members a chart draws is malformed: each dropped, named."""
    out = []
    for dotted, kind in spec.get("top", []):
        why = c.problem(data, [(dotted, kind)])
        if why:
            data.pop(dotted.split(".")[0], None)
            out.append(f"{dotted.split('.')[0]} not drawn: {why}")
    for key, sub, fields in (("plateaus", "levels", LEVEL), ("reference", "levels", REFERENCE_LEVEL)):
        levels = (data.get(key) or {}).get(sub) if isinstance(data.get(key), dict) else None
        for i, lv in enumerate(levels if isinstance(levels, list) else []):
            why = c.problem(lv, fields, f"{key}.{sub}[{i}]") if isinstance(lv, dict) else \
                f"{key}.{sub}[{i}]: expected an object"
            if why:
                data.pop(key, None)
                out.append(f"{key} not drawn: {why}")
                break
    return out


# The members a document of several devices states once for all its runs
# (bench/harness/multi_doc.c).
SHARED = ("schema_version", "tool", "timestamp", "end_timestamp", "command", "host", "environment",
          "device_hierarchy", "benchmark", "settings", "interrupted")
RUN_OWN = ("device", "concurrent", "exit_code", "first_point", "points")
# A suite's document (bench/tools/suite/suite.c): the members of each entry's run.
SUITE_OWN = ("entry", "bench", "benchmark", "args", "exit_code", "first_point", "points")
# The members of a table of the guide's figures the report reads (results/suites/README.md).
FIGURES = [("id", "str"), ("title", "str"), ("section", "str"), ("device", "str"), ("kind", "str"),
           ("key.head", "str"), ("key.path", "str"), ("guide", "list"), ("ours", "list"),
           ("rows", "list"), ("from", "str?"), ("where", "obj?"), ("plot", "obj?"),
           ("plot.y", "str?"), ("plot.guide", "str?"), ("plot.ours.path", "str?"),
           ("plot.ours.label", "str?")]


def _check_figures(c, t, where):
    """A suite entry's table of the guide's figures: every member the report reads, of its kind."""
    c.fields(t, FIGURES, where)
    for i, col in enumerate(t["guide"]):
        c.fields(col, [("name", "str"), ("head", "str")], f"{where}.guide[{i}]")
    for i, col in enumerate(t["ours"]):
        c.fields(col, [("head", "str"), ("path", "str"), ("scale", "num?")], f"{where}.ours[{i}]")
    for i, row in enumerate(t["rows"]):
        if not isinstance(row, dict) or "key" not in row:
            raise BadInput(c.path, f"{where}.rows[{i}].key", "missing")


def _runs(data, key, label_of):
    """The runs of data[key] as (label, sub-document, benchmark); None where they do not fit the
    points (a document written by hand), which is then drawn as one."""
    runs, points, out = data.get(key), data["points"], []
    if not isinstance(runs, list):
        return None
    for r in runs:
        first, n = r.get("first_point") if isinstance(r, dict) else None, \
            r.get("points") if isinstance(r, dict) else None
        if not (isinstance(first, int) and isinstance(n, int) and 0 <= first
                and first + n <= len(points)):
            return None
        got = label_of(r)
        if got is None:
            return None
        label, bench, sub = got
        sub.update({k: data[k] for k in SHARED if k in data})
        sub["points"] = points[first:first + n]
        out.append((label, sub, bench))
    return out


def _device_run(data):
    devices = {d.get("label"): d for d in data.get("devices") or [] if isinstance(d, dict)}

    def label_of(r):
        label = r.get("device")
        if label not in devices:
            return None
        sub = {k: v for k, v in r.items() if k not in RUN_OWN}
        sub["device"] = devices[label]
        return label + (", at once" if r.get("concurrent") else ""), data.get("benchmark"), sub
    return label_of


def _suite_run(data):
    def label_of(r):
        bench = r.get("benchmark")
        if not isinstance(bench, str):
            return None
        sub = {k: v for k, v in r.items() if k not in SUITE_OWN}
        sub["device"], sub["benchmark"] = data.get("device"), bench
        return f"entry {r.get('entry', '?')}", bench, sub
    return label_of


def load_all(path, allow_partial=False):
    """Reads and judges one document: a list of one Doc, or one per run of a document of several
    devices or a suite's; raises BadInput."""
    data = _read(path)
    try:
        if isinstance(data, dict) and data.get("kind") == "compare":
            valid.check_schema("compare.schema.json", data)
            return [CompareDoc(path, data)]
        if not isinstance(data, dict):
            raise valid.Invalid(None, f"expected a JSON object, found {_json_type(data)}")
        valid.check_results(data, allow_partial)
    except valid.Invalid as e:
        raise BadInput(path, e.field, e.msg) from None
    runs = None
    if "device_runs" in data:
        runs = _runs(data, "device_runs", _device_run(data))
    elif "benchmark" not in data:
        for i, r in enumerate(data.get("runs") or []):
            if isinstance(r, dict) and r.get("figures") is not None:
                if not isinstance(r["figures"], dict):
                    raise BadInput(path, f"runs[{i}].figures", "expected an object")
                _check_figures(Checker(path), r["figures"], f"runs[{i}].figures")
        runs = _runs(data, "runs", _suite_run(data))
    if not runs:
        return [Doc(path, data)]
    return [Doc(path, sub, label, bench) for label, sub, bench in runs]


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
