#!/usr/bin/env bash
# No pipeline stage without layers, and the placement remark counts the
# chips that hold work (issue 21, point 7): the built-in one-layer decoder
# on 4 lpx3 chips (tp 2, by its 2 KV heads) fills one stage of 2 chips;
# before, it was "tp 2 x pp 2 on 4 of 4 nodes" while chips 2 and 3 held no
# instruction. The remark's count is checked against the program itself.
source "$(dirname "$0")/common.sh" "$1"

model="$root/models/llama_step/model.onnx"
for args in "--nodes 4" "--nodes 4 --pp 2"; do
  "$lpx" compile "$model" --chip lpx3 $args -o "$tmp/p.lpxb" >/dev/null 2>"$tmp/remarks" || die "compile $args"
  "$lpx" inspect "$tmp/p.lpxb" >"$tmp/listing" || die "inspect"
  busy=$(awk '/^node [0-9]+:/ {n = $2} /^ +[0-9]+ [a-z]+ / {c[n]++} END {print length(c)}' "$tmp/listing")
  check "$args: one stage of 2 chips, all of them holding work ($busy)" \
    "grep -q '^placement: tp 2 x pp 1 on 2 of 4 nodes' '$tmp/remarks' && [ $busy -eq 2 ] &&
     grep -q 'groups of 2 x 1 pipeline stage' '$tmp/listing'"
done
check "--pp 2 asked: the remark says the layers fill 1" \
  "grep -q '(of 2: the layers fill 1)' '$tmp/remarks'"
# Two layers fill the two stages.
"$lpx" models export tiny-llama --layers 2 -o "$tmp/tl2.onnx" >/dev/null || die "export"
"$lpx" compile "$tmp/tl2.onnx" --chip lpx3 --nodes 4 -o "$tmp/p2.lpxb" >/dev/null 2>"$tmp/remarks2" || die "compile tl2"
check "two layers on 4 chips: tp 2 x pp 2 on 4 of 4" "grep -q '^placement: tp 2 x pp 2 on 4 of 4 nodes' '$tmp/remarks2'"
finish
