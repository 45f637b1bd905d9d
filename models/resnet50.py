#!/usr/bin/python3
"""Deterministic ResNet-50 (torchvision topology, fp32, batch 1) for runtime benchmarks.

Usage:
    /usr/bin/python3 models/resnet50.py OUT_DIR

Writes OUT_DIR/model.onnx and OUT_DIR/test_data_set_0/input_0.pb. The graph is
what torch.onnx.export gives for torchvision.models.resnet50() in eval mode:
batch norms folded into the convolutions' weights and biases, bottleneck blocks
[3, 4, 6, 3] with the stride on the 3x3 convolution (v1.5), global average
pool, flatten and a 1000-way Gemm. Weights are seeded random values (He
initialisation; each block's last convolution scaled down as with zero-init
residual gammas, so activations stay bounded through 16 residual additions).
No expected output is written: tools/bench/runtime.sh gets it from onnxruntime.
The model is ~100 MB and is not committed.
"""

import os
import sys

import numpy as np
from onnx import TensorProto, checker, helper, numpy_helper

SEED = 5050
rng = np.random.default_rng(SEED)
nodes, inits = [], []


def conv(x, cin, cout, k, stride, name, relu=True, gain=1.0):
    w = rng.standard_normal((cout, cin, k, k)) * gain * np.sqrt(2.0 / (cin * k * k))
    b = rng.standard_normal(cout) * 0.01
    inits.append(numpy_helper.from_array(w.astype(np.float32), name + ".weight"))
    inits.append(numpy_helper.from_array(b.astype(np.float32), name + ".bias"))
    out = name + ".out"
    nodes.append(helper.make_node("Conv", [x, name + ".weight", name + ".bias"], [out],
                                  name=name, kernel_shape=[k, k], strides=[stride, stride],
                                  pads=[k // 2] * 4))
    if not relu:
        return out
    nodes.append(helper.make_node("Relu", [out], [name + ".relu"], name=name + ".relu"))
    return name + ".relu"


def bottleneck(x, cin, width, stride, name):
    y = conv(x, cin, width, 1, 1, name + ".conv1")
    y = conv(y, width, width, 3, stride, name + ".conv2")
    y = conv(y, width, width * 4, 1, 1, name + ".conv3", relu=False, gain=0.2)
    if stride != 1 or cin != width * 4:
        x = conv(x, cin, width * 4, 1, stride, name + ".downsample", relu=False)
    nodes.append(helper.make_node("Add", [y, x], [name + ".add"], name=name + ".add"))
    nodes.append(helper.make_node("Relu", [name + ".add"], [name + ".out"], name=name + ".relu"))
    return name + ".out"


def build():
    x = conv("input", 3, 64, 7, 2, "conv1")
    nodes.append(helper.make_node("MaxPool", [x], ["maxpool"], name="maxpool",
                                  kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]))
    x, cin = "maxpool", 64
    for i, (blocks, width) in enumerate(zip([3, 4, 6, 3], [64, 128, 256, 512])):
        for j in range(blocks):
            stride = 2 if j == 0 and i > 0 else 1
            x = bottleneck(x, cin, width, stride, f"layer{i + 1}.{j}")
            cin = width * 4
    nodes.append(helper.make_node("GlobalAveragePool", [x], ["avgpool"], name="avgpool"))
    nodes.append(helper.make_node("Flatten", ["avgpool"], ["flatten"], name="flatten", axis=1))
    fc_w = rng.standard_normal((1000, 2048)) / np.sqrt(2048)
    inits.append(numpy_helper.from_array(fc_w.astype(np.float32), "fc.weight"))
    inits.append(numpy_helper.from_array(np.zeros(1000, np.float32), "fc.bias"))
    nodes.append(helper.make_node("Gemm", ["flatten", "fc.weight", "fc.bias"], ["output"],
                                  name="fc", transB=1))
    graph = helper.make_graph(
        nodes, "resnet50", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 224, 224])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 1000])], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="lpx-models", producer_version="1")
    model.ir_version = 7
    checker.check_model(model)
    return model


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
    data = os.path.join(out, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    model = build()
    with open(os.path.join(out, "model.onnx"), "wb") as fh:
        fh.write(model.SerializeToString())
    x = rng.standard_normal((1, 3, 224, 224)).astype(np.float32)
    with open(os.path.join(data, "input_0.pb"), "wb") as fh:
        fh.write(numpy_helper.from_array(x, "input").SerializeToString())
    print(f"resnet50: wrote {out} ({len(model.graph.node)} nodes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
