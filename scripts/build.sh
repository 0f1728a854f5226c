#!/usr/bin/env bash
# Configures (once) and builds the suite in DIR (default build/) with extra meson options.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${1:-build}
shift || true
cd "$root"
if [ -e "$dir/build.ninja" ]; then
	meson configure "$dir" "$@" >/dev/null
else
	meson setup "$dir" "$@" >/dev/null
fi
ninja -C "$dir" >/dev/null
