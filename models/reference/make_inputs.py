"""Deterministic inputs for a real model, in the ONNX test-data layout.

    /usr/bin/python3 models/reference/make_inputs.py MODEL.onnx OUT_DIR [--seed N] [--dim NAME=VALUE ...]

Writes OUT_DIR/input_<i>.pb for every graph input that is not an initializer
(graph input order, TensorProto named after the input, raw_data), float32
standard normal from numpy.random.default_rng(seed), where the seed defaults
to crc32 of the model file's base name so each model gets its own stream.
Symbolic or unknown dims must be pinned with --dim NAME=VALUE (NAME is the
dim_param; use the same values with `lpx ... --input-shape`).
"""
import argparse
import os
import sys
import zlib

import numpy as np
import onnx
from onnx import numpy_helper

p = argparse.ArgumentParser()
p.add_argument("model")
p.add_argument("out")
p.add_argument("--seed", type=int)
p.add_argument("--dim", action="append", default=[])
a = p.parse_args()

pinned = dict(d.split("=", 1) for d in a.dim)
name = os.path.splitext(os.path.basename(os.path.realpath(a.model)))[0]
seed = a.seed if a.seed is not None else zlib.crc32(name.encode())
rng = np.random.default_rng(seed)
m = onnx.load(a.model)
inits = {t.name for t in m.graph.initializer}
os.makedirs(a.out, exist_ok=True)
i = 0
for v in m.graph.input:
    if v.name in inits:
        continue
    tt = v.type.tensor_type
    if tt.elem_type != onnx.TensorProto.FLOAT:
        sys.exit(f"error: input '{v.name}' is not float32")
    shape = []
    for d in tt.shape.dim:
        if d.HasField("dim_value"):
            shape.append(d.dim_value)
        elif d.dim_param in pinned:
            shape.append(int(pinned[d.dim_param]))
        else:
            sys.exit(f"error: input '{v.name}': pin dim '{d.dim_param or '?'}' with --dim")
    x = rng.standard_normal(shape).astype(np.float32)
    path = os.path.join(a.out, f"input_{i}.pb")
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(x, v.name).SerializeToString())
    print(f"{path}: '{v.name}' {shape} seed {seed}")
    i += 1
