"""JSON files read strictly, every fault named as bench's C readers name it (host/jsonfile.c):
no NaN or Infinity (named by the member that holds it), no key twice in one object, valid UTF-8,
at most MAX_DEPTH levels of nesting, nothing after the value, a truncated file told apart from
trailing data, no integer beyond 64 bits and no string holding U+0000 or a lone surrogate (which
jansson refuses)."""
import json
import math

MAX_DEPTH = 64
INT_RANGE = (-(1 << 63), (1 << 63) - 1)


class JsonError(Exception):
    """What is wrong with a file's JSON, in one line."""


class _NaN:
    """A bare NaN, Infinity or -Infinity, kept to name the member that holds it."""


def _no_twice(pairs):
    seen = {}
    for k, v in pairs:
        if k in seen:
            raise JsonError(f"the key \"{k}\" twice in one object: each key once")
        seen[k] = v
    return seen


def _too_deep(text):
    """The line where nesting first passes MAX_DEPTH (brackets outside strings), 0: it does not."""
    depth, line, in_str, i = 0, 1, False, 0
    while i < len(text):
        c = text[i]
        if c == "\n":
            line += 1
        if in_str:
            if c == "\\":
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return line
        elif c in "]}":
            depth -= 1
        i += 1
    return 0


def _bad_value(v, path=""):
    """(member, why) of the first value jansson would not read, or None."""
    if isinstance(v, _NaN):
        return path or "(top level)", "NaN or Infinity, which JSON does not allow: a number is required"
    if isinstance(v, float) and not math.isfinite(v):
        return path or "(top level)", "a number beyond the range of a double"
    if isinstance(v, int) and not isinstance(v, bool) and not INT_RANGE[0] <= v <= INT_RANGE[1]:
        return path or "(top level)", "an integer beyond 64 bits"
    if isinstance(v, str) and any(c == "\0" or 0xD800 <= ord(c) <= 0xDFFF for c in v):
        return path or "(top level)", "a string holding U+0000 or a lone surrogate"
    items = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else ()
    for k, x in items:
        sub = f"{path}[{k}]" if isinstance(k, int) else (f"{path}.{k}" if path else k)
        found = _bad_value(x, sub)
        if found:
            return found
    return None


def parse(raw):
    """The JSON value of raw (bytes); JsonError naming what is wrong."""
    if not raw.strip():
        raise JsonError("empty file: no JSON in it")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        raise JsonError(f"not UTF-8 text at line {line} (byte 0x{raw[e.start]:02x})") from None
    line = _too_deep(text)
    if line:
        raise JsonError(f"nested deeper than {MAX_DEPTH} levels at line {line}: not a document "
                        "bench reads")
    try:
        value = json.loads(text, object_pairs_hook=_no_twice, parse_constant=lambda _: _NaN())
    except json.JSONDecodeError as e:
        where = f"at line {e.lineno}, column {e.colno}"
        if e.msg == "Extra data":
            raise JsonError(f"trailing data after the JSON value {where}: one document holds "
                            "one value") from None
        if e.pos >= len(text.rstrip()) or (e.msg.startswith("Unterminated string")
                                           and '"' not in text[e.pos + 1:]):
            raise JsonError(f"truncated JSON {where}: the document ends early ({e.msg})") from None
        raise JsonError(f"not JSON {where}: {e.msg}") from None
    bad = _bad_value(value)
    if bad:
        raise JsonError(f"{bad[0]}: {bad[1]}")
    return value


def load(path):
    """The JSON value of the file at path; OSError where it cannot be read, else JsonError."""
    with open(path, "rb") as f:
        return parse(f.read())
