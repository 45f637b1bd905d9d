#!/usr/bin/env bash
# Test data for the openwakeword-js models: deterministic inputs (seeded numpy,
# make_inputs.py) and expected outputs from onnxruntime-node (expected.mjs),
# written to tests/data/openwakeword/<model>/test_data_set_0/. Only run this
# to refresh the committed files; the test only reads them.
#
#   models/reference/openwakeword_expected.sh [MODEL_NAME...]   (default: all)
#
# Needs npm/registry access (models/fetch_npm_onnx.sh) and onnxruntime-node
# in ORT_DIR (default /tmp/ort; see models/README.md). Every graph input of
# these models is static; a model with symbolic dims would need --dim pins
# here and the same --input-shape in tests/e2e/openwakeword_test.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
list=$("$root/models/fetch_npm_onnx.sh" openwakeword-js "${OWW_VERSION:-0.1.27}")
for model in $list; do
  name="$(basename "$model" .onnx)"
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  mkdir -p "$tmp/$name/test_data_set_0"
  ln -s "$model" "$tmp/$name/model.onnx"
  /usr/bin/python3 "$root/models/reference/make_inputs.py" "$model" "$tmp/$name/test_data_set_0"
  node "$root/models/reference/expected.mjs" "$tmp/$name"
  out="$root/tests/data/openwakeword/$name/test_data_set_0"
  mkdir -p "$out"
  cp "$tmp/$name/test_data_set_0"/*.pb "$out/"
done
