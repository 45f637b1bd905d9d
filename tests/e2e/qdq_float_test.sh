#!/usr/bin/env bash
# QDQ as quantisers write it (issue 21, point 2; tests/data/qdq-float, made
# by its generate.py, expected outputs from onnxruntime-node): an int8
# activation's and a constant int8 weight's DequantizeLinear into MatMul,
# Gemm or Conv, with or without a QuantizeLinear after it, zero and
# non-zero zero points (correction terms, for MatMul and for Conv: conv_zp,
# padded by x's zero point), per-tensor and per-channel scales. Each model gives onnxruntime's outputs on 1 and 2 chips, every
# matrix-unit instruction takes int8 operands, a DequantizeLinear of a
# constant costs nothing at run time, and the 512-wide two-layer MLP's
# matrix work is at least 4x below the fp32 network's and its cycles are
# those derived by hand below (2.4x below fp32's).
#
# The MLP's cycles on one tsp-v1, from isa/chips/tsp-v1.yaml: a VXM op
# takes 4 lane-vectors a cycle through 16 ALUs per lane (an op of p passes
# at most 16/p a cycle), latency 4 + 20 of transport; the MXM installs the
# [512, 512] int8 weight's four 320x320 tiles in its four planes at once
# (40 cycles), streams one int8 row a cycle, latency 4 + 20, and takes its
# rows whole at issue. x [8, 512] f32 is 52 lane-vectors; lpx-fuse-rescale
# makes each QDQ rescaling one VXM op:
#   quantize x: div (4 passes) + round + clip + convert = 7 passes,
#     ceil(52 x 7 / 16) = 23 busy, done at 23 + 24 = 47
#   matmul 1 at 47: busy 40 + 8 = 48, its rows leave from 47 + 40
#   requantise (convert, x scale, div 4, round, clip (Relu's floor),
#     convert = 9 passes, 30 busy) on matmul 1's stream: issue at
#     47 + 24 + 40 + ceil(max(8, 52 x 8 - 51 x 30) / 52) = 112, done 166
#   matmul 2 at 166
#   dequantize (convert, x scale: 2 passes, 13 busy by the 4 a cycle) on
#     its stream at 166 + 24 + 40 + 1 = 231, done 231 + 13 + 24 = 268.
# fp32 (two 288-cycle matmuls at 16 cycles a 32-bit row) is 649: 2.4x.
# 4x in total cycles is out of reach at 8 rows on this chip description:
# each int8 matmul is 40 cycles of install + 8 of rows + 24 of latency,
# which no format shrinks, and with one stream-rate VXM op (13 busy) per
# rescaling any schedule needs 37 + 2 x (24 + 40 + 1 + 13 + 24) = 241
# cycles, above 649 / 4 = 162 (the matrix unit's own cycles are 6x
# below). Before the fusion the chain of 15 VXM ops took 541.
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
check "mlp: $q cycles, at most the 268 derived above" "[ $q -le 268 ]"
check "mlp: $q cycles at least 2.4x below fp32's $f" "[ $((q * 12)) -le $((f * 5)) ]"
check "mlp: one VXM op per rescaling (quantize, requantise, dequantize)" \
  "[ \"\$('$lpx' inspect '$tmp/mlp-1.lpxb' | grep -c ' vxm ')\" == 3 ]"
finish
