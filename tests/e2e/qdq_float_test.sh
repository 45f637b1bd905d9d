#!/usr/bin/env bash
# QDQ as quantisers write it (issue 21, point 2; tests/data/qdq-float, made
# by its generate.py, expected outputs from onnxruntime-node): an int8
# activation's and a constant int8 weight's DequantizeLinear into MatMul,
# Gemm or Conv, with or without a QuantizeLinear after it, zero and
# non-zero zero points (correction terms), per-tensor and per-channel
# scales. Each model gives onnxruntime's outputs on 1 and 2 chips, every
# matrix-unit instruction takes int8 operands, a DequantizeLinear of a
# constant costs nothing at run time, and the 512-wide two-layer MLP's
# matrix work is at least 4x below, and its cycles below, the fp32 network.
source "$(dirname "$0")/common.sh" "$1"
data="$root/tests/data/qdq-float"

# The busy cycles of a program's mxm instructions, summed.
mxm_busy() {
  "$lpx" inspect "$1" | awk '$2 == "mxm" {for (i = 1; i < NF; i++) if ($i == "busy") s += $(i + 1)} END {print s + 0}'
}

for dir in "$data"/*/; do
  name="$(basename "$dir")"
  for n in 1 2; do
    prog="$tmp/$name-$n.lpxb"
    check "$name ($n chips) compiles" "'$lpx' compile '$dir/model.onnx' --nodes $n -o '$prog' >/dev/null"
    check "$name ($n chips) equals onnxruntime" \
      "'$lpx' run '$prog' --data '$dir/test_data_set_0' --rtol 1e-5 --atol 1e-5 >/dev/null"
  done
  [ "$name" == dq_add ] ||
    check "$name: every matrix-unit instruction takes int8 operands" "mxm_int8 '$tmp/$name-1.lpxb'"
done
# The [300, 300] constant's DequantizeLinear is done at compile time: the
# program is the one add.
check "dq_add: one instruction, the add" \
  "[ \"\$('$lpx' inspect '$tmp/dq_add-1.lpxb' | grep -cE '^ +[0-9]+ [a-z]+ ')\" == 1 ]"

"$lpx" compile "$data/mlp/fp32.onnx" -o "$tmp/fp32.lpxb" >/dev/null || die "compile mlp/fp32.onnx"
q=$(sim_cycles "$tmp/mlp-1.lpxb") f=$(sim_cycles "$tmp/fp32.lpxb")
qm=$(mxm_busy "$tmp/mlp-1.lpxb") fm=$(mxm_busy "$tmp/fp32.lpxb")
echo "mlp: $q cycles in QDQ ($qm on the MXM), $f in fp32 ($fm on the MXM)"
check "mlp: matrix-unit cycles $qm at least 4x below fp32's $fm" "[ $((qm * 4)) -le $fm ]"
check "mlp: $q cycles below fp32's $f" "[ $q -lt $f ]"
finish
