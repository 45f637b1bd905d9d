#!/usr/bin/env bash
# QDQ int8 models as onnxruntime's quantiser writes them (tests/data/qdq,
# made by its generate.py: a small CNN and a small transformer, int8
# symmetric, weights per output channel, expected outputs from
# onnxruntime-node). The importer fuses each DequantizeLinear -> MatMul /
# Conv -> QuantizeLinear chain as onnxruntime does; the runtime must give
# exactly onnxruntime's outputs, on 1 and 2 chips, and every matrix-unit
# instruction must take int8 operands (the chip's int8 rate).
source "$(dirname "$0")/common.sh" "$1"

for dir in "$root"/tests/data/qdq/*/; do
  name="$(basename "$dir")"
  for n in 1 2; do
    prog="$tmp/$name-$n.lpxb"
    check "$name ($n chips) compiles" "'$lpx' compile '$dir/model.onnx' --nodes $n -o '$prog' >/dev/null"
    check "$name ($n chips) simulates" "'$lpx' simulate '$prog' >/dev/null"
    check "$name ($n chips) equals onnxruntime" \
      "'$lpx' run '$prog' --data '$dir/test_data_set_0' --rtol 0 --atol 0 >/dev/null"
  done
  check "$name: every matrix-unit instruction takes int8 operands" "mxm_int8 '$tmp/$name-1.lpxb'"
done
finish
