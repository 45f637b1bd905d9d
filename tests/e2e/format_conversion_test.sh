#!/usr/bin/env bash
# Converting a model's number formats keeps the program's shape (issue 21,
# point 1): each model of tests/e2e/format_family.py compiled from fp32 with
# `--weights fp16 --activations fp16` gets, node by node, the instructions of
# the same model exported in fp16 and the same cycles. The host converts the
# fp32 inputs and results at the program's boundary, as a deployment's
# runtime does, so no cast is left at entry or exit (before, the GEMM's fp32
# input was cast piece by piece on the VXM before the MXM could start: 2.9%
# slower at 104 chips, and the conv net's two casts 110 of 630 cycles).
lpx="$1"
set -uo pipefail
. "$(dirname "$0")/testlib.sh"
check() { if eval "$2"; then ok "$1"; else fail "$1" "$2"; fi; }

"$lpx" models export tiny-llama --layers 1 -o "$tmp/tl.onnx" >/dev/null || die "export tiny-llama"
/usr/bin/python3 "$root/tests/e2e/format_family.py" "$tmp" "$tmp/tl.onnx" || die "format_family.py"

# Per node, how many instructions of each opcode.
mix() {
  "$lpx" inspect "$1" | awk '/^node [0-9]+:/ {n = $2}
    /^ +[0-9]+ [a-z0-9]+ +[a-z_]+ / {c[n " " $3]++}
    END {for (k in c) print k, c[k]}' | sort
}
# same NAME CHIP NODES PERCENT: converted within PERCENT of native.
same() {
  local m=$1 chip=$2 n=$3 pct=$4 args=(--chip "$2" --nodes "$3")
  "$lpx" compile "$tmp/$m-fp16.onnx" "${args[@]}" -o "$tmp/n.lpxb" >/dev/null 2>&1 ||
    { fail "$m $chip x$n" "native compile"; return; }
  "$lpx" compile "$tmp/$m-fp32.onnx" "${args[@]}" --weights fp16 --activations fp16 \
    -o "$tmp/c.lpxb" >/dev/null 2>&1 || { fail "$m $chip x$n" "converted compile"; return; }
  local native converted
  native=$(sim_cycles "$tmp/n.lpxb") converted=$(sim_cycles "$tmp/c.lpxb")
  check "$m on $n $chip: instructions per node as exported in fp16" \
    '[ "$(mix "$tmp/n.lpxb")" == "$(mix "$tmp/c.lpxb")" ]'
  check "$m on $n $chip: $converted cycles converted, $native exported (within $pct%)" \
    '[ $((converted * 100)) -le $((native * (100 + pct))) ] && [ $((converted * 100)) -ge $((native * (100 - pct))) ]'
}
same gemm tsp-v1 8 0
same gemm tsp-v1 104 0
same decoder tsp-v1 2 0
same decoder lpx3 4 0
same conv tsp-v1 2 0
finish
