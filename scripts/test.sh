#!/usr/bin/env bash
# Sets up, builds with warnings as errors, and runs the whole test suite on both CPU
# OpenCL platforms; then the tests of the unit and cli suites that run the build's own code
# again under AddressSanitizer and UBSan; then, on the machine shape of a user with Debian's
# Intel GPU driver and no Intel GPU, the tests whose outcome that registry can change (device
# choice and listing, the registry, signals, hangs, faults and child processes: tests/stage_tests.py
# says which and why), and the cli suite's again under the sanitizers where they keep that driver
# (where they refuse it, that registry is the one the sanitizer stage has run on). Prints each
# stage's wall time and the 15 slowest tests (tests/timetable.py).
# The intel-offline suite (every kernel compiled for Intel GPUs by ocloc, from the driver
# setup.sh unpacks) runs with the others.
# Ends with one summary line "N passed, N failed, N skipped".
#
# test.sh --repeat N [--load K]: the record of stability instead: the cpu, cli, schema and
# report suites N times each (N meson test runs) on both CPU platforms, with K busy
# processes started beside them (default 1: the cores under load), then every test that
# failed at least once, with its count and the end of a failing run's output.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

repeat=0 load=1
usage() { echo "usage: test.sh [--repeat N [--load K]]: $1" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--repeat) [[ ${2-} =~ ^[1-9][0-9]{0,3}$ ]] || usage "--repeat '${2-}': give 1..9999"
		repeat=$2; shift 2 ;;
	--load) [[ ${2-} =~ ^[0-9]{1,2}$ ]] || usage "--load '${2-}': give 0..99 busy processes"
		load=$2; shift 2 ;;
	*) usage "unknown argument '$1'" ;;
	esac
done
[ "$repeat" -gt 0 ] || [ "$load" -eq 1 ] || usage "--load goes with --repeat"

t0=$SECONDS
"$root/scripts/setup.sh" --intel-gpu-icd || exit 1
. "$root/scripts/env.sh"
stages=("set-up=$((SECONDS - t0))")   # STAGE=SECONDS[=TESTLOG], for tests/timetable.py
# A test's timeout guards against a hang, never against a slow run: on a loaded 2-core
# runner a test may take several times its idle time (each test's own is in its meson.build).
timeouts="--timeout-multiplier 4"

if [ "$repeat" -gt 0 ]; then
	"$root/scripts/build.sh" build-ci -Dwerror=true -Dbuildtype=debugoptimized || exit 1
	hogs=()
	trap 'kill "${hogs[@]}" 2>/dev/null' EXIT
	for _ in $(seq 1 "$load"); do
		sh -c 'while :; do :; done' &
		hogs+=($!)
	done
	# every repetition its own run, never one made once for the build (benchtest.run_once)
	export BENCH_TEST_FRESH=1
	# one meson test run a repetition, each its own log: `meson test --repeat N` stops at the
	# first failure, and the record would end there
	logs=()
	for i in $(seq 1 "$repeat"); do
		logs+=("build-ci/meson-logs/testlog-repeat$i-default.json")
		rm -f "${logs[-1]}"
		meson test -C build-ci --setup default --num-processes 2 $timeouts --suite cpu \
			--suite cli --suite schema --suite report --logbase "testlog-repeat$i" >/dev/null
	done
	python3 "$root/tests/stability.py" "${logs[@]}"
	exit $?
fi

pass=0 fail=0 skip=0 stage_n=0
build() { # DIR [meson options]: configures and builds DIR, its wall time a stage
	local t=$SECONDS
	"$root/scripts/build.sh" "$@" || exit 1
	stages+=("build $1=$((SECONDS - t))")
}
run_suite() { # DIR SETUP [LABEL=WHAT] [meson test args]
	local dir=$1 setup=$2 rc t=$SECONDS log label
	shift 2
	label=${*:+ $*}
	case ${1-} in LABEL=*) label=" ${1#LABEL=}"; shift ;; esac
	# each stage its own log (two stages may share a setup), kept for the time table
	stage_n=$((stage_n + 1))
	log="$dir/meson-logs/testlog-stage$stage_n-$setup.json"
	rm -f "$log"
	meson test -C "$dir" --setup "$setup" --print-errorlogs --num-processes 2 $timeouts \
		--logbase "testlog-stage$stage_n" "$@"
	rc=$?
	stages+=("$stage_n $dir $setup$label=$((SECONDS - t))=$log")
	read -r p f s < <(python3 "$root/tests/summary.py" "$log" ||
		echo "0 1 0")   # no log: meson could not run the tests
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	return $rc
}
choose() { # ARRAY DIR sanitizers|intelgpu: the tests a later stage runs (tests/stage_tests.py)
	local out
	out=$(python3 "$root/tests/stage_tests.py" "$2" "$3") && [ -n "$out" ] || {
		echo "test.sh: tests/stage_tests.py chose no test for $3 in $2" >&2; exit 1; }
	mapfile -t "$1" <<<"$out"
}

rc=0
build build-ci -Dwerror=true -Dbuildtype=debugoptimized
# the runs tests share (benchtest.run_once) and the programs they build (host/pcache.h): made
# again by this run, each program compiled from source once before tests load its binary
rm -rf build-ci/test-cache build-ci/program-cache build-san/program-cache
run_suite build-ci default || rc=1
build build-san -Dwerror=true -Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false
[ -s .deps/icd-asan/LEFT-OUT ] &&
	echo "the sanitizer runs leave out of the driver registry: $(cat .deps/icd-asan/LEFT-OUT)"
# the tests of the unit and cli suites that run a program of the build (tests/stage_tests.py)
choose san_tests build-san sanitizers
ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	run_suite build-san default "LABEL=unit+cli: ${#san_tests[@]} run built code" "${san_tests[@]}" ||
	rc=1

# intel-opencl-icd registered, no Intel GPU (setup.sh --intel-gpu-icd, meson setup intelgpu).
if [ -d .deps/icd-intel-gpu ]; then
	echo "with Intel's GPU driver registered: $(cat .deps/intel-gpu/PACKAGES 2>/dev/null |
		tr '\n' ' ' || echo "the system's")"
	[ -s .deps/icd-intel-gpu-asan/LEFT-OUT ] &&
		echo "the sanitizer runs leave out: $(cat .deps/icd-intel-gpu-asan/LEFT-OUT)"
	# without the sanitizers the driver loads (and finds no device): bench sees both CPUs.
	# What that can change is run again (tests/stage_tests.py intelgpu): the device choice and
	# listing, the registry, and what happens to a process the driver is loaded in; a kernel
	# run on a platform named is the same run with either registry, and is not run again.
	choose igpu_tests build-ci intelgpu
	run_suite build-ci intelgpu "LABEL=${#igpu_tests[@]} tests of the registry" \
		"${igpu_tests[@]}" || rc=1
	# with them it would abort every process: the whole cli suite, on the filtered registry;
	# where the filter leaves out the Intel GPU driver, that registry holds the very drivers of
	# .deps/icd-asan, and the sanitizer stage above has run these tests on them already
	if [ "$(cat .deps/icd-intel-gpu-asan/*.icd | sort)" = "$(cat .deps/icd-asan/*.icd | sort)" ]; then
		echo "the cli suite under the sanitizers with Intel's GPU driver: not again, its" \
			"registry less what the sanitizers refuse is .deps/icd-asan's, run above"
	else
		ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
			run_suite build-san intelgpu "LABEL=unit+cli: ${#san_tests[@]} run built code" \
			"${san_tests[@]}" || rc=1
	fi
else
	echo "skipped: the Intel GPU driver runs (Debian's intel-opencl-icd could not be fetched)"
	skip=$((skip + 1))
fi
# where the time went (docs/tests.md, "Where the time goes"), then the counts, last
python3 "$root/tests/timetable.py" "${stages[@]}"
echo "$pass passed, $fail failed, $skip skipped"
exit $rc
