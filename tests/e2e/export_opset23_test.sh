#!/usr/bin/env bash
# `lpx models export --opset 23`: the presets written with RMSNormalization,
# RotaryEmbedding, Attention and Gelu (LayerNormalization for GPT-2) compile
# and simulate hazard-free on 1 and 2 chips, and greedy decoding on the CPU
# runtime gives the same tokens as the opset-13 export of the same weights
# (whose step matches onnxruntime), onnxruntime's tokens for the opset-23
# export itself, and the same decode figures and prefill cycles as the
# opset-13 export. About 20 s.
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
# The same program from both forms (issue 22, point 4): the decompositions
# import to the ops the opset-13 export's primitives import to, so `lpx
# decode` of the two step exports prints the same figures, every one (the
# JSON but for the model's name and the node numbers in the names the
# bottleneck quotes, which the two exports count differently), and the
# prefills simulate in the same cycles.
same_decode() { # $1 $2: decode --json files
  /usr/bin/python3 -c "import json, re, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for j in (a, b):
    j.pop('model')
    j['bottleneck'] = re.sub(r'_[0-9]+\\b', '_N', j['bottleneck'])
sys.exit(a != b)" "$1" "$2"
}
for m in tiny-llama tiny-gpt2 tiny-mixtral tiny-vocab; do
  for o in 13 23; do
    "$lpx" models export "$m" -o "$tmp/s$o.onnx" --opset "$o" --shape-only >/dev/null &&
      "$lpx" decode --model "$tmp/s$o.onnx" --json >"$tmp/s$o.json" 2>"$tmp/err" ||
      fail "decode $m --opset $o: $(head -1 "$tmp/err")"
    "$lpx" models export "$m" -o "$tmp/p$o.onnx" --opset "$o" --prompt 16 --context 16 >/dev/null &&
      "$lpx" compile "$tmp/p$o.onnx" --resident-kv --kv-context 64 -o "$tmp/p$o.lpxb" >/dev/null 2>&1 ||
      fail "prefill $m --opset $o does not compile"
    eval "c$o=\$(sim_cycles '$tmp/p$o.lpxb')"
  done
  check "$m: lpx decode of the step is the same at opset 13 and 23 (TPOT $(grep -o '"tpot_us": [0-9.]*' "$tmp/s23.json"))" \
    "same_decode '$tmp/s13.json' '$tmp/s23.json'"
  check "$m: the 16-token prefill simulates in the same cycles at opset 13 and 23 ($c13, $c23)" \
    "[ -n '$c13' ] && [ '$c13' = '$c23' ]"
done
# One layer of a 7B-size model (shape-only) on 8 lpx3 chips, with and
# without grouped KV heads (llama3-8b: 32 Q heads on 8).
for m in llama2-7b llama3-8b; do
  for o in 13 23; do
    "$lpx" models export "$m" -o "$tmp/l$o.onnx" --opset "$o" --shape-only --layers 1 --context 1024 >/dev/null &&
      "$lpx" decode --model "$tmp/l$o.onnx" --chip lpx3 --chips 8 --json >"$tmp/l$o.json" 2>"$tmp/err" ||
      fail "decode $m --opset $o: $(head -1 "$tmp/err")"
  done
  check "$m layer: lpx decode is the same at opset 13 and 23 (TPOT $(grep -o '"tpot_us": [0-9.]*' "$tmp/l23.json"))" \
    "same_decode '$tmp/l13.json' '$tmp/l23.json'"
done
# Tokens against onnxruntime running the opset-23 export itself
# (models/reference/decode/MODEL-opset23.json, decode.mjs --opset 23): ids
# equal, every step's logits within the fp32 tolerance of
# decode_reference_test.py.
for m in tiny-llama tiny-gpt2 tiny-mixtral; do
  "$lpx" models export "$m" -o "$tmp/r.onnx" --opset 23 --context 64 >/dev/null
  "$lpx" decode --run --model "$tmp/r.onnx" --prompt-ids 1,2,3 --tokens 32 --json >"$tmp/r.json" 2>"$tmp/err" ||
    fail "decode --run $m --opset 23: $(head -1 "$tmp/err")"
  check "$m opset 23: lpx decode --run gives onnxruntime's 32 tokens and logits" \
    "/usr/bin/python3 -c \"import json, sys, numpy as np
got, ref = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert ref['opset'] == 23 and got['generated_ids'] == ref['generated_ids'], got['generated_ids']
for a, b in zip(got['logits'], ref['logits'], strict=True):
    a, b = np.array(a), np.array(b)
    assert np.all(np.abs(a - b) <= 1e-4 + 1e-3 * np.abs(b))\" '$tmp/r.json' '$root/models/reference/decode/$m-opset23.json'"
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
