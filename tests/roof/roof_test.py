#!/usr/bin/env python3
"""The memory roof (bench/harness/roof.c, ceiling.c) on a CPU platform: what it records, that
it refuses a wrong kernel, and that a kernel above it is a finding.

usage: roof_test.py CASE BENCH KERNELS SCHEMA -- DEVICE-ARGS...
CASE:
  record   bench stream: the document's `roof` has one record for the size, its figure the
           best of its candidates, each validated and timed, its kernel and shape those of the
           best, the point's ceiling that figure; every kind of the roof ranked and present
  refused  roof.cl's three kinds each wrong where whole work-groups work (the fill writes
           seed + 1, the copy in + 1, the read's group sum + 1), over 3Mi words (three of the
           host's pieces, the last work-group short): every shape of every kind is refused
           with the words that differ, a note says so for each kind, the roof has no candidate
           of its own and is set by a copy, and the run still succeeds
  finding  roof.cl's and stream_copy.cl's kernels slowed (a spin before their work, still
           right): the streaming kernels beat the roof by more than the noise, so stderr says
           "finding:" naming the kernel and both figures and the document's roof_findings
           records them (not a status: exit 0)
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

SHAPES = 4   # a kind's shapes on a CPU device (kernels/roof.cl's ROOF_FEW)
SPIN_AT = "\tbool whole = first + l * (P) <= nvec;"
SPIN = ("\tbool whole = first + l * (P) <= nvec; \\\n"
        "\tfor (volatile uint spin = 0; spin < 1000u; spin++) ; \\\n")
FILL_RIGHT = "out[at + j * l] = (T)(seed + (uint)(at + j * l)); \\\n\t} else {"
FILL_WRONG = "out[at + j * l] = (T)(seed + 1u + (uint)(at + j * l)); \\\n\t} else {"
COPY_RIGHT = "out[at + j * l] = in[at + j * l]; \\\n\t} else {"
COPY_WRONG = "out[at + j * l] = in[at + j * l] + (T)(1u); \\\n\t} else {"
READ_RIGHT = "roof_group_sum(part, ROOF_H##W(s), sums);"
READ_WRONG = "roof_group_sum(part, ROOF_H##W(s) + 1u, sums);"
KINDS = ("roof_copy", "roof_read", "roof_fill")
COPY_AT = "\tsize_t i = get_global_id(0);\n"
COPY_SPIN = COPY_AT + "\tfor (volatile uint spin = 0; spin < 1000u; spin++)\n\t\t;\n"


def stream(bench, dev, d, extra=(), n="1Mi"):
    cmd = [bench, "stream", "--n", n, "--vec", "4", "--per-item", "1", "--reps", "5",
           "--warmup", "1", "--json", f"{d}/r.json"] + list(extra) + dev
    r = bt.run(cmd)
    return r, (bt.load_doc(f"{d}/r.json", None) if r.code in (0, 1) else None)


def schema_ok(schema, d, r):
    check = Path(__file__).resolve().parents[1] / "schema" / "schema_check.py"
    s = bt.run([sys.executable, str(check), schema, f"{d}/r.json"])
    bt.check(s.code == 0, "the document holds to the schema", s)


def check_record(doc, r):
    roof = doc.get("roof")
    bt.check(isinstance(roof, list) and len(roof) == 1, "one roof record for the one size", r)
    rec = roof[0]
    bt.check(rec["bytes"] == 4 << 20, f"the record is of the point's bytes ({rec['bytes']})", r)
    cands = [c for c in rec["candidates"] if c.get("gbps")]
    kernels = {c["kernel"] for c in rec["candidates"]}
    bt.check({"clEnqueueCopyBuffer", "roof_copy", "roof_read", "roof_fill"} <= kernels,
             f"the copies and the three roof kernels are candidates ({sorted(kernels)})", r)
    for c in rec["candidates"]:
        if c["kernel"].startswith("roof_"):
            bt.check(c.get("validated") is True and c["time_ns"]["n"] >= 5,
                     f"{c['kernel']} {c['shape']} validated and timed", r)
    best = max(cands, key=lambda c: c["gbps"])
    bt.check(abs(rec["gbps"] - best["gbps"]) < 1e-9 * best["gbps"] and rec["by"] == best["kernel"],
             f"the roof is its best candidate ({rec['by']} {rec['gbps']:.2f} GB/s)", r)
    bt.check(rec["shape"] == (best["shape"]), "the roof names the shape that set it", r)
    bt.check(sorted(rec["ranked"]) == ["roof_copy", "roof_fill", "roof_read"] and
             all(len(v) == SHAPES for v in rec["ranked"].values()),
             f"every kind's {SHAPES} shapes (a CPU's) ranked", r)
    for p in doc["points"]:
        m = p["metrics"]
        bt.check(abs(m["ceiling_gbps"] - rec["gbps"]) < 1e-6 * rec["gbps"] and
                 m["ceiling_by"] == rec["by"] and m["ceiling_shape"] == rec["shape"],
                 "each point's ceiling is the roof", r)
    return rec


def case_record(bench, kernels, schema, dev):
    with bt.tmpdir() as d:
        r, doc = stream(bench, dev, d)
        bt.check(r.code == 0 and doc, "bench stream runs", r)
        check_record(doc, r)
        bt.check(not doc.get("roof_findings") or "finding:" in r.err,
                 "a finding in the document is told on stderr", r)
        schema_ok(schema, d, r)
    return bt.verdict("the roof: recorded, its candidates validated, the points' ceiling")


def case_refused(bench, kernels, schema, dev):
    with bt.tmpdir() as d:
        bt.kernels_copy(kernels, f"{d}/k", "roof.cl", FILL_RIGHT, FILL_WRONG)
        path = Path(d) / "k" / "roof.cl"
        text = path.read_text()
        for right, wrong in ((COPY_RIGHT, COPY_WRONG), (READ_RIGHT, READ_WRONG)):
            bt.check(right in text, f"roof.cl still has the code this test changes: {right!r}")
            text = text.replace(right, wrong, 1)
        path.write_text(text)
        r, doc = stream(bench, dev, d, ["--kernels", f"{d}/k"], n="3Mi")
        bt.check(r.code == 0 and doc, "the run goes on without the faulty kernels", r)
        rec = check_record_refused(doc, r)
        for kind in KINDS:
            bt.check(f"the roof refuses {kind}" in r.err, f"a note names the refused {kind}", r)
        bt.check("differ" in r.err and "the sums of work-groups" in r.err,
                 "the notes say which words differ, the read's in its groups' sums", r)
        bt.check(rec["by"] in ("clEnqueueCopyBuffer", "stream_copy kernel") and
                 rec["shape"] == "a copy", f"a copy sets the roof ({rec['by']})", r)
        schema_ok(schema, d, r)
    return bt.verdict("faulty roof kernels of every kind are refused, with their reason, and set "
                      "nothing")


def check_record_refused(doc, r):
    rec = doc["roof"][0]
    for kind in KINDS:
        refused = [c for c in rec["refused"] if c["kernel"] == kind]
        bt.check(len(refused) == SHAPES and all("differ" in c["reason"] for c in refused),
                 f"every {kind} shape refused with the words that differ ({len(refused)})", r)
        bt.check(not any(c["kernel"] == kind for c in rec["candidates"]),
                 f"no {kind} candidate, no {kind} figure", r)
    return rec


def case_finding(bench, kernels, schema, dev):
    with bt.tmpdir() as d:
        bt.kernels_copy(kernels, f"{d}/k", "roof.cl", SPIN_AT, SPIN)
        bt.kernels_copy(kernels, f"{d}/k", "stream_copy.cl", COPY_AT, COPY_SPIN,
                        only=["stream_copy.cl"])
        r, doc = stream(bench, dev, d, ["--kernels", f"{d}/k"])
        bt.check(r.code == 0 and doc, "a finding is not a failure", r)
        found = doc.get("roof_findings") or []
        if not found:
            # the driver's copy, which no kernel slows, may still beat every streaming shape
            roof = doc["roof"][0]
            best = max(p["metrics"]["gbps"] for p in doc["points"])
            if roof["by"] == "clEnqueueCopyBuffer" and best <= roof["gbps"] * 1.5:
                return bt.skip(f"the streaming kernel ({best:.2f} GB/s) does not clearly beat "
                               f"the driver's copy ({roof['gbps']:.2f} GB/s) here: nothing to find")
            within = [p for p in doc["points"] if "within the run's noise" in p["reason"]]
            bt.check(within, "a point above the roof without a finding is within the noise", r)
            if within:   # a loaded host: the noise covers it, which is the rule, not a finding
                return bt.skip("above the roof within this run's noise (the host is busy): "
                               + within[0]["reason"])
            bt.fail("no finding in the document", r)
        f = found[0]
        bt.check(f["fraction_of_roof"] > 1 + f["noise"] and f["benchmark"] == "stream",
                 "above the roof by more than the noise", r)
        line = [x for x in r.err.splitlines() if "finding:" in x]
        bt.check(line and "stream" in line[0] and f"{f['gbps']:.2f} GB/s" in line[0] and
                 f"{f['roof_gbps']:.2f} GB/s" in line[0],
                 "stderr names the kernel and both figures", r)
        pts = [p for p in doc["points"] if "a finding" in p["reason"]]
        bt.check(pts, "the point's note says it is a finding", r)
        schema_ok(schema, d, r)
    return bt.verdict("a kernel above the roof is a finding, told and recorded")


def main():
    args = bt.after_dashes(sys.argv[5:])
    case, bench, kernels, schema = sys.argv[1:5]
    fn = globals().get("case_" + case)
    if not fn:
        bt.fail(f"no case {case}")
    return fn(bench, kernels, schema, args)


if __name__ == "__main__":
    sys.exit(main())
