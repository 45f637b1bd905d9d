"""What the QDQ test-data generators (qdq/, qdq-float/) share: a graph
builder that names every node and initialiser uniquely, QuantizeLinear ->
DequantizeLinear of an activation, and writing a one-input, one-output model
with its seeded input as an ONNX test case (model.onnx, test_data_set_0)."""
import os
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

f32 = np.float32


class GraphBuilder:
    def __init__(self):
        self.nodes, self.inits, self.n = [], [], 0

    def name(self, base):
        self.n += 1
        return f"{base}_{self.n}"

    def const(self, base, value):
        name = self.name(base)
        self.inits.append(numpy_helper.from_array(value, name))
        return name

    def node(self, op, inputs, **attrs):
        out = self.name(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    def qdq(self, x, scale, zp=0):
        """QuantizeLinear -> DequantizeLinear of activation x (int8, zp)."""
        s = self.const("s", np.array(scale, f32))
        z = self.const("z", np.array(zp, np.int8))
        return self.node("DequantizeLinear", [self.node("QuantizeLinear", [x, s, z]), s, z])


def save_case(folder, producer, name, b, x, x_name, out, out_shape, opset=13):
    """Writes folder/name/model.onnx (float input x_name, float output out)
    and its input x as test_data_set_0/input_0.pb."""
    g = helper.make_graph(b.nodes, name, [helper.make_tensor_value_info(
        x_name, TensorProto.FLOAT, list(x.shape))],
        [helper.make_tensor_value_info(out, TensorProto.FLOAT, out_shape)], b.inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name=producer)
    m.ir_version = 8
    onnx.checker.check_model(m)
    d = os.path.join(folder, name, "test_data_set_0")
    os.makedirs(d, exist_ok=True)
    onnx.save(m, os.path.join(folder, name, "model.onnx"))
    with open(os.path.join(d, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, x_name).SerializeToString())
