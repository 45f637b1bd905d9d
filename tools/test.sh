#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds everything from scratch and runs
# every test (and prints one `lpx serve` summary): GoogleTest suites, lit IR tests, the built-in models end to end,
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
# One serving summary (docs/serving.md), as the quickstart prints it.
cache="$(mktemp -d)"
"${LPX_BUILD_DIR:-$root/build}/bin/lpx" serve --model tiny-llama --context 64 \
  --cache-dir "$cache" --workload poisson:rate=1000,prompt=8..32,output=8..16 \
  --requests 1000 --slo ttft_p95=1ms
rm -rf "$cache"
if [ "${LPX_SANITIZE:-1}" != 0 ]; then
  "$root/tools/build-sanitize.sh"
  cd "${LPX_SANITIZE_BUILD_DIR:-$root/build-san}"
  ctest --output-on-failure -j2
fi
