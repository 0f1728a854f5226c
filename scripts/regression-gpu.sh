#!/usr/bin/env bash
# Measures what the regression loop of docs/ci.md does on a GPU runner: a baseline of several
# runs, back-to-back runs judged against it and against each other (A/A: nothing may regress),
# and planted 10 % and 5 % slowdowns in every benchmark family (scripts/plant-slowdown.py),
# each judged with bench suite's confirmation. Prints every run's wall time (confirmations
# included), the verdict counts, and per family the share of planted points found.
#
#   scripts/regression-gpu.sh BENCH OUTDIR [--suite S] [--require R] [--runs K] [--aa N]
#                             [--percents "10 5"] [--confirm C] [--steps base,aa,plant]
#
# BENCH is the built bench; S a suite (default gpu); R what --require-device asks (default
# gpu); K runs make the baseline (default 5: docs/regression.md); N A/A runs (default 10); C bench suite's
# --confirm (default 2). --steps runs some steps only (each reads what the one before wrote
# in OUTDIR), so that the whole check can be split over several sessions of a machine.
# The planted runs plant two groups of families in turn, so that every point is inside a
# plant in one run and outside it in the other: vecadd,sg-copy,atomics,waves and
# stream,transpose,latency. Exit 1 when a run fails (a regression is a result here), or when
# a judged run breaks the loop's rules (scripts/plant-verdicts.py --strict: a planted point
# `improved`, a point outside the plant `regressed`, a point left uncompared for its
# calibration, a point only one side holds), after every step has run.
set -euo pipefail
bench=$1 out=$2
shift 2
suite=gpu require=gpu runs=5 aa=10 percents="10 5" confirm=2 steps=base,aa,plant
while [ $# -gt 0 ]; do
	case $1 in
	--suite) suite=$2 ;;
	--require) require=$2 ;;
	--runs) runs=$2 ;;
	--aa) aa=$2 ;;
	--percents) percents=$2 ;;
	--confirm) confirm=$2 ;;
	--steps) steps=$2 ;;
	*) echo "regression-gpu: unknown option '$1'" >&2; exit 2 ;;
	esac
	shift 2
done
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
groups=("vecadd,sg-copy,atomics,waves" "stream,transpose,latency")
mkdir -p "$out"

doc() { ls "$out/$1"/*--*.json; }   # the suite document (entries: SUITE-NN-BENCH.json)
suite_run() { # NAME [args]: one run of the suite, its wall time printed
	local name=$1 s e rc=0
	shift
	s=$(date +%s.%N)
	"$bench" suite "$suite" --require-device "$require" --quiet -o "$out/$name" "$@" || rc=$?
	e=$(date +%s.%N)
	python3 -c "print(f'bench suite $suite ($name): {$e - $s:.1f} s wall, exit $rc')"
	# with --baseline, exit 1 is the verdict "regressed": a result, not a failure
	[ $rc -eq 0 ] || { [ $rc -eq 1 ] && [[ " $* " == *" --baseline "* ]]; }
}
failures=0
judge() { # BASE NEW NAME [PLANT_JSON]: bench compare's verdicts, per family where planted
	"$bench" compare "$1" "$2" --quiet --json "$out/$3.json" --markdown "$out/$3.md" || [ $? -eq 1 ]
	# --strict: a planted point improved, a point outside the plant regressed, a point left
	# uncompared for its calibration, or one only one side holds (`new`, `missing`) is a failure
	# of the loop (counted; every step still runs)
	python3 "$root/scripts/plant-verdicts.py" "$out/$3.json" ${4:+"$4"} --strict ||
		{ failures=$((failures + 1)); echo "regression-gpu: $3 FAILED the loop's rules"; }
	python3 "$root/scripts/plant-verdicts.py" "$out/$3.json" ${4:+"$4"} --markdown >"$out/$3.table.md"
}
has() { [[ ",$steps," == *",$1,"* ]]; }

if has base; then
	suite_run base1
	# the later runs time occupancy's probe with the first run's calibration (its spin)
	for i in $(seq 2 "$runs"); do suite_run "base$i" --calibration "$(doc base1)"; done
	"$bench" baseline $(for i in $(seq 1 "$runs"); do doc "base$i"; done) -o "$out/baseline.json"
	echo "baseline of $runs runs: $out/baseline.json"
fi
if has aa; then
	prev=$(doc "base$runs")
	for i in $(seq 1 "$aa"); do
		suite_run "aa$i" --baseline "$out/baseline.json" --confirm "$confirm"
		echo "A/A $i against the baseline, confirmed:"
		judge "$out/baseline.json" "$(doc "aa$i")" "aa$i"
		echo "A/A $i against the run before, one attempt each (bench compare's own bands):"
		"$bench" compare "$prev" "$(doc "aa$i")" --quiet --json "$out/pair$i.json" || [ $? -eq 1 ]
		python3 "$root/scripts/plant-verdicts.py" "$out/pair$i.json" || true
		prev=$(doc "aa$i")
	done
fi
if has plant; then
	for pct in $percents; do
		for g in 0 1; do
			name="plant$pct-$g"
			python3 "$root/scripts/plant-slowdown.py" "$root/kernels" "$out/$name-kernels" "$pct" \
				--family "${groups[$g]}"
			suite_run "$name" --kernels "$out/$name-kernels" --baseline "$out/baseline.json" \
				--confirm "$confirm"
			echo "planted $pct % in ${groups[$g]}, confirmed:"
			judge "$out/baseline.json" "$(doc "$name")" "$name" "$out/$name-kernels/plant.json"
		done
	done
fi
echo "regression-gpu: $failures judged run(s) broke the loop's rules"
[ "$failures" -eq 0 ]
