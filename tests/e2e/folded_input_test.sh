#!/usr/bin/env bash
# `lpx run` and an input folded at compile time (issue 21, point 6): a
# program compiled with --const-input sr=... checks a data file given for
# sr against the folded value, and a different value is one line and exit 2
# (before, the data's sr was ignored and "all outputs match" reported).
# Expected outputs come from numpy (y = x * sr).
source "$(dirname "$0")/common.sh" "$1"

/usr/bin/python3 - "$tmp" <<'PY' || die "cannot generate the model and data"
import os, sys
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
d = sys.argv[1]
g = helper.make_graph([helper.make_node("Mul", ["x", "sr"], ["y"], name="mul")], "g",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4]),
                       helper.make_tensor_value_info("sr", TensorProto.FLOAT, [1])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])])
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), f"{d}/m.onnx")
x = np.array([1, 2, 3, 4], np.float32)
def write(path, a, name):
    open(path, "wb").write(numpy_helper.from_array(a, name).SerializeToString())
write(f"{d}/sr.pb", np.array([16000], np.float32), "sr")
# same: the folded value; other: another value, expected as y = x * 8000
# (what the model gives for it); folded-out: the other sr, but the folded
# program's outputs; none: no sr at all.
for case, sr, y in [("same", 16000, 16000), ("other", 8000, 8000),
                    ("folded-out", 8000, 16000), ("none", None, 16000)]:
    os.makedirs(f"{d}/{case}")
    write(f"{d}/{case}/input_0.pb", x, "x")
    if sr is not None:
        write(f"{d}/{case}/input_1.pb", np.array([sr], np.float32), "sr")
    write(f"{d}/{case}/output_0.pb", x * np.float32(y), "y")
PY
"$lpx" compile "$tmp/m.onnx" --const-input "sr=$tmp/sr.pb" -o "$tmp/p.lpxb" >/dev/null || die "compile"
check "the folded value in the data: outputs match" "'$lpx' run '$tmp/p.lpxb' --data '$tmp/same' >/dev/null"
check "no data for the folded input: outputs match" "'$lpx' run '$tmp/p.lpxb' --data '$tmp/none' >/dev/null"
for case in other folded-out; do
  "$lpx" run "$tmp/p.lpxb" --data "$tmp/$case" >"$tmp/out" 2>"$tmp/err"; rc=$?
  check "$case: another value for the folded input is exit 2, one line naming it" \
    "[ $rc -eq 2 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q \"input 'sr' was folded into the program\" '$tmp/err' && ! grep -q 'match' '$tmp/out'"
done
finish
