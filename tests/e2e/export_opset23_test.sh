#!/usr/bin/env bash
# `lpx models export --opset 23`: the presets written with RMSNormalization,
# RotaryEmbedding, Attention and Gelu (LayerNormalization for GPT-2) compile
# and simulate hazard-free on 1 and 2 chips, and greedy decoding on the CPU
# runtime gives the same tokens as the opset-13 export of the same weights
# (whose step matches onnxruntime; the opset-23 step matched onnxruntime
# within 2.2e-6 when this was written). About 10 s.
source "$(dirname "$0")/common.sh" "$1"

for m in tiny-llama tiny-gpt2 tiny-mixtral; do
  for o in 13 23; do
    "$lpx" models export "$m" -o "$tmp/$m-$o.onnx" --opset "$o" >/dev/null 2>"$tmp/err" ||
      fail "export $m --opset $o: $(head -1 "$tmp/err")"
  done
  fused=$(/usr/bin/python3 -c "import onnx, sys
m = onnx.load(sys.argv[1])
new = {'Attention', 'RotaryEmbedding', 'RMSNormalization', 'Gelu'}
print(m.opset_import[0].version, ' '.join(sorted({n.op_type for n in m.graph.node} & new)))" "$tmp/$m-23.onnx")
  case "$m" in
    tiny-gpt2) want="23 Attention Gelu" ;;
    *) want="23 Attention RMSNormalization RotaryEmbedding" ;;
  esac
  check "$m --opset 23 writes: $fused" "[ '$fused' = '$want' ]"
  for nodes in 1 2; do
    check "$m opset 23 compiles and simulates on $nodes chip(s)" \
      "'$lpx' compile '$tmp/$m-23.onnx' --nodes $nodes -o '$tmp/$m.lpxb' >/dev/null 2>&1 &&
       '$lpx' simulate '$tmp/$m.lpxb' | grep -q 'hazards: *none'"
  done
  for o in 13 23; do
    "$lpx" decode --run --model "$tmp/$m-$o.onnx" --prompt-ids 5 --tokens 6 --json \
      >"$tmp/$m-$o.json" 2>"$tmp/err" || fail "decode --run $m-$o: $(head -1 "$tmp/err")"
  done
  ids() { grep -o '"generated_ids":\[[0-9,]*\]' "$1"; }
  check "$m: the same tokens at opset 13 and 23 ($(ids "$tmp/$m-23.json"))" \
    "[ -n \"\$(ids '$tmp/$m-23.json')\" ] && [ \"\$(ids '$tmp/$m-13.json')\" = \"\$(ids '$tmp/$m-23.json')\" ]"
done
# A prefill (no past: Attention without past_key, its K and V the present).
check "tiny-llama prefill at opset 23 compiles with --resident-kv" \
  "'$lpx' models export tiny-llama -o '$tmp/pre.onnx' --opset 23 --prompt 8 --context 8 >/dev/null &&
   '$lpx' compile '$tmp/pre.onnx' --resident-kv --kv-context 16 -o '$tmp/pre.lpxb' >/dev/null 2>&1 &&
   '$lpx' simulate '$tmp/pre.lpxb' | grep -q 'hazards: *none'"
"$lpx" models export tiny-llama -o "$tmp/bad.onnx" --opset 18 >/dev/null 2>"$tmp/err"
rc=$?
check "--opset 18 is refused: $(cat "$tmp/err")" \
  "[ $rc -eq 2 ] && grep -q 'is not 13 .* or 23' '$tmp/err' && [ ! -e '$tmp/bad.onnx' ]"
finish
