#!/usr/bin/env bash
# Installs everything the suite needs on Debian 12 and registers both CPU OpenCL
# platforms for the project's runs and tests. Safe to run again: it installs only
# what is missing.
#
#   apt:  build tools, the ICD loader and headers, jansson, PoCL, clinfo; for the fuzz
#         suite only, clang and its libFuzzer (without them that suite is skipped)
#   pip:  Intel's CPU OpenCL runtime (intel-opencl-rt + intel-cmplr-lib-rt) into
#         the project-local prefix .deps/intel (a virtual environment)
#   icd:  .deps/icd holds one .icd file per driver: the system's (/etc/OpenCL/vendors)
#         and Intel's runtime; scripts/env.sh points OCL_ICD_VENDORS at it.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps="$root/.deps"
intel_pkgs=(intel-opencl-rt==2026.2.0 intel-cmplr-lib-rt==2026.2.0)
apt_pkgs=(gcc meson ninja-build pkg-config python3 python3-venv ocl-icd-libopencl1
	ocl-icd-opencl-dev opencl-c-headers opencl-headers pocl-opencl-icd clinfo libjansson-dev)
fuzz_pkgs=(clang libclang-rt-dev)   # tests/fuzz: libFuzzer harnesses built by clang

log() { printf 'setup: %s\n' "$*" >&2; }

install_apt() { # PACKAGE...
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing Debian packages: ${missing[*]}"
	local sudo=()
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null || { log "need root (or sudo) to install: ${missing[*]}"; exit 1; }
		sudo=(sudo)
	fi
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >/dev/null
}

install_intel() {
	local venv="$deps/intel"
	if [ -e "$venv/lib/libintelocl.so" ] && [ -e "$venv/lib/libimf.so" ]; then
		return 0
	fi
	log "installing Intel's CPU OpenCL runtime into $venv"
	rm -rf "$venv"
	python3 -m venv "$venv" 2>/dev/null || /usr/bin/python3 -m venv "$venv"
	"$venv/bin/python" -m pip install --disable-pip-version-check -q "${intel_pkgs[@]}"
	[ -e "$venv/lib/libintelocl.so" ] || { log "libintelocl.so missing after install"; exit 1; }
}

register_icds() {
	local dir="$deps/icd" f
	mkdir -p "$dir"
	rm -f "$dir"/*.icd
	for f in /etc/OpenCL/vendors/*.icd; do
		[ -e "$f" ] && cp "$f" "$dir/"
	done
	echo "$deps/intel/lib/libintelocl.so" >"$dir/intel-cpu.icd"
}

install_apt "${apt_pkgs[@]}"
# The fuzz suite alone needs clang: where it cannot be installed, that suite is skipped (77).
( install_apt "${fuzz_pkgs[@]}" ) || log "clang not installed: the fuzz suite will be skipped"
install_intel
register_icds
log "OpenCL drivers registered in $deps/icd: $(cd "$deps/icd" && echo *.icd)"
