#!/usr/bin/env python3
"""Tests of the guide suite and the guide's published figures (results/suites/guide.json,
guide-figures.json).

usage: guide_test.py BENCH CASE [-- DEVICE ARGS]
CASE:
  figures  the figures file as built in: every table an entry of the guide suite names exists
           and is its benchmark's; the published cells agree with their table's rule except the
           rows marked as errata; bad suites (a missing table, another benchmark's, a missing or
           malformed figures file) exit 2 naming the entry and what is wrong (cli)
  beside   a small suite of the entries with figures: the summary's figures column (the guide's
           cells, a bar, this run's, the guide's device and this run's named), and bench report's
           before-and-after sections of those entries (a table and a chart each) (cpu)
  guide    the whole guide suite, in the guide's shapes (its sizes, groups and work-groups) with
           one timed launch a point and no warm-up (each point still launched, validated and
           timed once: the checks below are about the run, not its figures): exit 0, every
           entry run but the multi-stack ones, skipped (77)
           saying they need an Intel GPU with stacks; every sub-groups entry's points ok or
           skipped with the layer's reason; the figures printed after the summary; its wall time
           printed (cpu)
Exit 0 when every check passed.
"""
import json
import os
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402

BENCH = sys.argv[1]
CASE = sys.argv[2]
REST = sys.argv[3:]
DEVICE = bt.after_dashes(REST)
SUITES = Path(__file__).resolve().parents[2] / "results" / "suites"
# The guide suite's entries ask for 20 timed launches a point after 2 untimed; the suite's
# shared options apply over them. The test is about the run (every point validated, the
# summary, the figures and the report), so one timed launch and no warm-up; and the last-level
# cache taken as 1 MiB (--llc), so that the untimed walks that settle the latency entry's
# caches before each chase stay short: PoCL can declare a cache of 300 MiB, and each chain up
# to twice that was walked twice (49.6 of the suite's 87.6 s on PoCL alone; 10.0 of 45.0 s).
# Every chain is still built at the guide's sizes and checked whole.
GUIDE_REPS = ["--reps", "1", "--warmup", "0", "--llc", "1Mi"]
WITH_FIGURES = {"vectoradd1-tgl", "vectoradd2-tgl", "vec-add-gen9", "barrier-tgl", "latency-max"}


def run(*args, timeout=1800):
    return bt.run([BENCH, *args], timeout=timeout)


def load(name):
    with open(SUITES / name) as f:
        return json.load(f)


def pct(s):
    """The last percent of a published cell ('16/672 = 2.4%', '100% then 4.7%')."""
    return float(re.findall(r"([0-9.]+)%", s)[-1])


def near(published, x, ways):
    """Whether a published percent is x written one of the table's ways (round to a whole
    percent, round or truncate to a tenth)."""
    forms = {"whole": round(x), "round": round(x, 1), "trunc": int(x * 10) / 10}
    return any(abs(published - forms[w]) < 0.001 for w in ways)


def rule_vectoradd2(row):
    """threads = 16 G of 672; past 672: '100% then' the tail's share, rounded to a tenth."""
    g = row["key"]
    th = 16 * g
    share = 100 * (th - 672 if th > 672 else th) / 672
    return (row["work_items"] == 512 * g and row["threads"] == th and
            ("then" in row["occupancy"]) == (th > 672) and near(pct(row["occupancy"]), share, ["round"]))


def rule_gen9(row):
    """threads = 8 G; the Xe-core's 56 and the GPU's 168, truncated to a tenth; past 168 '100%
    then' the tail's share, as the TGL table writes it."""
    g = row["key"]
    th = 8 * g
    return (row["work_items"] == 256 * g and row["threads"] == th and
            near(pct(row["xe_core_occupancy"]), min(100.0, 100 * th / 56), ["trunc"]) and
            ("then" in row["gpu_occupancy"]) == (th > 168) and
            near(pct(row["gpu_occupancy"]), 100 * (th - 168 if th > 168 else th) / 168, ["trunc"]))


def rule_barrier(row):
    """16 R threads of an Xe-core's 112; 112 // 16 R work-groups fit; R > 4 above 512."""
    r = row["key"]
    if r > 4:
        return row["occupancy"] == "Fail to launch" and row["wg_per_cu"] is None
    per_cu = 112 // (16 * r)
    return (row["wg_per_cu"] == per_cu and
            near(pct(row["utilization"]), 100 * 16 * r / 112, ["whole", "round"]) and
            near(pct(row["occupancy"]), 100 * 16 * r * per_cu / 112, ["whole"]))


RULES = {"vectoradd2-tgl": rule_vectoradd2, "vec-add-gen9": rule_gen9, "barrier-tgl": rule_barrier}


def case_figures():
    figs = load("guide-figures.json")
    tables = {t["id"]: t for t in figs["tables"]}
    guide = load("guide.json")
    named = {e["figures"]: e for e in guide["entries"] if "figures" in e}
    check(set(named) == WITH_FIGURES and set(tables) == WITH_FIGURES,
          f"the guide suite names every table once: {sorted(named)} of {sorted(tables)}")
    for tid, e in named.items():
        t = tables.get(tid, {})
        check(t.get("bench") == e["bench"], f"table {tid}: bench {t.get('bench')}, its entry runs {e['bench']}")
        check(all(t.get(k) for k in ("title", "section", "device", "kind")) and
              re.match(r"(TGL|Gen9|Intel Data Center GPU Max)", t.get("device", "")),
              f"table {tid}: its section and the device the guide measured")
        rule = RULES.get(tid)
        for row in t.get("rows", []) if rule else []:
            holds = rule(row)
            check(holds != bool(row.get("erratum")),
                  f"table {tid} row {row['key']}: the rule {'holds' if holds else 'fails'}, "
                  f"{'an erratum' if row.get('erratum') else 'no erratum'}")
    r = run("suite", "guide", "--list")
    check(r.code == 0 and r.out.count("beside the guide's figures:") == len(WITH_FIGURES),
          "bench suite --list guide: each entry with figures says which", r)
    with bt.tmpdir() as d:
        bad = dict(tables["barrier-tgl"])
        bad["ours"] = [{"head": "x", "path": 5}]
        badfile = bt.write_doc(os.path.join(d, "figs.json"), {"tables": [bad]})
        cases = {
            "no-table": ({"entries": [{"bench": "vecadd", "figures": "nope"}]},
                         "entries[0].figures: figures file guide-figures.json has no table 'nope'"),
            "other-bench": ({"entries": [{"bench": "vecadd", "figures": "barrier-tgl"}]},
                            "entries[0].figures: table 'barrier-tgl' is bench barrier's, the entry runs vecadd"),
            "no-file": ({"figures": os.path.join(d, "none.json"),
                         "entries": [{"bench": "barrier", "figures": "barrier-tgl"}]}, "none.json: unable to open"),
            "not-built-in": ({"figures": "other.json", "entries": [{"bench": "barrier", "figures": "barrier-tgl"}]},
                             "no built-in figures file 'other.json'"),
            "malformed": ({"figures": badfile, "entries": [{"bench": "barrier", "figures": "barrier-tgl"}]},
                          "table 'barrier-tgl': ours[0].path: not a string"),
            "not-string": ({"entries": [{"bench": "barrier", "figures": 3}]}, "entries[0].figures: is not a non-empty string"),
        }
        for name, (suite, msg) in cases.items():
            path = bt.write_doc(os.path.join(d, f"{name}.json"), {"name": name, **suite})
            r = run("suite", path, "--list")
            check(r.code == 2 and msg in r.err and "usage:" in r.err, f"bad suite {name}: exit 2, '{msg}'", r)


def suite_beside(d):
    """The entries of the guide suite that name figures, made small."""
    guide = load("guide.json")
    small = {"vectoradd1-tgl": ["--variant", "1", "--n", "1Mi", "--reps", "3"],
             "vectoradd2-tgl": ["--groups", "1..3", "--slice", "4Ki", "--reps", "3"],
             "vec-add-gen9": ["--variant", "3", "--groups", "1,2", "--wg", "256", "--iter", "0",
                              "--slice", "4Ki", "--reps", "3"],
             "barrier-tgl": ["--spin", "16", "--reps", "3"],
             "latency-max": ["--sizes", "1Ki,64Ki", "--chases", "single", "--loads", "1024",
                             "--reps", "3", "--guide-table"]}
    entries = [dict(e, args=small[e["figures"]]) for e in guide["entries"] if "figures" in e]
    return bt.write_doc(os.path.join(d, "beside.json"), {"name": "beside", "entries": entries})


def check_report(d, out, n_tables):
    page = os.path.join(d, "r.html")
    r = run("report", out, "-o", page)
    check(r.code == 0, "bench report of the suite's document", r)
    html = open(page).read() if os.path.exists(page) else ""
    secs = re.findall(r'<section id="guide-\d+" class="guide-figures"[^>]*data-table="([^"]+)"', html)
    check(sorted(secs) == sorted(WITH_FIGURES) and len(secs) == n_tables,
          f"a before-and-after section per table: {secs}")
    for part in re.split(r'<section id="guide-\d+"', html)[1:]:
        part = part.split("</section>")[0]
        check('<table class="data guide-figures">' in part and 'data-kind="guide-figures"' in part and
              "pt-guide-bar" in part and "the guide measured" in part and "another device" in part,
              f"the section has the table, the chart (the guide's bars) and says whose device: {part[:200]}")
    check("16/672 = 2.4%" in html and "Fail to launch" in html and "~150 - ~200 cycles" in html,
          "the guide's published cells are on the page")
    return html


def case_beside():
    with bt.tmpdir() as d:
        out = os.path.join(d, "r.json")
        r = run("suite", suite_beside(d), *DEVICE, "--json", out)
        check(r.code == 0, "the entries with figures run", r)
        tail = r.out.split("the guide's published figures beside this run's", 1)
        check(len(tail) == 2 and "another device" in tail[1], "the figures after the summary, another device said", r)
        text = tail[-1]
        for head in ("G  work-items  threads        occupancy  |     model here",
                     "R  group size  threads  Xe-core utilization        Xe-core occupancy  |  resident"):
            check(head in text, f"a table's heads: {head}", r)
        check(re.search(r"\n\s*1\s+512\s+16\s+16/672 = 2\.4%\s+\|\s+\S.*\s+ok\n", text) and
              re.search(r"\n\s*12\s+6144\s+192\s+192/672 = 28\.6%\s+\|\s+-\s+-\s+-\s+not run\n", text),
              "VectorAdd2's rows: the guide's cells, then this run's, or 'not run'", r)
        check(text.count("left of the bar, the guide's figures, on its device: TGL") == 3 and
              "on its device: Gen9" in text and "on its device: Intel Data Center GPU Max" in text and
              text.count("right of the bar, this run's, on another device: ") == 5,
              "each table names the guide's device and this run's", r)
        check(re.search(r"\n\s*20 \*\s+10240", text) and "* G 20, as published: 320/672 is 47.6 %" in text,
              "an erratum marked and said", r)
        check(re.search(r"\n\s+Shared local memory\s+~30 cycles\s+\|\s+local\s+\S+\s+\S+\n", text),
              "the latency table: the guide's cycles beside this run's local memory", r)
        doc = bt.load_doc(out) if os.path.exists(out) else {"runs": []}
        check(sorted(x.get("figures", {}).get("id", "") for x in doc["runs"]) == sorted(WITH_FIGURES),
              "each entry's run holds its table")
        r = run("suite", suite_beside(d), *DEVICE, "--json", out, "--quiet")
        check(r.code == 0 and "published figures" not in r.out, "--quiet prints no figures", r)
        check_report(d, out, len(WITH_FIGURES))


def case_guide():
    with bt.tmpdir() as d:
        out = os.path.join(d, "guide.json")
        t0 = time.monotonic()
        r = run("suite", "guide", *DEVICE, *GUIDE_REPS, "--json", out, timeout=3000)
        wall = time.monotonic() - t0
        print(f"bench suite guide {' '.join(DEVICE)}: {wall:.0f} s")
        check(r.code == 0, "bench suite guide: exit 0", r)
        doc = bt.load_doc(out) if os.path.exists(out) else {"runs": [], "points": []}
        n = len(load("guide.json")["entries"])
        runs = doc["runs"]
        check(len(runs) == n, f"{len(runs)} of {n} entries")
        for x in runs:
            if x["bench"] == "locality":
                check(x["exit_code"] == 77 and "needs an Intel GPU with stacks" in x.get("skipped", "")
                      and "not a GPU" in x.get("skipped", ""),
                      f"entry {x['entry']} (locality {x['args']}): skipped saying why: {x.get('skipped')}")
            else:
                check(x["exit_code"] == 0 and x["points"] > 0 and "about" in x and x["about"],
                      f"entry {x['entry']} ({x['bench']}): run, exit {x['exit_code']}, {x['points']} points")
        lat = [x for x in runs if x["bench"] == "latency"]
        check(lat and (lat[0].get("plateaus") or {}).get("llc_source") == "--llc",
              f"the suite's --llc reached the latency entry: {[x.get('plateaus') for x in lat]}")
        check(re.search(rf"suite guide on .*: {n} of {n} entries \(2 skipped\)", r.out),
              "the summary: two skipped", r)
        bad = [(p["benchmark"], p["params"].get("variant"), p["status"], p["reason"])
               for p in doc["points"] if p["status"] == "failed"]
        check(not bad, f"no point failed: {bad}")
        skipped = [p for p in doc["points"] if p["status"] == "skipped"]
        check(all(p["benchmark"] in ("sg-copy", "sg-info", "barrier", "transpose") for p in skipped),
              f"only the sub-groups' and the barrier's points may be skipped: "
              f"{[(p['benchmark'], p['reason']) for p in skipped]}")
        check("the guide's published figures beside this run's" in r.out, "the figures after the summary", r)
        html = check_report(d, out, len(WITH_FIGURES))
        check(html.count('<p class="rule skipped-run">Skipped as a whole on this device (exit 77): the ') == 2,
              "the report says why the multi-stack entries were skipped")
        check(html.count('<p class="about">') == n, "the report shows each entry's about")


CASES = {"figures": case_figures, "beside": case_beside, "guide": case_guide}

if __name__ == "__main__":
    CASES[CASE]()
    sys.exit(bt.verdict(f"ok: {CASE}"))
