#!/usr/bin/env bash
# Activations placed where they fit. A MatMul whose partial products are
# large is split by the reduction: the host writes each chip its slice of the
# input (input pieces), the partials are summed by a group-wise
# reduce-scatter, and the output stays in pieces on the chips. Past one
# group the rows are split across groups (each group holds the weight, cut
# by the reduction over its chips), so the input and output are grids of
# pieces. The runtime result matches numpy on 2, 16 and 24 chips (two and
# three groups of 8, the last with uneven row blocks); the published GEMM
# [800x32576] x [32576x8192] in fp16 (shape-only weight) compiles and
# simulates without hazards on 8 to 104 tsp-v1 chips, faster at each step.
lpx="$1"
set -uo pipefail
. "$(dirname "$0")/testlib.sh"
src="$root"
check() { if eval "$2"; then ok "$1"; else fail "$1" "$2"; fi; }

/usr/bin/python3 - "$tmp" <<'PY'
import os, sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper
out = sys.argv[1]
rng = np.random.default_rng(11)
M, K, N = 256, 2048, 1024  # f32 partials of 1 MiB: reduce-scatter
a = rng.standard_normal((M, K)).astype(np.float32)
w = (rng.standard_normal((K, N)) / np.sqrt(K)).astype(np.float32)
g = helper.make_graph([helper.make_node("MatMul", ["A", "W"], ["Y"], name="mm")], "mm",
                      [helper.make_tensor_value_info("A", TensorProto.FLOAT, [M, K])],
                      [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [M, N])],
                      initializer=[numpy_helper.from_array(w, "W")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
os.makedirs(os.path.join(out, "mm", "data"))
open(os.path.join(out, "mm", "model.onnx"), "wb").write(m.SerializeToString())
open(os.path.join(out, "mm", "data", "input_0.pb"), "wb").write(numpy_helper.from_array(a, "A").SerializeToString())
y = (a.astype(np.float64) @ w.astype(np.float64)).astype(np.float32)
open(os.path.join(out, "mm", "data", "output_0.pb"), "wb").write(numpy_helper.from_array(y, "Y").SerializeToString())

M, K, N = 800, 32576, 8192  # the published GEMM, weight without data
t = TensorProto(name="W", data_type=TensorProto.FLOAT16, dims=[K, N],
                data_location=TensorProto.EXTERNAL)
for key, value in (("location", "lpx-shape-only"), ("offset", "0"), ("length", str(K * N * 2))):
    e = t.external_data.add(); e.key, e.value = key, value
g = helper.make_graph([helper.make_node("MatMul", ["A", "W"], ["Y"], name="gemm")], "gemm",
                      [helper.make_tensor_value_info("A", TensorProto.FLOAT16, [M, K])],
                      [helper.make_tensor_value_info("Y", TensorProto.FLOAT16, [M, N])],
                      initializer=[t])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
open(os.path.join(out, "gemm.onnx"), "wb").write(m.SerializeToString())
PY

for n in 2 16 24; do
  "$lpx" compile "$tmp/mm/model.onnx" --nodes $n -o "$tmp/mm$n.lpxb" >/dev/null
  pieces=$("$lpx" inspect "$tmp/mm$n.lpxb" | grep -c ' input .* A$')
  check "matmul on $n chips: input A in $n pieces" '[ "$pieces" -eq $n ]'
  pieces=$("$lpx" inspect "$tmp/mm$n.lpxb" | grep -c ' output .* Y$')
  check "matmul on $n chips: output Y in $n pieces" '[ "$pieces" -eq $n ]'
  check "matmul on $n chips: runtime matches numpy" '"$lpx" run "$tmp/mm$n.lpxb" --data "$tmp/mm/data" --rtol 1e-4 --atol 1e-4 >/dev/null'
done

us() { "$lpx" simulate --json "$1" | grep -o '"time_us": *[0-9.]*' | grep -o '[0-9.]*$'; }
for n in 8 16 32 64 104; do
  "$lpx" compile "$tmp/gemm.onnx" --nodes $n -o "$tmp/g$n.lpxb" >/dev/null
  check "GEMM on $n tsp-v1 chips: compiles, simulates without hazards" \
    '"$lpx" simulate "$tmp/g$n.lpxb" | grep -q "hazards: none"'
done
for pair in 8:16 16:32 32:64 64:104; do
  check "GEMM: ${pair#*:} chips are faster than ${pair%:*}" \
    "awk -v a=\$(us $tmp/g${pair#*:}.lpxb) -v b=\$(us $tmp/g${pair%:*}.lpxb) 'BEGIN { exit !(a > 0 && a < b) }'"
done

finish
