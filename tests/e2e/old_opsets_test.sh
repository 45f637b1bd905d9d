#!/usr/bin/env bash
# Old opsets (tests/data/old_opsets, made by its generate.py): a model ONNX
# 1.12's strict inference rejects at opset 7 (an int64 Constant) compiles
# through ONNX's version converter, and opset-6 broadcasting (PRelu's shared
# one-element slope, Add's broadcast/axis attributes) follows that opset's
# spec. Each model is compiled, simulated and run against its expected
# outputs (onnxruntime's, or the spec's formulas where onnxruntime has no
# kernel for the old op).
source "$(dirname "$0")/common.sh" "$1"

for dir in "$root"/tests/data/old_opsets/*/; do
  name="$(basename "$dir")"
  check "$name compiles" "'$lpx' compile '$dir/model.onnx' -o '$tmp/$name.lpxb' >'$tmp/$name.log' 2>&1"
  check "$name simulates" "'$lpx' simulate '$tmp/$name.lpxb' >/dev/null"
  check "$name matches" "'$lpx' run '$tmp/$name.lpxb' --data '$dir/test_data_set_0' --atol 1e-6 >/dev/null"
done
finish
