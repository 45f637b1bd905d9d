#!/usr/bin/env bash
# No pipeline stage without layers, and the placement remark counts the
# chips that hold work (issue 21, point 7), checked against the program
# itself. The built-in one-layer decoder (tp 2, by its 2 KV heads): on 4
# lpx3 chips its layer's attention (with the embedding) and its MLP (with
# the LM head) fill two stages, every chip holding work; asked for 3
# stages on 6 chips, the layers fill 2, and the remark says so and counts
# 4 chips. (Before stages ended at their weights' nearest residual add, the
# one layer filled one stage, and before the remark counted chips with work
# it said "on 4 of 4" while two held no instruction.)
source "$(dirname "$0")/common.sh" "$1"

model="$root/models/llama_step/model.onnx"
# busy LISTING: the chips holding at least one instruction.
busy() {
  awk '/^node [0-9]+:/ {n = $2} /^ +[0-9]+ [a-z]+ / {c[n]++} END {print length(c)}' "$1"
}
for args in "--nodes 4" "--nodes 4 --pp 2"; do
  "$lpx" compile "$model" --chip lpx3 $args -o "$tmp/p.lpxb" >/dev/null 2>"$tmp/remarks" || die "compile $args"
  "$lpx" inspect "$tmp/p.lpxb" >"$tmp/listing" || die "inspect"
  n=$(busy "$tmp/listing")
  check "$args: two stages of 2 chips, all of them holding work ($n)" \
    "grep -q '^placement: tp 2 x pp 2 on 4 of 4 nodes' '$tmp/remarks' && [ $n -eq 4 ] &&
     grep -q 'groups of 2 x 2 pipeline stage' '$tmp/listing'"
done
"$lpx" compile "$model" --chip lpx3 --nodes 6 --pp 3 -o "$tmp/p3.lpxb" >/dev/null 2>"$tmp/remarks3" || die "compile --pp 3"
"$lpx" inspect "$tmp/p3.lpxb" >"$tmp/listing3" || die "inspect"
n=$(busy "$tmp/listing3")
check "--pp 3 asked: the remark says the layers fill 2 and counts the 4 chips with work ($n)" \
  "grep -q '^placement: tp 2 x pp 2 on 4 of 6 nodes' '$tmp/remarks3' &&
   grep -q '(of 3: the layers fill 2)' '$tmp/remarks3' && [ $n -eq 4 ]"
# Two layers fill the two stages.
"$lpx" models export tiny-llama --layers 2 -o "$tmp/tl2.onnx" >/dev/null || die "export"
"$lpx" compile "$tmp/tl2.onnx" --chip lpx3 --nodes 4 -o "$tmp/p2.lpxb" >/dev/null 2>"$tmp/remarks2" || die "compile tl2"
check "two layers on 4 chips: tp 2 x pp 2 on 4 of 4" "grep -q '^placement: tp 2 x pp 2 on 4 of 4 nodes' '$tmp/remarks2'"
finish
