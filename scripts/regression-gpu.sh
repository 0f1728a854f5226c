#!/usr/bin/env bash
# Measures what bench compare's verdicts do on a GPU runner (docs/ci.md, "Checking the loop
# on a new runner"): two back-to-back runs of the gpu suite compared, and a run with a planted
# 10 % slowdown in vecadd variants 2-4 compared with the first. Prints the suite's wall times,
# the verdict counts, and the planted slowdown's hit rate; the documents go to OUTDIR.
#
#   scripts/regression-gpu.sh BENCH OUTDIR [SUITE [REQUIRE]]
#
# BENCH is the built bench, SUITE a suite name or file (default gpu), REQUIRE what
# --require-device asks (default gpu). Exit 1 when a run fails.
set -euo pipefail
bench=$1 out=$2 suite=${3:-gpu} require=${4:-gpu}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$out"

run() { # NAME [args]
	local name=$1 s e
	shift
	s=$(date +%s.%N)
	"$bench" suite "$suite" --require-device "$require" --quiet -o "$out/$name" "$@"
	e=$(date +%s.%N)
	python3 -c "print(f'bench suite $suite ($name): {$e - $s:.1f} s wall')"
}
run run1
run run2
python3 "$root/scripts/plant-slowdown.py" "$root/kernels" "$out/planted" 10
run planted --kernels "$out/planted"
# exit 1 is "something regressed": the counts are the result here
"$bench" compare "$out"/run1/*--*.json "$out"/run2/*--*.json --quiet --json "$out/same.json" || [ $? -eq 1 ]
"$bench" compare "$out"/run1/*--*.json "$out"/planted/*--*.json --quiet --json "$out/planted.json" || [ $? -eq 1 ]

python3 - "$out" <<'PY'
import collections, json, sys
out = sys.argv[1]
for name in ("same", "planted"):
    doc = json.load(open(f"{out}/{name}.json"))
    rows = doc["points"]
    counts = collections.Counter(r["verdict"] for r in rows)
    print(f"{name}: {len(rows)} points: " + ", ".join(f"{v} {counts[v]}" for v in sorted(counts)))
    def planted(r):
        p = r.get("params") or {}
        return r.get("benchmark") == "vecadd" and p.get("variant") in (2, 3, 4)
    if name == "same":
        u = counts["unchanged"] / len(rows) if rows else 0
        print(f"  unchanged {100 * u:.1f} %, regressed {counts['regressed']} (wanted: 0 regressed, >= 90 % unchanged)")
        for r in rows:
            if r["verdict"] == "regressed":
                print(f"  regressed: {r.get('benchmark')} {r.get('params')}")
    else:
        hit = [r for r in rows if planted(r)]
        reg = sum(r["verdict"] == "regressed" for r in hit)
        other = [r for r in rows if not planted(r) and r["verdict"] == "regressed"]
        print(f"  planted (vecadd variants 2-4): {reg} of {len(hit)} regressed = "
              f"{100 * reg / max(len(hit), 1):.1f} % (wanted >= 95 %); other points regressed: {len(other)} (wanted 0)")
        for r in hit:
            if r["verdict"] != "regressed":
                print(f"  planted but {r['verdict']}: {r.get('params')} ratio {r.get('ratio')}")
PY
