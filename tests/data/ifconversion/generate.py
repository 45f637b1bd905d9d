#!/usr/bin/python3
"""Models with an If on a condition computed at run time, which lpx
if-converts (both branches computed, each output a Where of the condition:
compiler/lib/Import/ONNX/IfConversion.cpp), in the ONNX node-test layout.
Each model is written twice, with an input that makes the condition true and
one that makes it false (..._true, ..._false), so both selections are checked
against onnxruntime-node 1.30's outputs:

    /usr/bin/python3 tests/data/ifconversion/generate.py
    ORT_DIR=/tmp/ort node models/reference/expected.mjs tests/data/ifconversion/*/

check_generated.sh (tests/data/opset18plus) checks the committed files are
this script's; run_node_tests.py --dir runs them at 1 and 4 chips.
"""
import os
import shutil
import sys
import numpy as np
import onnx
from onnx import checker, helper, numpy_helper, TensorProto as T

HERE = (os.path.abspath(sys.argv[1]) if len(sys.argv) > 1
        else os.path.dirname(os.path.abspath(__file__)))
rng = np.random.default_rng(21)
node = helper.make_node


def weight(name, *shape):
    return numpy_helper.from_array(
        (rng.standard_normal(shape) / np.sqrt(shape[0])).astype(np.float32), name)


def write(name, graph, x, expect_cond, cond_of):
    """One test folder; `cond_of(x)` is the condition numpy computes, checked
    against the name so a test named _true really takes then_branch."""
    assert bool(cond_of(x)) == expect_cond, name
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="lpx-ifconversion")
    model.ir_version = 8
    checker.check_model(model, full_check=True)
    d = os.path.join(HERE, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "test_data_set_0"))
    onnx.save(model, os.path.join(d, "model.onnx"))
    with open(os.path.join(d, "test_data_set_0", "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, graph.input[0].name).SerializeToString())


# --- the model: a second network run only when a score passes a
# threshold. score = Sigmoid(mean(x W_s)); above 0.5 the refining MLP runs
# (x + Relu(x W1) W2), else x passes through halved.
ws, w1, w2 = weight("ws", 16, 1), weight("w1", 16, 32), weight("w2", 32, 16)
refine = helper.make_graph(
    [node("MatMul", ["x", "w1"], ["h"]), node("Relu", ["h"], ["hr"]),
     node("MatMul", ["hr", "w2"], ["d"]), node("Add", ["x", "d"], ["refined"])],
    "refine", [], [helper.make_tensor_value_info("refined", T.FLOAT, [4, 16])])
skip = helper.make_graph(
    [node("Constant", [], ["half"], value=numpy_helper.from_array(np.float32(0.5), "half")),
     node("Mul", ["x", "half"], ["halved"])],
    "skip", [], [helper.make_tensor_value_info("halved", T.FLOAT, [4, 16])])
gate = helper.make_graph(
    [node("MatMul", ["x", "ws"], ["s"]), node("ReduceMean", ["s"], ["m"], keepdims=0),
     node("Sigmoid", ["m"], ["score"]),
     node("Constant", [], ["threshold"], value=numpy_helper.from_array(np.float32(0.5), "threshold")),
     node("Greater", ["score", "threshold"], ["run_refine"]),
     node("If", ["run_refine"], ["y"], name="gate", then_branch=refine, else_branch=skip)],
    "gate", [helper.make_tensor_value_info("x", T.FLOAT, [4, 16])],
    [helper.make_tensor_value_info("y", T.FLOAT, [4, 16])], [ws, w1, w2])
wsv = numpy_helper.to_array(ws)[:, 0]
gate_score = lambda x: (x @ wsv).mean() > 0
base = rng.standard_normal((4, 16)).astype(np.float32)
# Shifted along the score's weights, far from the threshold either way.
shift = np.tile(np.sign(wsv), (4, 1)).astype(np.float32)
write("ifconv_gate_true", gate, base + shift, True, gate_score)
write("ifconv_gate_false", gate, base - shift, False, gate_score)

# --- two outputs (one a constant in one branch), a [1]-shaped condition and
# an If nested in a branch with a condition of its own.
inner = helper.make_graph(
    [node("ReduceMax", ["x"], ["mx"], keepdims=1, axes=[0, 1]),
     node("Constant", [], ["two"], value=numpy_helper.from_array(np.array([[2.0]], np.float32), "two")),
     node("Less", ["mx", "two"], ["small"]),
     node("Reshape", ["small", "one"], ["small1"]),
     node("If", ["small1"], ["t0"], name="inner",
          then_branch=helper.make_graph([node("Tanh", ["x"], ["tt"])], "tanh", [],
                                        [helper.make_tensor_value_info("tt", T.FLOAT, [3, 5])]),
          else_branch=helper.make_graph([node("Neg", ["x"], ["tn"])], "neg", [],
                                        [helper.make_tensor_value_info("tn", T.FLOAT, [3, 5])])),
     node("Abs", ["x"], ["t1"])],
    "then", [], [helper.make_tensor_value_info("t0", T.FLOAT, [3, 5]),
                 helper.make_tensor_value_info("t1", T.FLOAT, [3, 5])])
outer_else = helper.make_graph(
    [node("Sigmoid", ["x"], ["e0"]),
     node("Constant", [], ["e1"], value=numpy_helper.from_array(
         np.arange(15, dtype=np.float32).reshape(3, 5), "e1"))],
    "else", [], [helper.make_tensor_value_info("e0", T.FLOAT, [3, 5]),
                 helper.make_tensor_value_info("e1", T.FLOAT, [3, 5])])
nested = helper.make_graph(
    [node("ReduceSum", ["x"], ["total"], keepdims=0),
     node("Constant", [], ["zero"], value=numpy_helper.from_array(np.float32(0), "zero")),
     node("Greater", ["total", "zero"], ["positive"]),
     node("Reshape", ["positive", "one"], ["positive1"]),
     node("If", ["positive1"], ["y0", "y1"], name="outer", then_branch=inner,
          else_branch=outer_else)],
    "nested", [helper.make_tensor_value_info("x", T.FLOAT, [3, 5])],
    [helper.make_tensor_value_info("y0", T.FLOAT, [3, 5]),
     helper.make_tensor_value_info("y1", T.FLOAT, [3, 5])],
    [numpy_helper.from_array(np.array([1], np.int64), "one")])
small = rng.uniform(0.1, 1.5, (3, 5)).astype(np.float32)
write("ifconv_nested_true_true", nested, small, True, lambda x: x.sum() > 0 and x.max() < 2)
write("ifconv_nested_true_false", nested, small + 2.0, False, lambda x: x.sum() > 0 and x.max() < 2)
write("ifconv_nested_false", nested, -small, False, lambda x: x.sum() > 0)
