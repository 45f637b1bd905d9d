#!/usr/bin/env bash
# Determinism: the same compile gives a byte-identical program file (also
# from another folder and another working directory), the same simulation
# gives byte-identical reports (text, JSON, HTML) and traces, the CPU runtime
# byte-identical outputs, a sweep on 1 and on 2 threads byte-identical CSV
# and SVG files, and a chunked prefill one program file over ten compiles.
set -uo pipefail
lpx="$1"
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/tests/e2e/testlib.sh"
same() { # NAME FILE1 FILE2
  if cmp -s "$2" "$3"; then echo "ok   $1"; passed=$((passed + 1));
  else echo "FAIL $1: $2 and $3 differ"; failed=$((failed + 1)); fi
}

for model in mlp llama_step; do
  mkdir -p "$tmp/a/$model" "$tmp/b/$model"
  cp -r "$root/models/$model/." "$tmp/a/$model/" || die "copy $model"
  cp -r "$root/models/$model/." "$tmp/b/$model/" || die "copy $model"
  for nodes in 1 4; do
    for run in a b; do
      p="$tmp/$run/$model-$nodes.lpxb"
      (cd "$tmp/$run" && "$lpx" compile "$model/model.onnx" --nodes $nodes \
         --activations fp16 -o "$p" >/dev/null) || die "compile $model ($run)"
      "$lpx" simulate "$p" >"$p.txt" || die "simulate $p"
      "$lpx" simulate --json "$p" >"$p.json" || die "simulate --json $p"
      "$lpx" inspect "$p" >"$p.inspect" || die "inspect $p"
      "$lpx" simulate "$p" --trace "$p.trace" --report "$p.html" >/dev/null ||
        die "simulate --trace --report $p"
    done
    a="$tmp/a/$model-$nodes.lpxb" b="$tmp/b/$model-$nodes.lpxb"
    same "$model on $nodes node(s): program file" "$a" "$b"
    same "$model on $nodes node(s): report" "$a.txt" "$b.txt"
    same "$model on $nodes node(s): JSON report" "$a.json" "$b.json"
    same "$model on $nodes node(s): listing" "$a.inspect" "$b.inspect"
    same "$model on $nodes node(s): trace" "$a.trace" "$b.trace"
    same "$model on $nodes node(s): HTML report" "$a.html" "$b.html"
  done
  # The runtime's outputs, f32 program run twice.
  "$lpx" compile "$tmp/a/$model/model.onnx" -o "$tmp/f32.lpxb" >/dev/null || die "compile $model f32"
  for run in a b; do
    mkdir -p "$tmp/out-$run"
    "$lpx" run "$tmp/f32.lpxb" --data "$tmp/a/$model/test_data_set_0" \
      --out "$tmp/out-$run" >/dev/null || die "run $model ($run)"
  done
  same "$model: runtime outputs" "$tmp/out-a/output_0.pb" "$tmp/out-b/output_0.pb"
done

# A sweep's points run on a thread pool: 1 and 2 threads, same bytes.
for jobs in 1 2; do
  "$lpx" sweep "$root/models/mlp/model.onnx" --set nodes=1,2,4 \
    --set clock_mhz=900,1200 -o "$tmp/sweep-$jobs.csv" --plot "$tmp/sweep-$jobs.svg" \
    --jobs $jobs >/dev/null 2>&1 || die "sweep --jobs $jobs"
done
same "sweep CSV on 1 and 2 threads" "$tmp/sweep-1.csv" "$tmp/sweep-2.csv"
same "sweep plot on 1 and 2 threads" "$tmp/sweep-1.svg" "$tmp/sweep-2.svg"

# A chunked prefill's program (lpx-unroll-chunks: transfers of one chunk wait
# for the chunk before's, which a stale key once made vary from run to run):
# ten compiles, one program file.
"$lpx" models export tiny-llama --context 64 --prompt 32 -o "$tmp/chunk.onnx" \
  >/dev/null || die "export the chunk step"
for run in $(seq 1 10); do
  "$lpx" compile "$tmp/chunk.onnx" --chip lpx3 --set sram.bytes=128KiB \
    --nodes 8 --tp 2 --pp 4 --resident-kv --chunks 2 --weights fp8e4m3 \
    --activations fp16 -o "$tmp/chunk-$run.lpxb" >/dev/null || die "compile chunks"
done
for run in $(seq 2 10); do
  same "chunked prefill, compile $run of 10" "$tmp/chunk-1.lpxb" "$tmp/chunk-$run.lpxb"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
