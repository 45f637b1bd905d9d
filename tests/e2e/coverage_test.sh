#!/usr/bin/env bash
# lpx coverage: verdicts and exit codes on models, every format, and the
# committed operator table being exactly what the code generates.
set -uo pipefail
lpx="$1"
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() { if eval "$2"; then echo "ok   $1"; passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi; }

# A model with two operators nothing here supports (one in a foreign domain).
/usr/bin/python3 - "$tmp/blocked.onnx" <<'PY'
import sys
from onnx import TensorProto, helper
g = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["r"], name="relu_node"),
     helper.make_node("Det", ["r"], ["d"], name="det_node"),
     helper.make_node("Frobnicate", ["r"], ["f"], name="custom_node", domain="com.example")],
    "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 3])],
    [helper.make_tensor_value_info("d", TensorProto.FLOAT, []),
     helper.make_tensor_value_info("f", TensorProto.FLOAT, [3, 3])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13),
                                        helper.make_opsetid("com.example", 1)])
open(sys.argv[1], "wb").write(m.SerializeToString())
PY

"$lpx" coverage "$root/models/llama_step/model.onnx" >"$tmp/llama.txt"; rc=$?
check "llama_step is portable (exit 0)" "[ $rc -eq 0 ] && grep -q 'verdict: portable' '$tmp/llama.txt'"
check "portable report gives chips and latency from simulation" \
  "grep -qE 'needs [0-9]+ chip\\(s\\) of tsp-v1 .* one inference: [0-9]+ cycles' '$tmp/llama.txt'"
check "58/58 nodes, Constant-free graph all supported" "grep -q '58/58 nodes supported, 0 op types missing' '$tmp/llama.txt'"

"$lpx" coverage "$tmp/blocked.onnx" >"$tmp/blocked.txt"; rc=$?
check "blocked model exits 1" "[ $rc -eq 1 ]"
check "every blocker listed with its node name" \
  "grep -q 'det_node' '$tmp/blocked.txt' && grep -q 'custom_node' '$tmp/blocked.txt'"
check "summary line counts them" "grep -q '1/3 nodes supported, 2 op types missing' '$tmp/blocked.txt'"
check "verdict not portable" "grep -q 'verdict: not portable' '$tmp/blocked.txt'"

"$lpx" coverage --format json "$tmp/blocked.onnx" "$root/models/mlp/model.onnx" >"$tmp/r.json"
check "json report parses and has both models" \
  "/usr/bin/python3 -c 'import json,sys; r=json.load(open(\"$tmp/r.json\")); assert len(r)==2 and r[1][\"portable\"] and not r[0][\"portable\"]'"
"$lpx" coverage --format html "$root/models/mlp/model.onnx" >"$tmp/r.html"
check "html report is one self-contained page" "grep -q '<!DOCTYPE html>' '$tmp/r.html' && ! grep -q '<script src\\|<link ' '$tmp/r.html'"
"$lpx" coverage --format md "$root/models/mlp/model.onnx" >"$tmp/r.md"
check "markdown report has the node table" "grep -q '| node | op | status | reason |' '$tmp/r.md'"

echo "not onnx" >"$tmp/text.onnx"
"$lpx" coverage "$tmp/text.onnx" 2>"$tmp/err"; rc=$?
check "a non-ONNX file exits 2 with one line" "[ $rc -eq 2 ] && [ \$(wc -l <'$tmp/err') -eq 1 ]"
"$lpx" coverage "$tmp/missing.onnx" 2>/dev/null; rc=$?
check "a missing file exits 2" "[ $rc -eq 2 ]"

"$lpx" coverage --ops --format md --expectations "$root/tests/nodetests/expectations.txt" >"$tmp/ops.md"
check "the operator table lists the registry's operators" \
  "[ \$(grep -c '^| ai.onnx' '$tmp/ops.md') -gt 150 ] && grep -q '^| ai.onnx | MatMul | .* | yes |' '$tmp/ops.md'"
check "docs/operator-coverage.md is what the code generates (regenerate with the command at its top)" \
  "diff -q '$tmp/ops.md' '$root/docs/operator-coverage.md' >/dev/null"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
