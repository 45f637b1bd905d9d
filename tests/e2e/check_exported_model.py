#!/usr/bin/python3
"""Checks models written by `lpx models export`.

Arguments: FILE:FAMILY:BATCH:CONTEXT[:QUERY] ... (QUERY: tokens per sequence,
default 1; QUERY == CONTEXT is a prefill without past inputs). For each model: onnx.checker with
full_check (which runs strict shape inference); the inputs and outputs of an
HF optimum decoder export with the expected shapes; only primitive ONNX ops
(no fused LayerNormalization, attention or contrib ops); and for shape-only
files, every float initializer of 1024+ elements carries the
"lpx-shape-only" external-data marker (its only entry), while integer
and small initializers carry values.
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto

PRIMITIVE = {"Gather", "Add", "Sub", "Mul", "Div", "Pow", "Sqrt", "ReduceMean",
             "ReduceSum", "MatMul", "Reshape", "Transpose", "Slice", "Neg",
             "Concat", "Unsqueeze", "Expand", "Softmax", "Sigmoid", "Tanh",
             "Cast", "Cos", "Sin", "Split", "TopK", "ScatterElements",
             "Greater", "Identity"}
MARKER = "lpx-shape-only"


def dims(value_info):
    return [d.dim_value for d in value_info.type.tensor_type.shape.dim]


def check(path, family, batch, context, query=1):
    # By path, so external-data locations resolve beside the model.
    onnx.checker.check_model(path, full_check=True)
    model = onnx.load(path, load_external_data=False)
    g = model.graph
    ins = {i.name: dims(i) for i in g.input}
    outs = {o.name: dims(o) for o in g.output}
    layers = sum(1 for n in outs if n.endswith(".key"))
    assert layers >= 1, "no present outputs"
    assert ins["input_ids"] == [batch, query], ins["input_ids"]
    assert ins["position_ids"] == [batch, query]
    assert ins["attention_mask"] == [batch, context]
    vocab = outs["logits"][2]
    assert outs["logits"][:2] == [batch, query]
    for i in range(layers):
        for kv in ("key", "value"):
            present = outs[f"present.{i}.{kv}"]
            assert present[0] == batch and present[2] == context, present
            name = f"past_key_values.{i}.{kv}"
            if query == context:  # a prefill has no past
                assert name not in ins, name
                continue
            past = ins[name]
            assert past == present[:2] + [context - query] + present[3:], (past, present)
    ops = {n.op_type for n in g.node}
    assert ops <= PRIMITIVE, f"unexpected ops {ops - PRIMITIVE}"
    expected = {"llama": {"Cos", "Sin", "Sigmoid"},
                "mixtral": {"TopK", "ScatterElements", "Sigmoid"},
                "gpt2": {"Tanh", "Split"}}[family]
    assert expected <= ops, f"{family} lacks {expected - ops}"
    shape_only, large_with_data = 0, []
    for t in g.initializer:
        n = int(np.prod(t.dims)) if len(t.dims) else 1
        external = t.data_location == TensorProto.EXTERNAL
        if external:
            kv = {e.key: e.value for e in t.external_data}
            assert kv == {"location": MARKER}, (t.name, kv)
            assert t.data_type == TensorProto.FLOAT and not t.raw_data
            assert n >= 1024, f"{t.name}: small initializer without data"
            shape_only += 1
        else:
            has = len(t.raw_data) or len(t.float_data) or len(t.int64_data)
            assert has or n == 0, f"{t.name} has no data"
            if n >= 1024 and t.data_type == TensorProto.FLOAT:
                large_with_data.append(t.name)
    # A shape-only export marks every large float weight, not some of them.
    assert not (shape_only and large_with_data), large_with_data[:3]
    kind = f"{shape_only} shape-only weights" if shape_only else "with data"
    print(f"ok {path}: {family}, {layers} layers, vocab {vocab}, "
          f"{len(g.node)} nodes, {kind}")


def main():
    bad = 0
    for arg in sys.argv[1:]:
        fields = arg.split(":")
        query = int(fields.pop()) if len(fields) == 5 else 1
        path, family, batch, context = fields
        try:
            check(path, family, int(batch), int(context), query)
        except Exception as e:  # noqa: BLE001 - report and go on
            print(f"FAIL {path}: {e}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
