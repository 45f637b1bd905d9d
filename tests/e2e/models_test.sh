#!/usr/bin/env bash
# The built-in models end to end: compile for 1, 2, 4 and 8 nodes, simulate
# twice (no hazards, identical reports), check the per-layer report's MACs,
# run on the CPU runtime and compare
# with the outputs onnxruntime computed (models/*/test_data_set_0).
source "$(dirname "$0")/common.sh" "$1"
for model in mlp llama_step; do
  for nodes in 1 2 4 8; do
    what="$model on $nodes node(s)"
    prog="$tmp/$model-$nodes.lpxb"
    if ! "$lpx" compile "$root/models/$model/model.onnx" --nodes "$nodes" -o "$prog" >"$tmp/log" 2>&1; then
      fail "$what" "compile: $(head -1 "$tmp/log")"; continue
    fi
    if ! "$lpx" simulate --json "$prog" >"$tmp/sim1.json" 2>"$tmp/log"; then
      fail "$what" "simulate: $(head -3 "$tmp/log" "$tmp/sim1.json" | tr '\n' ' ')"; continue
    fi
    if ! "$lpx" simulate --json "$prog" >"$tmp/sim2.json" 2>"$tmp/log"; then
      fail "$what" "second simulation: $(head -1 "$tmp/log")"; continue
    fi
    if ! cmp -s "$tmp/sim1.json" "$tmp/sim2.json"; then
      fail "$what" "two simulations differ"; continue
    fi
    cycles=$(grep -o '"total_cycles": *[0-9]*' "$tmp/sim1.json" | grep -o '[0-9]*$')
    if [ -z "$cycles" ] || [ "$cycles" -le 0 ]; then
      fail "$what" "no cycle count in the simulation report"; continue
    fi
    # The per-layer rows (from the trace) add up to the run's MACs (counted
    # by the simulator itself), and the run did use the matrix unit.
    if ! "$lpx" simulate --json --per-layer "$prog" >"$tmp/layers.json" 2>"$tmp/log" ||
       ! python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
assert r["layers"] and sum(l["macs"] for l in r["layers"]) == r["macs"] > 0
assert 0 < r["mxm_utilisation"] < 1' "$tmp/layers.json"; then
      fail "$what" "simulate --per-layer: MACs per layer do not add up"; continue
    fi
    if ! "$lpx" run "$prog" --data "$root/models/$model/test_data_set_0" >"$tmp/log" 2>&1; then
      fail "$what" "run: $(grep -m1 -E 'MISMATCH|error' "$tmp/log")"; continue
    fi
    echo "ok   $what: $cycles cycles, outputs match"
    passed=$((passed + 1))
  done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
