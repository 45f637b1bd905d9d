#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds lpx and runs the main job on the
# built-in default model (models/mlp) and chip (the first preset): compile
# for 2 nodes, simulate, run on the CPU runtime and compare with the expected
# outputs computed by onnxruntime; then one `lpx serve` summary (tiny-llama,
# its service table compiled and simulated, 1,000 requests; seconds).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/tools/setup-debian.sh"
"$root/tools/build.sh" lpx
lpx="$root/build/bin/lpx"
model="${1:-$root/models/mlp}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
set -x
"$lpx" compile "$model/model.onnx" --nodes 2 -o "$out/model.lpxb"
"$lpx" simulate "$out/model.lpxb"
"$lpx" run "$out/model.lpxb" --data "$model/test_data_set_0"
"$lpx" serve --model tiny-llama --context 64 --cache-dir "$out/cache" \
  --workload poisson:rate=1000,prompt=8..32,output=8..16 --requests 1000 --slo ttft_p95=1ms
