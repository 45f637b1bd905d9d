#!/usr/bin/env bash
# Shape-only weights: the built-in models with their weights stripped
# (models/strip_weights.py) compile to the same instructions and simulate to
# the same cycles as with data, for several node counts, chips and number
# formats; `lpx run` refuses the shape-only program with one line and exit 2;
# a shape-only initializer whose values the compiler needs is a clear error;
# a two-layer shape-only llama2-70b export compiles and simulates.
lpx="$1"
set -uo pipefail
. "$(dirname "$0")/testlib.sh"
src="$root"
check() { if eval "$2"; then ok "$1"; else fail "$1" "$2"; fi; }

for m in mlp llama_step; do # same file name: the report names the model
  mkdir "$tmp/$m"
  /usr/bin/python3 "$src/models/strip_weights.py" "$src/models/$m/model.onnx" "$tmp/$m/model.onnx" >/dev/null
done

# The program listing and the simulation report, without the model file name.
report() { "$lpx" inspect "$1" | tail -n +2; "$lpx" simulate --json "$1"; }
same() { # model chip nodes [format]
  local m=$1 chip=$2 n=$3 fmt=${4:-} args=(--chip "$2" --nodes "$3")
  [ -n "$fmt" ] && args+=(--weights "$fmt")
  "$lpx" compile "$src/models/$m/model.onnx" "${args[@]}" -o "$tmp/real.lpxb" >/dev/null &&
    "$lpx" compile "$tmp/$m/model.onnx" "${args[@]}" -o "$tmp/so.lpxb" >/dev/null &&
    [ "$(report "$tmp/real.lpxb")" == "$(report "$tmp/so.lpxb")" ] &&
    [ "$(stat -c %s "$tmp/so.lpxb")" -lt "$(stat -c %s "$tmp/real.lpxb")" ]
}
for m in mlp llama_step; do
  for n in 1 2 8; do
    for fmt in "" fp16 fp8e4m3 int8; do
      check "$m on $n tsp-v1 node(s), weights ${fmt:-as stored}: same program and cycles" "same $m tsp-v1 $n $fmt"
    done
    check "$m on $n lpx3 node(s): same program and cycles" "same $m lpx3 $n"
  done
done

"$lpx" compile "$tmp/mlp/model.onnx" -o "$tmp/mlp.lpxb" >/dev/null
out=$("$lpx" run "$tmp/mlp.lpxb" --data "$src/models/mlp/test_data_set_0" 2>&1); rc=$?
check "run refuses a shape-only program (exit 2, one line)" \
  '[ $rc -eq 2 ] && [ $(printf "%s\n" "$out" | wc -l) -eq 1 ] && [[ "$out" == *"shape-only"* ]]'

# A Reshape whose shape operand is shape-only: the compiler needs its values.
/usr/bin/python3 - "$tmp" <<'PY'
import os, sys
from onnx import TensorProto, helper
t = helper.make_tensor("shape", TensorProto.INT64, [2], [4, 8])
t.ClearField("int64_data")
t.data_location = TensorProto.EXTERNAL
e = t.external_data.add(); e.key, e.value = "location", "lpx-shape-only"
g = helper.make_graph([helper.make_node("Reshape", ["x", "shape"], ["y"])], "g",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [32])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 8])],
                      initializer=[t])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
open(os.path.join(sys.argv[1], "reshape.onnx"), "wb").write(m.SerializeToString())
PY
out=$("$lpx" compile "$tmp/reshape.onnx" -o "$tmp/reshape.lpxb" 2>&1); rc=$?
check "a shape-only shape operand is an error naming it (exit 2)" \
  '[ $rc -eq 2 ] && [[ "$out" == *"initializer"*"is shape-only"*"needs its values"* ]] && [ $(printf "%s\n" "$out" | wc -l) -eq 1 ] && [ ! -e "$tmp/reshape.lpxb" ]'

# The 70B path end to end on two layers (the full model is the benchmark,
# tools/bench/scale.sh; two layers so one layer's output feeds the next): a
# shape-only export compiles for 16 lpx3 chips in fp8/fp16, the program
# file carries no weights and reads back, and it simulates without hazards.
# About 1 s.
"$lpx" models export llama2-70b --shape-only --layers 2 -o "$tmp/l70.onnx" >/dev/null
check "llama2-70b, 2 layers, shape-only: compiles for 16 lpx3 chips" \
  '"$lpx" compile "$tmp/l70.onnx" --chip lpx3 --nodes 16 --weights fp8e4m3 --activations fp16 -o "$tmp/l70.lpxb" >/dev/null'
check "llama2-70b, 2 layers: simulates without hazards" '"$lpx" simulate "$tmp/l70.lpxb" | grep -q "hazards: none"'
check "llama2-70b, 2 layers: program under 1 MB (2.5 GB of fp8 weights not in it)" \
  '[ "$(stat -c %s "$tmp/l70.lpxb")" -lt 1000000 ]'

finish
