# Source me: points the OpenCL ICD loader at the project's driver registry
# (.deps/icd, made by scripts/setup.sh), so both CPU platforms are visible.
_bench_root=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)
if [ -d "$_bench_root/.deps/icd" ]; then
	export OCL_ICD_VENDORS="$_bench_root/.deps/icd"
fi
unset _bench_root
