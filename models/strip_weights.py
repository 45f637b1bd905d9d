#!/usr/bin/python3
"""Writes a shape-only copy of an ONNX model.

Usage:
    /usr/bin/python3 models/strip_weights.py IN.onnx OUT.onnx [--min-bytes N]

Every initializer of at least N bytes (default 1024) loses its data and
becomes external data at the shape-only marker location `lpx-shape-only`
(docs/architecture.md, "Shape-only weights"): dtype and dims stay, values go.
Smaller initializers (shapes, axes, scalars, which the compiler reads) keep
their values. An empty marker file is written beside OUT so that
onnx.checker, which wants every external location to exist, accepts it.
"""

import argparse
import os
import sys

import onnx
from onnx import TensorProto, mapping

MARKER = "lpx-shape-only"


def tensor_bytes(t):
    n = 1
    for d in t.dims:
        n *= d
    return n * mapping.TENSOR_TYPE_TO_NP_TYPE[t.data_type].itemsize


def strip(t):
    dims, dtype, name = list(t.dims), t.data_type, t.name
    t.Clear()
    t.name, t.data_type = name, dtype
    t.dims.extend(dims)
    t.data_location = TensorProto.EXTERNAL
    e = t.external_data.add()
    e.key, e.value = "location", MARKER


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--min-bytes", type=int, default=1024)
    args = ap.parse_args()
    model = onnx.load(args.input)
    stripped = 0
    for t in model.graph.initializer:
        if t.data_location != TensorProto.EXTERNAL and tensor_bytes(t) >= args.min_bytes:
            strip(t)
            stripped += 1
    marker = os.path.join(os.path.dirname(os.path.abspath(args.output)), MARKER)
    if not os.path.exists(marker):
        open(marker, "wb").close()
    tmp = args.output + ".tmp"
    with open(tmp, "wb") as fh:
        fh.write(model.SerializeToString())
    os.replace(tmp, args.output)
    print(f"{args.output}: {stripped} of {len(model.graph.initializer)} initializers shape-only")
    return 0


if __name__ == "__main__":
    sys.exit(main())
