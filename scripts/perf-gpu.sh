#!/usr/bin/env bash
# The suite's headline kernels beside BabelStream and clpeak, in one process tree on one
# machine, so all see the same clocks: streaming add, the ceiling, the transposes, the 48-point
# sweep, BabelStream's Add and clpeak's global memory bandwidth (host- and event-timed).
# Prints each figure and the ratios taken in this run; writes the documents to OUTDIR.
#
#   scripts/perf-gpu.sh BENCH BABELSTREAM OUTDIR [DEVICE]
#
# BENCH is the built bench, BABELSTREAM the babelstream-ocl binary (BabelStream's OpenCL
# model), DEVICE a --device spec (default: NVIDIA). clpeak is $CLPEAK, else clpeak on PATH
# (Debian's clpeak); without it its lines say so. Exit 1 when a run fails.
set -euo pipefail
bench=$1 babel=$2 out=$3 dev=${4:-NVIDIA}
mkdir -p "$out"

# clpeak on the same device: its platform and device indices are the loader's order, as bench's
clpeak=${CLPEAK:-$(command -v clpeak || true)}
if [ -n "$clpeak" ]; then
	read -r cp cd < <("$bench" info --json --device "$dev" | python3 -c \
		'import json, sys; d = json.load(sys.stdin)[0]; print(d["platform_index"], d["device_index"])')
	"$clpeak" -p "$cp" -d "$cd" --global-bandwidth >"$out/clpeak.txt"
	"$clpeak" -p "$cp" -d "$cd" --global-bandwidth --use-event-timer >"$out/clpeak-events.txt"
fi

babel_index=$("$babel" --list | awk -v d="$dev" 'tolower($0) ~ tolower(d) { sub(":", "", $1); print $1; exit }')
[ -n "$babel_index" ] || { echo "perf-gpu: BabelStream lists no device matching '$dev'" >&2; exit 1; }
# 1 GiB arrays: 2^28 floats, 2^27 doubles
"$babel" --device "$babel_index" --float -s 268435456 -n 20 >"$out/babel-float.txt"
"$babel" --device "$babel_index" -s 134217728 -n 20 >"$out/babel-double.txt"

"$bench" vecadd --device "$dev" --variant 5 --n 256Mi --vec all --loop all --per-item 1,2,4,8 \
	--reps 20 --json "$out/stream.json" >"$out/stream.txt"
"$bench" vecadd --device "$dev" --variant 1 --n 256Mi --reps 20 --json "$out/v1.json" >"$out/v1.txt"
"$bench" transpose --device "$dev" --n 8192 --reps 20 --json "$out/transpose.json" >"$out/transpose.txt"
for i in 1 2 3; do
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

bf, bd = babel(f"{out}/babel-float.txt", "Add"), babel(f"{out}/babel-double.txt", "Add")
best_babel = max(bf, bd)
s = doc("stream.json")
d = s["device"]
print(f"device: {d.get('name')} | driver {d.get('driver_version')} | {d.get('platform')}")
ok = [p for p in s["points"] if p["status"] == "ok"]
best = max(ok, key=lambda p: p["metrics"]["gbps"])
bp = best["params"]
print(f"BabelStream Add: float {bf:.0f} GB/s, double {bd:.0f} GB/s (1 GiB arrays)")
print(f"streaming add, fastest shape uint{bp['vec']} x{bp['per_item']} {bp['loop']}: "
      f"{best['metrics']['gbps']:.0f} GB/s = {best['metrics']['gbps'] / best_babel:.3f} x BabelStream Add")
m = best["metrics"]
print(f"ceiling at 1 GiB: {m['ceiling_gbps']:.0f} GB/s by {m['ceiling_by']} (clEnqueueCopyBuffer "
      f"{m['copy_gbps']:.0f}, stream_copy {m.get('stream_copy_gbps', 0):.0f}); streaming add "
      f"{m['fraction_of_ceiling']:.3f} of it")
cp, cpe = clpeak(f"{out}/clpeak.txt"), clpeak(f"{out}/clpeak-events.txt")
if cp:
    print(f"clpeak global memory bandwidth, best width: {cp[0]:.0f} GB/s ({cp[1]}, host clock), "
          f"{cpe[0]:.0f} GB/s ({cpe[1]}, event clock)")
    print(f"  streaming add {best['metrics']['gbps'] / cp[0]:.3f} x clpeak; the ceiling "
          f"{m['ceiling_gbps'] / cp[0]:.3f} x clpeak")
else:
    print("clpeak: not run (no clpeak on PATH and no CLPEAK)")
v1 = doc("v1.json")["points"][0]
print(f"variant 1 (one int per work-item, local size {v1['params']['wg_size']} by the driver): "
      f"{v1['metrics']['gbps']:.0f} GB/s = {v1['metrics']['gbps'] / best_babel:.3f} x BabelStream Add")
t = doc("transpose.json")["points"]
def tname(p):   # the shuffle variant's points by shape ("shuffle 32 v4 x1 butterfly cols")
    q = p["params"]
    return q["variant"] + (f" {q['tile']} v{q['vec']} x{q['tiles_per_sg']} {q['exchange']} {q['walk']}"
                           if q.get("tile") is not None else "")
# guide16 is the guide's one 16 x 16 matrix whatever --n says: no bandwidth to speak of
by = {tname(p): p for p in t if p["status"] == "ok" and p["params"]["variant"] != "guide16"}
for name, p in sorted(by.items()):
    mm = p["metrics"]
    print(f"transpose 8192^2 {name}: {mm['gbps']:.0f} GB/s, {mm.get('fraction_of_ceiling', 0):.3f} of the ceiling"
          + (f", {mm['gbps'] / by['local']['metrics']['gbps']:.3f} x local" if "local" in by else ""))
walls = []
for i in (1, 2, 3):
    a, b = map(float, open(f"{out}/sweep{i}.wall").read().split())
    walls.append(b - a)
print("sweep `bench vecadd --groups 1..48` wall: " + ", ".join(f"{w:.2f} s" for w in walls))
EOF
