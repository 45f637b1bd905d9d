#!/usr/bin/python3
"""QDQ models as onnxruntime's static quantiser writes them (int8 symmetric:
activations per tensor, weights per output channel, int32 biases with scale
x_scale * w_scale), with seeded inputs. Expected outputs come from onnxruntime-node:

    /usr/bin/python3 tests/data/qdq/generate.py
    ORT_DIR=/tmp/ort node models/reference/expected.mjs tests/data/qdq/*/

- cnn: Conv(3->8, 3x3, bias) -> Relu -> Conv(8->8, 3x3, stride 2, bias) ->
  Relu -> Reshape -> Gemm(72->10, transB=1, bias).
- transformer: one attention head and an MLP over 8 tokens of width 32:
  Q/K/V projections, Q K^T (both operands activations), softmax, P V, the
  output projection with a residual Add, and MatMul -> Relu -> MatMul.

Activation scales come from a float forward pass over the same input
(max |value| / 127), as calibration would set them. Everything is
deterministic (seeded numpy); the files are committed, so CI needs neither
this script nor onnxruntime.
"""
import os
import sys
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from qdq_graph import GraphBuilder, save_case  # noqa: E402
f32 = np.float32


class Builder(GraphBuilder):
    def weight(self, w, axis):
        """Int8 per-channel weight (symmetric) behind a DequantizeLinear."""
        red = tuple(i for i in range(w.ndim) if i != axis)
        scale = (np.abs(w).max(axis=red) / 127).astype(f32)
        shape = [1] * w.ndim
        shape[axis] = -1
        q = np.clip(np.rint(w / scale.reshape(shape)), -127, 127).astype(np.int8)
        return self.node("DequantizeLinear",
                         [self.const("w", q), self.const("ws", scale),
                          self.const("wz", np.zeros(scale.shape, np.int8))],
                         axis=axis), scale

    def bias(self, b, x_scale, w_scale):
        scale = (f32(x_scale) * w_scale).astype(f32)
        q = np.rint(b / scale).astype(np.int32)
        return self.node("DequantizeLinear",
                         [self.const("b", q), self.const("bs", scale),
                          self.const("bz", np.zeros(scale.shape, np.int32))], axis=0)


def act_scale(v):
    return f32(np.abs(v).max() / 127)


def conv2d(x, w, b, stride):
    n, c, h, wd = x.shape
    m, _, kh, kw = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    y = np.zeros((n, m, oh, ow), f32)
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
            y[:, :, i, j] = np.einsum("nchw,mchw->nm", patch, w)
    return y + b[None, :, None, None]


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def save(name, b, x, x_name, out, out_shape, opset=13):
    save_case(HERE, "lpx-qdq", name, b, x, x_name, out, out_shape, opset)


def cnn(rng):
    x = rng.standard_normal((1, 3, 10, 10)).astype(f32)
    w1 = (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(f32)
    b1 = (rng.standard_normal(8) * 0.1).astype(f32)
    w2 = (rng.standard_normal((8, 8, 3, 3)) * 0.2).astype(f32)
    b2 = (rng.standard_normal(8) * 0.1).astype(f32)
    w3 = (rng.standard_normal((10, 72)) * 0.2).astype(f32)  # Gemm's B, transB=1
    b3 = (rng.standard_normal(10) * 0.1).astype(f32)
    # Float pass for the activation scales.
    h1 = np.maximum(conv2d(x, w1, b1, 1), 0)
    h2 = np.maximum(conv2d(h1, w2, b2, 2), 0)
    y = h2.reshape(1, -1) @ w3.T + b3
    sx, s1, s2, sy = act_scale(x), act_scale(h1), act_scale(h2), act_scale(y)
    b = Builder()
    xq = b.qdq("x", sx)
    w, ws = b.weight(w1, 0)
    c1 = b.node("Conv", [xq, w, b.bias(b1, sx, ws)], kernel_shape=[3, 3])
    r1 = b.qdq(b.node("Relu", [b.qdq(c1, s1)]), s1)
    w, ws = b.weight(w2, 0)
    c2 = b.node("Conv", [r1, w, b.bias(b2, s1, ws)], kernel_shape=[3, 3], strides=[2, 2])
    r2 = b.qdq(b.node("Relu", [b.qdq(c2, s2)]), s2)
    flat = b.qdq(b.node("Reshape", [r2, b.const("shape", np.array([1, -1], np.int64))]), s2)
    w, ws = b.weight(w3, 0)
    y = b.qdq(b.node("Gemm", [flat, w, b.bias(b3, s2, ws)], transB=1), sy)
    save("cnn", b, x, "x", y, [1, 10])


def transformer(rng):
    T, D, F = 8, 32, 64
    x = rng.standard_normal((T, D)).astype(f32)
    W = {k: (rng.standard_normal(s) / np.sqrt(s[0])).astype(f32)
         for k, s in dict(q=(D, D), k=(D, D), v=(D, D), o=(D, D), f1=(D, F), f2=(F, D)).items()}
    q, k, v = x @ W["q"], x @ W["k"], x @ W["v"]
    att = (q @ k.T) / np.sqrt(D)
    p = softmax(att)
    ctx = p @ v
    h = x + ctx @ W["o"]
    m = np.maximum(h @ W["f1"], 0)
    y = h + m @ W["f2"]
    sc = {name: act_scale(val) for name, val in dict(
        x=x, q=q, k=k, v=v, att=att, p=p, ctx=ctx, o=ctx @ W["o"], h=h,
        m=m, f2=m @ W["f2"]).items()}
    b = Builder()
    xq = b.qdq("x", sc["x"])

    def proj(inp, w, scale):
        wq, _ = b.weight(W[w], 1)
        return b.qdq(b.node("MatMul", [inp, wq]), scale)

    qq, kq, vq = proj(xq, "q", sc["q"]), proj(xq, "k", sc["k"]), proj(xq, "v", sc["v"])
    kt = b.qdq(b.node("Transpose", [kq], perm=[1, 0]), sc["k"])
    scores = b.node("MatMul", [qq, kt])
    scaled = b.node("Div", [b.qdq(scores, float(sc["att"] * np.sqrt(D))),
                            b.const("sqrt_d", np.array(np.sqrt(D), f32))])
    pq = b.qdq(b.node("Softmax", [scaled], axis=-1), sc["p"])
    ctxq = b.qdq(b.node("MatMul", [pq, vq]), sc["ctx"])
    o = proj(ctxq, "o", sc["o"])
    h = b.node("Add", ["x", o])
    hq = b.qdq(h, sc["h"])
    mq = b.qdq(b.node("Relu", [proj(hq, "f1", sc["m"])]), sc["m"])
    out = b.node("Add", [h, proj(mq, "f2", sc["f2"])])
    save("transformer", b, x, "x", out, [T, D])


rng = np.random.default_rng(11)
cnn(rng)
transformer(rng)
