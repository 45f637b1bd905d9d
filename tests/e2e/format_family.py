#!/usr/bin/python3
"""The models of format_conversion_test.sh, each written twice: in fp32 (to be
converted with --weights/--activations fp16) and as exported in fp16.

    format_family.py OUT_DIR [TINY_LLAMA.onnx]

- gemm: [800, 32576] x [32576, 8192] MatMul, shape-only weight (as
  tools/bench/scale.sh builds it);
- conv: Conv(3->16, 3x3) -> Relu -> Conv(16->16, 3x3, stride 2) -> Relu on a
  1x3x64x64 input, seeded weights;
- decoder: a one-layer decoder step (`lpx models export tiny-llama`), given
  as fp32; its fp16 twin has fp16 float inputs, outputs and initializers and
  its Casts to float cast to fp16, as an exporter run in fp16 writes it.
"""
import os
import sys
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
FLOAT, HALF = TensorProto.FLOAT, TensorProto.FLOAT16


def save(model, name):
    onnx.save(model, os.path.join(out, name))


def gemm(ty):
    M, K, N = 800, 32576, 8192
    w = TensorProto(name="W", data_type=ty, dims=[K, N],
                    data_location=TensorProto.EXTERNAL)
    e = w.external_data.add()
    e.key, e.value = "location", "lpx-shape-only"
    g = helper.make_graph(
        [helper.make_node("MatMul", ["A", "W"], ["Y"], name="gemm")], "gemm",
        [helper.make_tensor_value_info("A", ty, [M, K])],
        [helper.make_tensor_value_info("Y", ty, [M, N])], initializer=[w])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def conv(dtype, ty):
    rng = np.random.default_rng(21)
    w1 = numpy_helper.from_array((rng.standard_normal((16, 3, 3, 3)) * 0.2).astype(dtype), "w1")
    w2 = numpy_helper.from_array((rng.standard_normal((16, 16, 3, 3)) * 0.1).astype(dtype), "w2")
    nodes = [helper.make_node("Conv", ["x", "w1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
             helper.make_node("Conv", ["r1", "w2"], ["c2"], name="conv2", strides=[2, 2]),
             helper.make_node("Relu", ["c2"], ["y"], name="relu2")]
    g = helper.make_graph(nodes, "conv",
                          [helper.make_tensor_value_info("x", ty, [1, 3, 64, 64])],
                          [helper.make_tensor_value_info("y", ty, [1, 16, 31, 31])],
                          initializer=[w1, w2])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def to_fp16(model):
    """The fp32 model as exported in fp16."""
    g = model.graph
    for vi in list(g.input) + list(g.output):
        if vi.type.tensor_type.elem_type == FLOAT:
            vi.type.tensor_type.elem_type = HALF
    for i, t in enumerate(g.initializer):
        if t.data_type == FLOAT:
            with np.errstate(over="ignore"):  # -inf as the fp16 export has it
                a = numpy_helper.to_array(t).astype(np.float16)
            g.initializer[i].CopyFrom(numpy_helper.from_array(a, t.name))
    for n in g.node:
        for a in n.attribute:
            if n.op_type == "Cast" and a.name == "to" and a.i == FLOAT:
                a.i = HALF
            if a.type == onnx.AttributeProto.TENSOR and a.t.data_type == FLOAT:
                a.t.CopyFrom(numpy_helper.from_array(
                    numpy_helper.to_array(a.t).astype(np.float16), a.t.name))
    del g.value_info[:]
    return model


save(gemm(FLOAT), "gemm-fp32.onnx")
save(gemm(HALF), "gemm-fp16.onnx")
save(conv(np.float32, FLOAT), "conv-fp32.onnx")
save(conv(np.float16, HALF), "conv-fp16.onnx")
if len(sys.argv) > 2:
    m = onnx.load(sys.argv[2])
    save(m, "decoder-fp32.onnx")
    save(to_fp16(m), "decoder-fp16.onnx")
