#!/usr/bin/env bash
# Configures and builds lpx into build/ (Release, Ninja).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${LPX_BUILD_DIR:-$root/build}"
cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$build" "$@"
