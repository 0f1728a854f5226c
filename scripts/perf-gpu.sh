#!/usr/bin/env bash
# The suite's headline kernels beside BabelStream and clpeak, in one process tree on one
# machine, so all see the same clocks: streaming add, the memory roof, the transposes, the
# 48-point sweep, BabelStream's Add and clpeak's global memory bandwidth (host- and
# event-timed). Prints each figure and the ratios taken in this run; writes the documents to
# OUTDIR.
#
#   scripts/perf-gpu.sh BENCH BABELSTREAM OUTDIR [DEVICE]
#
# BENCH is the built bench, BABELSTREAM the babelstream-ocl binary (BabelStream's OpenCL
# model; `-` or a missing file leaves it out), DEVICE a --device spec (default: NVIDIA).
# clpeak is $CLPEAK, else clpeak on PATH (Debian's clpeak); without it the script says so and
# goes on. For a quick run on a CPU platform: PERF_N (streaming elements, default 256Mi),
# PERF_TN (the transpose's n, default 8192), PERF_SWEEPS (sweeps timed, default 3).
# PERF_TRANSPOSE adds arguments to the transpose run (shapes to try: docs/measured.md).
# Exit 1 when a run fails.
set -euo pipefail
bench=$1 babel=$2 out=$3 dev=${4:-NVIDIA}
n=${PERF_N:-256Mi} tn=${PERF_TN:-8192} sweeps=${PERF_SWEEPS:-3}
mkdir -p "$out"
rm -f "$out"/clpeak*.txt "$out"/babel-*.txt "$out"/sweep*.wall

# clpeak on the same device: its platform and device indices are the loader's order, as bench's
clpeak=${CLPEAK:-$(command -v clpeak || true)}
if [ -n "$clpeak" ] && [ -x "$clpeak" ]; then
	read -r cp cd < <("$bench" info --json --device "$dev" | python3 -c \
		'import json, sys; d = json.load(sys.stdin)[0]; print(d["platform_index"], d["device_index"])')
	"$clpeak" -p "$cp" -d "$cd" --global-bandwidth >"$out/clpeak.txt"
	"$clpeak" -p "$cp" -d "$cd" --global-bandwidth --use-event-timer >"$out/clpeak-events.txt"
else
	echo "perf-gpu: clpeak not found (CLPEAK unset and no clpeak on PATH): going on without it" >&2
fi

if [ "$babel" != - ] && [ -x "$babel" ]; then
	# BabelStream lists devices by name: the one bench's --device picks
	name=$("$bench" info --json --device "$dev" | python3 -c \
		'import json, sys; print(json.load(sys.stdin)[0]["name"])')
	babel_index=$("$babel" --list | awk -v d="$name" '{ i = $1; sub(":", "", i); $1 = "" }
		substr($0, 2) == d { print i; exit }')
	[ -n "$babel_index" ] || { echo "perf-gpu: BabelStream lists no device named '$name'" >&2; exit 1; }
	# the streaming runs' arrays: n floats, n / 2 doubles (1 GiB each at the default 256Mi)
	elems=$(python3 -c 'import sys; s = sys.argv[1]; u = {"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30}
print(int(s[:-2]) * u[s[-2:]] if s[-2:] in u else int(s))' "$n")
	"$babel" --device "$babel_index" --float -s "$elems" -n 20 >"$out/babel-float.txt"
	"$babel" --device "$babel_index" -s $((elems / 2)) -n 20 >"$out/babel-double.txt"
else
	echo "perf-gpu: BabelStream not found ('$babel'): going on without it" >&2
fi

"$bench" vecadd --device "$dev" --variant 5 --n "$n" --vec all --loop all --per-item 1,2,4,8 \
	--reps 20 --json "$out/stream.json" >"$out/stream.txt"
"$bench" vecadd --device "$dev" --variant 1 --n "$n" --reps 20 --json "$out/v1.json" >"$out/v1.txt"
# shellcheck disable=SC2086  # PERF_TRANSPOSE is a list of arguments
"$bench" transpose --device "$dev" --n "$tn" --reps 20 ${PERF_TRANSPOSE:-} \
	--json "$out/transpose.json" >"$out/transpose.txt"
for i in $(seq 1 "$sweeps"); do
	s=$(date +%s.%N)
	"$bench" vecadd --device "$dev" --groups 1..48 --json "$out/sweep$i.json" >"$out/sweep$i.txt"
	e=$(date +%s.%N)
	echo "$s $e" >"$out/sweep$i.wall"
done

python3 - "$out" <<'EOF'
import json, re, sys
out = sys.argv[1]

def babel(path, fn):
    for line in open(path):
        f = line.split()
        if f and f[0] == fn:
            return float(f[1]) / 1000.0   # MB/s -> GB/s
    raise SystemExit(f"perf-gpu: no {fn} line in {path}")

def doc(name):
    return json.load(open(f"{out}/{name}"))

def clpeak(path):
    """clpeak's global memory bandwidth, best width: (GB/s, width), or None without the file."""
    try:
        text = open(path).read()
    except FileNotFoundError:
        return None
    got = re.findall(r"^\s*(float\d*)\s*:\s*([0-9.]+)", text.split("Global memory bandwidth", 1)[-1], re.M)
    if not got:
        raise SystemExit(f"perf-gpu: no global bandwidth in {path}")
    w, g = max(got, key=lambda x: float(x[1]))
    return float(g), w

def maybe_babel(path, fn):
    try:
        return babel(path, fn)
    except FileNotFoundError:
        return None

def roof_of(d):
    """The document's roof at its largest size (the record with the most bytes), or None."""
    recs = [r for r in d.get("roof") or [] if r.get("gbps")]
    return max(recs, key=lambda r: r["bytes"]) if recs else None

def roof_line(r):
    cands = ", ".join(f"{c['kernel']} {c['shape']} {c['gbps']:.0f}" for c in r["candidates"]
                      if c.get("gbps"))
    return (f"{r['gbps']:.0f} GB/s by {r['by']} {r['shape']} at {r['bytes'] / 2**20:.0f} MiB each "
            f"way (candidates, GB/s: {cands})")

bf, bd = maybe_babel(f"{out}/babel-float.txt", "Add"), maybe_babel(f"{out}/babel-double.txt", "Add")
best_babel = max(bf, bd) if bf and bd else None
s = doc("stream.json")
d = s["device"]
print(f"device: {d.get('name')} | driver {d.get('driver_version')} | {d.get('platform')}")
ok = [p for p in s["points"] if p["status"] == "ok"]
best = max(ok, key=lambda p: p["metrics"]["gbps"])
bp = best["params"]
m = best["metrics"]
g = m["gbps"]
shape = f"uint{bp['vec']} x{bp['per_item']} {bp['loop']}"
if best_babel:
    print(f"BabelStream Add: float {bf:.0f} GB/s, double {bd:.0f} GB/s")
    print(f"streaming add, fastest shape {shape}: {g:.0f} GB/s = {g / best_babel:.3f} x BabelStream Add")
else:
    print("BabelStream: not run")
    print(f"streaming add, fastest shape {shape}: {g:.0f} GB/s")
roof = roof_of(s)
if roof:
    print(f"memory roof: {roof_line(roof)}")
print(f"  streaming add {m['fraction_of_ceiling']:.3f} of the roof ({m['ceiling_by']} "
      f"{m.get('ceiling_shape', '')}; clEnqueueCopyBuffer {m['copy_gbps']:.0f} GB/s)")
for f in s.get("roof_findings") or []:
    q = f["params"]
    print(f"  FINDING: {f['benchmark']} uint{q.get('vec')} x{q.get('per_item')} {q.get('loop')} "
          f"{f['gbps']:.0f} GB/s = {f['fraction_of_roof']:.3f} x the roof {f['roof_gbps']:.0f} GB/s "
          f"({f['roof_by']} {f['roof_shape']}), beyond the noise (+-{100 * f['noise']:.1f} %)")
cp, cpe = clpeak(f"{out}/clpeak.txt"), clpeak(f"{out}/clpeak-events.txt")
if cp:
    print(f"clpeak global memory bandwidth, best width: {cp[0]:.0f} GB/s ({cp[1]}, host clock), "
          f"{cpe[0]:.0f} GB/s ({cpe[1]}, event clock)")
    if roof:
        print(f"  the roof {roof['gbps'] / cp[0]:.3f} x clpeak (host clock), "
              f"{roof['gbps'] / cpe[0]:.3f} x (event clock); set by {roof['by']} {roof['shape']}")
    print(f"  streaming add {g / cp[0]:.3f} x clpeak")
else:
    print("clpeak: not found, not run (no clpeak on PATH and no CLPEAK)")
v1 = doc("v1.json")["points"][0]
print(f"variant 1 (one int per work-item, local size {v1['params']['wg_size']} by the driver): "
      f"{v1['metrics']['gbps']:.0f} GB/s" +
      (f" = {v1['metrics']['gbps'] / best_babel:.3f} x BabelStream Add" if best_babel else ""))
td = doc("transpose.json")
t = td["points"]
def tname(p):   # the shuffle variant's points by shape ("shuffle 32 v4 x1 butterfly cols")
    q = p["params"]
    return q["variant"] + (f" {q['tile']} v{q['vec']} x{q['tiles_per_sg']} {q['exchange']} {q['walk']}"
                           if q.get("tile") is not None else "")
# guide16 is the guide's one 16 x 16 matrix whatever --n says: no bandwidth to speak of
by = {tname(p): p for p in t if p["status"] == "ok" and p["params"]["variant"] != "guide16"}
troof = roof_of(td)
if troof:
    print(f"transpose's roof: {roof_line(troof)}")
for name, p in sorted(by.items()):
    mm = p["metrics"]
    print(f"transpose {p['params']['n']}^2 {name}: {mm['gbps']:.0f} GB/s, "
          f"{mm.get('fraction_of_ceiling', 0):.3f} of the roof"
          + (f", {mm['gbps'] / by['local']['metrics']['gbps']:.3f} x local" if "local" in by else ""))
walls = []
i = 1
while True:
    try:
        a, b = map(float, open(f"{out}/sweep{i}.wall").read().split())
    except FileNotFoundError:
        break
    walls.append(b - a)
    i += 1
print("sweep `bench vecadd --groups 1..48` wall: " + ", ".join(f"{w:.2f} s" for w in walls))
EOF
