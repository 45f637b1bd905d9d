#!/usr/bin/python3
"""QDQ models whose products are not all quantised again, as quantisers write
them (DequantizeLinear on int8 weights and on QuantizeLinear'd activations,
then MatMul / Gemm / Conv), each with a seeded input. Expected outputs come
from onnxruntime-node:

    /usr/bin/python3 tests/data/qdq-float/generate.py
    ORT_DIR=/tmp/ort node models/reference/expected.mjs tests/data/qdq-float/*/

- mlp: issue 21's two-layer 512-wide MLP: QDQ(x) -> MatMul(DQ(w1)) -> Relu ->
  QDQ -> MatMul(DQ(w2)), int8 per-tensor weights, zero zero points, no
  QuantizeLinear after either MatMul. mlp/fp32.onnx is the same network in
  fp32 with shape-only weights, for the cycle comparison.
- mlp_zp: the same shape at width 64 with non-zero zero points (activation
  zero points 7 and -5, weight zero points 3 and -2, per tensor).
- mlp_channel: width 64, weights with a scale and a non-zero zero point
  per output column.
- gemm_bias: Gemm(transB=1) with a float bias, per-channel weight, zero
  zero points, no QuantizeLinear.
- conv: Conv(3->8, 3x3) with a float bias, per-channel int8 weight, no
  QuantizeLinear, then Relu.
- conv_zp: Conv(3->8, 3x3, pads 1) of an activation with zero point -9 and
  a weight with a non-zero zero point per output channel, float bias, no
  QuantizeLinear, then Relu: int8 products with correction terms, x padded
  by its zero point.
- dq_add: x + DequantizeLinear(a constant int8 [300, 300], per-row scale and
  zero point): larger than the importer's folding of small constants, but
  dequantised at compile time all the same (one add at run time).
- matmul_q_zp: MatMul between DequantizeLinear nodes and a QuantizeLinear
  (a QLinearMatMul after fusion), non-zero zero points everywhere, the
  result dequantised as the output.

The files are committed, so CI needs neither this script nor onnxruntime.
"""
import os
import sys
import numpy as np
import onnx
from onnx import helper, TensorProto

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from qdq_graph import GraphBuilder, save_case  # noqa: E402
f32 = np.float32


class Builder(GraphBuilder):
    def weight(self, q, scale, zp, axis=1):
        """DequantizeLinear of int8 `q` (scale / zp per tensor or per `axis`)."""
        return self.node("DequantizeLinear",
                         [self.const("w", q), self.const("ws", np.asarray(scale, f32)),
                          self.const("wz", np.asarray(zp, np.int8))], axis=axis)


def quantise(w, zp, axis=None):
    """Int8 of w with zero point zp: scale from the range either side."""
    if axis is None:
        scale = f32(np.abs(w).max() / (127 - abs(np.max(zp))))
    else:
        red = tuple(i for i in range(w.ndim) if i != axis)
        scale = (np.abs(w).max(axis=red) / (127 - np.abs(zp).max())).astype(f32)
    shape = [1] * w.ndim
    if axis is not None:
        shape[axis] = -1
    q = np.clip(np.rint(w / np.reshape(scale, shape)) + np.reshape(zp, shape), -128, 127)
    return q.astype(np.int8), scale


def save(name, b, x, out, out_shape, x_name="x"):
    save_case(HERE, "lpx-qdq-float", name, b, x, x_name, out, out_shape)


def mlp(rng, name, width, x_zp, w_zp, per_column):
    x = rng.standard_normal((8, width)).astype(f32)
    ws = [(rng.standard_normal((width, width)) / np.sqrt(width)).astype(f32) for _ in range(2)]
    b = Builder()
    h, deq = b.qdq("x", np.abs(x).max() / 120, x_zp[0]), []
    for i, w in enumerate(ws):
        zp = np.array([w_zp[i] + (j % 3) for j in range(width)], np.int8) if per_column \
            else np.array(w_zp[i], np.int8)
        q, s = quantise(w, zp, 1 if per_column else None)
        deq.append(((q.astype(f32) - zp.astype(f32)) * s).astype(f32))
        h = b.node("MatMul", [h, b.weight(q, s, zp)])
        if i == 0:
            r = b.node("Relu", [h])
            h = b.qdq(r, np.abs(np.maximum(x @ w, 0)).max() / 120, x_zp[1])
    save(name, b, x, h, [8, width])
    return x, deq


def shape_only(name, shape):
    """A float initializer without values (docs/architecture.md, "Shape-only
    weights"): compiles and simulates as with them, and costs no bytes here."""
    t = TensorProto(name=name, data_type=TensorProto.FLOAT, dims=list(shape),
                    data_location=TensorProto.EXTERNAL)
    e = t.external_data.add()
    e.key, e.value = "location", "lpx-shape-only"
    return t


def mlp_fp32(x, ws):
    g = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w1"], ["h"]), helper.make_node("Relu", ["h"], ["r"]),
         helper.make_node("MatMul", ["r", "w2"], ["y"])], "mlp_fp32",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(x.shape))],
        [shape_only("w1", ws[0].shape), shape_only("w2", ws[1].shape)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.save(m, os.path.join(HERE, "mlp", "fp32.onnx"))


def gemm_bias(rng):
    x = rng.standard_normal((4, 48)).astype(f32)
    w = (rng.standard_normal((24, 48)) * 0.2).astype(f32)
    q, s = quantise(w, np.zeros(24, np.int8), 0)
    b = Builder()
    y = b.node("Gemm", [b.qdq("x", np.abs(x).max() / 127), b.weight(q, s, np.zeros(24, np.int8), 0),
                        b.const("bias", (rng.standard_normal(24) * 0.1).astype(f32))], transB=1)
    save("gemm_bias", b, x, y, [4, 24])


def conv(rng):
    x = rng.standard_normal((1, 3, 10, 10)).astype(f32)
    w = (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(f32)
    q, s = quantise(w, np.zeros(8, np.int8), 0)
    b = Builder()
    c = b.node("Conv", [b.qdq("x", np.abs(x).max() / 127), b.weight(q, s, np.zeros(8, np.int8), 0),
                        b.const("bias", (rng.standard_normal(8) * 0.1).astype(f32))],
               kernel_shape=[3, 3])
    save("conv", b, x, b.node("Relu", [c]), [1, 8, 8, 8])


def conv_zp(rng):
    x = rng.standard_normal((1, 3, 10, 10)).astype(f32)
    w = (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(f32)
    zp = np.array([(j % 5) - 2 for j in range(8)], np.int8)
    q, s = quantise(w, zp, 0)
    b = Builder()
    c = b.node("Conv", [b.qdq("x", np.abs(x).max() / 110, -9), b.weight(q, s, zp, 0),
                        b.const("bias", (rng.standard_normal(8) * 0.1).astype(f32))],
               kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    save("conv_zp", b, x, b.node("Relu", [c]), [1, 8, 10, 10])


def matmul_q_zp(rng):
    x = rng.standard_normal((8, 32)).astype(f32)
    w = (rng.standard_normal((32, 16)) / np.sqrt(32)).astype(f32)
    q, s = quantise(w, np.array(4, np.int8))
    b = Builder()
    y = b.node("MatMul", [b.qdq("x", np.abs(x).max() / 120, -6), b.weight(q, s, np.array(4, np.int8))])
    sy = b.const("sy", np.array(np.abs(x @ w).max() / 120, f32))
    zy = b.const("zy", np.array(3, np.int8))
    out = b.node("DequantizeLinear", [b.node("QuantizeLinear", [y, sy, zy]), sy, zy])
    save("matmul_q_zp", b, x, out, [8, 16])


def dq_add(rng):
    x = rng.standard_normal((300, 300)).astype(f32)
    q = rng.integers(-128, 128, (300, 300)).astype(np.int8)
    b = Builder()
    w = b.weight(q, (rng.random(300) * 0.01 + 0.001).astype(f32),
                 rng.integers(-10, 10, 300).astype(np.int8), axis=0)
    save("dq_add", b, x, b.node("Add", ["x", w]), [300, 300])


rng = np.random.default_rng(21)
x, deq = mlp(rng, "mlp", 512, (0, 0), (0, 0), False)
mlp_fp32(x, deq)
mlp(rng, "mlp_zp", 64, (7, -5), (3, -2), False)
mlp(rng, "mlp_channel", 64, (0, 4), (2, -3), True)
gemm_bias(rng)
conv(rng)
matmul_q_zp(rng)
dq_add(rng)
conv_zp(rng)
