#!/usr/bin/env bash
# The main job: set up, build, then `bench vecadd --groups 1..48` on the best device
# found (the first GPU, else the CPU platform with the most sub-group features).
# Results: results/vecadd-HOST-TIME.json and .csv. Extra arguments go to bench.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" build
stamp="$(hostname -s)-$(date -u +%Y%m%dT%H%M%SZ)"
exec "$root/scripts/bench" vecadd --groups 1..48 \
	--json "$root/results/vecadd-$stamp.json" --csv "$root/results/vecadd-$stamp.csv" "$@"
