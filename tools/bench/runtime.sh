#!/usr/bin/env bash
# CPU runtime speed against onnxruntime-node (docs/benchmarks.md, "Runtime
# speed"). Not part of CI: it writes ~2 GB of models and takes minutes.
#
#   ORT_DIR=/tmp/ort tools/bench/runtime.sh [BUILD_DIR] [WORK_DIR] [ROUNDS]
#
# Models (made here, deterministic): ResNet-50 fp32 batch 1
# (models/resnet50.py) and the built-in decoder layer at Llama-2-7B size
# (models/generate.py --llama-config). Each is compiled with `lpx compile`
# for the fewest tsp-v1 chips that hold it, its expected outputs come from
# onnxruntime (models/reference/expected.mjs), and then ROUNDS rounds
# (default 5) alternate `lpx run --time --repeat 3` and
# tools/bench/ort-time.mjs (3 inferences): interleaving spreads the load of
# a shared machine over both. Printed: the median over rounds of each
# round's median per-inference time, lpx's load time and onnxruntime's
# session creation.
#
# Then the number formats (FORMATS, default "fp16 bf16 fp8e4m3 fp8e5m2"):
# each model compiled again with --weights F --activations F on the fp32
# program's chip count, and ROUNDS rounds of `lpx run --time --repeat 3`
# per format, fp32 included, interleaved; printed per format: the median
# per-inference time, its ratio to fp32, and lpx run's verdict against
# onnxruntime's fp32 outputs under the tolerance of the format (the
# 'tolerance:' line it prints). FORMATS= skips this part.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath "${1:-$root/build}")
work=$(realpath -m "${2:-/tmp/lpx-runtime-bench}")
rounds=${3:-5}
lpx=$build/bin/lpx
py=/usr/bin/python3
export ORT_DIR=${ORT_DIR:-/tmp/ort}
[[ -x $lpx ]] || { echo "runtime.sh: no $lpx (build first)" >&2; exit 2; }
[[ -d $ORT_DIR/node_modules/onnxruntime-node ]] ||
  { echo "runtime.sh: onnxruntime-node not found under ORT_DIR=$ORT_DIR" >&2; exit 2; }
mkdir -p "$work"

# compile MODEL_DIR: the fewest chips lpx accepts (it names the minimum).
compile() {
  local n
  for n in 1 2 3 4 5 6 8 12 16; do
    if "$lpx" compile "$1/model.onnx" --nodes "$n" -o "$1/program.lpx" >/dev/null 2>&1; then
      echo "$n"; return 0
    fi
  done
  echo "runtime.sh: $1 does not compile on up to 16 chips" >&2; exit 1
}

median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

bench() { # NAME
  local dir=$work/$1 chips
  chips=$(compile "$dir")
  node "$root/models/reference/expected.mjs" "$dir" >/dev/null
  : >"$dir/lpx.txt"; : >"$dir/ort.txt"
  for ((r = 0; r < rounds; r++)); do
    # Exit 1 is a mismatch: timed all the same, and its verdict printed.
    "$lpx" run "$dir/program.lpx" --data "$dir/test_data_set_0" --time --repeat 3 \
      >"$dir/lpx-last.txt" || [[ $? -eq 1 ]] ||
      { echo "runtime.sh: $1: lpx run failed" >&2; exit 1; }
    grep '^time:' "$dir/lpx-last.txt" >>"$dir/lpx.txt"
    node "$root/tools/bench/ort-time.mjs" "$dir" 3 >>"$dir/ort.txt"
  done
  printf '%s | %s chip(s) | lpx inference %s s, load %s s | onnxruntime inference %s s, session %s s | %s\n' \
    "$1" "$chips" \
    "$(awk '{print $6}' "$dir/lpx.txt" | median)" "$(awk '{print $3}' "$dir/lpx.txt" | median)" \
    "$(awk '{print $6}' "$dir/ort.txt" | median)" "$(awk '{print $3}' "$dir/ort.txt" | median)" \
    "$(tail -1 "$dir/lpx-last.txt")"
}

# formats NAME: the fp32 program's chips, each format compiled and timed.
formats() {
  local dir=$work/$1 chips f r
  chips=$("$lpx" inspect "$dir/program.lpx" | sed -n 's/.* for \([0-9]*\) node(s).*/\1/p')
  for f in $FORMATS; do
    "$lpx" compile "$dir/model.onnx" --nodes "$chips" --weights "$f" --activations "$f" \
      -o "$dir/program-$f.lpx" >/dev/null
  done
  for f in fp32 $FORMATS; do : >"$dir/lpx-$f.txt"; done
  for ((r = 0; r < rounds; r++)); do
    for f in fp32 $FORMATS; do
      local prog=$dir/program-$f.lpx
      [[ $f == fp32 ]] && prog=$dir/program.lpx
      # Exit 1 is a mismatch (reported below), 2 an error.
      "$lpx" run "$prog" --data "$dir/test_data_set_0" --time --repeat 3 \
        >"$dir/lpx-$f-last.txt" || [[ $? -eq 1 ]] ||
        { echo "runtime.sh: $1 $f: lpx run failed" >&2; exit 1; }
      grep '^time:' "$dir/lpx-$f-last.txt" >>"$dir/lpx-$f.txt"
    done
  done
  local base
  base=$(awk '{print $6}' "$dir/lpx-fp32.txt" | median)
  for f in fp32 $FORMATS; do
    local t
    t=$(awk '{print $6}' "$dir/lpx-$f.txt" | median)
    printf '%s %s | %s chip(s) | lpx inference %s s (%.2fx fp32), load %s s | %s; %s\n' \
      "$1" "$f" "$chips" "$t" "$(echo "$t $base" | awk '{print $1 / $2}')" \
      "$(awk '{print $3}' "$dir/lpx-$f.txt" | median)" \
      "$(grep '^tolerance:' "$dir/lpx-$f-last.txt" | cut -d' ' -f2-6)" \
      "$(tail -1 "$dir/lpx-$f-last.txt")"
  done
}

[[ -f $work/resnet50/model.onnx ]] || $py "$root/models/resnet50.py" "$work/resnet50" >/dev/null
if [[ ! -f $work/llama7b/model.onnx ]]; then
  $py "$root/models/generate.py" --out "$work/gen" --only llama_step \
    --llama-config D=4096,H=32,KVH=32,HD=128,F=11008,T=255 >/dev/null 2>&1
  mv "$work/gen/llama_step" "$work/llama7b" && rmdir "$work/gen"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
bench resnet50
bench llama7b
FORMATS=${FORMATS-fp16 bf16 fp8e4m3 fp8e5m2}
if [[ -n $FORMATS ]]; then
  formats resnet50
  formats llama7b
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
