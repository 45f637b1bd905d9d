#!/usr/bin/env bash
# The floors of issue 24 (docs/serving.md, "Floors"), measured with
# /usr/bin/time -v on llama2-70b on tsp-v1 (fp8 weights, fp16 activations,
# context 2304 = the longest prompt 2048 + 256 outputs, max batch 8):
#  1. `lpx serve` with an empty cache: the service table built (plan, then
#     every point compiled and simulated; the command prints where the time
#     went), then one hour at 50 requests/s (180,000 requests, prompts
#     128..2048, outputs 256);
#  2. the same command again: the table read from the cache, the hour
#     simulated (floor: under 10 s and 1 GB);
#  3. a second run that only reuses the table (--requests 1; floor: under
#     1 s);
#  4. the M/D/1 check over 1,000,000 requests at rho 0.5 and 0.8
#     (lpx-serve-bench md1; floor: within 2% of Pollaczek-Khinchine).
# Prints one line per figure. Usage:
#   tools/bench/serve-floors.sh [build/bin] [MODEL] [CHIP] [CONTEXT] [PROMPTS]
# (CONTEXT 2304 and PROMPTS 128..2048 are the issue's; the table's prefill
# is then chunked, 8 chunks of 288, and the build takes minutes: its
# figures are in docs/serving.md "Floors").
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-$root/build/bin}"
model="${2:-llama2-70b}"
chip="${3:-tsp-v1}"
context="${4:-2304}"
prompts="${5:-128..2048}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# SERVE_FLOORS_CACHE=DIR keeps the table there (emptied first) for a look
# afterwards; by default it goes with the scratch folder.
cache="${SERVE_FLOORS_CACHE:-$tmp/cache}"
rm -rf "$cache"

# measure NAME CMD...: CMD under /usr/bin/time -v, its output in
# $tmp/NAME.out; prints wall s, cpu s and peak MiB.
measure() {
  local name="$1"; shift
  /usr/bin/time -v "$@" >"$tmp/$name.out" 2>"$tmp/$name.time"
  local rc=$?
  awk -F': ' -v name="$name" -v rc="$rc" '
    /Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; wall = s}
    /User time/ {cpu += $2} /System time/ {cpu += $2}
    /Maximum resident set size/ {mib = $2 / 1024}
    END {printf "%-12s wall %7.2f s  cpu %7.2f s  peak %6.0f MiB  exit %d\n", name, wall, cpu, mib, rc}' \
    "$tmp/$name.time"
  [ $rc -eq 0 ] || tail -3 "$tmp/$name.time"
}

serve=("$bin/lpx" serve --model "$model" --chip "$chip" --context "$context" --max-batch 8
       --weights fp8e4m3 --activations fp16 --cache-dir "$cache")
hour=(--workload "poisson:rate=50,prompt=$prompts,output=256" --duration 3600s)

measure build "${serve[@]}" "${hour[@]}"
grep -E "^  (built in|service table)|error" "$tmp/build.out"
measure hour "${serve[@]}" "${hour[@]}"
grep -E "^requests|^tokens/s|^  (TTFT|TPOT) " "$tmp/hour.out"
measure reuse "${serve[@]}" --workload poisson:rate=50,prompt=128,output=2 --requests 1
grep -E "read from cache" "$tmp/reuse.out" >/dev/null || echo "reuse: the table was not read from the cache"
for rho in 0.5 0.8; do
  measure "md1-$rho" "$bin/lpx-serve-bench" md1 "$rho" 1000000
  cat "$tmp/md1-$rho.out"
done
