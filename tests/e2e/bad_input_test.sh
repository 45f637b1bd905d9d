#!/usr/bin/env bash
# Bad input gets one clear error line naming the problem, exit code 2, no
# crash and no output file.
set -uo pipefail
lpx="$1"
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

# expect_error NAME PATTERN -- command...: exit 2, stderr matches, no crash.
expect_error() {
  local name="$1" pattern="$2"; shift 3
  rm -f "$tmp/out.lpxb"
  "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  local rc=$?
  if [ $rc -ne 2 ]; then
    echo "FAIL $name: exit code $rc, expected 2"; sed 's/^/  /' "$tmp/stderr" | head -5
    failed=$((failed + 1)); return
  fi
  if ! grep -qE "$pattern" "$tmp/stderr"; then
    echo "FAIL $name: error does not match /$pattern/:"; sed 's/^/  /' "$tmp/stderr" | head -5
    failed=$((failed + 1)); return
  fi
  if [ -e "$tmp/out.lpxb" ]; then
    echo "FAIL $name: left an output file behind"; failed=$((failed + 1)); return
  fi
  echo "ok   $name: $(head -1 "$tmp/stderr")"
  passed=$((passed + 1))
}

mlp="$root/models/mlp/model.onnx"
head -c 3000 "$mlp" >"$tmp/truncated.onnx"
echo "this is not an ONNX model" >"$tmp/text.onnx"
: >"$tmp/empty.onnx"

# A model with two operators the compiler does not compile (NonZero: a
# data-dependent shape; Bernoulli).
/usr/bin/python3 - "$tmp/unsupported.onnx" <<'PY'
import sys
from onnx import TensorProto, helper
g = helper.make_graph(
    [helper.make_node("NonZero", ["x"], ["d"], name="nonzero_node"),
     helper.make_node("Relu", ["x"], ["r"], name="relu_node"),
     helper.make_node("Bernoulli", ["r"], ["h"], name="rand_node")],
    "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 3])],
    [helper.make_tensor_value_info("d", TensorProto.INT64, [2, None]),
     helper.make_tensor_value_info("h", TensorProto.FLOAT, [3, 3])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 15)])
open(sys.argv[1], "wb").write(m.SerializeToString())
PY

# A chip whose SRAM holds only 16 KiB: the MLP's 41 KB of weights do not fit.
"$lpx" chip show tsp-v1 | sed 's/^\(  bytes: *\)[0-9]*$/\116384/' >"$tmp/tiny.yaml"

expect_error "missing model" "cannot|No such file" -- \
  "$lpx" compile "$tmp/nope.onnx" -o "$tmp/out.lpxb"
expect_error "truncated model" "" -- \
  "$lpx" compile "$tmp/truncated.onnx" -o "$tmp/out.lpxb"
expect_error "text file as model" "" -- \
  "$lpx" compile "$tmp/text.onnx" -o "$tmp/out.lpxb"
expect_error "empty model" "" -- \
  "$lpx" compile "$tmp/empty.onnx" -o "$tmp/out.lpxb"
expect_error "unsupported ops reported" "nonzero_node|rand_node" -- \
  "$lpx" compile "$tmp/unsupported.onnx" -o "$tmp/out.lpxb"
expect_error "model too big for the nodes" "does not fit.*bytes.*nodes would" -- \
  "$lpx" compile "$mlp" --chip "$tmp/tiny.yaml" -o "$tmp/out.lpxb"
expect_error "unknown chip preset" "chip" -- \
  "$lpx" compile "$mlp" --chip no-such-chip -o "$tmp/out.lpxb"
expect_error "bad --input-shape" "input-shape" -- \
  "$lpx" compile "$mlp" --input-shape x=1xz -o "$tmp/out.lpxb"
expect_error "simulate a non-program" "not an lpx program" -- \
  "$lpx" simulate "$tmp/text.onnx"
expect_error "simulate a missing program" "cannot read" -- \
  "$lpx" simulate "$tmp/nope.lpxb"
expect_error "run without data" "" -- \
  "$lpx" run "$tmp/nope.lpxb" --data "$tmp"
expect_error "inspect a truncated program" "" -- \
  "$lpx" inspect "$tmp/truncated.onnx"

# A truncated program file.
"$lpx" compile "$mlp" -o "$tmp/good.lpxb" >/dev/null
head -c 100 "$tmp/good.lpxb" >"$tmp/cut.lpxb"
expect_error "truncated program" "truncated" -- "$lpx" simulate "$tmp/cut.lpxb"

# The unsupported-op error lists every blocker, one line each.
"$lpx" compile "$tmp/unsupported.onnx" -o "$tmp/out.lpxb" 2>"$tmp/stderr"
lines=$(grep -cE "nonzero_node|rand_node" "$tmp/stderr")
if [ "$lines" -eq 2 ]; then echo "ok   one line per unsupported node"; passed=$((passed + 1));
else echo "FAIL one line per unsupported node: got $lines"; failed=$((failed + 1)); fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
