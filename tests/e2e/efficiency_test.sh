#!/usr/bin/env bash
# Schedule efficiency on a larger decoder step: one Llama-style layer with
# D=1024, 16 query and 4 KV heads of 64, 255 cached positions,
# FFN 2816 (11.3 M parameters), generated here (not committed), compiled for
# the lpx3 preset with fp8 weights and fp16 activations, simulated on 1 and 8
# chips. Efficiency = lower bound / simulated cycles; the floors are 0.7 on
# one chip and 0.5 on eight.
set -uo pipefail
lpx="$1"
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$root/models/generate.py" --out "$tmp" --only llama_step \
  --llama-config D=1024,H=16,KVH=4,HD=64,T=255,F=2816 >/dev/null 2>&1 ||
  { echo "FAIL cannot generate the model"; echo "0 passed, 1 failed"; exit 1; }
passed=0 failed=0
for spec in "1 0.7" "8 0.5"; do
  set -- $spec
  nodes=$1 floor=$2
  prog="$tmp/p$nodes.lpxb"
  if ! "$lpx" compile "$tmp/llama_step/model.onnx" --chip lpx3 --weights fp8e4m3 \
       --activations fp16 --nodes "$nodes" -o "$prog" >/dev/null; then
    echo "FAIL compile for $nodes chip(s)"; failed=$((failed + 1)); continue
  fi
  if ! "$lpx" simulate --json "$prog" >"$tmp/sim.json"; then
    echo "FAIL simulate on $nodes chip(s) (hazards or an error)"; failed=$((failed + 1)); continue
  fi
  read -r eff cycles bound hazards phys lat < <(/usr/bin/python3 -c "
import json; r = json.load(open('$tmp/sim.json'))
print(r['efficiency'], r['total_cycles'], r['lower_bound'], len(r['hazards']),
      r['physical_bound']['cycles'], r['latency_bound']['cycles'])")
  # The physical bound ignores the instruction list, so it can only be
  # looser than (or equal to) the schedule's own bound.
  if [ "$phys" -gt "$bound" ] || [ "$phys" -le 0 ]; then
    echo "FAIL $nodes chip(s): physical bound $phys not in (0, schedule bound $bound]"
    failed=$((failed + 1)); continue
  fi
  # The latency bound is a floor of what one request can get: never above
  # the simulated cycles.
  if [ "$lat" -gt "$cycles" ] || [ "$lat" -le 0 ]; then
    echo "FAIL $nodes chip(s): latency bound $lat not in (0, simulated $cycles]"
    failed=$((failed + 1)); continue
  fi
  line="$nodes chip(s): $cycles cycles, lower bound $bound, efficiency $eff, physical bound $phys, $hazards hazards"
  if [ "$hazards" = 0 ] && /usr/bin/python3 -c "import sys; sys.exit(0 if $eff >= $floor else 1)"; then
    echo "ok   $line (floor $floor)"; passed=$((passed + 1))
  else
    echo "FAIL $line (floor $floor)"; failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
