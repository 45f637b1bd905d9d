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
f = lambda n, s: helper.make_tensor_value_info(n, T.FLOAT, s)
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
save("resize_antialias", [n("Resize", ["x", "", "sc"], ["y"], antialias=1, mode="linear")],
     [f("x", [1, 1, 4, 4])], [f("y", None)], [c("sc", np.array([1, 1, .5, .5], np.float32))], opset=18)
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
expect resize_antialias "\(Resize-18\): antialias=1 is not supported"
expect affinegrid "\(AffineGrid-20\): not supported at this version"
expect attention_dynamic "\(Attention-23\): input 'q' has dynamic dims \(Bx3x8\): pin the graph's inputs with --input-shape"
expect gelu_approx "\(Gelu-20\): unknown approximate 'fast'"
# Coverage: the model at opset 25 is listed node by node, not refused.
"$lpx" coverage "$tmp/opset25.onnx" >"$tmp/cov" 2>&1
rc=$?
check "coverage of an opset-25 model: exit 1, Transpose-25 unsupported, Relu and Gelu-20 supported" \
  "[ $rc -eq 1 ] && grep -qE 'Transpose_1 +Transpose-25 +unsupported +not supported at this version' '$tmp/cov' &&
   grep -qE 'Relu_0 +Relu-14 +supported' '$tmp/cov' && grep -qE 'Gelu_2 +Gelu-20 +supported' '$tmp/cov'"
finish
