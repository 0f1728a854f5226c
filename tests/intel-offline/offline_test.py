#!/usr/bin/env python3
"""The suite's kernels compiled for Intel GPUs with ocloc (bench compile), no GPU needed.

usage: offline_test.py BENCH CASE
Cases:
  matrix  every kernel of every row for tgllp, acm-g10 and pvc at --sg auto,8,16,32, compiling
          what the run path skips too (--build-skipped): nothing fails; every skip has the run
          path's reason; and, from the compiler's own verdicts: pvc refuses a required size of
          8, tgllp and acm-g10 refuse block I/O at SIMD32 (which the run path skips before
          building, by its rule), the compiled SIMD equals every required size
  grf     --grf large: 256 registers on pvc and acm-g10, the transposes' spills smaller there
          (none left on pvc); tgllp stays at 128
  model   bench model --kernel: the threads per work-group of a TGL and a Max kernel follow the
          SIMD width the compiler chose (bench compile's, for the same build)
Exits 77 (skipped) where bench compile finds no ocloc.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402
from benchtest import check  # noqa: E402
from benchtest import points as pts  # noqa: E402

BENCH, CASE = sys.argv[1], sys.argv[2]


def bench(*args):
    """Runs bench with a --json document; (exit code, document, stderr). Exits 77 on 77."""
    r, doc = bt.run_with_doc([BENCH, *args, "--quiet"], name="doc.json")
    if r.code == 77:
        bt.skip(r.err.strip())
    return r.code, doc, r.err


def check_matrix_point(p):
    """A point of the matrix: not failed, a skip with its reason, what compiled as required."""
    pa = p["params"]
    where = f"{pa['target']} {pa['benchmark']} {pa['variant']} sg {pa['sg_size_requested']}"
    check(p["status"] != "failed", f"matrix: {where} failed: {p['reason']}")
    if p["status"] == "skipped":
        check(bool(p["reason"]), f"matrix: {where} skipped without a reason")
    if p["status"] == "ok":
        c = p["compiled"]
        # the compiler's SIMD equals every size required of it
        if c["required_sg_size"] is not None:
            check(c["simd"] == c["required_sg_size"],
                  f"matrix: {where}: required {c['required_sg_size']}, SIMD {c['simd']}")
        if pa["sg_size_requested"] and c["required_sg_size"] is not None:
            check(c["simd"] == pa["sg_size_requested"],
                  f"matrix: {where}: --sg {pa['sg_size_requested']}, SIMD {c['simd']}")
        check(c["simd"] in (8, 16, 32) and c["grf_count"] >= 128 and c["instructions"] > 0,
              f"matrix: {where}: {c}")


def case_matrix():
    code, doc, err = bench("compile", "--target", "all", "--build-skipped")
    check(code == 0 and doc, f"matrix: exit {code}, stderr {err[:2000]}")
    if not doc:
        return
    points = doc["points"]
    check(len(points) > 150, f"matrix: {len(points)} points")
    for p in points:
        check_matrix_point(p)
    # nothing is built with OpenCL C 3.0 on pvc, whose compiler refuses it
    for p in pts(doc, target="pvc"):
        check("-cl-std=CL3.0" not in (p["build"]["options"] or ""),
              f"matrix: pvc built with CL3.0: {p['params']} {p['build']['options']}")
    # pvc refuses a required size of 8: skipped by the run path, refused by the compiler
    eight = [p for p in pts(doc, target="pvc", sg_size_requested=8)
             if p["params"]["kernel"] in ("sg_info", "sg_copy_strided", "vecadd", "occ_probe")]
    check(len(eight) >= 4, f"matrix: pvc at 8: {len(eight)} points")
    for p in eight:
        check(p["status"] == "skipped" and "16, 32" in p["reason"],
              f"matrix: pvc at 8 not skipped with the sizes it lists: {p['params']} {p['reason']}")
        f = p.get("forced", {})
        check(f.get("builds") is False and "required subgroup size 8" in (f.get("error") or ""),
              f"matrix: the compiler did not refuse a required 8 on pvc: {p['params']} {f}")
    # block I/O at SIMD32: the run path's rule skips it on Xe-LP and Xe-HPG; the compiler agrees
    for t in ("tgllp", "acm-g10"):
        b = pts(doc, target=t, kernel="sg_copy_block", sg_size_requested=32)
        check(len(b) == 1, f"matrix: {t} block at 32: {len(b)} points")
        for p in b:
            check(p["status"] == "skipped" and "SIMD32" in p["reason"] and
                  ("Xe-LP" if t == "tgllp" else "Xe-HPG") in p["reason"],
                  f"matrix: {t} block at 32 not skipped by the rule: {p['reason']}")
            f = p.get("forced", {})
            check(f.get("builds") is False and "Block reads not supported in SIMD32" in
                  (f.get("error") or ""), f"matrix: {t}: the compiler built block I/O at 32: {f}")
        ok16 = pts(doc, target=t, kernel="sg_copy_block", sg_size_requested=16)
        check(ok16 and ok16[0]["status"] == "ok", f"matrix: {t} block at 16 does not build")
    pvc32 = pts(doc, target="pvc", kernel="sg_copy_block", sg_size_requested=32)
    check(pvc32 and pvc32[0]["status"] == "ok" and pvc32[0]["compiled"]["simd"] == 32,
          f"matrix: pvc block at 32 does not build at SIMD32: {pvc32}")
    # the register-tile transposes spill at 32 on every target
    for t in ("tgllp", "acm-g10", "pvc"):
        s = pts(doc, target=t, kernel="transpose_shuffle", sg_size_requested=32)
        check(s and s[0]["status"] == "ok" and s[0]["compiled"]["spill_mem_bytes"] > 0,
              f"matrix: {t} shuffle at 32 does not spill: {s}")
    check(doc["device"]["driver_version"] and doc["benchmark"] == "compile",
          f"matrix: document {doc['device']}")


def case_grf():
    code, small, err = bench("compile", "--target", "all", "--benchmark", "transpose", "--sg", "32")
    check(code == 0 and small, f"grf: small exit {code}: {err[:1000]}")
    code, large, err = bench("compile", "--target", "all", "--benchmark", "transpose", "--sg", "32",
                             "--grf", "large")
    check(code == 0 and large, f"grf: large exit {code}: {err[:1000]}")
    if not small or not large:
        return
    for t, regs in (("tgllp", 128), ("acm-g10", 256), ("pvc", 256)):
        for k in ("transpose_shuffle", "transpose_bcast"):
            a = pts(small, target=t, kernel=k)[0]
            b = pts(large, target=t, kernel=k)[0]
            check(a["compiled"]["grf_count"] == 128, f"grf: {t} {k} small: {a['compiled']}")
            check(b["compiled"]["grf_count"] == regs,
                  f"grf: {t} {k} large: {b['compiled']['grf_count']} registers, expected {regs}")
            check("-ze-opt-large-register-file" in b["build"]["options"],
                  f"grf: {t} {k}: options {b['build']['options']}")
            if regs == 256:   # fewer spills (none left on pvc)
                sa, sb = a["compiled"]["spill_mem_bytes"], b["compiled"]["spill_mem_bytes"]
                check(sa > 0 and sb < sa and (t != "pvc" or sb == 0),
                      f"grf: {t} {k}: spills {sa} -> {sb}")
            else:
                check(b["build"].get("grf_note"), f"grf: {t}: no note that large GRF is ignored")


def case_model():
    for gpu, target in (("TGL-96", "tgllp"), ("Max-1550", "pvc")):
        code, c, err = bench("compile", "--target", target, "--benchmark", "vecadd", "--sg", "auto")
        check(code == 0 and c, f"model: compile {target} exit {code}: {err[:1000]}")
        code, m, err = bench("model", "--gpu", gpu, "--kernel", "vecadd:3")
        check(code == 0 and m, f"model: {gpu} exit {code}: {err[:1000]}")
        if not c or not m:
            continue
        simd = pts(c, variant="3")[0]["compiled"]["simd"]
        k = m["kernel"]
        check(k["compiled"]["simd"] == simd and k["target"] == target,
              f"model: {gpu}: model compiled SIMD {k['compiled']['simd']} on {k['target']}, "
              f"bench compile {simd}")
        for p in m["points"]:
            wg = p["params"]["wg_size"]
            check(p["params"]["sg_size"] == simd and
                  p["model"]["threads_per_wg"] == (wg + simd - 1) // simd,
                  f"model: {gpu}: {p['model']['threads_per_wg']} threads for {wg} at SIMD {simd}")
    # the two targets' compilers chose different widths for the same kernel: the test has teeth
    tgl = bench("compile", "--target", "tgllp", "--benchmark", "vecadd", "--sg", "auto")[1]
    pvc = bench("compile", "--target", "pvc", "--benchmark", "vecadd", "--sg", "auto")[1]
    if tgl and pvc:
        a = pts(tgl, variant="3")[0]["compiled"]["simd"]
        b = pts(pvc, variant="3")[0]["compiled"]["simd"]
        check(a != b, f"model: vecadd 3 compiles to SIMD {a} on tgllp and {b} on pvc")


CASES = {"matrix": case_matrix, "grf": case_grf, "model": case_model}

if __name__ == "__main__":
    CASES[CASE]()
    sys.exit(bt.verdict())
