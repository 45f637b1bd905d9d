#!/usr/bin/env bash
# Real models nobody here wrote: the openWakeWord classifiers shipped in the
# npm package openwakeword-js (fetched by models/fetch_npm_onnx.sh, never
# committed). For every model, `lpx coverage` must give the verdict recorded
# below; portable ones are compiled for 1 and 2 chips, simulated (no hazards)
# and run on the CPU runtime against outputs onnxruntime computed
# (tests/data/openwakeword/<model>/test_data_set_0, made by
# models/reference/openwakeword_expected.sh) with atol 1e-6. Results and
# what the numbers mean: docs/real-models.md.
#
#   tests/e2e/openwakeword_test.sh LPX
#
# Without npm or the registry (and no cached tarball) the test is skipped
# (exit 77, CTest's SKIP_RETURN_CODE).
set -uo pipefail
lpx="$1"
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cache="${OWW_CACHE:-$root/models/.cache/openwakeword}"

# model -> verdict, and the op types the verdict "not portable" rests on
# (space-separated, sorted, as `lpx coverage` lists them; empty if portable).
# The graph inputs are static, so no --input-shape is needed.
declare -A verdict=(
  [hello_deepa]=portable
  [hello_deepa_old]=portable
  [namaste_deepa]=portable
)
declare -A missing=(
  [hello_deepa]=""
  [hello_deepa_old]=""
  [namaste_deepa]=""
)

if ! list=$("$root/models/fetch_npm_onnx.sh" openwakeword-js "${OWW_VERSION:-0.1.27}" "$cache" 2>"$tmp/fetch.err"); then
  echo "note: $(head -1 "$tmp/fetch.err")"
  echo "0 passed, 0 failed, 1 skipped: openwakeword-js not available"
  exit 77 # CTest's SKIP_RETURN_CODE: skipped, not passed
fi

passed=0 failed=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }

declare -A seen=()
while IFS= read -r model; do
  name="$(basename "$model" .onnx)"
  seen[$name]=1
  if [ -z "${verdict[$name]+x}" ]; then
    fail "$name" "no expectation recorded for this model (add it to the table)"
    continue
  fi
  "$lpx" coverage --format json "$model" >"$tmp/$name.json" 2>"$tmp/log"; rc=$?
  got=$(/usr/bin/python3 - "$tmp/$name.json" <<'PY' 2>/dev/null
import json, sys
r = json.load(open(sys.argv[1]))[0]
print(("portable" if r["portable"] else "not portable") + "|" +
      " ".join(sorted(r["missing_op_types"])))
PY
)
  want="${verdict[$name]}|${missing[$name]}"
  want_rc=1; [ "${verdict[$name]}" = portable ] && want_rc=0
  if [ "$rc" -ne "$want_rc" ] || [ "$got" != "$want" ]; then
    fail "$name coverage" "want '$want' (exit $want_rc), got '$got' (exit $rc) $(head -c 200 "$tmp/log")"
    continue
  fi
  ok "$name coverage: ${verdict[$name]}${missing[$name]:+ (missing ${missing[$name]})}"
  [ "${verdict[$name]}" = portable ] || continue

  data="$root/tests/data/openwakeword/$name/test_data_set_0"
  if [ ! -f "$data/output_0.pb" ]; then
    fail "$name" "no expected outputs in $data"
    continue
  fi
  for nodes in 1 2; do
    what="$name on $nodes chip(s)"
    prog="$tmp/$name-$nodes.lpxb"
    if ! "$lpx" compile "$model" --nodes "$nodes" -o "$prog" >"$tmp/log" 2>&1; then
      fail "$what" "compile: $(head -1 "$tmp/log")"; continue
    fi
    if ! "$lpx" simulate --json "$prog" >"$tmp/sim.json" 2>"$tmp/log"; then
      fail "$what" "simulate (hazards?): $(head -c 300 "$tmp/sim.json" "$tmp/log" | tr '\n' ' ')"; continue
    fi
    cycles=$(grep -o '"total_cycles": *[0-9]*' "$tmp/sim.json" | grep -o '[0-9]*$')
    if [ -z "$cycles" ] || [ "$cycles" -le 0 ]; then
      fail "$what" "no cycle count in the simulation report"; continue
    fi
    # The output is a sigmoid: near 0 or 1 its slope is small, so the
    # default tolerance (atol 1e-4, rtol 1e-3) would hide large logit errors.
    if ! "$lpx" run "$prog" --data "$data" --atol 1e-6 --rtol 0 >"$tmp/log" 2>&1; then
      fail "$what" "run: $(grep -m1 -E 'MISMATCH|error' "$tmp/log")"; continue
    fi
    ok "$what: $cycles cycles, no hazards; $(grep -m1 -o 'worst abs error [^,]*' "$tmp/log")"
  done
done <<<"$list"

for name in "${!verdict[@]}"; do
  [ -n "${seen[$name]+x}" ] || fail "$name" "expected in openwakeword-js but not fetched"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
