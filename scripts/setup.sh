#!/usr/bin/env bash
# Installs everything the suite needs on Debian 12 and registers both CPU OpenCL
# platforms for the project's runs and tests. Safe to run again: it installs only
# what is missing, and never replaces, upgrades or registers system-wide a driver.
#
#   apt:  build tools, the ICD loader and headers (and ocl-icd-dev: the loader's version for
#         bench --version), jansson, PoCL, clinfo, matplotlib and jsonschema (for bench report:
#         its charts, and its documents judged against results/schema as bench compare judges
#         them); for tests only, clang and its libFuzzer (the fuzz suite), chromium (the report
#         rendered), oclgrind (the simulated device), cmake (CTest running bench validate's
#         GoogleTest interface), strace and groff (the installed bench, its manual pages), and
#         Debian's packaging tools (the package suite): a suite whose tool cannot be installed
#         is skipped (77). oclgrind is never registered as a driver.
#   pip:  Apache Otava (apache-otava, bench history's change points) into .deps/otava;
#         Intel's CPU OpenCL runtime (intel-opencl-rt + intel-cmplr-lib-rt) into
#         the project-local prefix .deps/intel (a virtual environment)
#   icd:  .deps/icd holds one .icd file per driver: the system's (/etc/OpenCL/vendors)
#         and Intel's runtime; scripts/env.sh points OCL_ICD_VENDORS at it.
#         .deps/icd-asan holds those of them that run in a process built with
#         AddressSanitizer (each is tried; LEFT-OUT there names the others and why).
#
# setup.sh --intel-gpu-icd also makes the machine shape of a user with Debian's Intel GPU
# driver and no Intel GPU, for `meson test --setup intelgpu`: intel-opencl-icd and the
# libraries it needs that the system lacks are downloaded (apt-get download) and unpacked
# into .deps/intel-gpu, and registered, beside every driver of .deps/icd, in
# .deps/icd-intel-gpu (and -asan). Where the system already registers Intel's GPU driver,
# that registry is .deps/icd as it is. The package carries ocloc, Intel's offline compiler
# (.deps/intel-gpu/usr/bin/ocloc, or /usr/bin/ocloc where the system has the package), which
# bench compile and the intel-offline suite run with the unpacked libraries on the child's
# LD_LIBRARY_PATH only: nothing is installed or registered system-wide.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# .deps by its physical path: the drivers' .icd files name libraries under it, and a .deps that
# is a link shared by several checkouts must name them where they are, not through one
# checkout's link (which goes when that checkout does)
mkdir -p "$root/.deps"
deps=$(cd "$root/.deps" && pwd -P)
intel_pkgs=(intel-opencl-rt==2026.2.0 intel-cmplr-lib-rt==2026.2.0)
apt_pkgs=(gcc meson ninja-build pkg-config python3 python3-venv ocl-icd-libopencl1
	ocl-icd-opencl-dev ocl-icd-dev opencl-c-headers opencl-headers pocl-opencl-icd clinfo
	libjansson-dev python3-matplotlib python3-jsonschema)   # bench report: its charts; its
	# documents judged
fuzz_pkgs=(clang libclang-rt-dev)   # tests/fuzz: libFuzzer harnesses built by clang
check_pkgs=(chromium oclgrind libxml2-utils cmake strace groff-base)   # tests only: the report
	# rendered; kernels under a simulator; JUnit against its XSD; CTest discovering bench
	# validate's checks as GoogleTest tests; the installed bench's file accesses; the manual
	# pages rendered
package_pkgs=(dpkg-dev debhelper fakeroot lintian)   # tests only: the Debian package built and checked
with_intel_gpu=false

log() { printf 'setup: %s\n' "$*" >&2; }

for arg in "$@"; do
	case $arg in
	--intel-gpu-icd) with_intel_gpu=true ;;
	*) log "usage: setup.sh [--intel-gpu-icd]: unknown argument '$arg'"; exit 2 ;;
	esac
done

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }

as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		env DEBIAN_FRONTEND=noninteractive "$@"
	else
		command -v sudo >/dev/null || { log "need root (or sudo) to run: $*"; return 1; }
		sudo env DEBIAN_FRONTEND=noninteractive "$@"
	fi
}

install_apt() { # PACKAGE...
	local missing=() p
	for p in "$@"; do
		installed "$p" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing Debian packages: ${missing[*]}"
	as_root apt-get update -qq
	as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
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

# Apache Otava (PyPI apache-otava), the change-point detector bench history runs, into
# .deps/otava: a venv of its own, as Intel's runtime has. Where PyPI cannot be reached, the
# history tests are skipped (77).
otava_version=0.8.0
install_otava() {
	local venv="$deps/otava"
	# the installed version by its metadata folder: not `pip show ... | grep -q`, which under
	# pipefail fails whenever grep exits before pip has written (SIGPIPE), and then removed and
	# installed Otava again on one run in three (40 s and the network)
	# and a venv made at another path (a copied or moved .deps) whose scripts name an
	# interpreter that is not this one: otava then exits 127 and the history tests fail
	[ -x "$venv/bin/otava" ] && [ "$(head -n 1 "$venv/bin/otava")" = "#!$venv/bin/python" ] &&
		compgen -G "$venv/lib/python3*/site-packages/apache_otava-$otava_version.dist-info" \
			>/dev/null && return 0
	log "installing Apache Otava $otava_version into $venv"
	rm -rf "$venv"
	python3 -m venv "$venv" 2>/dev/null || /usr/bin/python3 -m venv "$venv"
	"$venv/bin/python" -m pip install --disable-pip-version-check -q "apache-otava==$otava_version"
}

# A registry folder made whole beside DIR, then copied into DIR a file at a time where it
# differs, each by a rename (a name not ending in .icd until then), and DIR's other .icd files
# removed: a run of setup.sh never leaves DIR empty or a file half written under a test run
# that reads it (.deps may be shared by several checkouts).
new_registry() { # DIR: prints the folder to fill
	mktemp -d "$1.new.XXXXXX"
}
put_registry() { # NEW DIR
	local f
	mkdir -p "$2"
	for f in "$1"/*.icd; do
		cmp -s "$f" "$2/${f##*/}" && continue
		cp "$f" "$2/${f##*/}.part"
		mv -f "$2/${f##*/}.part" "$2/${f##*/}"
	done
	for f in "$2"/*.icd; do
		[ -e "$f" ] && [ ! -e "$1/${f##*/}" ] && rm -f "$f"
	done
	rm -rf "$1"
}

register_icds() {
	local dir="$deps/icd" new f
	new=$(new_registry "$dir")
	for f in /etc/OpenCL/vendors/*.icd; do
		[ -e "$f" ] && cp "$f" "$new/"
	done
	echo "$deps/intel/lib/libintelocl.so" >"$new/intel-cpu.icd"
	put_registry "$new" "$dir"
}

# Debian's Intel GPU driver and the packages of its dependency closure that the system does not
# have, unpacked (never installed) into .deps/intel-gpu; .deps/intel-gpu/lib is their library
# folder, which the driver needs on LD_LIBRARY_PATH.
fetch_intel_gpu() {
	local dir="$deps/intel-gpu" tmp pkgs=() p deb lib
	[ -e "$dir/lib/intel-opencl/libigdrcl.so" ] && return 0
	if ! apt-cache show intel-opencl-icd >/dev/null 2>&1; then
		as_root apt-get update -qq || return 1
	fi
	for p in $(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances intel-opencl-icd | grep '^[a-z0-9]' | sort -u); do
		installed "$p" || pkgs+=("$p")
	done
	log "downloading Debian's Intel GPU driver into $dir (not installed): ${pkgs[*]}"
	tmp=$(mktemp -d)
	if ! (cd "$tmp" && apt-get download -qq "${pkgs[@]}" >"$tmp/log" 2>&1) ||
		[ "$(ls "$tmp"/*.deb | wc -l)" -ne ${#pkgs[@]} ]; then
		cat "$tmp/log" >&2
		rm -rf "$tmp"
		return 1
	fi
	rm -rf "$dir.part"
	mkdir -p "$dir.part"
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$dir.part"
		basename "$deb" >>"$dir.part/PACKAGES"
	done
	rm -rf "$tmp"
	lib=$(find "$dir.part/usr/lib" -path '*/intel-opencl/libigdrcl.so' | head -n 1)
	[ -n "$lib" ] || { log "no libigdrcl.so in intel-opencl-icd"; rm -rf "$dir.part"; return 1; }
	lib=${lib%/intel-opencl/libigdrcl.so}
	ln -s "${lib#"$dir.part/"}" "$dir.part/lib"
	rm -rf "$dir"
	mv "$dir.part" "$dir"
}

register_intel_gpu() {
	local dir="$deps/icd-intel-gpu" new
	new=$(new_registry "$dir")
	cp "$deps/icd"/*.icd "$new/"
	if grep -qs libigdrcl "$deps/icd"/*.icd; then
		log "the system already registers Intel's GPU driver: $dir is .deps/icd"
		put_registry "$new" "$dir"
		return 0
	fi
	if ! fetch_intel_gpu; then
		log "could not fetch Debian's intel-opencl-icd: no $dir, its test runs are skipped"
		rm -rf "$new" "$dir"
		return 0
	fi
	echo "$deps/intel-gpu/lib/intel-opencl/libigdrcl.so" >"$new/intel-gpu.icd"
	put_registry "$new" "$dir"
}

# The probe that stands for any process built with -fsanitize=address (scripts/icd_probe.c),
# built again when its source changes (its checksum, not its time: a fresh clone's source is
# always newer than the probe, and the registries would all be probed again).
build_probe() {
	local probe="$deps/icd-probe-asan" sum
	sum=$(sha256sum <"$root/scripts/icd_probe.c")
	if [ ! -x "$probe" ] || [ "$(cat "$probe.source" 2>/dev/null)" != "$sum" ]; then
		gcc -std=c17 -O1 -fsanitize=address -o "$probe" "$root/scripts/icd_probe.c" -lOpenCL
		echo "$sum" >"$probe.source"
	fi
	echo "$probe"
}

# What a driver's .icd file names, with its size and time, so that a changed driver is tried again.
icd_signature() { # ICD...
	local f lib
	for f in "$@"; do
		lib=$(head -n 1 "$f")
		printf '%s %s %s\n' "$(basename "$f")" "$lib" "$(stat -L -c '%s %Y' "$lib" 2>/dev/null || echo missing)"
	done
}

# SRC-asan: the drivers of SRC that a process built with AddressSanitizer survives. Each is
# tried alone with the probe; one that kills it is left out, and LEFT-OUT says why. Intel's GPU
# driver is one: it dlopens libraries (WSL's libdxcore.so, even without a GPU) with
# RTLD_DEEPBIND, which the sanitizer runtime refuses by aborting the process.
asan_registry() { # SRC
	local src=$1 dst=$1-asan probe sig f out why
	probe=$(build_probe)
	sig=$(icd_signature "$src"/*.icd; cat "$probe.source")
	[ -e "$dst/.signature" ] && [ "$(cat "$dst/.signature")" = "$sig" ] && return 0
	rm -rf "$dst"
	mkdir -p "$dst"
	: >"$dst/LEFT-OUT"
	for f in "$src"/*.icd; do
		if out=$(OCL_ICD_VENDORS="$f" LD_LIBRARY_PATH="$deps/intel-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
			ASAN_OPTIONS=detect_leaks=0 timeout 300 "$probe" 2>&1); then
			cp "$f" "$dst/"
			continue
		fi
		why=$(sed -n 's/.*trying to dlopen a \([^ ]*\) shared library with RTLD_DEEPBIND.*/it dlopens \1 with RTLD_DEEPBIND, which AddressSanitizer refuses/p' <<<"$out" | head -n 1)
		[ -n "$why" ] || why=$(grep -v '^[[:space:]]*$' <<<"$out" | tail -n 1 || true)
		printf '%s (%s): %s\n' "$(basename "$f")" "$(head -n 1 "$f")" \
			"${why:-the probe failed}" >>"$dst/LEFT-OUT"
		log "left out of $dst, fails under AddressSanitizer: $(basename "$f"): ${why:-the probe failed}"
	done
	echo "$sig" >"$dst/.signature"
}

install_apt "${apt_pkgs[@]}"
# The fuzz suite alone needs clang: where it cannot be installed, that suite is skipped (77).
( install_apt "${fuzz_pkgs[@]}" ) || log "clang not installed: the fuzz suite will be skipped"
( install_apt "${check_pkgs[@]}" ) ||
	log "chromium or oclgrind not installed: their tests will be skipped"
( install_apt "${package_pkgs[@]}" ) ||
	log "Debian's packaging tools not installed: the package suite will be skipped"
install_intel
( install_otava ) || log "Apache Otava not installed: the history tests will be skipped"
register_icds
asan_registry "$deps/icd"
log "OpenCL drivers registered in $deps/icd: $(cd "$deps/icd" && echo *.icd)"
if $with_intel_gpu; then
	register_intel_gpu
	[ -d "$deps/icd-intel-gpu" ] && asan_registry "$deps/icd-intel-gpu"
fi
exit 0
