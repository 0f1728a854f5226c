#!/bin/bash
# The documented CI loop (docs/ci.md) from a fresh installed runner, each step's wall time.
#
# usage: scripts/ci-loop-time.sh BUILD_DIR WORK_DIR [SUITE] [LNT]
# Installs BUILD_DIR with meson install --destdir into WORK_DIR/dest, then in WORK_DIR/work:
# 5 runs of SUITE (default quick) as the history, a baseline of them, a judged run confirmed
# (--confirm 2), the comparison with its reports, the history check, bench export lnt of 3 runs
# (summaries, then --samples) and, where LNT names an lnt executable, lnt import of each 3 into a
# new instance. The device is BENCH_DEVICE's (set it: PoCL); bench history's Otava BENCH_OTAVA's.
# Prints one line a step: the command, its exit code, its wall time. WORK_DIR is emptied first.
set -u
build=$1 top=$2 suite=${3:-quick} lnt=${4:-}
[ -d "$build" ] || { echo "usage: $0 BUILD_DIR WORK_DIR [SUITE] [LNT]" >&2; exit 2; }
rm -rf "$top" && mkdir -p "$top/work"
meson install -C "$build" --destdir "$top/dest" --no-rebuild --quiet >/dev/null || exit 1
bin=$(dirname "$(find "$top/dest" -path '*/bin/bench' | head -n 1)")
data=$(dirname "$bin")/share/gpu-occupancy-bench
export PATH="$bin:$PATH"
unset BENCH_PROGRAM_CACHE
cd "$top/work" || exit 1
t() {
	local s e rc
	s=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	rc=$?
	e=$(date +%s.%N)
	printf '%-70.70s exit %3d %7.1f s\n' "$*" "$rc" "$(echo "$e - $s" | bc)"
}
for i in 1 2 3 4 5; do t bench suite "$suite" -o "H/run$i" --quiet; done
t bench baseline H/run?/*--"$suite".json -o baseline.json
t bench suite "$suite" --baseline baseline.json --confirm 2 -o new --quiet
t bench compare baseline.json new/*--"$suite".json --junit report.xml --metrics metrics.txt \
	--markdown compare.md --json compare.json --quiet
t bench history H new --json history.json --quiet
for i in 1 2 3; do t bench export lnt H/run$i/*--"$suite".json --order $i -o run$i.lnt; done
for i in 1 2 3; do t bench export lnt H/run$i/*--"$suite".json --order $i --samples -o run$i.all.lnt; done
[ -n "$lnt" ] || exit 0
for kind in "" .all; do
	rm -rf inst && "$lnt" create inst >/dev/null 2>&1 && cp "$data/lnt/bench.yaml" inst/schemas/
	t "$lnt" import inst run1$kind.lnt run2$kind.lnt run3$kind.lnt -s bench
done
