#!/usr/bin/python3
"""Models of default-domain opsets 18 to 23, one op version each, in the ONNX
node-test layout (model.onnx, test_data_set_0/input_N.pb), for the ops whose
schema changed after opset 17 and the ops new since then. ONNX 1.12 (Debian)
cannot check them, so they are built with onnx.helper only (no checker).
Expected outputs come from onnxruntime-node 1.30:

    /usr/bin/python3 tests/data/opset18plus/generate.py
    ORT_DIR=/tmp/ort node models/reference/expected.mjs tests/data/opset18plus/*/

Constant operands (axes, pads, sizes, split, caches' positions...) are
initializers, as exporters write them. run_node_tests.py --dir runs them
(tests/nodetests/expectations_opset18plus.txt).
"""
import math
import os
import shutil
import sys
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto as T

# Written beside this script, or into the folder given (check_generated.sh).
HERE = (os.path.abspath(sys.argv[1]) if len(sys.argv) > 1
        else os.path.dirname(os.path.abspath(__file__)))
rng = np.random.default_rng(18)
F = T.FLOAT


def vi(name, shape, dtype=F):
    return helper.make_tensor_value_info(name, dtype, shape)


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def randn(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def case(name, opset, nodes, inputs, outputs, inits=()):
    """inputs: [(name, array)]; outputs: [(name, shape or None)]."""
    ins = [vi(n, list(a.shape), onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[a.dtype])
           for n, a in inputs]
    outs = [vi(n, s) for n, s in outputs]
    g = helper.make_graph(nodes, name, ins, outs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="lpx-opset18plus")
    m.ir_version = 10 if opset >= 23 else 9 if opset >= 19 else 8
    d = os.path.join(HERE, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "test_data_set_0"))
    onnx.save(m, os.path.join(d, "model.onnx"))
    for i, (n, a) in enumerate(inputs):
        with open(os.path.join(d, "test_data_set_0", f"input_{i}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(a, n).SerializeToString())


node = helper.make_node

# --- version-only bumps -----------------------------------------------------
for opset in (18, 20, 21, 22, 23):
    case(f"relu_opset{opset}", opset, [node("Relu", ["x"], ["y"])],
         [("x", randn(2, 3))], [("y", [2, 3])])
case("softplus_opset22", 22, [node("Softplus", ["x"], ["y"])],
     [("x", randn(3, 4))], [("y", [3, 4])])
case("transpose_flatten_opset23", 23,
     [node("Transpose", ["x"], ["t"], perm=[0, 2, 1]),
      node("Flatten", ["t"], ["y"], axis=1)],
     [("x", randn(2, 3, 4))], [("y", [2, 12])])

# --- Reduce*-18 / -20: axes as an input -------------------------------------
x = randn(2, 3, 4)
for op, axes, keep, shape in [
        ("ReduceMean", [1], 1, [2, 1, 4]), ("ReduceMax", [-1], 0, [2, 3]),
        ("ReduceMin", [0, 2], 1, [1, 3, 1]), ("ReduceProd", [2], 0, [2, 3]),
        ("ReduceL1", [1], 1, [2, 1, 4]), ("ReduceL2", [-2, -1], 0, [2]),
        ("ReduceLogSumExp", [0], 0, [3, 4]),
        ("ReduceSumSquare", None, 1, [1, 1, 1])]:
    ins = ["x"] + (["axes"] if axes is not None else [])
    inits = [const("axes", np.array(axes, np.int64))] if axes is not None else []
    case(f"{op.lower()}_opset18", 18, [node(op, ins, ["y"], keepdims=keep)],
         [("x", x)], [("y", shape)], inits)
case("reducelogsum_opset18_positive", 18,
     [node("ReduceLogSum", ["x", "axes"], ["y"], keepdims=0)],
     [("x", np.abs(x) + 0.5)], [("y", [2, 4])], [const("axes", np.array([1], np.int64))])
case("reducemean_opset18_empty_axes_noop", 18,
     [node("ReduceMean", ["x", "axes"], ["y"], noop_with_empty_axes=1)],
     [("x", x)], [("y", [2, 3, 4])], [const("axes", np.array([], np.int64))])
case("reducemax_opset20", 20, [node("ReduceMax", ["x", "axes"], ["y"], keepdims=1)],
     [("x", x)], [("y", [2, 3, 1])], [const("axes", np.array([2], np.int64))])

# --- Pad-18 / 19 / 21 with axes ---------------------------------------------
x = randn(1, 2, 3, 4)
case("pad_opset18_axes_constant", 18,
     [node("Pad", ["x", "pads", "value", "axes"], ["y"], mode="constant")],
     [("x", x)], [("y", [1, 2, 5, 7])],
     [const("pads", np.array([1, 2, 1, 1], np.int64)),
      const("value", np.array(0.5, np.float32)),
      const("axes", np.array([2, 3], np.int64))])
case("pad_opset19_axes_negative_reflect", 19,
     [node("Pad", ["x", "pads", "", "axes"], ["y"], mode="reflect")],
     [("x", x)], [("y", [1, 2, 3, 7])],
     [const("pads", np.array([1, 2], np.int64)), const("axes", np.array([-1], np.int64))])
case("pad_opset21_edge_no_axes", 21, [node("Pad", ["x", "pads"], ["y"], mode="edge")],
     [("x", x)], [("y", [1, 2, 4, 6])],
     [const("pads", np.array([0, 0, 1, 1, 0, 0, 0, 1], np.int64))])
# Pad-19's wrap: pads within the axis, negative pads (a crop first, then the
# wrap over what is left) and pads the length of the axis. (Pads beyond the
# axis's length onnxruntime-node 1.30 gets wrong, leaving zeros: the lit test of
# the rewrite checks those.)
case("pad_opset19_wrap_axes", 19,
     [node("Pad", ["x", "pads", "", "axes"], ["y"], mode="wrap")],
     [("x", x)], [("y", [1, 2, 6, 6])],
     [const("pads", np.array([2, 1, 1, 1], np.int64)), const("axes", np.array([2, 3], np.int64))])
case("pad_opset19_wrap_negative", 19, [node("Pad", ["x", "pads"], ["y"], mode="wrap")],
     [("x", x)], [("y", [1, 2, 4, 5])],
     [const("pads", np.array([0, 0, -1, 2, 0, 0, 2, -1], np.int64))])
case("pad_opset21_wrap_repeats", 21,
     [node("Pad", ["x", "pads", "", "axes"], ["y"], mode="wrap")],
     [("x", x)], [("y", [1, 2, 3, 11])],
     [const("pads", np.array([4, 3], np.int64)), const("axes", np.array([-1], np.int64))])

# --- Split-18 num_outputs ---------------------------------------------------
case("split_opset18_num_outputs_even", 18,
     [node("Split", ["x"], ["a", "b", "c"], axis=1, num_outputs=3)],
     [("x", randn(2, 6))], [("a", [2, 2]), ("b", [2, 2]), ("c", [2, 2])])
case("split_opset18_num_outputs_uneven", 18,
     [node("Split", ["x"], ["a", "b", "c"], axis=-1, num_outputs=3)],
     [("x", randn(2, 7))], [("a", [2, 3]), ("b", [2, 3]), ("c", [2, 1])])
case("split_opset18_split_input", 18,
     [node("Split", ["x", "split"], ["a", "b"], axis=0)],
     [("x", randn(5, 2))], [("a", [2, 2]), ("b", [3, 2])],
     [const("split", np.array([2, 3], np.int64))])

# --- Resize-18 / 19 ---------------------------------------------------------
x = randn(1, 2, 4, 4)
case("resize_opset18_axes_scales_nearest", 18,
     [node("Resize", ["x", "", "scales"], ["y"], axes=[2, 3], mode="nearest")],
     [("x", x)], [("y", [1, 2, 8, 8])], [const("scales", np.array([2, 2], np.float32))])
case("resize_opset18_sizes_not_larger", 18,
     [node("Resize", ["x", "", "", "sizes"], ["y"], axes=[2, 3], mode="linear",
           keep_aspect_ratio_policy="not_larger")],
     [("x", x)], [("y", [1, 2, 6, 6])], [const("sizes", np.array([6, 9], np.int64))])
case("resize_opset18_sizes_not_smaller", 18,
     [node("Resize", ["x", "", "", "sizes"], ["y"], axes=[2, 3], mode="linear",
           keep_aspect_ratio_policy="not_smaller")],
     [("x", x)], [("y", [1, 2, 9, 9])], [const("sizes", np.array([6, 9], np.int64))])
# antialias: linear and cubic downscaling, by scales and by sizes (as the
# ONNX node tests do), an upscale on one axis, exclude_outside. (onnxruntime
# refuses antialias with nearest, which the spec says it does not change.)
xa = np.random.default_rng(1819).standard_normal((1, 1, 8, 8)).astype(np.float32)  # its own: the later cases keep their inputs
for mode in ("linear", "cubic"):
    case(f"resize_opset18_{mode}_antialias_scales", 18,
         [node("Resize", ["x", "", "scales"], ["y"], mode=mode, antialias=1)],
         [("x", xa)], [("y", [1, 1, 4, 4])],
         [const("scales", np.array([1, 1, 0.6, 0.6], np.float32))])
    case(f"resize_opset18_{mode}_antialias_sizes", 18,
         [node("Resize", ["x", "", "", "sizes"], ["y"], mode=mode, antialias=1)],
         [("x", xa)], [("y", [1, 1, 3, 5])],
         [const("sizes", np.array([1, 1, 3, 5], np.int64))])
case("resize_opset19_linear_antialias_axes_upscale", 19,
     [node("Resize", ["x", "", "scales"], ["y"], mode="linear", antialias=1,
           axes=[3, 2], coordinate_transformation_mode="align_corners")],
     [("x", xa)], [("y", [1, 1, 4, 12])],
     [const("scales", np.array([1.5, 0.5], np.float32))])
case("resize_opset18_cubic_antialias_exclude_outside", 18,
     [node("Resize", ["x", "", "scales"], ["y"], mode="cubic", antialias=1,
           exclude_outside=1, cubic_coeff_a=-0.5)],
     [("x", xa)], [("y", [1, 1, 2, 2])],
     [const("scales", np.array([1, 1, 0.25, 0.25], np.float32))])
case("resize_opset19_linear_antialias0", 19,
     [node("Resize", ["x", "", "scales"], ["y"], mode="linear", antialias=0,
           coordinate_transformation_mode="half_pixel")],
     [("x", x)], [("y", [1, 2, 6, 6])],
     [const("scales", np.array([1, 1, 1.5, 1.5], np.float32))])

# Scale 1.7 of 4: an output of 6.8, 6 positions, which half_pixel_symmetric centres.
for mode in ("linear", "nearest"):
    case(f"resize_opset19_half_pixel_symmetric_{mode}", 19,
         [node("Resize", ["x", "", "scales"], ["y"], mode=mode,
               coordinate_transformation_mode="half_pixel_symmetric")],
         [("x", x)], [("y", [1, 2, 6, 6])],
         [const("scales", np.array([1, 1, 1.7, 1.7], np.float32))])

# --- ScatterElements / ScatterND-18 max, min ---------------------------------
case("scatterelements_opset18_max", 18,
     [node("ScatterElements", ["x", "idx", "u"], ["y"], axis=1, reduction="max")],
     [("x", randn(3, 4)), ("u", randn(3, 2))], [("y", [3, 4])],
     [const("idx", np.array([[0, 0], [1, 3], [2, 2]], np.int64))])
case("scatternd_opset18_min", 18,
     [node("ScatterND", ["x", "idx", "u"], ["y"], reduction="min")],
     [("x", randn(4, 3)), ("u", randn(3, 3))], [("y", [4, 3])],
     [const("idx", np.array([[0], [2], [0]], np.int64))])

# --- AveragePool-19, Cast-19, QuantizeLinear-21, DFT-20, GridSample-20 ------
case("averagepool_opset19_dilations1", 19,
     [node("AveragePool", ["x"], ["y"], kernel_shape=[3, 3], dilations=[1, 1],
           pads=[1, 1, 1, 1], count_include_pad=0)],
     [("x", randn(1, 2, 5, 5))], [("y", [1, 2, 5, 5])])
case("averagepool_opset19_dilated_pads_excluded", 19,
     [node("AveragePool", ["x"], ["y"], kernel_shape=[3, 2], dilations=[2, 2],
           pads=[2, 1, 2, 1], count_include_pad=0)],
     [("x", randn(1, 3, 6, 5))], [("y", [1, 3, 6, 5])])
case("averagepool_opset19_dilated_strided", 19,
     [node("AveragePool", ["x"], ["y"], kernel_shape=[2, 2], dilations=[2, 3],
           strides=[2, 1], pads=[1, 0, 1, 0], count_include_pad=1)],
     [("x", randn(2, 2, 7, 6))], [("y", [2, 2, 4, 3])])
case("averagepool_opset19_dilated_1d", 19,
     [node("AveragePool", ["x"], ["y"], kernel_shape=[3], dilations=[3])],
     [("x", randn(1, 2, 10))], [("y", [1, 2, 4])])
case("cast_opset19_saturate", 19,
     [node("Cast", ["x"], ["i"], to=T.INT32, saturate=1),
      node("Cast", ["i"], ["y"], to=F)],
     [("x", randn(3, 4) * 10)], [("y", [3, 4])])
case("quantize_opset21_output_dtype_int8", 21,
     [node("QuantizeLinear", ["x", "s"], ["q"], output_dtype=T.INT8),
      node("DequantizeLinear", ["q", "s"], ["y"])],
     [("x", randn(2, 8))], [("y", [2, 8])], [const("s", np.array(0.02, np.float32))])
case("dft_opset20_axis_input", 20,
     [node("DFT", ["x", "", "axis"], ["y"])],
     [("x", randn(2, 8, 1))], [("y", [2, 8, 2])], [const("axis", np.array(1, np.int64))])
case("gridsample_opset20_linear", 20,
     [node("GridSample", ["x", "grid"], ["y"], mode="linear", align_corners=0)],
     [("x", randn(1, 2, 4, 5)), ("grid", rng.uniform(-1, 1, (1, 3, 3, 2)).astype(np.float32))],
     [("y", [1, 2, 3, 3])])

# --- CenterCropPad-18: crop and pad, even and odd differences ---------------
case("centercroppad_opset18_crop_and_pad", 18,
     [node("CenterCropPad", ["x", "shape"], ["y"])],
     [("x", randn(5, 4, 3))], [("y", [2, 7, 3])],
     [const("shape", np.array([2, 7, 3], np.int64))])
case("centercroppad_opset18_axes", 18,
     [node("CenterCropPad", ["x", "shape"], ["y"], axes=[-2, -1])],
     [("x", randn(1, 2, 6, 5))], [("y", [1, 2, 3, 8])],
     [const("shape", np.array([3, 8], np.int64))])

# --- Gelu-20, Mish-18 --------------------------------------------------------
for approx, shape in [("none", (2, 3)), ("tanh", (1, 4, 8))]:
    case(f"gelu_opset20_{approx}", 20, [node("Gelu", ["x"], ["y"], approximate=approx)],
         [("x", randn(*shape) * 2)], [("y", list(shape))])
case("gelu_opset20_default", 20, [node("Gelu", ["x"], ["y"])],
     [("x", randn(16))], [("y", [16])])
case("mish_opset18", 18, [node("Mish", ["x"], ["y"])], [("x", randn(3, 5) * 3)], [("y", [3, 5])])

# --- GroupNormalization-18 (per group) and -21 (per channel) ----------------
case("groupnorm_opset18", 18,
     [node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=2)],
     [("x", randn(2, 4, 3, 3))], [("y", [2, 4, 3, 3])],
     [const("s", randn(2)), const("b", randn(2))])
case("groupnorm_opset21_per_channel", 21,
     [node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=3, epsilon=1e-3)],
     [("x", randn(2, 6, 5))], [("y", [2, 6, 5])],
     [const("s", randn(6)), const("b", randn(6))])
case("groupnorm_opset21_groups_eq_channels", 21,
     [node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=4)],
     [("x", randn(1, 4, 2, 3))], [("y", [1, 4, 2, 3])],
     [const("s", randn(4)), const("b", randn(4))])

# --- RMSNormalization-23 -----------------------------------------------------
case("rmsnorm_opset23_last_axis", 23,
     [node("RMSNormalization", ["x", "s"], ["y"])],
     [("x", randn(2, 3, 8))], [("y", [2, 3, 8])], [const("s", randn(8))])
case("rmsnorm_opset23_axis1_eps", 23,
     [node("RMSNormalization", ["x", "s"], ["y"], axis=1, epsilon=1e-3)],
     [("x", randn(2, 3, 4))], [("y", [2, 3, 4])], [const("s", randn(3, 4))])


# --- RotaryEmbedding-23 ------------------------------------------------------
def caches(positions, half):
    inv = 1.0 / (10000 ** (np.arange(half) / half))
    ang = np.outer(np.arange(positions), inv)
    return np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)


cos, sin = caches(16, 4)
case("rotary_opset23_4d_positions", 23,
     [node("RotaryEmbedding", ["x", "cos", "sin", "pos"], ["y"])],
     [("x", randn(1, 2, 3, 8)), ("pos", np.array([[0, 5, 9]], np.int64))],
     [("y", [1, 2, 3, 8])], [const("cos", cos), const("sin", sin)])
case("rotary_opset23_3d_interleaved", 23,
     [node("RotaryEmbedding", ["x", "cos", "sin", "pos"], ["y"], interleaved=1, num_heads=2)],
     [("x", randn(2, 3, 16)), ("pos", np.array([[0, 1, 2], [3, 4, 5]], np.int64))],
     [("y", [2, 3, 16])], [const("cos", cos), const("sin", sin)])
cos2, sin2 = caches(16, 2)
case("rotary_opset23_partial_dim", 23,
     [node("RotaryEmbedding", ["x", "cos", "sin", "pos"], ["y"], rotary_embedding_dim=4)],
     [("x", randn(1, 2, 3, 8)), ("pos", np.array([[2, 3, 4]], np.int64))],
     [("y", [1, 2, 3, 8])], [const("cos", cos2), const("sin", sin2)])
c3, s3 = caches(3, 4)
case("rotary_opset23_no_positions", 23,
     [node("RotaryEmbedding", ["x", "cos", "sin"], ["y"])],
     [("x", randn(1, 2, 3, 8))], [("y", [1, 2, 3, 8])],
     [const("cos", c3[None]), const("sin", s3[None])])


# --- Attention-23 ------------------------------------------------------------
def attention(name, q, k, v, outputs, attrs=None, extra=()):
    """extra: the optional inputs after V, in order: (name, array); an empty
    name skips one (no mask, say)."""
    names = ["q", "k", "v"] + [n for n, _ in extra]
    inputs = [("q", q), ("k", k), ("v", v)] + [(n, a) for n, a in extra if n]
    case(name, 23, [node("Attention", names, [n for n, _ in outputs], **(attrs or {}))],
         inputs, outputs)


attention("attention_opset23_4d", randn(1, 2, 3, 4), randn(1, 2, 5, 4), randn(1, 2, 5, 4),
          [("y", [1, 2, 3, 4])])
attention("attention_opset23_3d_gqa", randn(2, 3, 16), randn(2, 3, 8), randn(2, 3, 8),
          [("y", [2, 3, 16])], {"q_num_heads": 4, "kv_num_heads": 2})
attention("attention_opset23_3d_mqa_vhead", randn(1, 4, 12), randn(1, 4, 3), randn(1, 4, 5),
          [("y", [1, 4, 20])], {"q_num_heads": 4, "kv_num_heads": 1})
attention("attention_opset23_causal", randn(1, 2, 4, 4), randn(1, 2, 4, 4), randn(1, 2, 4, 4),
          [("y", [1, 2, 4, 4])], {"is_causal": 1})
attention("attention_opset23_bool_mask", randn(1, 2, 3, 4), randn(1, 2, 4, 4), randn(1, 2, 4, 4),
          [("y", [1, 2, 3, 4])],
          extra=[("mask", np.array([[True, True, False, True], [True, False, True, True],
                                    [False, True, True, True]]))])
attention("attention_opset23_float_mask_scale", randn(1, 2, 3, 4), randn(1, 2, 4, 4),
          randn(1, 2, 4, 4), [("y", [1, 2, 3, 4])], {"scale": 0.3},
          extra=[("mask", randn(1, 1, 3, 4))])
attention("attention_opset23_softcap", randn(1, 1, 3, 4) * 4, randn(1, 1, 3, 4) * 4,
          randn(1, 1, 3, 4), [("y", [1, 1, 3, 4])], {"softcap": 2.0})
attention("attention_opset23_past_present_causal", randn(1, 2, 2, 4), randn(1, 2, 2, 4),
          randn(1, 2, 2, 4), [("y", [1, 2, 2, 4]), ("pk", [1, 2, 5, 4]), ("pv", [1, 2, 5, 4])],
          {"is_causal": 1},
          extra=[("", None), ("past_k", randn(1, 2, 3, 4)), ("past_v", randn(1, 2, 3, 4))])
attention("attention_opset23_3d_gqa_past", randn(1, 1, 8), randn(1, 1, 4), randn(1, 1, 4),
          [("y", [1, 1, 8]), ("pk", [1, 2, 4, 2]), ("pv", [1, 2, 4, 2])],
          {"q_num_heads": 4, "kv_num_heads": 2},
          extra=[("", None), ("past_k", randn(1, 2, 3, 2)), ("past_v", randn(1, 2, 3, 2))])


# --- BitwiseAnd/Or/Xor/Not-18 (int64 inputs; Cast to float for the outputs) --
def ints(*shape, lo=-1000, hi=1000):
    return rng.integers(lo, hi, shape).astype(np.int64)


for op in ("BitwiseAnd", "BitwiseOr", "BitwiseXor"):
    case(f"{op.lower()}_opset18_broadcast", 18,
         [node(op, ["a", "b"], ["c"]), node("Cast", ["c"], ["y"], to=F)],
         [("a", ints(2, 3)), ("b", ints(3))], [("y", [2, 3])])
case("bitwisenot_opset18", 18,
     [node("BitwiseNot", ["a"], ["c"]), node("Cast", ["c"], ["y"], to=F)],
     [("a", ints(4, 2))], [("y", [4, 2])])
case("bitwisenot_opset18_uint8", 18,
     [node("Cast", ["a"], ["u"], to=T.UINT8), node("BitwiseNot", ["u"], ["c"]),
      node("Cast", ["c"], ["y"], to=F)],
     [("a", ints(6, lo=0, hi=256))], [("y", [6])])


# --- float16 through the decompositions (Cast in and out: float32 I/O) ------
def fp16_case(name, opset, op_nodes, inputs, out, shape, inits=()):
    casts = [node("Cast", [n], [n + "_h"], to=T.FLOAT16) for n, _ in inputs]
    case(name, opset, casts + op_nodes + [node("Cast", [out], ["y"], to=F)],
         inputs, [("y", shape)], inits)


fp16_case("attention_opset23_fp16_gqa_causal", 23,
          [node("Attention", ["q_h", "k_h", "v_h"], ["o"], is_causal=1)],
          [("q", randn(1, 4, 3, 8)), ("k", randn(1, 2, 3, 8)), ("v", randn(1, 2, 3, 8))],
          "o", [1, 4, 3, 8])
fp16_case("rmsnorm_opset23_fp16", 23,
          [node("Cast", ["s"], ["s_h"], to=T.FLOAT16),
           node("RMSNormalization", ["x_h", "s_h"], ["o"])],
          [("x", randn(2, 16))], "o", [2, 16], [const("s", randn(16))])
fp16_case("groupnorm_opset21_fp16", 21,
          [node("Cast", ["s"], ["s_h"], to=T.FLOAT16), node("Cast", ["b"], ["b_h"], to=T.FLOAT16),
           node("GroupNormalization", ["x_h", "s_h", "b_h"], ["o"], num_groups=2)],
          [("x", randn(1, 4, 6))], "o", [1, 4, 6], [const("s", randn(4)), const("b", randn(4))])

# --- inside a subgraph: an If (constant condition) whose branch is opset 18+ --
then_g = helper.make_graph(
    [node("ReduceMean", ["x", "axes"], ["m"], keepdims=1), node("Gelu", ["m"], ["r"])],
    "then", [], [vi("r", [2, 1])], [const("axes", np.array([1], np.int64))])
else_g = helper.make_graph([node("Mish", ["x"], ["r2"])], "else", [], [vi("r2", [2, 3])])
case("if_opset20_branch_with_newer_ops", 20,
     [node("If", ["cond"], ["y"], then_branch=then_g, else_branch=else_g)],
     [("x", randn(2, 3))], [("y", [2, 1])], [const("cond", np.array(True))])

# --- more of DFT-20 and GridSample-20/22 ------------------------------------
case("dft_opset20_inverse_last_axis", 20,
     [node("DFT", ["x", "", "axis"], ["y"], inverse=1)],
     [("x", randn(1, 2, 6, 2))], [("y", [1, 2, 6, 2])], [const("axis", np.array(-2, np.int64))])
for mode, opset in (("cubic", 20), ("nearest", 22)):
    case(f"gridsample_opset{opset}_{mode}", opset,
         [node("GridSample", ["x", "grid"], ["y"], mode=mode, padding_mode="border")],
         [("x", randn(1, 1, 5, 4)),
          ("grid", rng.uniform(-1.1, 1.1, (1, 2, 3, 2)).astype(np.float32))],
         [("y", [1, 1, 2, 3])])

# --- Attention-23: boolean mask with a past (mask over past + new keys) -----
attention("attention_opset23_bool_mask_past", randn(1, 2, 1, 4), randn(1, 2, 1, 4),
          randn(1, 2, 1, 4), [("y", [1, 2, 1, 4]), ("pk", [1, 2, 4, 4]), ("pv", [1, 2, 4, 4])],
          extra=[("mask", np.array([[True, False, True, True]])),
                 ("past_k", randn(1, 2, 3, 4)), ("past_v", randn(1, 2, 3, 4))])

# --- Col2Im-18 ----------------------------------------------------------------
case("col2im_opset18", 18, [node("Col2Im", ["x", "image", "block"], ["y"])],
     [("x", randn(1, 2 * 4, 16))], [("y", [1, 2, 5, 5])],
     [const("image", np.array([5, 5], np.int64)), const("block", np.array([2, 2], np.int64))])
case("col2im_opset18_strides_pads_dilations", 18,
     [node("Col2Im", ["x", "image", "block"], ["y"], strides=[2, 1], pads=[1, 0, 1, 1],
           dilations=[1, 2])],
     [("x", randn(2, 3 * 6, 3 * 4))], [("y", [2, 3, 5, 5])],
     [const("image", np.array([5, 5], np.int64)), const("block", np.array([3, 2], np.int64))])

# --- blocked (De)QuantizeLinear-21 ------------------------------------------
scales = (np.abs(randn(4, 3)) * 0.05 + 0.01).astype(np.float32)
case("quantize_dequantize_opset21_blocked_int8", 21,
     [node("QuantizeLinear", ["x", "s", "zp"], ["q"], axis=1, block_size=2),
      node("DequantizeLinear", ["q", "s", "zp"], ["y"], axis=1, block_size=2)],
     [("x", randn(4, 6))], [("y", [4, 6])],
     [const("s", scales), const("zp", ints(4, 3, lo=-5, hi=6).astype(np.int8))])
case("dequantize_opset21_blocked_uint8_axis0", 21,
     [node("Cast", ["a"], ["q"], to=T.UINT8),
      node("DequantizeLinear", ["q", "s", "zp"], ["y"], axis=0, block_size=3)],
     [("a", ints(6, 2, lo=0, hi=256))], [("y", [6, 2])],
     [const("s", scales[:2, :2]), const("zp", ints(2, 2, lo=100, hi=150).astype(np.uint8))])
case("quantize_opset21_blocked_output_dtype", 21,
     [node("QuantizeLinear", ["x", "s"], ["q"], axis=-1, block_size=3,
           output_dtype=T.UINT8),
      node("Cast", ["q"], ["y"], to=F)],
     [("x", randn(2, 6) + 3)], [("y", [2, 6])], [const("s", scales[:2, :2])])

# --- float8 (opset 19) and int4 (opset 21) weights ---------------------------
# A weight in one of the new types, dequantized into a MatMul as exporters
# write weight-only quantisation: per tensor, per axis and per block, with
# and without zero points, an odd count of int4 elements (the last byte's
# high nibble is padding). ONNX 1.12's helpers know no such type, so the
# tensors are built by hand (float8: one byte per element; int4: two, the
# first in the low nibble). Their own generator keeps the later inputs.
g8 = np.random.default_rng(1921)


def raw_tensor(name, data_type, dims, data):
    t = onnx.TensorProto()
    t.name, t.data_type = name, data_type
    t.dims.extend(dims)
    t.raw_data = bytes(data)
    return t


def fp8_bytes(n, nan):  # random patterns; a NaN or infinity one becomes 0x38
    return [0x38 if v in nan else int(v) for v in g8.integers(0, 256, n)]


def int4_bytes(values):  # two per byte, the first in the low nibble
    v = [int(x) & 0xF for x in values] + [0] * (len(values) % 2)
    return [v[i] | v[i + 1] << 4 for i in range(0, len(v), 2)]


xq = g8.standard_normal((2, 8)).astype(np.float32)
case("dequantize_opset19_float8e4m3fn_weight_per_axis", 19,
     [node("DequantizeLinear", ["w", "s"], ["wf"], axis=1), node("MatMul", ["x", "wf"], ["y"])],
     [("x", xq)], [("y", [2, 3])],
     [raw_tensor("w", 17, [8, 3], fp8_bytes(24, (0x7F, 0xFF))),
      const("s", np.array([0.01, 0.02, 0.005], np.float32))])
case("dequantize_opset19_float8e5m2_weight_zero_point", 19,
     [node("DequantizeLinear", ["w", "s", "zp"], ["wf"]), node("MatMul", ["x", "wf"], ["y"])],
     [("x", xq)], [("y", [2, 4])],
     [raw_tensor("w", 19, [8, 4], fp8_bytes(32, tuple(range(0x7C, 0x80)) + tuple(range(0xFC, 0x100)))),
      const("s", np.array(0.001, np.float32)), raw_tensor("zp", 19, [], [0])])
case("dequantize_opset21_int4_weight_blocked", 21,
     [node("DequantizeLinear", ["w", "s", "zp"], ["wf"], axis=0, block_size=4),
      node("MatMul", ["x", "wf"], ["y"])],
     [("x", xq)], [("y", [2, 3])],
     [raw_tensor("w", 22, [8, 3], int4_bytes(g8.integers(-8, 8, 24))),
      const("s", (g8.random((2, 3)) * 0.1 + 0.01).astype(np.float32)),
      raw_tensor("zp", 22, [2, 3], int4_bytes(g8.integers(-2, 3, 6)))])
case("dequantize_opset21_uint4_weight_odd_count", 21,
     [node("DequantizeLinear", ["w", "s", "zp"], ["wf"], axis=0),
      node("MatMul", ["wf", "x"], ["y"])],
     [("x", g8.standard_normal((5, 2)).astype(np.float32))], [("y", [3, 2])],
     [raw_tensor("w", 21, [3, 5], int4_bytes(g8.integers(0, 16, 15))),
      const("s", np.array([0.1, 0.2, 0.05], np.float32)),
      raw_tensor("zp", 21, [3], int4_bytes([8, 7, 9]))])

# FLOAT8E4M3FN activations, as FP8 exports round them: a Cast there and
# back (values past 448 saturate), and a QuantizeLinear / DequantizeLinear
# pair per tensor and per axis around a MatMul, its float8 zero point zero.
xa8 = (g8.standard_normal((2, 8)) * 100).astype(np.float32)
case("cast_opset19_float8e4m3fn_round_trip", 19,
     [node("Cast", ["x"], ["q"], to=17), node("Cast", ["q"], ["y"], to=T.FLOAT)],
     [("x", np.concatenate([xa8, [[500, -1e4, 0.001, 3e-3, 448, 464, -0.0, 1.0625]]]).astype(np.float32))],
     [("y", [3, 8])])
case("qdq_opset19_float8e4m3fn_activation_matmul", 19,
     [node("QuantizeLinear", ["x", "s", "zp"], ["q"]),
      node("DequantizeLinear", ["q", "s", "zp"], ["xq"]),
      node("QuantizeLinear", ["w", "sw", "zpw"], ["qw"], axis=1),
      node("DequantizeLinear", ["qw", "sw", "zpw"], ["wq"], axis=1),
      node("MatMul", ["xq", "wq"], ["y"])],
     [("x", xq)], [("y", [2, 3])],
     [const("s", np.array(0.01, np.float32)), raw_tensor("zp", 17, [], [0]),
      const("w", g8.standard_normal((8, 3)).astype(np.float32)),
      const("sw", np.array([0.01, 0.02, 0.005], np.float32)),
      raw_tensor("zpw", 17, [3], [0, 0, 0])])
case("qdq_opset21_float8e4m3fn_output_dtype", 21,
     [node("QuantizeLinear", ["x", "s"], ["q"], output_dtype=17),
      node("DequantizeLinear", ["q", "s"], ["y"])],
     [("x", xq)], [("y", [2, 8])], [const("s", np.array(0.02, np.float32))])

# FLOAT8E5M2 activations: saturating (past 57344 clips) and not (past it
# is infinity), and a QuantizeLinear / DequantizeLinear pair. (Between 57344 and
# 65536 onnxruntime-node 1.30 gives NaN without saturation where ONNX's Cast
# table says infinity: no value lies there.)
x52 = np.concatenate([xa8, [[6e4, -1e5, 1e-6, 3e-5, 57344, 2e5, -0.0, 1.125]]]).astype(np.float32)
case("cast_opset19_float8e5m2_round_trip", 19,
     [node("Cast", ["x"], ["q"], to=19), node("Cast", ["q"], ["y"], to=T.FLOAT)],
     [("x", x52)], [("y", [3, 8])])
case("cast_opset19_float8e5m2_no_saturate", 19,
     [node("Cast", ["x"], ["q"], to=19, saturate=0), node("Cast", ["q"], ["y"], to=T.FLOAT)],
     [("x", x52)], [("y", [3, 8])])
case("qdq_opset19_float8e5m2_activation", 19,
     [node("QuantizeLinear", ["x", "s", "zp"], ["q"]),
      node("DequantizeLinear", ["q", "s", "zp"], ["y"])],
     [("x", xq)], [("y", [2, 8])],
     [const("s", np.array(0.001, np.float32)), raw_tensor("zp", 19, [], [0])])

# Blocked quantisation with a partial last block (7 by 3: blocks of 3, 3, 1),
# int8 activations and an int4 weight.
sp = (g8.random((2, 3)) * 0.05 + 0.01).astype(np.float32)
case("quantize_dequantize_opset21_blocked_partial", 21,
     [node("QuantizeLinear", ["x", "s", "zp"], ["q"], axis=1, block_size=3),
      node("DequantizeLinear", ["q", "s", "zp"], ["y"], axis=1, block_size=3)],
     [("x", g8.standard_normal((2, 7)).astype(np.float32))], [("y", [2, 7])],
     [const("s", sp), const("zp", g8.integers(-5, 6, (2, 3)).astype(np.int8))])
case("dequantize_opset21_int4_weight_partial_block", 21,
     [node("DequantizeLinear", ["w", "s"], ["wf"], axis=0, block_size=3),
      node("MatMul", ["x", "wf"], ["y"])],
     [("x", g8.standard_normal((2, 7)).astype(np.float32))], [("y", [2, 2])],
     [raw_tensor("w", 22, [7, 2], int4_bytes(g8.integers(-8, 8, 14))),
      const("s", (g8.random((3, 2)) * 0.1 + 0.01).astype(np.float32))])

# --- RotaryEmbedding-23 as exporters feed it ---------------------------------
# Caches that are the Cos and Sin of an angle computed in the graph (the
# importer doubles the angle before them), 4-D and 3-D, one behind an
# RMSNormalization as in a decoder layer.
case("rotary_opset23_caches_of_an_angle", 23,
     [node("Mul", ["t", "inv"], ["angle"]), node("Cos", ["angle"], ["c"]),
      node("Sin", ["angle"], ["s"]),
      node("RMSNormalization", ["x", "w"], ["xn"], axis=-1),
      node("RotaryEmbedding", ["xn", "c", "s"], ["r"]),
      node("RotaryEmbedding", ["x", "c", "s"], ["r2"]),
      node("Add", ["r", "r2"], ["y"])],
     [("x", randn(2, 3, 4, 8)), ("t", np.abs(randn(2, 4, 1)) * 5)], [("y", [2, 3, 4, 8])],
     [const("inv", (1.0 / (10000 ** (np.arange(4) / 4))).astype(np.float32)),
      const("w", randn(8))])
case("rotary_opset23_3d_caches_of_an_angle", 23,
     [node("Cos", ["angle"], ["c"]), node("Sin", ["angle"], ["s"]),
      node("RotaryEmbedding", ["x", "c", "s"], ["y"], num_heads=2)],
     [("x", randn(1, 5, 16)), ("angle", randn(1, 5, 4) * 3)], [("y", [1, 5, 16])])
