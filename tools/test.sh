#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds everything from scratch and runs
# every test: GoogleTest suites, lit IR tests, the built-in models end to end,
# the error-handling checks and the ONNX backend node tests (all via CTest);
# then the sanitizer suite: a second, clang ASan+UBSan build (build-san/)
# that runs the unit and lit tests, a sample of the node tests and a bounded
# fuzz run of every libFuzzer target (docs/reliability.md).
# LPX_SANITIZE=0 skips the sanitizer suite.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/tools/setup-debian.sh"
"$root/tools/build.sh"
(cd "${LPX_BUILD_DIR:-$root/build}" && ctest --output-on-failure -j2 "$@")
if [ "${LPX_SANITIZE:-1}" != 0 ]; then
  "$root/tools/build-sanitize.sh"
  cd "${LPX_SANITIZE_BUILD_DIR:-$root/build-san}"
  ctest --output-on-failure -j2
fi
