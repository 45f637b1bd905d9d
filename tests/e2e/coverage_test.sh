#!/usr/bin/env bash
# lpx coverage: verdicts and exit codes on models, every format, and the
# committed operator table being exactly what the code generates.
set -uo pipefail
lpx="$1"
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/tests/e2e/testlib.sh"
check() { if eval "$2"; then echo "ok   $1"; passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); return 1; fi; }

# A model with two operators nothing here compiles (NonZero: a data-dependent
# shape; one in a foreign domain).
/usr/bin/python3 - "$tmp/blocked.onnx" <<'PY'
import sys
from onnx import TensorProto, helper
g = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["r"], name="relu_node"),
     helper.make_node("NonZero", ["r"], ["d"], name="nonzero_node"),
     helper.make_node("Frobnicate", ["r"], ["f"], name="custom_node", domain="com.example")],
    "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 3])],
    [helper.make_tensor_value_info("d", TensorProto.INT64, [2, None]),
     helper.make_tensor_value_info("f", TensorProto.FLOAT, [3, 3])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13),
                                        helper.make_opsetid("com.example", 1)])
open(sys.argv[1], "wb").write(m.SerializeToString())
PY
[ $? -eq 0 ] || die "cannot generate the test models"

# The quantized operators (int8 is the chip's native type), weights as
# initializers the way quantizers emit them.
/usr/bin/python3 - "$tmp/quant.onnx" <<'PY'
import sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper
U8, I8 = TensorProto.UINT8, TensorProto.INT8
inits = dict(w=np.full((8, 4), 3, np.uint8), wz=np.array(128, np.uint8),
             k=np.ones((2, 1, 3, 3), np.int8), s=np.array(0.05, np.float32),
             z=np.array(128, np.uint8), ks=np.array([0.1, 0.2], np.float32),
             kz=np.array([0, 0], np.int8), iz=np.array(0, np.int8))
g = helper.make_graph(
    [helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"], name="dql"),
     helper.make_node("MatMulInteger", ["xq", "w", "xz", "wz"], ["mi"], name="matmul_integer"),
     helper.make_node("QLinearMatMul", ["xq", "s", "z", "w", "s", "wz", "s", "z"], ["qm"], name="qlinear_matmul"),
     helper.make_node("ConvInteger", ["img", "k"], ["ci"], name="conv_integer"),
     helper.make_node("QLinearConv", ["img", "s", "iz", "k", "ks", "kz", "s", "z"], ["qc"], name="qlinear_conv")],
    "quant",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8]),
     helper.make_tensor_value_info("img", I8, [1, 1, 5, 5])],
    [helper.make_tensor_value_info("mi", TensorProto.INT32, [2, 4]),
     helper.make_tensor_value_info("qm", U8, [2, 4]),
     helper.make_tensor_value_info("ci", TensorProto.INT32, [1, 2, 3, 3]),
     helper.make_tensor_value_info("qc", U8, [1, 2, 3, 3])],
    initializer=[numpy_helper.from_array(v, k) for k, v in inits.items()])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
open(sys.argv[1], "wb").write(m.SerializeToString())
PY
[ $? -eq 0 ] || die "cannot generate the test models"
"$lpx" coverage "$tmp/quant.onnx" >"$tmp/quant.txt"; rc=$?
check "quantized operators are supported and portable" \
  "[ $rc -eq 0 ] && grep -q '5/5 nodes supported, 0 op types missing' '$tmp/quant.txt' && grep -q 'verdict: portable' '$tmp/quant.txt'"

"$lpx" coverage "$root/models/llama_step/model.onnx" >"$tmp/llama.txt"; rc=$?
check "llama_step is portable (exit 0)" "[ $rc -eq 0 ] && grep -q 'verdict: portable' '$tmp/llama.txt'"
check "portable report gives chips and latency from simulation" \
  "grep -qE 'needs [0-9]+ chip\\(s\\) of tsp-v1 .* one inference: [0-9]+ cycles' '$tmp/llama.txt'"
check "58/58 nodes, Constant-free graph all supported" "grep -q '58/58 nodes supported, 0 op types missing' '$tmp/llama.txt'"

"$lpx" coverage "$tmp/blocked.onnx" >"$tmp/blocked.txt"; rc=$?
check "blocked model exits 1" "[ $rc -eq 1 ]"
check "every blocker listed with its node name" \
  "grep -q 'nonzero_node' '$tmp/blocked.txt' && grep -q 'custom_node' '$tmp/blocked.txt'"
check "summary line counts them" "grep -q '1/3 nodes supported, 2 op types missing' '$tmp/blocked.txt'"
check "verdict not portable" "grep -q 'verdict: not portable' '$tmp/blocked.txt'"

# A reshape target computed from an input's value: the report blames the
# run-time shape (naming its source), not Reshape as a missing op.
/usr/bin/python3 - "$tmp/dynshape.onnx" <<'PY'
import sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper
g = helper.make_graph(
    [helper.make_node("Neg", ["n"], ["negn"], name="neg"),
     helper.make_node("Concat", ["negn", "m1"], ["target"], axis=0, name="cat"),
     helper.make_node("Reshape", ["x", "target"], ["y"], name="reshape")],
    "dyn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 6]),
            helper.make_tensor_value_info("n", TensorProto.INT64, [1])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["a", "b"])],
    [numpy_helper.from_array(np.array([-1], np.int64), "m1")])
open(sys.argv[1], "wb").write(helper.make_model(
    g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString())
PY
[ $? -eq 0 ] || die "cannot generate the test models"
"$lpx" coverage "$tmp/dynshape.onnx" >"$tmp/dyn.txt"; rc=$?
check "run-time shape: not portable, Reshape not missing, source named" \
  "[ $rc -eq 1 ] && grep -q '2/3 nodes supported, 0 op types missing' '$tmp/dyn.txt' &&
   grep -q \"shape computed at run time from node 'neg' (Neg), which reads graph input 'n'; pinning its value with --const-input n=file.pb would fold it\" '$tmp/dyn.txt'"

"$lpx" coverage --format json "$tmp/blocked.onnx" "$root/models/mlp/model.onnx" >"$tmp/r.json"; rc=$?
[ $rc -eq 1 ] || die "coverage --format json: exit $rc, expected 1 (one model not portable)"
check "json report parses and has both models" \
  "/usr/bin/python3 -c 'import json,sys; r=json.load(open(\"$tmp/r.json\")); assert len(r)==2 and r[1][\"portable\"] and not r[0][\"portable\"]'"
"$lpx" coverage --format html "$root/models/mlp/model.onnx" >"$tmp/r.html" || die "coverage: exit $?"
check "html report is one self-contained page" "grep -q '<!DOCTYPE html>' '$tmp/r.html' && ! grep -q '<script src\\|<link ' '$tmp/r.html'"
"$lpx" coverage --format md "$root/models/mlp/model.onnx" >"$tmp/r.md" || die "coverage: exit $?"
check "markdown report has the node table" "grep -q '| node | op | status | reason |' '$tmp/r.md'"

echo "not onnx" >"$tmp/text.onnx"
"$lpx" coverage "$tmp/missing.onnx" 2>/dev/null; rc=$?
check "a missing file exits 2" "[ $rc -eq 2 ]"

# ---- Broken models are bad input: exit 2, one line naming the problem ------
# Generated here; the helper refuses some of them, so those are raw protos.
mkdir -p "$tmp/bad" "$tmp/bad/sub"
/usr/bin/python3 - "$tmp/bad" <<'PY'
import os, sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper
out = sys.argv[1]
def save(name, nodes, inputs, outputs, inits=(), value_info=(), sub=""):
    g = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits),
                          value_info=list(value_info))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    open(os.path.join(out, sub, name + ".onnx"), "wb").write(m.SerializeToString())
F = TensorProto.FLOAT
x = helper.make_tensor_value_info("x", F, [2, 3])
y = helper.make_tensor_value_info("y", F, [2, 3])
# n1 reads n2's output, n2 reads n1's: a cycle.
save("cycle", [helper.make_node("Add", ["x", "b"], ["a"], name="n1"),
               helper.make_node("Relu", ["a"], ["b"], name="n2"),
               helper.make_node("Relu", ["a"], ["y"], name="n3")], [x], [y])
save("selfloop", [helper.make_node("Add", ["x", "y"], ["y"], name="loop")], [x], [y])
save("ghost", [helper.make_node("Add", ["x", "ghost"], ["y"], name="haunted")], [x], [y])
# Acyclic but out of order: the ONNX checker's topological-order rule.
save("unsorted", [helper.make_node("Relu", ["a"], ["y"], name="second"),
                  helper.make_node("Relu", ["x"], ["a"], name="first")], [x], [y])
# Relu takes one input: the ONNX checker's schema check.
save("arity", [helper.make_node("Relu", ["x", "x"], ["y"], name="two_inputs")], [x], [y])
save("negdim_input", [helper.make_node("Relu", ["x"], ["y"])],
     [helper.make_tensor_value_info("x", F, [2, -3])], [y])
save("negdim_output", [helper.make_node("Relu", ["x"], ["y"])],
     [x], [helper.make_tensor_value_info("y", F, [-1, 3])])
big = 1 << 40
save("overflow_input", [helper.make_node("Relu", ["x"], ["y"])],
     [helper.make_tensor_value_info("x", F, [big, big])], [y])
save("overflow_value_info", [helper.make_node("Relu", ["x"], ["r"]),
                             helper.make_node("Relu", ["r"], ["y"])], [x], [y],
     value_info=[helper.make_tensor_value_info("r", F, [1 << 31, 1 << 31, 4])])
def raw_tensor(name, dims, raw):
    t = TensorProto(); t.name = name; t.data_type = F; t.dims.extend(dims)
    t.raw_data = raw
    return t
add_w = [helper.make_node("Add", ["x", "w"], ["y"], name="add_w")]
save("negdim_init", add_w, [x], [y], inits=[raw_tensor("w", [-1, 3], b"")])
save("overflow_init", add_w, [x], [y], inits=[raw_tensor("w", [1 << 62, 4], b"")])
save("size_mismatch", add_w, [x], [y], inits=[raw_tensor("w", [2, 3], b"\0" * 8)])
t = TensorProto(); t.name = "w"; t.data_type = F; t.dims.extend([2, 3]); t.float_data.extend([1.0] * 5)
save("count_mismatch", add_w, [x], [y], inits=[t])
# Dims claiming 4 TiB and no data at all (once made the importer allocate).
t = TensorProto(); t.name = "w"; t.data_type = F; t.dims.extend([1 << 20, 1 << 20])
save("huge_no_data", add_w, [x], [y], inits=[t])
def external(name, location, sub="sub"):
    t = TensorProto(); t.name = "w"; t.data_type = F; t.dims.extend([2, 3])
    t.data_location = TensorProto.EXTERNAL
    e = t.external_data.add(); e.key = "location"; e.value = location
    save(name, add_w, [x], [y], inits=[t], sub=sub)
# The models live in bad/sub/; bad/outside.bin exists, bad/absent.bin does not.
open(os.path.join(out, "outside.bin"), "wb").write(b"\0" * 24)
external("ext_dotdot_exists", "../outside.bin")
external("ext_dotdot_absent", "../absent.bin")
external("ext_abs_exists", os.path.join(out, "outside.bin"))
external("ext_abs_absent", os.path.join(out, "absent.bin"))
external("ext_symlink", "link.bin")
os.symlink(os.path.join(out, "outside.bin"), os.path.join(out, "sub", "link.bin"))
external("ext_fifo", "../fifo.bin")
os.mkfifo(os.path.join(out, "fifo.bin"))  # opening it for reading would block
# A valid external tensor inside the folder, for contrast.
open(os.path.join(out, "sub", "w.bin"), "wb").write(np.ones(6, np.float32).tobytes())
external("ext_inside", "w.bin")
# A well-formed protobuf that is a TensorProto, not a model.
open(os.path.join(out, "tensor.onnx"), "wb").write(
    numpy_helper.from_array(np.ones(3, np.float32), "t").SerializeToString())
# Seeded random bytes.
open(os.path.join(out, "random.onnx"), "wb").write(
    np.random.default_rng(0).integers(0, 256, 4096, dtype=np.uint8).tobytes())
PY
[ $? -eq 0 ] || die "cannot generate the test models"

# expect_bad NAME FILE PATTERN: exit 2, no crash, exactly one line on stderr
# that matches PATTERN (extended regex).
expect_bad() {
  timeout 60 "$lpx" coverage "$2" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  local ok=false
  [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qE -- "$3" "$tmp/err" &&
    [ ! -s "$tmp/out" ] && ok=true
  check "$1: exit 2, one line naming the problem" "$ok" ||
    echo "     rc=$rc stderr: $(head -c 400 "$tmp/err")"
}
mlp="$root/models/mlp/model.onnx"
size=$(stat -c %s "$mlp")
for n in 1 2 16 100 1000 $((size / 3)) $((size / 2)) $((size - 100)) $((size - 1)); do
  head -c "$n" "$mlp" >"$tmp/bad/trunc_$n.onnx"
  expect_bad "truncated to $n of $size bytes" "$tmp/bad/trunc_$n.onnx" \
    "not an ONNX model|not a valid model"
done
expect_bad "text file" "$tmp/text.onnx" "is not an ONNX model"
expect_bad "random bytes" "$tmp/bad/random.onnx" "is not an ONNX model"
expect_bad "a TensorProto, not a model" "$tmp/bad/tensor.onnx" "is not an ONNX model"
expect_bad "cycle" "$tmp/bad/cycle.onnx" \
  "graph has a cycle: 'n1' \\(Add\\) -> 'n2' \\(Relu\\) -> 'n1' \\(Add\\)"
expect_bad "node reading its own output" "$tmp/bad/selfloop.onnx" "graph has a cycle: 'loop' \\(Add\\) -> 'loop'"
expect_bad "input never produced" "$tmp/bad/ghost.onnx" "node 'haunted' \\(Add\\) reads 'ghost', which is never produced"
expect_bad "unsorted graph (ONNX checker)" "$tmp/bad/unsorted.onnx" "ONNX checker: .*topologically sorted"
expect_bad "wrong input count (ONNX checker)" "$tmp/bad/arity.onnx" "ONNX checker: .*input size 2"
expect_bad "negative dim, graph input" "$tmp/bad/negdim_input.onnx" "graph input 'x' has negative dim -3"
expect_bad "negative dim, graph output" "$tmp/bad/negdim_output.onnx" "graph output 'y' has negative dim -1"
expect_bad "negative dim, initializer" "$tmp/bad/negdim_init.onnx" "initializer 'w' has negative dim -1"
expect_bad "overflowing dims, graph input" "$tmp/bad/overflow_input.onnx" "graph input 'x' has dims \\[1099511627776,1099511627776\\] whose element count overflows"
expect_bad "overflowing dims, value_info" "$tmp/bad/overflow_value_info.onnx" "value_info 'r' has dims .* overflows"
expect_bad "overflowing dims, initializer" "$tmp/bad/overflow_init.onnx" "initializer 'w' has dims .* overflows"
expect_bad "raw_data size mismatch" "$tmp/bad/size_mismatch.onnx" "initializer 'w': raw_data holds 8 bytes but dims \\[2,3\\] of FLOAT need 24"
expect_bad "typed data count mismatch" "$tmp/bad/count_mismatch.onnx" "initializer 'w': the typed data field holds 5 values .* need 6"
expect_bad "initializer claiming 4 TiB without data" "$tmp/bad/huge_no_data.onnx" "initializer 'w': the typed data field holds 0 values but dims \\[1048576,1048576\\] of FLOAT need 1099511627776"
expect_bad "external data '../' (file exists)" "$tmp/bad/sub/ext_dotdot_exists.onnx" "external data '../outside.bin' leaves the model's folder"
expect_bad "external data '../' (no such file)" "$tmp/bad/sub/ext_dotdot_absent.onnx" "external data '../absent.bin' leaves the model's folder"
expect_bad "external data absolute (file exists)" "$tmp/bad/sub/ext_abs_exists.onnx" "external data '.*/outside.bin' is an absolute path"
expect_bad "external data absolute (no such file)" "$tmp/bad/sub/ext_abs_absent.onnx" "external data '.*/absent.bin' is an absolute path"
expect_bad "external data symlink leaving the folder" "$tmp/bad/sub/ext_symlink.onnx" "external data 'link.bin' resolves to '.*/outside.bin', outside the model's folder"
# Whether the outside file exists makes no difference: the text is rejected.
escape_msg() { "$lpx" coverage "$tmp/bad/sub/$1.onnx" 2>&1 >/dev/null | sed -e "s/$1/MODEL/" -e 's/outside\.bin\|absent\.bin/FILE/'; }
check "'../': same error whether the outside file exists or not" \
  "[ \"\$(escape_msg ext_dotdot_exists)\" = \"\$(escape_msg ext_dotdot_absent)\" ]"
check "absolute: same error whether the outside file exists or not" \
  "[ \"\$(escape_msg ext_abs_exists)\" = \"\$(escape_msg ext_abs_absent)\" ]"
# The escaping file is never opened: a FIFO outside would block an open()
# (timeout -> 124), and where strace works no open of it shows up.
expect_bad "external data '../' to a FIFO: rejected, never opened" "$tmp/bad/sub/ext_fifo.onnx" "external data '../fifo.bin' leaves the model's folder"
if strace -f -o /dev/null true 2>/dev/null; then
  for m in ext_dotdot_exists ext_abs_exists ext_symlink; do
    strace -f -e trace=open,openat,openat2,creat -o "$tmp/strace_$m" "$lpx" coverage "$tmp/bad/sub/$m.onnx" >/dev/null 2>&1
    check "$m: the outside file is never opened (strace)" "! grep -q 'outside.bin' '$tmp/strace_$m'"
  done
  # Control: the same trace does show the external file of a good model.
  strace -f -e trace=open,openat,openat2,creat -o "$tmp/strace_inside" "$lpx" coverage "$tmp/bad/sub/ext_inside.onnx" >/dev/null 2>&1
  check "control: strace sees the inside external file being opened" "grep -q 'w.bin' '$tmp/strace_inside'"
else
  echo "note: strace unavailable; the FIFO check above stands for 'never opened'"
fi
"$lpx" coverage "$tmp/bad/sub/ext_inside.onnx" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "external data inside the folder is fine (exit 0)" "[ $rc -eq 0 ] && grep -q 'verdict: portable' '$tmp/out'"

# Never more optimistic than compile (issue 21, point 3). An If with a
# constant condition whose then-branch LSTM reads an input of the wrong rank
# for the pinned shape; a Conv whose window is larger than its input.
/usr/bin/python3 - "$tmp/iflstm.onnx" "$tmp/bigwindow.onnx" <<'PY'
import sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper
F = TensorProto.FLOAT
W = numpy_helper.from_array(np.ones((1, 16, 3), np.float32), "W")
R = numpy_helper.from_array(np.ones((1, 16, 4), np.float32), "R")
then = helper.make_graph([helper.make_node("LSTM", ["x", "W", "R"], ["", "yh"], name="LSTM_7", hidden_size=4)],
                         "then", [], [helper.make_tensor_value_info("yh", F, None)])
els = helper.make_graph([helper.make_node("Relu", ["x"], ["z"], name="Relu_9")], "else", [],
                        [helper.make_tensor_value_info("z", F, None)])
g = helper.make_graph([
    helper.make_node("Constant", [], ["c"], name="Const_0", value=numpy_helper.from_array(np.array(True), "c")),
    helper.make_node("Relu", ["x0"], ["x"], name="Relu_1"),
    helper.make_node("If", ["c"], ["out"], name="If_3", then_branch=then, else_branch=els)],
    "g", [helper.make_tensor_value_info("x0", F, ["s", "b"])],
    [helper.make_tensor_value_info("out", F, ["a", "b", "c"])], [W, R])
open(sys.argv[1], "wb").write(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString())
wc = numpy_helper.from_array(np.ones((1, 1, 5, 5), np.float32), "wc")
g = helper.make_graph([helper.make_node("Conv", ["x", "wc"], ["y"], name="Conv_0")], "g",
    [helper.make_tensor_value_info("x", F, [1, 1, 3, 3])],
    [helper.make_tensor_value_info("y", F, [1, 1, "h", "w"])], [wc])
open(sys.argv[2], "wb").write(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString())
PY
[ $? -eq 0 ] || die "cannot generate the test models"
"$lpx" compile "$tmp/iflstm.onnx" --input-shape x0=2x3 -o "$tmp/if.lpxb" >/dev/null 2>"$tmp/if.err"; crc=$?
"$lpx" coverage "$tmp/iflstm.onnx" --input-shape x0=2x3 >"$tmp/if.txt"; rc=$?
check "If branch: compile exits 2, coverage says not portable (exit 1)"   "[ $crc -eq 2 ] && [ $rc -eq 1 ] && grep -q 'verdict: not portable' '$tmp/if.txt'"
check "If branch: subgraph nodes listed with their path, the LSTM blocking"   "grep -q '^  If_3/then/LSTM_7 *LSTM-7 *unsupported  X, W and R must be 3-D' '$tmp/if.txt' && grep -q '^  If_3/else/Relu_9 ' '$tmp/if.txt'"
"$lpx" coverage "$tmp/iflstm.onnx" --input-shape x0=2x3 --format json >"$tmp/if.json"
check "If branch: JSON portable false" \
  "/usr/bin/python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))[0]; sys.exit(m[\"portable\"] is not False)' '$tmp/if.json'"
check "compile prints one line for the branch's failure (no follow-on)" "[ \$(wc -l <'$tmp/if.err') -eq 1 ]"
# An If on a run-time condition is if-converted (issue 21, point 4): the
# model is portable, both branches' nodes run, and compile's remark says
# both are paid for.
gate="$root/tests/data/ifconversion/ifconv_gate_true/model.onnx"
"$lpx" coverage "$gate" >"$tmp/gate.txt"; rc=$?
check "run-time If: coverage says portable, both branches' nodes supported" \
  "[ $rc -eq 0 ] && grep -q 'verdict: portable' '$tmp/gate.txt' && grep -q '^  gate/then/MatMul_2 .* supported' '$tmp/gate.txt' && grep -q '^  gate/else/Mul_1 .* supported' '$tmp/gate.txt'"
"$lpx" compile "$gate" -o "$tmp/gate.lpxb" >/dev/null 2>"$tmp/gate.err"
check "run-time If: compile's remark says both branches are paid for" \
  "grep -q \"if-converted 'gate'.*pays for both branches' work\" '$tmp/gate.err'"
"$lpx" coverage "$tmp/bigwindow.onnx" >"$tmp/bw.txt"; rc=$?
check "a supported op with an unsupported shape is not a missing op"   "[ $rc -eq 1 ] && grep -q '0/1 nodes supported, 0 op types missing' '$tmp/bw.txt' &&
   grep -q 'missing: none; unsupported uses: Conv (the window does not fit spatial dim 0)' '$tmp/bw.txt'"
"$lpx" coverage "$tmp/bigwindow.onnx" --input-shape nosuch=1x3 >/dev/null 2>"$tmp/opt.err"; rc=$?
check "an option naming no input exits 2 with one line, as compile does"   "[ $rc -eq 2 ] && [ \$(wc -l <'$tmp/opt.err') -eq 1 ] && grep -q \"not a graph input of the model\" '$tmp/opt.err'"

"$lpx" coverage --ops --format md --expectations "$root/tests/nodetests/expectations.txt" >"$tmp/ops.md" ||
  die "coverage --ops: exit $?"
check "the operator table lists the registry's operators" \
  "[ \$(grep -c '^| ai.onnx' '$tmp/ops.md') -gt 150 ] && grep -q '^| ai.onnx | MatMul | .* | yes |' '$tmp/ops.md'"
check "docs/operator-coverage.md is what the code generates (regenerate with the command at its top)" \
  "diff -q '$tmp/ops.md' '$root/docs/operator-coverage.md' >/dev/null"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
