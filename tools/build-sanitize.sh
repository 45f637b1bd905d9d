#!/usr/bin/env bash
# Configures and builds the sanitizer build into build-san/: clang 19,
# AddressSanitizer + UndefinedBehaviorSanitizer, libFuzzer targets
# (cmake/LpxSanitize.cmake). Its CTest runs the sanitizer suite.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${LPX_SANITIZE_BUILD_DIR:-$root/build-san}"
CC=clang-19 CXX=clang++-19 cmake -G Ninja -S "$root" -B "$build" \
  -DCMAKE_BUILD_TYPE=Release -DLPX_SANITIZE=ON >/dev/null
ninja -C "$build" "$@"
