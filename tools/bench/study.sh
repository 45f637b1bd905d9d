#!/usr/bin/env bash
# The floors of issue 25 point 1 (docs/sweeps.md, "Studies of whole
# deployments"): a 4 x 4 study of llama2-70b on lpx3 (sram.bytes x
# link.latency, chips found per point) on 2 threads, timed; then the same
# study as 4 shards (each on 2 threads, one after another) merged by
# `lpx sweep merge`, compared byte for byte with the whole. Prints one
# line per figure. Usage: tools/bench/study.sh [build/bin/lpx] [OUT_DIR]
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
lpx="${1:-$root/build/bin/lpx}"
out="${2:-$(mktemp -d)}"
mkdir -p "$out"
study=(decode --model llama2-70b --chip lpx3
       --sweep sram.bytes=250MB,500MB,1GB,2GB
       --sweep link.latency=175,350,700,1400 -j 2)
seconds() { awk "BEGIN { printf \"%.1f\", $2 - $1 }"; }

start=$(date +%s.%N)
"$lpx" "${study[@]}" -o "$out/whole.csv" --plot "$out/whole.svg" \
  >"$out/whole.txt" 2>&1 || { echo "FAIL the whole study"; cat "$out/whole.txt"; exit 1; }
echo "whole study: $(seconds "$start" "$(date +%s.%N)") s wall"
grep -E "chip search|frontier" "$out/whole.txt"

for i in 1 2 3 4; do
  start=$(date +%s.%N)
  "$lpx" "${study[@]}" --shard "$i/4" -o "$out/part$i.csv" >/dev/null 2>&1 ||
    { echo "FAIL shard $i/4"; exit 1; }
  echo "shard $i/4: $(seconds "$start" "$(date +%s.%N)") s wall"
done
"$lpx" sweep merge "$out"/part{1,2,3,4}.csv -o "$out/merged.csv" \
  --plot "$out/merged.svg" >/dev/null || { echo "FAIL merge"; exit 1; }
if cmp -s "$out/whole.csv" "$out/merged.csv" && cmp -s "$out/whole.svg" "$out/merged.svg"; then
  echo "merged shards: byte-identical to the whole (CSV and SVG)"
else
  echo "FAIL merged shards differ from the whole"; exit 1
fi
