#!/usr/bin/env python3
"""CI systems' own channels, held to their formats: GitHub Actions' annotations (workflow
commands `::error file=F,line=L,title=T::MESSAGE`, their escapes), its step summary (Markdown
appended to $GITHUB_STEP_SUMMARY, what was there kept), and GitLab's metrics report (OpenMetrics
text lines `name{label="value"} number`), from bench compare and bench validate.

usage: channels_test.py BENCH CASE [-- DEVICE ARGS]
  compare   two documents written here, one point 10 % slower, one 10 % faster: an ::error
            for the slower, a ::notice for the faster, none for the others; the summary is the
            --markdown text appended; the metrics parse, their counts are the compare
            document's, each point's ratio and median there; --github-summary without
            GITHUB_STEP_SUMMARY is exit 2 and writes nothing
  validate  two API checks on the device, the baseline expecting one to fail: one ::error at
            the baseline's line; the summary counts in deqp-runner's names; the metrics count
            each status and each check's seconds
Exit 0 when every check passed.
"""
import json
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402
from synth import doc, sweep  # noqa: E402

BENCH, CASE = sys.argv[1], sys.argv[2]
DEVICE = bt.after_dashes(sys.argv[3:])

# A workflow command: ::LEVEL[ file=F[,line=N][,title=T]]::MESSAGE; a property's value holds no
# raw ':' or ',' (%3A, %2C), and every '%' of a value or the message starts an escape.
COMMAND = re.compile(r"^::(error|warning|notice)(?: (file=[^,:]+(?:,line=[0-9]+)?(?:,title=[^,:]*)?"
                     r"|title=[^,:]*))?::(.+)$")
ESCAPE = re.compile(r"%(?!25|0A|0D|3A|2C)")
# An OpenMetrics sample: a name, at most one label here, a number.
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{([a-zA-Z_][a-zA-Z0-9_]*)="((?:\\.|[^"\\])*)"\})? '
                    r'(-?[0-9.]+(?:e[+-]?[0-9]+)?|NaN|[+-]Inf)$')


def annotations(out):
    lines = [ln for ln in out.splitlines() if ln.startswith("::")]
    for ln in lines:
        m = COMMAND.match(ln)
        check(m and not ESCAPE.search(ln), f"not a well-formed workflow command: {ln!r}")
    return [COMMAND.match(ln) for ln in lines if COMMAND.match(ln)]


def metrics(text):
    """{(name, label value): number} of an OpenMetrics text; every line a sample."""
    out = {}
    for ln in text.splitlines():
        m = SAMPLE.match(ln)
        check(m is not None, f"not an OpenMetrics sample: {ln!r}")
        if m:
            out[(m.group(1), m.group(3))] = float(m.group(4))
    return out


def case_compare():
    base = doc(sweep(4, cv=0.3))
    new = doc(sweep(4, seed=1, cv=0.3, scale={2: 1.10, 3: 0.90}))
    with bt.tmpdir() as d:
        b, n = bt.write_doc(os.path.join(d, "base.json"), base), bt.write_doc(os.path.join(d, "new.json"), new)
        summ, met, md, cj = (os.path.join(d, f) for f in ("summary.md", "m.txt", "c.md", "c.json"))
        Path(summ).write_text("an earlier step's summary\n")
        r = bt.run([BENCH, "compare", b, n, "--github-annotations", "--github-summary", "--metrics", met,
                    "--markdown", md, "--json", cj, "--quiet"], env={"GITHUB_STEP_SUMMARY": summ})
        check(r.code == 1, f"compare: one regressed point: exit {r.code}", r)
        ann = annotations(r.out)
        levels = sorted((m.group(1), "groups=2" in m.group(3), "groups=3" in m.group(3)) for m in ann)
        check(levels == [("error", True, False), ("notice", False, True)],
              f"compare: an ::error for groups 2 and a ::notice for groups 3: {r.out}", r)
        check(all(f"file={n}" in m.group(0) and "title=bench compare%3A " in m.group(0) for m in ann),
              f"compare: each annotation names NEW and its verdict: {r.out}")
        text = Path(summ).read_text()
        check(text == "an earlier step's summary\n" + Path(md).read_text(),
              "compare: the step summary is the Markdown summary appended")
        j = bt.load_doc(cj)
        got = metrics(Path(met).read_text())
        for v, k in j["counts"].items():
            check(got.get(("bench_compare_points", v)) == k, f"compare: metrics count {v}: {k} wanted")
        ratios = [v for (name, _), v in got.items() if name == "bench_ratio"]
        check(sorted(round(x, 6) for x in ratios) == sorted(round(p["ratio"], 6) for p in j["points"]),
              f"compare: a ratio per point, as the document's: {ratios}")
        check(got.get(("bench_compare_exit_code", None)) == 1, "compare: the exit code as a metric")
        os.unlink(met)
        env = {k: v for k, v in os.environ.items() if k != "GITHUB_STEP_SUMMARY"}
        r = bt.run([BENCH, "compare", b, n, "--github-summary", "--metrics", met], env=env)
        check(r.code == 2 and "GITHUB_STEP_SUMMARY is not set" in r.err and not os.path.exists(met),
              f"compare: --github-summary outside a workflow: exit {r.code}, nothing written", r)


def case_validate():
    with bt.tmpdir() as d:
        base = os.path.join(d, "fails.csv")
        Path(base).write_text("# a board's expected failures\napi/arg-index,Fail\n")
        summ, met = os.path.join(d, "summary.md"), os.path.join(d, "m.txt")
        r = bt.run([BENCH, "validate"] + DEVICE + ["--filter", "api/arg-*", "--baseline", base,
                                                    "--github-annotations", "--github-summary",
                                                    "--metrics", met, "--quiet"],
                   env={"GITHUB_STEP_SUMMARY": summ})
        check(r.code == 1, f"validate: one improvement, exit 1: exit {r.code}", r)
        ann = annotations(r.out)
        check(len(ann) == 1 and ann[0].group(1) == "error" and f"file={base},line=2," in ann[0].group(0)
              and "UnexpectedImprovement(Pass)" in ann[0].group(0) and "api/arg-index" in ann[0].group(3),
              f"validate: one ::error at the baseline's line 2: {r.out}", r)
        text = Path(summ).read_text() if os.path.exists(summ) else ""
        check(text.startswith("### bench validate: unexpected results") and
              "| UnexpectedImprovement(Pass) | 1 |" in text and "`api/arg-index`" in text,
              f"validate: the step summary: {text!r}")
        got = metrics(Path(met).read_text())
        check(got.get(("bench_validate_checks", "UnexpectedImprovement(Pass)")) == 1 and
              got.get(("bench_validate_unexpected", None)) == 1 and
              ("bench_validate_check_seconds", "api/arg-index") in got,
              f"validate: the metrics: {got}")


if __name__ == "__main__":
    {"compare": case_compare, "validate": case_validate}[CASE]()
    sys.exit(bt.verdict())
