#!/usr/bin/env bash
# Quantized operators end to end: small models with constant (per-channel)
# weights, as quantizers emit them, compiled for 1 and 4 chips, simulated
# without hazards and run against numpy references computed here; and the
# int8 mode (int8 operands, zero points 0) costs fewer cycles than the same
# product with widened int32 operands.
set -uo pipefail
lpx="$1"
root="$(cd "$(dirname "$0")/../.." && pwd)"
check() { if eval "$2"; then echo "ok   $1"; passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi; }
source "$root/tests/e2e/testlib.sh"

/usr/bin/python3 - "$tmp" <<'PY'
import os, sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper
out = sys.argv[1]
rng = np.random.default_rng(7)
f32, i32 = np.float32, np.int32

def save(name, nodes, inputs, outputs, inits, feeds, expected):
    g = helper.make_graph(nodes, name, inputs, outputs,
                          initializer=[numpy_helper.from_array(v, k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    d = os.path.join(out, name)
    os.makedirs(os.path.join(d, "test_data_set_0"))
    open(os.path.join(d, "model.onnx"), "wb").write(m.SerializeToString())
    for i, v in enumerate(feeds):
        open(os.path.join(d, "test_data_set_0", f"input_{i}.pb"), "wb").write(
            numpy_helper.from_array(v).SerializeToString())
    for i, v in enumerate(expected):
        open(os.path.join(d, "test_data_set_0", f"output_{i}.pb"), "wb").write(
            numpy_helper.from_array(v).SerializeToString())

def vi(name, t, shape):
    return helper.make_tensor_value_info(name, t, shape)

def requant(acc, scale, zp, lo, hi, dtype):
    # The f32 order of the decomposition (and of onnxruntime): f32(acc) *
    # scale, round half to even, plus the zero point, saturate.
    y = np.rint(acc.astype(f32) * scale) + zp.astype(f32)
    return np.clip(y, lo, hi).astype(dtype)

# QLinearMatMul: uint8 activations, uint8 weight with per-column scale and
# zero point (centred at compile time; K > N: split by the reduction on 4
# chips).
a = rng.integers(0, 256, (4, 96), dtype=np.uint8)
b = rng.integers(0, 256, (96, 40), dtype=np.uint8)
a_s, a_z = np.array(0.02, f32), np.array(131, np.uint8)
b_s = rng.uniform(0.001, 0.01, 40).astype(f32)
b_z = rng.integers(100, 156, 40, dtype=np.uint8)
y_s, y_z = np.array(0.9, f32), np.array(120, np.uint8)
acc = (a.astype(i32) - a_z.astype(i32)) @ (b.astype(i32) - b_z.astype(i32))
y = requant(acc, (a_s * b_s) / y_s, y_z, 0, 255, np.uint8)
assert 10 < len(np.unique(y)), "the reference should not saturate"
save("qmatmul",
     [helper.make_node("QLinearMatMul", ["a", "a_s", "a_z", "b", "b_s", "b_z", "y_s", "y_z"], ["y"], name="qmm")],
     [vi("a", TensorProto.UINT8, [4, 96])], [vi("y", TensorProto.UINT8, [4, 40])],
     dict(a_s=a_s, a_z=a_z, b=b, b_s=b_s, b_z=b_z, y_s=y_s, y_z=y_z), [a], [y])

# MatMulInteger on int8 with no zero points (the int8 mode), and the same
# product with a_zero_point 3 given as a constant (widened to int32).
a8 = rng.integers(-128, 128, (8, 320), dtype=np.int8)
w8 = rng.integers(-128, 128, (320, 320), dtype=np.int8)
save("int8mode", [helper.make_node("MatMulInteger", ["a", "w"], ["y"], name="mmi")],
     [vi("a", TensorProto.INT8, [8, 320])], [vi("y", TensorProto.INT32, [8, 320])],
     dict(w=w8), [a8], [a8.astype(i32) @ w8.astype(i32)])
z3 = np.array(3, np.int8)
save("widened", [helper.make_node("MatMulInteger", ["a", "w", "z"], ["y"], name="mmi")],
     [vi("a", TensorProto.INT8, [8, 320])], [vi("y", TensorProto.INT32, [8, 320])],
     dict(w=w8, z=z3), [a8], [(a8.astype(i32) - 3) @ w8.astype(i32)])

# QLinearConv: uint8 image, int8 weights with per-output-channel scales and
# zero points, int32 bias, padding and stride.
x = rng.integers(0, 256, (1, 3, 9, 9), dtype=np.uint8)
w = rng.integers(-100, 100, (4, 3, 3, 3), dtype=np.int8)
x_s, x_z = np.array(0.03, f32), np.array(128, np.uint8)
w_s = rng.uniform(0.002, 0.02, 4).astype(f32)
w_z = np.array([0, 1, -2, 3], np.int8)
bias = rng.integers(-3000, 3000, 4).astype(i32)
y_s, y_z = np.array(0.5, f32), np.array(100, np.uint8)
xc = np.pad(x.astype(i32) - 128, ((0, 0), (0, 0), (1, 1), (1, 1)))
wc = w.astype(i32) - w_z.astype(i32).reshape(4, 1, 1, 1)
acc = np.zeros((1, 4, 5, 5), i32)
for m in range(4):
    for i in range(5):
        for j in range(5):
            acc[0, m, i, j] = (xc[0, :, 2 * i:2 * i + 3, 2 * j:2 * j + 3] * wc[m]).sum() + bias[m]
y = requant(acc, ((x_s * w_s) / y_s).reshape(1, 4, 1, 1), y_z, 0, 255, np.uint8)
assert 10 < len(np.unique(y)), "the reference should not saturate"
save("qconv",
     [helper.make_node("QLinearConv", ["x", "x_s", "x_z", "w", "w_s", "w_z", "y_s", "y_z", "bias"], ["y"],
                       name="qc", pads=[1, 1, 1, 1], strides=[2, 2])],
     [vi("x", TensorProto.UINT8, [1, 3, 9, 9])], [vi("y", TensorProto.UINT8, [1, 4, 5, 5])],
     dict(x_s=x_s, x_z=x_z, w=w, w_s=w_s, w_z=w_z, y_s=y_s, y_z=y_z, bias=bias), [x], [y])

# Per-row and per-column parameters given at run time: QLinearMatMul with
# an int8 output (per-row a and y, per-column b), and a batched
# MatMulInteger with N-D zero points [D, M, 1] and [D, 1, N].
a = rng.integers(0, 256, (3, 8), dtype=np.uint8)
a_s = rng.uniform(0.01, 0.05, 3).astype(f32)
a_z = rng.integers(100, 150, 3, dtype=np.uint8)
b = rng.integers(-128, 128, (8, 5), dtype=np.int8)
b_s = rng.uniform(0.01, 0.05, 5).astype(f32)
b_z = rng.integers(-5, 5, 5, dtype=np.int8)
y_s = rng.uniform(0.05, 0.2, 3).astype(f32)
y_z = np.array([-10, 0, 10], np.int8)
acc = (a.astype(i32) - a_z.astype(i32).reshape(3, 1)) @ (b.astype(i32) - b_z.astype(i32))
y = requant(acc, (a_s.reshape(3, 1) * b_s) / y_s.reshape(3, 1), y_z.reshape(3, 1), -128, 127, np.int8)
assert 5 < len(np.unique(y)), "the reference should not saturate"
names = ["a", "a_s", "a_z", "b", "b_s", "b_z", "y_s", "y_z"]
feeds = [a, a_s, a_z, b, b_s, b_z, y_s, y_z]
types = [TensorProto.UINT8, TensorProto.FLOAT, TensorProto.UINT8, TensorProto.INT8,
         TensorProto.FLOAT, TensorProto.INT8, TensorProto.FLOAT, TensorProto.INT8]
save("perrow", [helper.make_node("QLinearMatMul", names, ["y"], name="qmm")],
     [vi(n, t, list(v.shape)) for n, t, v in zip(names, types, feeds)],
     [vi("y", TensorProto.INT8, [3, 5])], {}, feeds, [y])
a = rng.integers(-128, 128, (2, 3, 4), dtype=np.int8)
a_z = rng.integers(-5, 5, (2, 3, 1), dtype=np.int8)
b = rng.integers(0, 256, (2, 4, 6), dtype=np.uint8)
b_z = rng.integers(120, 136, (2, 1, 6), dtype=np.uint8)
feeds = [a, b, a_z, b_z]
save("batched", [helper.make_node("MatMulInteger", ["a", "b", "a_z", "b_z"], ["y"], name="mmi")],
     [vi("a", TensorProto.INT8, [2, 3, 4]), vi("b", TensorProto.UINT8, [2, 4, 6]),
      vi("a_z", TensorProto.INT8, [2, 3, 1]), vi("b_z", TensorProto.UINT8, [2, 1, 6])],
     [vi("y", TensorProto.INT32, [2, 3, 6])], {}, feeds,
     [(a.astype(i32) - a_z.astype(i32)) @ (b.astype(i32) - b_z.astype(i32))])

# Dynamic quantization as onnxruntime's quantizer emits it: quantize the
# activations at run time, MatMulInteger with a uint8 weight, rescale.
xf = rng.normal(0, 1, (4, 64)).astype(f32)
wq = rng.integers(0, 256, (64, 16), dtype=np.uint8)
wz = np.array(128, np.uint8)
ws = np.array(0.004, f32)
lo, hi = min(xf.min(), f32(0)), max(xf.max(), f32(0))
sc = f32((hi - lo) / f32(255))
zp = np.rint(np.clip(f32(0) - lo / sc, 0, 255)).astype(f32)
xq = np.clip(np.rint(xf / sc) + zp, 0, 255).astype(np.uint8)
acc = (xq.astype(i32) - zp.astype(i32)) @ (wq.astype(i32) - 128)
yf = acc.astype(f32) * (sc * ws)
save("dynquant",
     [helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"], name="dql"),
      helper.make_node("MatMulInteger", ["xq", "w", "xz", "wz"], ["acc"], name="mmi"),
      helper.make_node("Cast", ["acc"], ["accf"], name="cast", to=TensorProto.FLOAT),
      helper.make_node("Mul", ["xs", "ws"], ["s"], name="scale"),
      helper.make_node("Mul", ["accf", "s"], ["y"], name="rescale")],
     [vi("x", TensorProto.FLOAT, [4, 64])], [vi("y", TensorProto.FLOAT, [4, 16])],
     dict(w=wq, wz=wz, ws=ws), [xf], [yf])
PY
[ $? -eq 0 ] || die "cannot generate the quantized models"

for m in qmatmul int8mode widened qconv perrow batched dynquant; do
  for nodes in 1 4; do
    prog="$tmp/$m-$nodes.lpxb"
    check "$m compiles for $nodes chip(s)" \
      "'$lpx' compile '$tmp/$m/model.onnx' --nodes $nodes -o '$prog' >/dev/null"
    check "$m simulates on $nodes chip(s) without hazards" "'$lpx' simulate '$prog' >/dev/null"
    check "$m matches the reference on $nodes chip(s)" \
      "'$lpx' run '$prog' --data '$tmp/$m/test_data_set_0' >/dev/null"
  done
done
ci8=$(sim_cycles "$tmp/int8mode-1.lpxb") || exit 1
ci32=$(sim_cycles "$tmp/widened-1.lpxb") || exit 1
echo "cycles: int8 mode $ci8, widened to int32 $ci32"
check "the int8 mode takes fewer cycles than int32 operands" "[ '$ci8' -lt '$ci32' ]"
"$lpx" inspect "$tmp/qmatmul-1.lpxb" >"$tmp/qmatmul.txt" || die "inspect qmatmul"
check "the uint8 weight is centred at compile time (an int32 constant, no uint8 copy)" \
  "grep -q 'const  96x40xi32' '$tmp/qmatmul.txt' && ! grep -q '96x40xu8' '$tmp/qmatmul.txt'"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
