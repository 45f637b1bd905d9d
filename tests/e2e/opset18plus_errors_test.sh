#!/usr/bin/env bash
# Malformed or unsupported models of opsets 18 to 23 (and 24 to 29): what
# ONNX 1.12's checker cannot check, the importer does. Each is one error
# line naming the node and what is wrong, exit code 2, no crash, no output
# file; lpx coverage lists the same reasons per node.
source "$(dirname "$0")/common.sh" "$1"

/usr/bin/python3 - "$tmp" <<'PY'
import sys
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto as T
out = sys.argv[1]
f = lambda n, s, t=T.FLOAT: helper.make_tensor_value_info(n, t, s)
c = lambda n, a: numpy_helper.from_array(np.asarray(a), n)
def save(name, nodes, ins, outs, inits=(), opset=23):
    g = helper.make_graph(nodes, name, ins, outs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    onnx.save(m, f"{out}/{name}.onnx")
n = helper.make_node
save("opset29", [n("Relu", ["x"], ["y"])], [f("x", [2])], [f("y", [2])], opset=29)
# Opset 25: Relu and Gelu import as at 23, Transpose-25 is named.
save("opset25", [n("Relu", ["x"], ["r"]), n("Transpose", ["r"], ["t"], perm=[1, 0]),
                 n("Gelu", ["t"], ["y"])], [f("x", [2, 3])], [f("y", [3, 2])], opset=25)
save("reduce_runtime_axes", [n("ReduceMean", ["x", "axes"], ["y"])],
     [f("x", [2, 3]), helper.make_tensor_value_info("axes", T.INT64, [1])], [f("y", None)], opset=18)
save("split_count", [n("Split", ["x"], ["a", "b", "c"], num_outputs=4)],
     [f("x", [8])], [f("a", None), f("b", None), f("c", None)], opset=18)
save("pad_axis_range", [n("Pad", ["x", "p", "", "axes"], ["y"])], [f("x", [2, 3])], [f("y", None)],
     [c("p", np.array([1, 1], np.int64)), c("axes", np.array([5], np.int64))], opset=19)
save("attention_3d_heads", [n("Attention", ["q", "k", "v"], ["y"])],
     [f("q", [1, 2, 8]), f("k", [1, 2, 8]), f("v", [1, 2, 8])], [f("y", None)])
save("attention_one_input", [n("Attention", ["q"], ["y"])], [f("q", [1, 2, 3, 4])], [f("y", None)])
save("rotary_3d_heads", [n("RotaryEmbedding", ["x", "c", "s"], ["y"])], [f("x", [1, 2, 8])],
     [f("y", None)], [c("c", np.zeros((1, 2, 4), np.float32)), c("s", np.zeros((1, 2, 4), np.float32))])
save("groupnorm_groups", [n("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=3)],
     [f("x", [1, 4, 2])], [f("y", None)], [c("s", np.ones(4, np.float32)), c("b", np.zeros(4, np.float32))],
     opset=21)
save("resize_antialias", [n("Resize", ["x", "", "sc"], ["y"], antialias=2, mode="linear")],
     [f("x", [1, 1, 4, 4])], [f("y", None)], [c("sc", np.array([1, 1, .5, .5], np.float32))], opset=18)
save("pad_wrap_18", [n("Pad", ["x", "p"], ["y"], mode="wrap")], [f("x", [2, 3])], [f("y", None)],
     [c("p", np.array([0, 1, 0, 1], np.int64))], opset=18)
save("pad_wrap_crop_all", [n("Pad", ["x", "p"], ["y"], mode="wrap")], [f("x", [2, 3])], [f("y", None)],
     [c("p", np.array([0, -3, 0, 1], np.int64))], opset=19)
save("cast_float8e4m3fnuz", [n("Cast", ["x"], ["q"], to=18), n("Cast", ["q"], ["y"], to=1)],
     [f("x", [2])], [f("y", None)], opset=19)
save("dq_float8_input", [n("DequantizeLinear", ["x", "s"], ["y"])], [f("x", [2], 17)],
     [f("y", None)], [c("s", np.array(1, np.float32))], opset=19)
save("affinegrid", [n("AffineGrid", ["theta", "size"], ["y"])], [f("theta", [1, 2, 3])],
     [f("y", None)], [c("size", np.array([1, 1, 4, 4], np.int64))], opset=20)
# Dynamic dims that a rewrite needs static: named, with the fix.
save("attention_dynamic", [n("Attention", ["q", "k", "v"], ["y"], q_num_heads=2, kv_num_heads=2)],
     [f("q", ["B", 3, 8]), f("k", ["B", 3, 8]), f("v", ["B", 3, 8])], [f("y", None)])
save("gelu_approx", [n("Gelu", ["x"], ["y"], approximate="fast")], [f("x", [2])], [f("y", None)], opset=20)
PY

# expect NAME PATTERN: lpx compile exits 2 with one line matching PATTERN.
expect() {
  rm -f "$tmp/out.lpxb"
  "$lpx" compile "$tmp/$1.onnx" -o "$tmp/out.lpxb" >"$tmp/stdout" 2>"$tmp/stderr"
  local rc=$? lines
  lines=$(wc -l <"$tmp/stderr")
  if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -qE "$2" "$tmp/stderr" && [ ! -e "$tmp/out.lpxb" ]; then
    ok "$1: $(cat "$tmp/stderr")"
  else
    fail "$1: exit $rc, $lines line(s): $(head -3 "$tmp/stderr")"
  fi
}
expect opset29 "opset 29; the importer supports opsets 1 to 23 \(and knows which ops changed up to 28\)"
expect opset25 "node 'Transpose_1' \(Transpose-25\): not supported at this version: newer than opset 23"
expect reduce_runtime_axes "node 'ReduceMean_0' \(ReduceMean-18\): input 'axes' must be a compile-time constant"
expect split_count "\(Split-18\): num_outputs is 4 but the node has 3 outputs"
expect pad_axis_range "\(Pad-19\): axis 5 is out of range for rank 2"
expect attention_3d_heads "\(Attention-23\): 3-D inputs need q_num_heads and kv_num_heads"
expect attention_one_input "\(Attention-23\): has 1 inputs \(Attention-23 takes 3 to 6\)"
expect rotary_3d_heads "\(RotaryEmbedding-23\): a 3-D input needs num_heads"
expect groupnorm_groups "\(GroupNormalization-21\): num_groups 3 does not divide the 4 channels"
expect resize_antialias "\(Resize-18\): antialias must be 0 or 1, not 2"
expect pad_wrap_18 "\(Pad-18\): mode 'wrap' is Pad-19's"
expect pad_wrap_crop_all "\(Pad-19\): mode 'wrap': axis 1 of length 3 cannot take pads -3 and 1"
expect cast_float8e4m3fnuz "\(Cast-19\): float8 type 18 is not one of the chip's FP8 formats \(FLOAT8E4M3FN, 17, and FLOAT8E5M2, 19\)"
expect dq_float8_input "\(DequantizeLinear-19\): input 'x' is of a float8 / int4 type: only constant weights"
expect affinegrid "\(AffineGrid-20\): not supported at this version"
expect attention_dynamic "\(Attention-23\): input 'q' has dynamic dims \(Bx3x8\): pin the graph's inputs with --input-shape"
expect gelu_approx "\(Gelu-20\): unknown approximate 'fast'"
# Coverage: the model at opset 25 is listed node by node, not refused.
"$lpx" coverage "$tmp/opset25.onnx" >"$tmp/cov" 2>&1
rc=$?
check "coverage of an opset-25 model: exit 1, Transpose-25 unsupported, Relu and Gelu-20 supported" \
  "[ $rc -eq 1 ] && grep -qE 'Transpose_1 +Transpose-25 +unsupported +not supported at this version' '$tmp/cov' &&
   grep -qE 'Relu_0 +Relu-14 +supported' '$tmp/cov' && grep -qE 'Gelu_2 +Gelu-20 +supported' '$tmp/cov'"

# ai.onnx.ml beside default opsets 18 to 23, at the version ONNX's releases
# pair with each (18, 19: 3; 20: 4; 21 to 23: 5). lpx compiles no ai.onnx.ml
# op: a model that only imports the domain compiles; each node of it is
# reported as such, with its version (LabelEncoder-4, TreeEnsemble-5, the
# deprecated TreeEnsembleRegressor-5); an ai.onnx.ml opset 0 is bad input.
/usr/bin/python3 - "$tmp" <<'PY'
import sys
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto as T
out, n = sys.argv[1], helper.make_node
ml = {18: 3, 19: 3, 20: 4, 21: 5, 22: 5, 23: 5}
def save(name, nodes, opset, mlv, x=T.FLOAT, y=T.FLOAT, yshape=(2, 3)):
    g = helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", x, [2, 3])],
                          [helper.make_tensor_value_info("y", y, list(yshape))])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset),
                                            helper.make_opsetid("ai.onnx.ml", mlv)])
    m.ir_version = 10 if opset >= 21 else 9 if opset >= 19 else 8
    onnx.save(m, f"{out}/{name}.onnx")
for opset, mlv in ml.items():
    save(f"ml_import_{opset}", [n("Relu", ["x"], ["y"])], opset, mlv)
    save(f"ml_binarizer_{opset}", [n("Relu", ["x"], ["r"]),
         n("Binarizer", ["r"], ["y"], domain="ai.onnx.ml", threshold=0.5)], opset, mlv)
t = lambda a: numpy_helper.from_array(np.asarray(a))
save("ml_labelencoder4", [n("LabelEncoder", ["x"], ["y"], domain="ai.onnx.ml",
     keys_tensor=t(np.array([1, 2], np.int64)), values_tensor=t(np.array([5, 6], np.int64)),
     default_tensor=t(np.array([0], np.int64)))], 20, 4, T.INT64, T.INT64)
save("ml_treeensemble5", [n("TreeEnsemble", ["x"], ["y"], domain="ai.onnx.ml", n_targets=1,
     tree_roots=[0], nodes_featureids=[0], nodes_splits=t(np.array([0.5], np.float32)),
     nodes_modes=t(np.array([0], np.uint8)), nodes_truenodeids=[0], nodes_trueleafs=[1],
     nodes_falsenodeids=[1], nodes_falseleafs=[1], leaf_targetids=[0, 0],
     leaf_weights=t(np.array([1, 2], np.float32)))], 23, 5, yshape=(2, 1))
save("ml_regressor5", [n("TreeEnsembleRegressor", ["x"], ["y"], domain="ai.onnx.ml",
     n_targets=1, nodes_nodeids=[0], nodes_treeids=[0], nodes_featureids=[0],
     nodes_modes=["LEAF"], nodes_values=[0.0], nodes_truenodeids=[0], nodes_falsenodeids=[0],
     target_ids=[0], target_nodeids=[0], target_treeids=[0], target_weights=[1.0])],
     21, 5, yshape=(2, 1))
save("ml_opset0", [n("Relu", ["x"], ["y"])], 18, 0)
PY
[ $? -eq 0 ] || die "cannot generate the ai.onnx.ml models"
why="an ai.onnx.ml \(traditional ML\) op: lpx compiles none of that domain.s ops"
for opset in 18 19 20 21 22 23; do
  check "opset $opset with its ai.onnx.ml opset, no ml node: compiles" \
    "'$lpx' compile '$tmp/ml_import_$opset.onnx' -o '$tmp/ml.lpxb' >/dev/null 2>&1"
  "$lpx" coverage "$tmp/ml_binarizer_$opset.onnx" >"$tmp/cov" 2>&1
  rc=$?
  check "opset $opset: coverage lists ai.onnx.ml.Binarizer-1 as not supported, per node" \
    "[ $rc -eq 1 ] && grep -qE 'Binarizer_1 +ai.onnx.ml.Binarizer-1 +unsupported +$why' '$tmp/cov' &&
     grep -qE 'Relu_0 +Relu-14 +supported' '$tmp/cov' && grep -q 'missing: ai.onnx.ml.Binarizer' '$tmp/cov'"
done
for m in "ml_labelencoder4 LabelEncoder_0 LabelEncoder-4" "ml_treeensemble5 TreeEnsemble_0 TreeEnsemble-5" \
         "ml_regressor5 TreeEnsembleRegressor_0 TreeEnsembleRegressor-5"; do
  set -- $m
  "$lpx" coverage "$tmp/$1.onnx" >"$tmp/cov" 2>&1
  rc=$?
  check "coverage names $3 (ai.onnx.ml) as not supported" \
    "[ $rc -eq 1 ] && grep -qE '$2 +ai.onnx.ml.$3 +unsupported +$why' '$tmp/cov'"
  "$lpx" compile "$tmp/$1.onnx" -o "$tmp/ml.lpxb" >/dev/null 2>"$tmp/err"
  rc=$?
  check "compile of $3: exit 2, one line naming the node" \
    "[ $rc -eq 2 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -qE \"node '$2' .*: $why\" '$tmp/err'"
done
"$lpx" compile "$tmp/ml_opset0.onnx" -o "$tmp/ml0.lpxb" >/dev/null 2>"$tmp/err"
rc=$?
check "ai.onnx.ml opset 0: exit 2, $(cat "$tmp/err")" \
  "[ $rc -eq 2 ] && grep -q 'imports ai.onnx.ml opset 0; its opsets are numbered from 1' '$tmp/err' && [ ! -e '$tmp/ml0.lpxb' ]"
finish
