#!/usr/bin/env bash
# Bad input gets one clear error line naming the problem, exit code 2, no
# crash and no output file.
set -uo pipefail
lpx="$1"
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/tests/e2e/testlib.sh"

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
[ $? -eq 0 ] || die "cannot generate the test models"

# A chip whose SRAM holds only 16 KiB: the MLP's 41 KB of weights do not fit.
"$lpx" chip show tsp-v1 | sed 's/^\(  bytes: *\)[0-9]*$/\116384/' >"$tmp/tiny.yaml" ||
  die "chip show tsp-v1"

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
expect_error "zero --tp" "tp: Value 0 not in range" -- \
  "$lpx" compile "$mlp" --tp 0 -o "$tmp/out.lpxb"
expect_error "tp x pp beyond the nodes" "tp 4 --pp 2 needs 8 nodes; compiling for 4" -- \
  "$lpx" compile "$mlp" --nodes 4 --tp 4 --pp 2 -o "$tmp/out.lpxb"
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
"$lpx" compile "$mlp" -o "$tmp/good.lpxb" >/dev/null || die "compile the MLP"
head -c 100 "$tmp/good.lpxb" >"$tmp/cut.lpxb"
expect_error "truncated program" "truncated" -- "$lpx" simulate "$tmp/cut.lpxb"
# Cut inside the last data section (format 3: weights after the payload).
head -c -5 "$tmp/good.lpxb" >"$tmp/cut.lpxb"
expect_error "program cut in a data section" "truncated program file \(data section of constant" -- \
  "$lpx" run "$tmp/cut.lpxb" --data "$tmp"
cp "$tmp/good.lpxb" "$tmp/long.lpxb"; printf x >>"$tmp/long.lpxb"
expect_error "bytes after the last data section" "1 bytes after the end of the program" -- \
  "$lpx" simulate "$tmp/long.lpxb"

# The unsupported-op error lists every blocker, one line each.
"$lpx" compile "$tmp/unsupported.onnx" -o "$tmp/out.lpxb" 2>"$tmp/stderr"; rc=$?
lines=$(grep -cE "nonzero_node|rand_node" "$tmp/stderr")
if [ "$rc" -eq 2 ] && [ "$lines" -eq 2 ]; then echo "ok   one line per unsupported node"; passed=$((passed + 1));
else echo "FAIL one line per unsupported node: got $lines"; failed=$((failed + 1)); fi

: >"$tmp/empty.yaml"
expect_error "empty chip description (was a crash)" "empty chip description" -- \
  "$lpx" chip validate "$tmp/empty.yaml"
expect_error "compile for an empty chip description" "empty chip description" -- \
  "$lpx" compile "$mlp" --chip "$tmp/empty.yaml" -o "$tmp/out.lpxb"
# Not UTF-8: the description could not travel in the program (proto3).
"$lpx" chip show tsp-v1 | sed 's/^name: .*/name: "chip\xff"/' >"$tmp/latin1.yaml"
expect_error "chip description not UTF-8" "not UTF-8 text" -- \
  "$lpx" compile "$mlp" --chip "$tmp/latin1.yaml" -o "$tmp/out.lpxb"

# ---- Hostile models: one line, exit 2, before any large allocation --------
# (ulimit -v caps the process at 4 GiB, so an allocation of the model's
# choosing would fail the test with a crash instead of the expected line.)
mkdir -p "$tmp/hostile/sub"
/usr/bin/python3 - "$tmp/hostile" <<'PY'
import os, sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper
out = sys.argv[1]
F = TensorProto.FLOAT
def model(g):
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
def save(name, m, sub=""):
    open(os.path.join(out, sub, name + ".onnx"), "wb").write(m.SerializeToString())
# A 2^40-element graph input and a 2^40-element initializer without data.
save("huge_input", model(helper.make_graph(
    [helper.make_node("Relu", ["x"], ["y"])], "g",
    [helper.make_tensor_value_info("x", F, [1 << 20, 1 << 20])],
    [helper.make_tensor_value_info("y", F, [1 << 20, 1 << 20])])))
w = TensorProto(name="w", data_type=F, dims=[1 << 20, 1 << 20])
save("huge_initializer", model(helper.make_graph(
    [helper.make_node("Add", ["x", "w"], ["y"])], "g",
    [helper.make_tensor_value_info("x", F, [1])],
    [helper.make_tensor_value_info("y", F, None)], initializer=[w])))
# A million nodes: one node's encoding repeated (repeated fields concatenate).
one = helper.make_graph([helper.make_node("Relu", ["x"], ["x"])], "g", [], [])
rest = helper.make_graph([], "g", [helper.make_tensor_value_info("x", F, [1])],
                         [helper.make_tensor_value_info("x", F, [1])])
graph = one.SerializeToString() * 1000000 + rest.SerializeToString()
def field(num, payload):  # a length-delimited protobuf field
    n, v = len(payload), bytearray([num << 3 | 2])
    while True:
        v.append(n & 0x7F | (0x80 if n > 0x7F else 0)); n >>= 7
        if not n: break
    return bytes(v) + payload
head = model(helper.make_graph([], "g", [], []))
head.ClearField("graph")
open(os.path.join(out, "million_nodes.onnx"), "wb").write(
    head.SerializeToString() + field(7, graph))
# If inside If, 20 deep.
def nested(depth):
    body = [helper.make_node("Identity", ["c"], ["r"])] if depth == 0 else [
        helper.make_node("If", ["c"], ["r"], then_branch=nested(depth - 1),
                         else_branch=nested(depth - 1) if depth < 2 else
                         helper.make_graph([helper.make_node("Identity", ["c"], ["r"])],
                                           "e", [], [helper.make_tensor_value_info("r", TensorProto.BOOL, [])]))]
    return helper.make_graph(body, f"g{depth}", [],
                             [helper.make_tensor_value_info("r", TensorProto.BOOL, [])])
g = nested(20)
g.input.extend([helper.make_tensor_value_info("c", TensorProto.BOOL, [])])
save("deep", model(g))
# 2^35 floats in, 2^35 out: compiles for a chip with 300000 MiB of SRAM.
save("big_relu", model(helper.make_graph(
    [helper.make_node("Relu", ["x"], ["y"])], "g",
    [helper.make_tensor_value_info("x", F, [1 << 35])],
    [helper.make_tensor_value_info("y", F, [1 << 35])])))
# External data that leaves the model's folder.
open(os.path.join(out, "outside.bin"), "wb").write(np.zeros(4, np.float32).tobytes())
e = numpy_helper.from_array(np.zeros(4, np.float32), "w")
e.ClearField("raw_data")
e.data_location = TensorProto.EXTERNAL
e.external_data.add(key="location", value="../outside.bin")
save("escape", model(helper.make_graph(
    [helper.make_node("Add", ["x", "w"], ["y"])], "g",
    [helper.make_tensor_value_info("x", F, [4])],
    [helper.make_tensor_value_info("y", F, [4])], initializer=[e])), sub="sub")
PY
[ $? -eq 0 ] || die "cannot generate the hostile models"
hostile() { # NAME PATTERN MODEL: compile and coverage both refuse it
  for cmd in compile coverage; do
    local out=(); [ $cmd = compile ] && out=(-o "$tmp/out.lpxb")
    expect_error "$1 ($cmd)" "$2" -- bash -c 'ulimit -v 4194304; exec "$@"' _ \
      "$lpx" $cmd "$3" "${out[@]}"
  done
}
hostile "2^40-element input" "more than 2\^36 elements" "$tmp/hostile/huge_input.onnx"
hostile "2^40-element initializer" "more than 2\^36 elements|need 1099511627776" "$tmp/hostile/huge_initializer.onnx"
hostile "a million nodes" "more than 262144 nodes" "$tmp/hostile/million_nodes.onnx"
hostile "subgraphs 20 deep" "nested more than 16 deep" "$tmp/hostile/deep.onnx"
hostile "external data outside the folder" "outside|leaves the model's folder" "$tmp/hostile/sub/escape.onnx"
# lpx run refuses a program whose node memories (256 GiB here) exceed the
# machine's memory, before reading data or allocating.
"$lpx" compile "$tmp/hostile/big_relu.onnx" --set sram.bytes=300000MiB \
  -o "$tmp/big.lpxb" >/dev/null || die "compile the 256 GiB program"
mkdir -p "$tmp/nodata"
expect_error "run: buffers beyond this machine's memory" \
  "node memories need [0-9]+ bytes, more than the [0-9]+ bytes of memory" -- \
  bash -c 'ulimit -v 4194304; exec "$@"' _ "$lpx" run "$tmp/big.lpxb" --data "$tmp/nodata"

# ---- Inputs fuzzing found (tests/fuzz/regressions) ------------------------
regr="$root/tests/fuzz/regressions"
# ONNX 1.12's Scan-8 inference reads num_scan_inputs unchecked: was SIGSEGV.
expect_error "Scan-8 without num_scan_inputs (was a crash)" \
  "node 'scan_node' \(Scan\): .*num_scan_inputs" -- \
  "$lpx" compile "$regr/import/scan8-without-num-scan-inputs" -o "$tmp/out.lpxb"
expect_error "Scan num_scan_inputs beyond its inputs" \
  "node 'scan_node' \(Scan\): num_scan_inputs is 5 but the node has 1" -- \
  "$lpx" compile "$regr/import/scan11-num-scan-inputs-too-large" -o "$tmp/out.lpxb"
# A node name that is not UTF-8 (ONNX strings need not be): coverage JSON
# must still be JSON (was an assertion) and the program must load again.
bad_name="$regr/coverage/non-utf8-node-name"
if "$lpx" coverage "$bad_name" --format json >"$tmp/cov.json" 2>"$tmp/stderr" &&
   /usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/cov.json" &&
   "$lpx" compile "$bad_name" -o "$tmp/name.lpxb" >/dev/null 2>&1 &&
   "$lpx" simulate "$tmp/name.lpxb" --json >/dev/null 2>"$tmp/stderr"; then
  echo "ok   non-UTF-8 node name: valid coverage JSON, loadable program"
  passed=$((passed + 1))
else
  echo "FAIL non-UTF-8 node name:"; sed 's/^/  /' "$tmp/stderr" | head -5
  failed=$((failed + 1))
fi

# ---- Output paths that are not regular files ------------------------------
# Written in place, never replaced by a renamed temporary file: as root a
# rename over /dev/null would turn the device into a program file.
if "$lpx" compile "$mlp" -o /dev/null >/dev/null 2>"$tmp/stderr" &&
   [ -c /dev/null ] && [ ! -s /dev/null ] &&
   ! compgen -G "/dev/null.tmp-*" >/dev/null; then
  ok "compile -o /dev/null: /dev/null is still an empty character device"
else
  fail "compile -o /dev/null" "$(head -1 "$tmp/stderr"; ls -l /dev/null)"
fi
mkfifo "$tmp/pipe"
cat "$tmp/pipe" >"$tmp/from-pipe" &
if "$lpx" compile "$mlp" -o "$tmp/pipe" >/dev/null 2>"$tmp/stderr" &&
   wait $! && [ -p "$tmp/pipe" ] &&
   [ "$(head -c 4 "$tmp/from-pipe")" = LPXB ] &&
   "$lpx" simulate "$tmp/from-pipe" >/dev/null 2>>"$tmp/stderr"; then
  ok "compile -o FIFO: the program went through the pipe, which is still one"
else
  fail "compile -o FIFO" "$(head -1 "$tmp/stderr")"
fi

finish
