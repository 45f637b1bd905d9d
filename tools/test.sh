#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds everything from scratch and runs
# every test: GoogleTest suites, lit IR tests, the built-in models end to end,
# the error-handling checks and the ONNX backend node tests (all via CTest).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/tools/setup-debian.sh"
"$root/tools/build.sh"
cd "${LPX_BUILD_DIR:-$root/build}"
ctest --output-on-failure -j2 "$@"
