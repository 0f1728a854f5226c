#!/usr/bin/env bash
# Sets up, builds with warnings as errors, and runs the whole test suite on both CPU
# OpenCL platforms; then the unit and cli suites again under AddressSanitizer and
# UBSan. Ends with one summary line "N passed, N failed, N skipped".
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
"$root/scripts/setup.sh" || exit 1
. "$root/scripts/env.sh"

pass=0 fail=0 skip=0
run_suite() { # DIR [meson test args]
	local dir=$1 rc
	shift
	meson test -C "$dir" --print-errorlogs --num-processes 2 "$@"
	rc=$?
	read -r p f s < <(python3 "$root/tests/summary.py" "$dir/meson-logs/testlog.json")
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	return $rc
}

rc=0
"$root/scripts/build.sh" build-ci -Dwerror=true -Dbuildtype=debugoptimized || exit 1
run_suite build-ci || rc=1
"$root/scripts/build.sh" build-san -Dwerror=true -Dbuildtype=debug \
	-Db_sanitize=address,undefined -Db_lundef=false || exit 1
ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	run_suite build-san --suite unit --suite cli || rc=1
echo "$pass passed, $fail failed, $skip skipped"
exit $rc
