"""The one judgement of a readable document, shared with bench compare, baseline and export.

A results document is held to results/schema/input.schema.json (python3-jsonschema), then to
the rules a schema cannot state; bench/tools/compare/doc.c applies the same rules in C, and
tests/schema/readers.py gives both the same documents. A `bench compare --json` document (kind
compare) is held to results/schema/compare.schema.json. A valid document the report cannot read
as a whole, an interrupted or an empty one, is refused unless --allow-partial.
"""
import json
import math
import os

# The schemas: in the source tree (scripts/benchreport -> results/schema), and installed
# (<datadir>/gpu-occupancy-bench/python/benchreport -> <datadir>/gpu-occupancy-bench/schema:
# dist/meson.build).
SCHEMA_DIRS = (os.path.join(os.path.dirname(__file__), "..", "..", "results", "schema"),
               os.path.join(os.path.dirname(__file__), "..", "..", "schema"),
               os.path.join(os.path.dirname(__file__), "..", "results", "schema"))
# params members left out where an attempt's point is matched (bench/tools/compare/doc.c).
IGNORED_PARAMS = ("seed", "spin", "sg_size_compiled", "sg_size_kernel", "nv_registers",
                  "local_mem_kernel")
_validators = {}


class Invalid(Exception):
    """A document that breaks a rule: the member (dotted, with [i]) and what is wrong."""

    def __init__(self, field, msg):
        super().__init__(msg)
        self.field, self.msg = field, msg


def missing_module():
    """The name of the Debian package the judgement needs where it is missing, else None."""
    try:
        from jsonschema import Draft202012Validator  # noqa: F401
    except ImportError:
        return "python3-jsonschema"
    return None


def _validator(name):
    if name not in _validators:
        from jsonschema import Draft202012Validator
        for d in SCHEMA_DIRS:
            path = os.path.join(d, name)
            if os.path.exists(path):
                with open(path) as f:
                    _validators[name] = Draft202012Validator(json.load(f))
                break
        else:
            raise RuntimeError(f"{name} is in none of {', '.join(map(os.path.normpath, SCHEMA_DIRS))}: "
                               "bench is not installed whole")
    return _validators[name]


def dotted(path):
    """['points', 3, 'time_ns'] as points[3].time_ns."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


_TYPE_WORDS = {"object": "an object", "array": "an array", "string": "a string",
               "integer": "an integer", "number": "a number", "boolean": "true or false",
               "null": "null"}


def kind_words(v):
    """What kind of JSON value v is, in words: "an integer", "null"."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true or false"
    return {int: "an integer", float: "a number", str: "a string", list: "an array",
            dict: "an object"}.get(type(v), type(v).__name__)


def _words(e):
    """One schema error as (member, what is wrong), in the words of the C readers."""
    field = dotted(e.absolute_path)
    v, want = e.instance, e.validator_value
    if e.validator == "required":
        name = e.message.split("'")[1] if "'" in e.message else "?"
        return (f"{field}.{name}" if field else name), "missing"
    if e.validator == "type":
        kinds = want if isinstance(want, list) else [want]
        return field, f"is {kind_words(v)}, expected {' or '.join(_TYPE_WORDS[k] for k in kinds)}"
    if e.validator in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
        return field, f"{v}: out of range ({e.validator} {want})"
    if e.validator == "minItems":
        return field, f"holds {len(v)}: at least {want}"
    if e.validator == "maxItems":
        return field, f"holds {len(v)}: at most {want}"
    if e.validator in ("enum", "const"):
        allowed = ", ".join(json.dumps(x) for x in (want if e.validator == "enum" else [want]))
        return field, f"{json.dumps(v)} is not one of {allowed}"
    if e.validator == "not" and isinstance(want, dict) and "required" in want:
        return f"{field}.{want['required'][0]}", "not allowed here"
    return field, e.message


def check_schema(name, data):
    """Holds data to results/schema/NAME; Invalid naming the member of the most relevant error."""
    from jsonschema.exceptions import best_match
    err = best_match(_validator(name).iter_errors(data))
    if err is not None:
        raise Invalid(*_words(err))


def _median(xs):
    """host/stats.c's median: the 0.5 quantile interpolated between the middle two."""
    s = sorted(xs)
    pos = 0.5 * (len(s) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def _times(p, at):
    t = p.get("time_ns")
    if p.get("status") != "ok" or not isinstance(t, dict):
        return
    n, samples = t["n"], t["samples"]
    if n != len(samples):
        raise Invalid(f"{at}.time_ns.n", f"{n}, but time_ns.samples holds {len(samples)} "
                      "(a truncated or edited document?)")
    m = _median(samples)
    if abs(m - t["median"]) > 1e-9 * t["median"]:
        raise Invalid(f"{at}.time_ns.median", f"{t['median']!r}, but the median of "
                      f"time_ns.samples is {m!r}")


def _key(params):
    return json.dumps({k: v for k, v in params.items() if k not in IGNORED_PARAMS},
                      sort_keys=True)


def _spans(data):
    """device_runs and runs: each within points, a run's device one of devices[].label."""
    labels = {d["label"] for d in data.get("devices") or []}
    n = len(data["points"])
    for key in ("device_runs", "runs"):
        for i, r in enumerate(data.get(key) or []):
            first, count = r["first_point"], r["points"]
            if first + count > n:
                raise Invalid(f"{key}[{i}].first_point", f"points {first}..{first + count - 1} lie "
                              f"outside points[0..{n - 1}]")
            if key == "device_runs" and r["device"] not in labels:
                raise Invalid(f"{key}[{i}].device", f"'{r['device']}' is not one of devices[].label")


def check_rules(data):
    """The rules beyond the schema (input.schema.json's description); Invalid naming the member."""
    _spans(data)
    for i, p in enumerate(data["points"]):
        _times(p, f"points[{i}]")
        for k, a in enumerate(p.get("attempts") or []):
            at = f"points[{i}].attempts[{k}]"
            _times(a, at)
            if _key(a["params"]) != _key(p["params"]) or a.get("benchmark", p.get("benchmark")) \
                    != p.get("benchmark"):
                raise Invalid(at, "params differ from its point's: an attempt measures the same "
                              "point")


def check_whole(data, allow_partial):
    """A valid document read as a whole: Invalid where it was interrupted, or holds no point,
    unless allow_partial."""
    if allow_partial:
        return
    intr = data.get("interrupted")
    if intr is not None:
        how = ""
        for unit in ("points", "entries", "runs"):
            done, planned = intr.get(f"{unit}_done"), intr.get(f"{unit}_planned")
            if isinstance(done, int) and isinstance(planned, int):
                how = f" after {done} of {planned} {unit}"
                break
        raise Invalid("interrupted", f"the run was cut short (by {intr.get('by', '?')}{how}): a "
                      "partial document; give --allow-partial to read what it holds")
    if not data["points"]:
        raise Invalid("points", "empty: the document holds no point; give --allow-partial to "
                      "read it anyway")


def check_results(data, allow_partial=False):
    """The whole judgement of a results document: schema, rules, then whether it is whole."""
    check_schema("input.schema.json", data)
    check_rules(data)
    check_whole(data, allow_partial)
