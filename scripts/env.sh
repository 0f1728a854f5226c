# Source me: points the OpenCL ICD loader at the project's driver registry
# (.deps/icd, made by scripts/setup.sh), so both CPU platforms are visible.
# BENCH_ICD names another registry of .deps: icd-asan for a build with AddressSanitizer (the
# drivers that abort under it left out), icd-intel-gpu (Debian's Intel GPU driver added by
# `setup.sh --intel-gpu-icd`, its libraries put on LD_LIBRARY_PATH) or icd-intel-gpu-asan.
_bench_root=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)
_bench_icd=$_bench_root/.deps/${BENCH_ICD:-icd}
if [ -d "$_bench_icd" ]; then
	export OCL_ICD_VENDORS="$_bench_icd"
	case ${BENCH_ICD:-icd} in
	icd-intel-gpu*)
		export LD_LIBRARY_PATH="$_bench_root/.deps/intel-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ;;
	esac
elif [ -n "${BENCH_ICD:-}" ]; then
	echo "env.sh: no driver registry $_bench_icd (scripts/setup.sh makes it)" >&2
fi
unset _bench_root _bench_icd
