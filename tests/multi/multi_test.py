#!/usr/bin/env python3
"""Runs on several devices: what the documents hold and how the runs end.

usage: multi_test.py BENCH CASE [ARGS...]
CASE is one of:
  partitions DEVICE   every partition DEVICE offers (bench info --json: partitions) runs, its
                      sub-devices' compute units add up to the parent's, the document records
                      the parent and the partition of each, and every point names one of them;
                      each partition it does not offer is exit 2 naming what it offers
  device-all          --device all: a document holding every device bench info lists, each
                      device's points naming it, each run's own members in device_runs
  two-processes D1 D2 two bench processes at once, each on its own device: both documents whole
  concurrent SPEC... --concurrent on the devices SPEC names (and --sub-devices where given):
                      each device alone and at once, the figures at once adding up
  interrupt MODE      SIGINT in a run on every device (MODE: turn, concurrent, or twice: a
                      second SIGINT while every device runs at once): exit 130, a document
                      marked interrupted holding what was measured
  failed              --concurrent where every point fails its check: exit 1, no run waits
                      for another for ever
  timeout KERNELS MODE   a kernel that spins for ever, --timeout 2 (MODE: turn or concurrent):
                      exit 1, the watchdog writes the document, the hung point failed
  tools               bench compare, report and export on documents of several devices
  locality DEVICE PART   bench locality on DEVICE's sub-devices (PART): every pair, the
                      placement of each memory kind recorded, local and remote side by side
  locality-platforms  bench locality on devices of different platforms: exit 77 saying why
Every document written is also checked against the results schema where python3-jsonschema
is installed (tests/schema/schema_check.py).
"""
import os
import signal
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "schema"))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402
from benchtest import run_checked as run  # noqa: E402

# the results schema the build assembled from its parts (meson.build, test_env)
SCHEMA = os.environ.get("BENCH_RESULTS_SCHEMA", "")
QUICK = ["--reps", "3", "--warmup", "1", "--quiet"]


def valid(path):
    """The document at path, checked against the schema where jsonschema is installed."""
    doc = bt.load_doc(path)
    try:
        import schema_check
        import jsonschema  # noqa: F401
        v = schema_check.validator(SCHEMA)
        errs = schema_check.violations(v, doc)
        check(not errs, f"{path}: not valid against the schema: "
              + "; ".join(schema_check.describe(e) for e in errs[:3]))
    except ImportError:
        pass
    return doc


def label(d):
    return f"{d['name']} ({d['platform']})"


def runs_and_points(doc):
    """Each device_runs entry with its points."""
    pts = doc["points"]
    return [(r, pts[r["first_point"]:r["first_point"] + r["points"]]) for r in doc["device_runs"]]


# ---- cases ----

def case_partitions(bench, device, tmp):
    parent = bt.bench_info(bench, device)[0]
    cus = parent["compute_units"]
    offered = parent["partitions"]["properties"]
    specs = {"equally": f"equally:{max(1, cus // 2)}",
             "by_counts": "counts:" + ",".join(["1"] * min(cus, 2)),
             "numa": "numa"}
    ran = 0
    for kind, spec in specs.items():
        ok = (kind in offered) if kind != "numa" else ("by_affinity_domain" in offered and
                                                       "numa" in parent["partitions"]["affinity_domains"])
        out = os.path.join(tmp, f"{kind}.json")
        cmd = [bench, "vecadd", "--variant", "1", "--n", "64Ki", "--device", device,
               "--sub-devices", spec, "--json", out] + QUICK
        if not ok:
            r = run(cmd, 2, f"--sub-devices {spec} (not offered)")
            check("does not offer it; it offers" in r.err, f"{spec}: the message names what is offered: {r.err}")
            check(not os.path.exists(out), f"{spec}: a refused partition left a document")
            continue
        run(cmd, 0, f"--sub-devices {spec}")
        doc = valid(out)
        devs = doc["devices"]
        check(len(devs) >= 1, f"{spec}: no devices")
        total = sum(d["compute_units"] for d in devs)
        if kind == "equally":
            per = int(spec.split(":")[1])
            check(all(d["compute_units"] == per for d in devs), f"{spec}: {[d['compute_units'] for d in devs]}")
            check(len(devs) == cus // per and total == per * (cus // per),
                  f"{spec}: {len(devs)} sub-devices of {total} compute units from {cus}")
        elif kind == "by_counts":
            counts = [int(x) for x in spec.split(":")[1].split(",")]
            check([d["compute_units"] for d in devs] == counts, f"{spec}: {[d['compute_units'] for d in devs]}")
        else:
            check(total == cus, f"{spec}: the sub-devices' compute units add up to {total}, not {cus}")
        for i, d in enumerate(devs):
            check(d["parent"] and d["parent"]["name"] == parent["name"] and
                  d["parent"]["compute_units"] == cus, f"{spec}: device {i}'s parent: {d['parent']}")
            p = d["partition"] or {}
            check(p.get("spec") == spec and p.get("index") == i and p.get("of") == len(devs),
                  f"{spec}: device {i}'s partition: {p}")
            check(d["label"].endswith(f", sub-device {i} ({spec})"), f"{spec}: label {d['label']}")
        labels = [d["label"] for d in devs]
        check(sorted({p["device"] for p in doc["points"]}) == sorted(labels),
              f"{spec}: the points name {sorted({p['device'] for p in doc['points']})}, the devices {labels}")
        check(all(p["status"] == "ok" for p in doc["points"]), f"{spec}: a point not ok")
        check(len(doc["device_runs"]) == len(devs), f"{spec}: {len(doc['device_runs'])} runs")
        print(f"ok: {spec}: {len(devs)} sub-devices of {[d['compute_units'] for d in devs]} compute units")
        ran += 1
    check(ran > 0 or not offered, f"{device}: offers {offered}, none ran")


def case_device_all(bench, tmp):
    out = os.path.join(tmp, "all.json")
    run([bench, "vecadd", "--groups", "1,2", "--device", "all", "--json", out] + QUICK)
    doc = valid(out)
    want = [label(d) for d in bt.bench_info(bench)]
    check([d["label"] for d in doc["devices"]] == want, f"devices {[d['label'] for d in doc['devices']]}, "
          f"bench info lists {want}")
    check(doc["device"]["name"] == doc["devices"][0]["name"], "device is not the first device")
    check("model_device" not in doc and "kernel" not in doc, "a run's own member at the top")
    for r, pts in runs_and_points(doc):
        check(len(pts) == 2 and all(p["device"] == r["device"] and p["status"] == "ok" for p in pts),
              f"{r['device']}: its points {[(p.get('device'), p['status']) for p in pts]}")
        check("kernel" in r and "model_device" in r and "phases_s" in r and r["exit_code"] == 0,
              f"{r['device']}: its run's members {sorted(r)}")
        check(r["concurrent"] is False, f"{r['device']}: concurrent {r['concurrent']}")
    check(len(doc["device_runs"]) == len(want), f"{len(doc['device_runs'])} runs for {len(want)} devices")
    h = doc["device_hierarchy"]
    check(h["variables"] == ["ZE_FLAT_DEVICE_HIERARCHY", "ZE_AFFINITY_MASK", "ZEX_NUMBER_OF_CCS"],
          f"device_hierarchy.variables {h['variables']}")
    check(all(d["parent"] is None and d["partition"] is None for d in doc["devices"]),
          "a root device with a parent or partition")
    print(f"ok: --device all holds {len(want)} devices, {len(doc['points'])} points")


def case_two_processes(bench, tmp, d1, d2):
    procs = []
    for i, d in enumerate((d1, d2)):
        out = os.path.join(tmp, f"p{i}.json")
        cmd = [bench, "vecadd", "--variant", "5", "--n", "1Mi", "--vec", "4", "--per-item", "1,2",
               "--device", d, "--json", out] + QUICK
        procs.append((bt.start(cmd), out, d))
    names = []
    for p, out, d in procs:
        r = bt.finish(p, timeout=300)
        check(r.code == 0, f"{d}: exit {r.code}: {r.err[-2000:]}")
        doc = valid(out)
        names.append(doc["device"]["platform"])
        check(len(doc["points"]) == 2 and all(x["status"] == "ok" for x in doc["points"]),
              f"{d}: points {[x['status'] for x in doc['points']]}")
    check(len(set(names)) == 2, f"both processes ran on {names}")
    print(f"ok: two processes at once, on {names}")


def case_concurrent(bench, tmp, args):
    out = os.path.join(tmp, "c.json")
    run([bench, "vecadd", "--variant", "5", "--n", "1Mi", "--vec", "4", "--per-item", "1,2",
         "--concurrent", "--json", out] + args + QUICK)
    doc = valid(out)
    labels = [d["label"] for d in doc["devices"]]
    check(len(labels) >= 2, f"devices {labels}")
    runs = runs_and_points(doc)
    check([(r["device"], r["concurrent"]) for r, _ in runs] ==
          [(l, False) for l in labels] + [(l, True) for l in labels], f"runs {[(r['device'], r['concurrent']) for r, _ in runs]}")
    for r, pts in runs:
        for p in pts:
            check(p["device"] == r["device"] and p["concurrent"] == r["concurrent"] and p["status"] == "ok",
                  f"{r['device']}: a point {p.get('device')} {p.get('concurrent')} {p['status']}")
            check(p["repetitions"]["taken"] >= 3 and
                  (p["repetitions"]["stop"] in ("reps", "devices") if r["concurrent"] else p["repetitions"]["stop"] == "reps"),
                  f"{r['device']}: repetitions {p['repetitions']}")
    c = doc["concurrent"]
    check(c["devices"] == labels and len(c["points"]) == 2, f"concurrent: {c['devices']}, {len(c['points'])} points")
    alone = {(p["device"], i % 2): p for i, p in enumerate(x for _, pts in runs[:len(labels)] for x in pts)}
    for k, cp in enumerate(c["points"]):
        g = [d["gbps"] for d in cp["devices"]]
        a = [d["alone_gbps"] for d in cp["devices"]]
        check(all(x and x > 0 for x in g + a), f"point {k}: GB/s {g}, alone {a}")
        if all(x and x > 0 for x in g + a):
            check(abs(cp["sum_gbps"] - sum(g)) < 1e-6 * sum(g), f"point {k}: sum {cp['sum_gbps']} != {sum(g)}")
            check(abs(cp["alone_sum_gbps"] - sum(a)) < 1e-6 * sum(a), f"point {k}: alone sum")
            check(abs(cp["of_alone_sum"] - sum(g) / sum(a)) < 1e-6, f"point {k}: of_alone_sum")
        for d in cp["devices"]:
            ap = alone.get((d["device"], k))
            check(ap is not None and abs(ap["metrics"]["gbps"] - d["alone_gbps"]) < 1e-9 * d["alone_gbps"],
                  f"point {k} on {d['device']}: alone_gbps is not the alone point's")
        # the devices time together: each point's timings start at one rendezvous
        check(cp["overlap"] is not None and 0.1 < cp["overlap"] <= 1, f"point {k}: overlap {cp['overlap']}")
        check(cp["wall_gbps"] and cp["wall_gbps"] > 0, f"point {k}: wall_gbps {cp['wall_gbps']}")
    print(f"ok: --concurrent on {len(labels)} devices: sums {[round(p['sum_gbps'] or 0, 2) for p in c['points']]} "
          f"GB/s at once, {[round(p['alone_sum_gbps'] or 0, 2) for p in c['points']]} alone")


def case_interrupt(bench, tmp, mode):
    """SIGINT a second after a run begins: in turn, while the second device runs alone (after
    the first device's table); at once, while every device runs at once (after the second's)."""
    out = os.path.join(tmp, "i.json")
    cmd = [bench, "vecadd", "--groups", "1,2", "--min-time", "2", "--max-reps", "100000", "--device", "all",
           "--json", out]
    if mode in ("concurrent", "twice"):
        cmd.append("--concurrent")
    n_dev = len(bt.bench_info(bench))
    wait_for = 1 if mode == "turn" else n_dev
    p = bt.start(cmd)
    # twice: a second SIGINT 0.3 s after the first, while the watchdog writes every run in flight
    bt.signal_when(p, lambda line: line.startswith("vecadd variant"),
                   [signal.SIGINT] * (2 if mode == "twice" else 1), count=wait_for, delay=1.0, gap=0.3)
    r = bt.finish(p, timeout=120)
    e = r.err
    check(r.code == 130, f"exit {r.code}, expected 130: {e[-2000:]}")
    doc = valid(out)
    it = doc.get("interrupted") or {}
    runs = n_dev * (1 if mode == "turn" else 2)
    check(it.get("by") == "SIGINT" and it.get("runs_planned") == runs and
          it.get("runs_done") == (1 if mode == "turn" else n_dev), f"interrupted: {it}")
    ok = [x for x in doc["points"] if x["status"] == "ok"]
    check(len(ok) == it.get("points_done"), f"{len(ok)} ok points, points_done {it.get('points_done')}")
    cut = [r for r in doc["device_runs"] if r.get("interrupted")]
    check(cut and all(r["concurrent"] == (mode != "turn") for r in cut),
          f"runs marked interrupted: {[(r['device'], r['concurrent']) for r in cut]}")
    if mode == "twice":
        check(len(cut) == n_dev, f"{len(cut)} runs in flight written, {n_dev} devices at once")
    check("interrupted by SIGINT" in e, "stderr does not say so")
    left = [f for f in os.listdir(tmp) if ".tmp." in f]
    check(not left, f"temporary files left: {left}")
    print(f"ok: SIGINT ({mode}): exit 130, {len(ok)} points written, {len(cut)} runs cut short")


def case_timeout(bench, tmp, kernels, mode):
    """A kernel that spins for ever on every device: --timeout ends the run from the
    watchdog, which writes the document of every run so far, the hung point failed."""
    k = bt.spinning_kernels(kernels, os.path.join(tmp, "k"))
    out = os.path.join(tmp, "t.json")
    cmd = [bench, "vecadd", "--variant", "1", "--n", "4Ki", "--device", "all", "--timeout", "2",
           "--kernels", k, "--json", out] + QUICK
    run(cmd + (["--concurrent"] if mode == "concurrent" else []), 1)
    doc = valid(out)
    it = doc.get("interrupted") or {}
    check(it.get("by") == "timeout", f"interrupted: {it}")
    hung = [p for p in doc["points"] if p["status"] == "failed"]
    check(len(hung) == 1 and hung[0]["reason"] == "timed out after 2 s",
          f"failed points {[(p['device'], p['reason']) for p in hung]}")
    check(len(doc["device_runs"]) == 1 and doc["device_runs"][0]["exit_code"] is None,
          f"runs {[(r['device'], r['exit_code']) for r in doc['device_runs']]}")
    left = [f for f in os.listdir(tmp) if ".tmp." in f]
    check(not left, f"temporary files left: {left}")
    print(f"ok: --timeout on a run of several devices: exit 1, the hung point failed, {it}")


def case_failed(bench, tmp, kernels):
    k = os.path.join(tmp, "k")
    bt.kernels_copy(kernels, k, "vecadd.cl", "for (size_t k = get_global_id(0); k < n; k += stride)",
                    "for (size_t k = get_global_id(0); k + 1 < n; k += stride)")
    out = os.path.join(tmp, "f.json")
    r = run([bench, "vecadd", "--variant", "5", "--n", "64Ki", "--vec", "4", "--per-item", "1,2",
             "--device", "all", "--concurrent", "--kernels", k, "--json", out] + QUICK, 1)
    doc = valid(out)
    check(doc["points"] and all(p["status"] == "failed" for p in doc["points"]),
          f"statuses {[p['status'] for p in doc['points']]}")
    check("points failed on" in r.err, "stderr does not name the device whose points failed")
    print(f"ok: every point failed on every device at once: exit 1, {len(doc['points'])} points")


def case_tools(bench, tmp):
    a, b, one = (os.path.join(tmp, n) for n in ("a.json", "b.json", "one.json"))
    base = [bench, "vecadd", "--variant", "5", "--n", "256Ki", "--vec", "4", "--per-item", "1",
            "--device", "all", "--reps", "9", "--warmup", "1", "--quiet"]
    run(base + ["--json", a])
    run(base + ["--json", b])
    first = bt.bench_info(bench)[0]
    run([bench, "vecadd", "--variant", "5", "--n", "256Ki", "--vec", "4", "--per-item", "1", "--device",
         "0", "--reps", "9", "--quiet", "--json", one])
    cj = os.path.join(tmp, "cmp.json")
    r = run([bench, "compare", a, b, "--json", cj, "--noise", "1000"])
    cmp = bt.load_doc(cj)
    n_dev = len(bt.bench_info(bench))
    rows = cmp["points"]
    check(len(rows) == n_dev and all(x["verdict"] != "new" and x["verdict"] != "missing" for x in rows),
          f"compare: {[(x.get('device'), x['verdict']) for x in rows]}")
    check(sorted(x.get("device") for x in rows) == sorted(label(d) for d in bt.bench_info(bench)),
          f"compare rows name {[x.get('device') for x in rows]}")
    check("device=" in r.out, "the table does not name the devices")
    if n_dev > 1:
        r = run([bench, "compare", one, a], 2, "compare one device against several")
        check("hold different devices" in r.err, f"message: {r.err}")
        r = run([bench, "compare", one, a, "--allow-different-device", "--noise", "1000", "--json", cj])
        v = {x.get("device") or label(first): x["verdict"] for x in bt.load_doc(cj)["points"]}
        check(v.get(label(first)) not in ("new", "missing") and list(v.values()).count("new") == n_dev - 1,
              f"one against several, by device: {v}")
    html = os.path.join(tmp, "r.html")
    r = run([bench, "report", a, b, "-o", html])
    page = open(html).read() if os.path.exists(html) else ""
    docs, pairs = page.count('class="doc"'), page.count('class="compare"')
    check(docs == 2 * n_dev, f"report: {docs} sections for {2 * n_dev} runs")
    check(pairs == n_dev, f"report: {pairs} before/after sections, one per device")
    for d in bt.bench_info(bench):
        check(label(d).replace("(", "") in page.replace("(", ""), f"report: {label(d)} missing")
    bad = os.path.join(tmp, "bad.json")
    broken = bt.load_doc(a)
    broken["device_runs"][0]["first_point"] = len(broken["points"])
    bt.write_doc(bad, broken)
    r = run([bench, "report", bad, "-o", html], 2, "report of a document whose run points outside it")
    check("device_runs[0].first_point" in r.err, f"report names the field: {r.err}")
    lnt = os.path.join(tmp, "lnt.json")
    run([bench, "export", "lnt", a, "--order", "1", "-o", lnt])
    names = [t["name"] for t in bt.load_doc(lnt)["tests"]]
    check(len(names) == len(set(names)) == n_dev and all("/device=" in t for t in names),
          f"export: test names {names}")
    csv = os.path.join(tmp, "a.csv")
    run(base + ["--csv", csv, "--reps", "3"])
    head = open(csv).readline().strip().split(",")
    check("device" in head, f"CSV columns {head[:6]}")
    print(f"ok: compare, report and export of documents of {n_dev} devices")


def case_locality(bench, tmp, device, part):
    out = os.path.join(tmp, "l.json")
    r = run([bench, "locality", "--device", device, "--sub-devices", part, "--size", "1Mi",
             "--loads", "2048", "--json", out] + QUICK)
    doc = valid(out)
    labels = [d["label"] for d in doc["devices"]]
    mems = sorted(doc["placement"])
    n = len(labels)
    check(n >= 2 and len(doc["points"]) == len(mems) * n * n * 3,
          f"{len(doc['points'])} points for {mems} x {n} x {n} x 3")
    # the copy test copies OpenCL buffers only (clEnqueueCopyBuffer): usm's copy is skipped
    usm_copy = [p for p in doc["points"] if p["params"]["test"] == "copy" and p["params"]["memory"] == "usm"]
    check(all(p["status"] == "skipped" and "buffers only" in p["reason"] for p in usm_copy) and
          all(p["status"] == "ok" and p["validated"] for p in doc["points"] if p not in usm_copy),
          f"statuses {[p['status'] for p in doc['points']]}")
    for p in doc["points"]:
        a = p["params"]
        check(p["device"] == a["reader"] and a["local"] == (a["owner"] == a["reader"]) and
              p["placement"]["owner"] == a["owner"], f"point {a}")
        key = "ns_per_load" if a["test"] == "chase" else "gbps"
        check(key in p.get("metrics", {}) or p["status"] == "skipped", f"point {a['test']} lacks {key}")
    if "usm" in doc["placement"]:
        check(all(x["known"] for x in doc["placement"]["usm"]), "usm placement not known")
    if "buffer" in doc["placement"]:
        check(not any(x["known"] for x in doc["placement"]["buffer"]) and
              "no query" in doc["placement"]["buffer"][0]["how"], "buffer placement said to be known")
    for m in mems:
        s = doc["locality"][m]
        check(all(s[k] for k in ("local_gbps", "remote_gbps", "local_ns_per_load")) and
              (m != "buffer" or (s["copy_local_gbps"] and s["copy_remote_gbps"])), f"locality.{m}: {s}")
    check("local against remote" in r.out or "--quiet" in QUICK, "no summary")
    print(f"ok: locality on {n} sub-devices ({part}) of {device}: memory {mems}")


def case_locality_platforms(bench):
    devs = bt.bench_info(bench)
    plats = {d["platform"] for d in devs}
    if len(plats) < 2 or any(sum(x["platform"] == p for x in devs) > 1 for p in plats):
        bt.skip("needs two platforms of one device each")
    r = run([bench, "locality", "--device", "all", "--quiet"], 77)
    check("a context holds the devices of one platform only" in r.err, f"message: {r.err}")
    print("ok: devices of different platforms: exit 77, saying why")


def main():
    bench, case, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    with bt.tmpdir() as tmp:
        if case == "partitions":
            case_partitions(bench, args[0], tmp)
        elif case == "device-all":
            case_device_all(bench, tmp)
        elif case == "two-processes":
            case_two_processes(bench, tmp, args[0], args[1])
        elif case == "concurrent":
            case_concurrent(bench, tmp, args)
        elif case == "interrupt":
            case_interrupt(bench, tmp, args[0])
        elif case == "timeout":
            case_timeout(bench, tmp, args[0], args[1])
        elif case == "failed":
            case_failed(bench, tmp, args[0])
        elif case == "tools":
            case_tools(bench, tmp)
        elif case == "locality":
            case_locality(bench, tmp, args[0], args[1])
        elif case == "locality-platforms":
            case_locality_platforms(bench)
        else:
            sys.exit(f"unknown case {case}")
    return bt.verdict()


if __name__ == "__main__":
    sys.exit(main())
