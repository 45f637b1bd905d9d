#!/usr/bin/env bash
# Records what the lpx of two builds say about the same inputs and diffs
# them: a refactor must leave every figure as it was (issue 20).
#
# Recorded per build, each into a file of its own:
#   nodetests.txt      the ONNX node tests' pass/fail list with reasons
#                      (run_node_tests.py --write-expectations; --sample N
#                      runs every Nth test only)
#   builtin-*.json     `lpx simulate --json` of the built-in models (mlp,
#                      llama_step) compiled for 1 and 4 chips
#   coverage-*.json    `lpx coverage --format json` of them on tsp-v1 and on
#                      a chip of 64 KiB SRAM (the chip count is searched)
#   sweep-mlp.csv      a small `lpx sweep` of the mlp
#   tiny-*.json        `lpx decode --json` of the tiny presets on 1 chip,
#                      on 8, and on chips of 64 KiB (the search gallops),
#                      and `lpx decode --run` ids on 8 chips
#   decode-table.txt   the rows of docs/decode.md's table (tools/bench/
#                      decode.sh's presets, chips and options) without wall
#                      time and memory, plus every run's whole JSON
#                      (--decode-table tiny: the tiny presets only)
#
# Usage: tools/bench/compare-behaviour.sh BASE NEW [--sample N]
#            [--decode-table all|tiny|none] [--keep DIR]
#   BASE, NEW: a build folder (its bin/lpx is used) or an lpx binary.
# Exit 0 when every record is identical, 1 when one differs (the diff is
# printed), 2 on bad usage.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/tools/bench/decode-table.sh"
usage() { echo "usage: $0 BASE NEW [--sample N] [--decode-table all|tiny|none] [--keep DIR]" >&2; exit 2; }
[ $# -ge 2 ] || usage
lpxOf() { if [ -d "$1" ]; then echo "$1/bin/lpx"; else echo "$1"; fi; }
base="$(lpxOf "$1")" new="$(lpxOf "$2")"
shift 2
sample=1 table=all keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --sample) sample="$2"; shift 2 ;;
    --decode-table) table="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    *) usage ;;
  esac
done
for b in "$base" "$new"; do
  [ -x "$b" ] || { echo "$0: '$b' is not an lpx binary" >&2; exit 2; }
done
case "$table" in all|tiny|none) ;; *) usage ;; esac
work="${keep:-$(mktemp -d)}"
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT

# record LPX DIR: every record of one build into DIR.
record() {
  local lpx="$1" out="$2" tmp="$2/tmp"
  mkdir -p "$out" "$tmp"
  echo "== $lpx -> $out" >&2

  "$lpx" chip show tsp-v1 --set sram.bytes=65536 >"$tmp/small.yaml"
  for m in mlp llama_step; do
    for n in 1 4; do
      "$lpx" compile "$root/models/$m/model.onnx" --nodes "$n" -o "$tmp/$m.lpxb" \
        >/dev/null 2>&1 && "$lpx" simulate --json "$tmp/$m.lpxb" \
        >"$out/builtin-$m-n$n.json" 2>&1 || echo "exit $?" >>"$out/builtin-$m-n$n.json"
    done
    for chip in tsp-v1 "$tmp/small.yaml"; do
      name=$(basename "$chip" .yaml)
      "$lpx" coverage --format json --chip "$chip" "$root/models/$m/model.onnx" 2>&1 |
        sed "s|$root/||g; s|$tmp/||g" >"$out/coverage-$m-$name.json"
    done
  done
  "$lpx" sweep "$root/models/mlp/model.onnx" --set sram.bytes=65536,1048576 \
    --nodes 1,2 -j 2 -o "$out/sweep-mlp.csv" >/dev/null 2>&1 ||
    echo "exit $?" >>"$out/sweep-mlp.csv"

  for p in tiny-llama tiny-gpt2 tiny-vocab tiny-mixtral; do
    local shape=(--context 64 --prompt 8)
    "$lpx" decode --json --model "$p" "${shape[@]}" >"$out/tiny-$p-1.json" 2>&1
    "$lpx" decode --json --model "$p" "${shape[@]}" --chips 8 \
      >"$out/tiny-$p-8.json" 2>&1
    "$lpx" decode --json --model "$p" "${shape[@]}" --chip lpx3 \
      --set sram.bytes=64KiB >"$out/tiny-$p-64k.json" 2>&1
    "$lpx" decode --run --model "$p" --chips 8 --prompt-ids 1,2,3 --tokens 8 \
      >"$out/tiny-$p-run.txt" 2>&1
  done

  [ "$table" = none ] && return
  local presets
  if [ "$table" = tiny ]; then
    presets=(tiny-llama tiny-gpt2 tiny-vocab tiny-mixtral)
  else
    mapfile -t presets < <(table_presets "$lpx")
  fi
  : >"$out/decode-table.txt"
  for model in "${presets[@]}"; do
    table_shape "$lpx" "$model"
    for chip in tsp-v1 lpx3; do
      echo "   decode $model on $chip" >&2
      "$lpx" decode --json --model "$model" --chip "$chip" --context "$context" \
        --prompt "$prompt" --batch 1 --weights fp8e4m3 --activations fp16 \
        >"$tmp/out.json" 2>"$tmp/err"
      local rc=$?
      echo "rc $rc $(head -c 300 "$tmp/err")" >"$out/decode-$model-$chip.json"
      cat "$tmp/out.json" >>"$out/decode-$model-$chip.json"
      /usr/bin/python3 "$root/tools/bench/decode_row.py" "$tmp/out.json" "$model" \
        "$chip" "$rc" >>"$out/decode-table.txt"
    done
  done
}

# The node tests last: the longest part.
nodetests() {
  local lpx="$1" out="$2"
  cp "$root/tests/nodetests/expectations.txt" "$out/tmp/expect.txt"
  echo "   node tests (every ${sample}th)" >&2
  /usr/bin/python3 "$root/tests/nodetests/run_node_tests.py" --lpx "$lpx" --jobs 2 \
    --sample "$sample" --expect "$out/tmp/expect.txt" --write-expectations \
    >"$out/nodetests-summary.txt" 2>&1
  grep -v '^#' "$out/tmp/expect.txt" >"$out/nodetests.txt"
  tail -1 "$out/nodetests-summary.txt" >"$out/nodetests-count.txt"
  rm "$out/nodetests-summary.txt"
}

record "$base" "$work/base"
record "$new" "$work/new"
nodetests "$base" "$work/base"
nodetests "$new" "$work/new"
rm -rf "$work/base/tmp" "$work/new/tmp"

echo "records: $(ls "$work/new" | wc -l) files per build in $work" >&2
if diff -ru "$work/base" "$work/new"; then
  echo "identical: $(ls "$work/new" | wc -l) records ($(cat "$work/new/nodetests-count.txt") node tests; decode table: $table)"
  exit 0
fi
echo "DIFFERENT (see the diff above)"
exit 1
