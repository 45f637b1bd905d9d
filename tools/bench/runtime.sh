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
    "$lpx" run "$dir/program.lpx" --data "$dir/test_data_set_0" --time --repeat 3 \
      >"$dir/lpx-last.txt"
    grep '^time:' "$dir/lpx-last.txt" >>"$dir/lpx.txt"
    grep -q '^all outputs match' "$dir/lpx-last.txt" ||
      { echo "runtime.sh: $1: lpx outputs differ from onnxruntime" >&2; exit 1; }
    node "$root/tools/bench/ort-time.mjs" "$dir" 3 >>"$dir/ort.txt"
  done
  printf '%s | %s chip(s) | lpx inference %s s, load %s s | onnxruntime inference %s s, session %s s\n' \
    "$1" "$chips" \
    "$(awk '{print $6}' "$dir/lpx.txt" | median)" "$(awk '{print $3}' "$dir/lpx.txt" | median)" \
    "$(awk '{print $6}' "$dir/ort.txt" | median)" "$(awk '{print $3}' "$dir/ort.txt" | median)"
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
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
