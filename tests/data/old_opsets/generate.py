#!/usr/bin/python3
"""Old-opset models as exporters of 2017-2018 wrote them (IR version 3,
initializers also listed as graph inputs), with seeded inputs. Expected
outputs come from onnxruntime-node (models/reference/expected.mjs):

    /usr/bin/python3 tests/data/old_opsets/generate.py
    ORT_DIR=/tmp/ort node models/reference/expected.mjs tests/data/old_opsets/*/

- opset7_int64_constant: an int64 Constant as Reshape's shape. ONNX 1.12's
  strict inference rejects it (Constant-1 listed only float types); lpx
  converts the model with ONNX's version converter.
- opset6_prelu_broadcast: PRelu-6 with a one-element slope (shared across
  channels) and Add-6 with broadcast=1, axis=1 (a per-channel bias).
  onnxruntime has no PRelu-6 kernel, so this script writes the expected
  output from the opset-6 spec's formulas in numpy.
"""
import os
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

HERE = os.path.dirname(os.path.abspath(__file__))


def save(name, nodes, inputs, outputs, inits, opset):
    g = helper.make_graph(nodes, name, inputs, outputs, inits)
    for t in inits:  # IR version 3: initializers are graph inputs too
        g.input.append(helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="lpx-old-opsets")
    m.ir_version = 3
    d = os.path.join(HERE, name, "test_data_set_0")
    os.makedirs(d, exist_ok=True)
    onnx.save(m, os.path.join(HERE, name, "model.onnx"))
    return d


def write_pb(d, file, name, array):
    t = numpy_helper.from_array(array, name)
    with open(os.path.join(d, file), "wb") as f:
        f.write(t.SerializeToString())


def write_input(d, name, array):
    write_pb(d, "input_0.pb", name, array)


rng = np.random.default_rng(7)
f32 = TensorProto.FLOAT

d = save("opset7_int64_constant",
         [helper.make_node("Constant", [], ["shape"],
                           value=numpy_helper.from_array(np.array([2, 6], np.int64))),
          helper.make_node("Reshape", ["x", "shape"], ["r"]),
          helper.make_node("Add", ["r", "b"], ["y"])],
         [helper.make_tensor_value_info("x", f32, [3, 4])],
         [helper.make_tensor_value_info("y", f32, [2, 6])],
         [numpy_helper.from_array(rng.standard_normal(6).astype(np.float32), "b")], 7)
write_input(d, "x", rng.standard_normal((3, 4)).astype(np.float32))

d = save("opset6_prelu_broadcast",
         [helper.make_node("PRelu", ["x", "slope"], ["p"]),
          helper.make_node("Add", ["p", "c"], ["y"], broadcast=1, axis=1)],
         [helper.make_tensor_value_info("x", f32, [1, 3, 2, 2])],
         [helper.make_tensor_value_info("y", f32, [1, 3, 2, 2])],
         [numpy_helper.from_array(np.array([0.25], np.float32), "slope"),
          numpy_helper.from_array(np.array([1, 2, 3], np.float32), "c")], 6)
x = rng.standard_normal((1, 3, 2, 2)).astype(np.float32)
write_input(d, "x", x)
# PRelu-6: f(x) = slope * x for x < 0, x otherwise, the one slope shared by
# every channel; Add-6 broadcast=1 axis=1: c aligned with dim 1.
y = np.where(x < 0, np.float32(0.25) * x, x) + np.array([1, 2, 3], np.float32)[None, :, None, None]
write_pb(d, "output_0.pb", "y", y.astype(np.float32))
