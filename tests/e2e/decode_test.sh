#!/usr/bin/env bash
# `lpx decode` on tiny presets: every stable JSON key; directions a correct
# model of decode must show (a longer context raises TPOT; slower or longer
# links never lower it; batch 8 serves more tokens/s than batch 1); chips
# found by compiling in whole groups, and a clear error when the chips given
# are too few; more pipeline stages raise aggregate tokens/s up to one group
# of sequences per stage; --context-sweep output; hostile input gets one
# line, exit 2 and no file. About 6 s.
source "$(dirname "$0")/common.sh" "$1"
python=/usr/bin/python3

# decode NAME [options]: JSON into $tmp/NAME.json, exit 0 expected.
decode() {
  local name="$1"; shift
  if "$lpx" decode --json "$@" >"$tmp/$name.json" 2>"$tmp/stderr"; then
    return 0
  fi
  fail "decode $*" "$(head -1 "$tmp/stderr")"
  return 1
}
# field NAME KEY: a value of $tmp/NAME.json.
field() { $python -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$tmp/$1.json" "$2"; }
# less A B: A < B as numbers.
less() { $python -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)" "$1" "$2"; }
leq() { $python -c "import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)" "$1" "$2"; }

base=(--model tiny-llama --chip lpx3 --prompt 16 --batch 1)
if decode keys "${base[@]}" --context 64; then
  if $python - "$tmp/keys.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
keys = ["chips", "tp", "pp", "context", "prompt", "batch", "ttft_us", "tpot_us",
        "tokens_per_second_per_user", "tokens_per_second", "bottleneck",
        "sram_bytes_per_chip", "physical_bound_us", "efficiency",
        "weights", "activations", "formats_from_chip", "defaults"]
missing = [k for k in keys if k not in r]
assert not missing, missing
assert set(r["sram_bytes_per_chip"]) >= {"weights", "kv_cache", "activations"}
assert r["chips"] == 1 and r["context"] == 64 and r["prompt"] == 16 and r["batch"] == 1
# TTFT is the prefill plus host I/O; tokens/s per user is 1 / TPOT.
assert abs(r["ttft_us"] - r["ttft_compute_us"] - r["ttft_host_io_us"]) < 1e-6
assert abs(r["tokens_per_second_per_user"] * r["tpot_us"] - 1e6) < 1e-3
# The physical bound is a floor of the simulated step.
assert 0 < r["physical_bound_us"] <= r["tpot_compute_us"]
assert 0 < r["efficiency"] <= 1
# The latency bounds are floors of one request's TTFT and TPOT (host I/O in
# both), and the JSON keeps them beside the figures.
for k in ["prefill_chunk", "ttft_latency_bound_us", "tpot_latency_bound_us",
          "ttft_latency_efficiency", "tpot_latency_efficiency"]:
    assert k in r, k
assert 0 < r["ttft_latency_bound_us"] <= r["ttft_us"], r["ttft_latency_bound_us"]
assert 0 < r["tpot_latency_bound_us"] <= r["tpot_us"], r["tpot_latency_bound_us"]
assert r["prefill_chunk"] >= 1
# No --weights / --activations: lpx3's deployment formats (isa/chips/lpx3.yaml).
assert (r["weights"], r["activations"]) == ("fp8e4m3", "fp16"), r
assert r["formats_from_chip"] == {"weights": True, "activations": True}
assert r["defaults"] == ["batch 1"], r["defaults"]
# The tiny model's 2 layers of weights are all there: (q, k, v, o, gate,
# up, down) as fp8 at least.
assert r["sram_bytes_per_chip"]["weights"] > 2 * 64 * (64 + 32 + 32 + 64 + 3 * 128)
PY
  then ok "stable JSON keys and their relations"; else fail "stable JSON keys"; fi
fi

# The physical bound counts the model's work: the MACs of one tiny-llama
# step (D=64, 4 heads of 16, 2 KV heads, FFN 128, vocab 256, 2 layers) at
# context 64, by hand: per layer q 64x64 + k 64x32 + v 64x32 + o 64x64 +
# gate, up 64x128 + down 128x64 = 36864, attention 4 heads x (16x64 + 64x16)
# = 8192; lm_head 64x256 = 16384: 2 * (36864 + 8192) + 16384 = 106496.
if [ -f "$tmp/keys.json" ]; then
  macs=$($python -c "import json,sys; print(json.load(open(sys.argv[1]))['physical_bound']['macs'])" "$tmp/keys.json")
  check "physical bound counts the step's 106496 MACs ($macs)" '[ "$macs" = 106496 ]'
fi

# Doubling the context raises TPOT: one Llama-2-7B layer (shape-only, fp8
# weights) at context 1024 and 2048 on lpx3. (A tiny preset's whole cache
# is one tile of the matrix unit, so its step does not depend on the
# context once attention reads the KV heads without repeat_kv's copies.)
for c in 1024 2048; do
  "$lpx" models export llama2-7b --shape-only --layers 1 --context $c -o "$tmp/l7-$c.onnx" >/dev/null
done
layer=(--chip lpx3 --weights fp8e4m3 --activations fp16)
if decode c1k --model "$tmp/l7-1024.onnx" "${layer[@]}" && decode c2k --model "$tmp/l7-2048.onnx" "${layer[@]}"; then
  a=$(field c1k tpot_compute_us) b=$(field c2k tpot_compute_us)
  check "context 1024 -> 2048 raises TPOT ($a -> $b us)" 'less "$a" "$b"'
fi

# On 2 chips, halving the link bandwidth or doubling the latency does not
# lower TPOT.
two=("${base[@]}" --context 64 --chips 2)
if decode links "${two[@]}" && decode halfbw "${two[@]}" --set link.lane_bytes_per_cycle=7 &&
   decode slow "${two[@]}" --set link.latency=700; then
  a=$(field links tpot_compute_us) b=$(field halfbw tpot_compute_us) c=$(field slow tpot_compute_us)
  check "half link bandwidth does not lower TPOT ($a -> $b us)" 'leq "$a" "$b"'
  check "double link latency does not lower TPOT ($a -> $c us)" 'leq "$a" "$c"'
fi

# Batch 8 serves more tokens per second than batch 1.
if decode b1 "${base[@]}" --context 64 && decode b8 --model tiny-llama --chip lpx3 --prompt 16 --context 64 --batch 8; then
  a=$(field b1 tokens_per_second) b=$(field b8 tokens_per_second)
  check "batch 8 gives more aggregate tokens/s ($a -> $b)" 'less "$a" "$b"'
fi

# More pipeline stages in flight raise aggregate throughput, up to the
# number of stages: tiny-llama with --tp 1 and --pp 1, 2, 4 (one chip per
# stage). The host's latency is set to 0 so that what makes room for more
# groups of sequences is the stages' shorter occupancy of their chips, not
# a host round trip they could hide behind each other.
staged=(--model tiny-llama --chip lpx3 --prompt 16 --context 64 --tp 1 --set host.latency_us=0)
if decode pp1 "${staged[@]}" --chips 1 --pp 1 && decode pp2 "${staged[@]}" --chips 2 --pp 2 &&
   decode pp4 "${staged[@]}" --chips 4 --pp 4; then
  a=$(field pp1 tokens_per_second) b=$(field pp2 tokens_per_second) c=$(field pp4 tokens_per_second)
  f1=$(field pp1 sequences_in_flight) f2=$(field pp2 sequences_in_flight) f4=$(field pp4 sequences_in_flight)
  check "pp 1 -> 2 -> 4 raises aggregate tokens/s ($a -> $b -> $c)" 'less "$a" "$b" && less "$b" "$c"'
  check "sequences in flight within the stages, more than one when staged ($f1, $f2, $f4)" \
    '[ "$f1" = 1 ] && [ "$f2" -gt 1 ] && [ "$f2" -le 2 ] && [ "$f4" -gt "$f2" ] && [ "$f4" -le 4 ]'
fi

# Deployment defaults from the chip (issue 21, point 8): without
# --weights/--activations the chip's formats (lpx3 fp8e4m3/fp16, tsp-v1
# int8/fp16, isa/chips/*.yaml), said in the report; without --context and
# --prompt the preset's context up to 4096 (tiny-llama: 256) and a prompt of
# 128, said too. `lpx compile` keeps the model's own formats.
# json_is NAME EXPR: a Python expression over the report r of $tmp/NAME.json.
json_is() { $python -c "import json,sys; r = json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$tmp/$1.json"; }
if decode dflt --model tiny-llama --chip lpx3; then
  check "no shape options: context 256, prompt 128, batch 1, stated" \
    "json_is dflt '(r[\"context\"], r[\"prompt\"], r[\"batch\"]) == (256, 128, 1) and r[\"defaults\"] == [\"context 256 (the preset\x27s, up to 4096)\", \"prompt 128\", \"batch 1\"]'"
  check "lpx3's formats by default" "json_is dflt '(r[\"weights\"], r[\"activations\"]) == (\"fp8e4m3\", \"fp16\")'"
fi
if decode tspfmt --model tiny-llama --chip tsp-v1 --prompt 16 --context 64 &&
   decode fp32w --model tiny-llama --chip tsp-v1 --prompt 16 --context 64 --weights fp32; then
  check "tsp-v1's formats by default" "json_is tspfmt '(r[\"weights\"], r[\"activations\"]) == (\"int8\", \"fp16\")'"
  check "--weights overrides the chip's, the activations stay the chip's" \
    "json_is fp32w '(r[\"weights\"], r[\"activations\"]) == (\"fp32\", \"fp16\") and r[\"formats_from_chip\"] == {\"weights\": False, \"activations\": True}'"
fi
"$lpx" decode --model tiny-llama --chip lpx3 --prompt 16 --context 64 >"$tmp/text.txt" 2>"$tmp/stderr"
check "the text report says the formats" \
  "grep -q '^  formats: weights fp8e4m3 (the chip.s), activations fp16 (the chip.s)\$' '$tmp/text.txt'"
"$lpx" models export tiny-llama --layers 1 -o "$tmp/tl1.onnx" >/dev/null &&
  "$lpx" compile "$tmp/tl1.onnx" --chip lpx3 -o "$tmp/tl1.lpxb" >/dev/null 2>&1 &&
  "$lpx" inspect "$tmp/tl1.lpxb" >"$tmp/tl1.txt"
check "compile keeps the model's formats (fp32 weights on lpx3)" \
  "grep -qE 'const +[0-9x]+xf32 ' '$tmp/tl1.txt' && ! grep -qE 'const +[0-9x]+xf8' '$tmp/tl1.txt'"

# Chips found by compiling: with 400 KiB of SRAM one chip cannot hold the
# 0.43 MB of fp32 weights, so the answer is a whole group of lpx3 (8 chips).
small=(--model tiny-llama --chip lpx3 --set sram.bytes=400KiB --prompt 4 --context 16
       --weights fp32 --activations fp32)
if decode search "${small[@]}"; then
  n=$(field search chips)
  check "the fewest whole groups that compile ($n chips)" '[ "$n" = 8 ]'
  # The compiler's placement is tried first: tiny-llama's 2 KV heads cap
  # the tensor-parallel group at 2, so 8 chips are 2 x 4 stages; then the
  # narrower width, 1 x 8 asked, which the model's layers fill as 1 x 5 (no
  # stage without layers). The placement reported is the faster decode
  # step of the two, and the step timed is that one's.
  if $python - "$tmp/search.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
tried = r["placements_tried"]
assert [(t["tp"], t["pp"]) for t in tried] == [(2, 4), (1, 5)], tried
best = min(tried, key=lambda t: t["step_us"])
assert (r["tp"], r["pp"]) == (best["tp"], best["pp"]), (r["tp"], r["pp"], tried)
assert abs(r["tpot_compute_us"] - best["step_us"]) < 1e-9
PY
  then ok "the compiler's placement and the narrower one tried, the faster step kept"
  else fail "placements tried" "$(cat "$tmp/search.json" | head -c 300)"; fi
fi
# --tp/--pp given: that placement alone, nothing else tried.
if decode asked "${base[@]}" --context 64 --chips 4 --tp 1 --pp 4; then
  mesh="$(field asked tp) x $(field asked pp)"
  check "--tp 1 --pp 4 is the placement used ($mesh)" '[ "$mesh" = "1 x 4" ]'
  n=$($python -c "import json,sys; print(len(json.load(open(sys.argv[1]))['placements_tried']))" "$tmp/asked.json")
  check "no other placement tried when one is asked for ($n)" '[ "$n" = 0 ]'
fi
# expect_error NAME PATTERN -- args: exit 2, one line matching, no file.
expect_error() {
  local name="$1" pattern="$2"; shift 3
  "$lpx" decode "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  local rc=$? lines
  lines=$(wc -l <"$tmp/stderr")
  if [ $rc -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -qE -- "$pattern" "$tmp/stderr"; then
    fail "$name: exit $rc, $lines lines" "$(head -2 "$tmp/stderr")"
  elif ls "$tmp" | grep -q "^bad"; then
    fail "$name: left a file behind"
  else
    ok "$name: $(cat "$tmp/stderr")"
  fi
}
expect_error "too few chips" "does not fit on --chips 1: .*bytes of weights" -- "${small[@]}" --chips 1
# --run compiles the preset's scratch export: the error names the preset.
expect_error "too few chips to run" "^lpx decode: error: tiny-llama: model does not fit on 1 node" -- \
  --model tiny-llama --run --prompt-ids 1,2 --tokens 2 --context 16 --chips 1 --set sram.bytes=64KiB
# --run compiles with --tp/--pp (they were once parsed and dropped): a
# placement wider than the chips is the compiler's error, and tp 1 x pp 8
# (no split reduction) generates what one chip does.
expect_error "--run --tp/--pp past the chips" "^lpx decode: error: tiny-llama: --tp 8 --pp 2 needs 16 nodes; compiling for 8" -- \
  --model tiny-llama --run --prompt-ids 1,2 --tokens 2 --context 16 --chips 8 --tp 8 --pp 2
run_ids() { "$lpx" decode --model tiny-llama --run --prompt-ids 1,2,3 --tokens 6 --context 16 "$@" 2>&1 | tail -1; }
one=$(run_ids --chips 1)
staged=$(run_ids --chips 8 --tp 1 --pp 8)
check "--run --tp 1 --pp 8 generates what 1 chip does ($staged)" '[ -n "$one" ] && [ "$one" = "$staged" ]'
# No count holds one MLP block (49 KB per chip) in 8 KiB chips: the search
# ends at the topology's largest count (lpx3: 4,096), not past it.
expect_error "no count fits" "does not fit on 4096 chips: .*no count of stages" -- "${small[@]}" --set sram.bytes=8KiB
sed 's/^  weights: fp8e4m3 .*/  weights: fp7/' "$root/isa/chips/lpx3.yaml" >"$tmp/fp7chip.yaml"
expect_error "a chip's unknown format" "formats.weights 'fp7' is not a format" -- \
  --model tiny-llama --chip "$tmp/fp7chip.yaml" --prompt 4 --context 16

# sweep NAME CSV SVG-PATTERN PYTHON-CHECK -- lpx decode options: the sweep
# runs, the CSV passes the check (stdin) and the SVG has the pattern.
sweep() {
  local name="$1" csv="$2" svg="${2%.csv}.svg" pattern="$3" script="$4"; shift 5
  if "$lpx" decode "$@" -o "$csv" >/dev/null 2>"$tmp/stderr" &&
     $python -c "$script" "$csv"; then
    check "$name" 'grep -q "$pattern" "$svg"'
  else
    fail "$name" "$(head -1 "$tmp/stderr")"
  fi
}
# --context-sweep writes a CSV row per context and an SVG.
sweep "context sweep: CSV rising with context and an SVG" "$tmp/sweep.csv" "<svg" '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [int(r["context"]) for r in rows] == [32, 64, 128], rows
t = [float(r["tpot_compute_us"]) for r in rows]
assert t[0] < t[1] < t[2], t
' -- --model tiny-gpt2 --chip tsp-v1 --context-sweep 32,64,128 --weights fp32 --activations fp32
# --prompt-sweep: TTFT per prompt length at the longest prompt's context,
# each at or above its latency bound, rising with the prompt.
sweep "prompt sweep: CSV rising with the prompt, bounded below, and an SVG" "$tmp/prompts.csv" "latency bound" '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert list(rows[0]) == ["prompt", "chips", "chunk", "ttft_us", "ttft_compute_us",
                         "ttft_host_io_us", "latency_bound_us", "efficiency"], list(rows[0])
assert [int(r["prompt"]) for r in rows] == [8, 32, 128], rows
for r in rows:
    assert 0 < float(r["latency_bound_us"]) <= float(r["ttft_us"]), r
    assert abs(float(r["ttft_us"]) - float(r["ttft_compute_us"]) - float(r["ttft_host_io_us"])) < 1e-2, r
t = [float(r["ttft_compute_us"]) for r in rows]
assert t[0] < t[1] < t[2], t
' -- --model tiny-llama --chip lpx3 --prompt-sweep 8,32,128

# A stage holds a group from the token's arrival, not from cycle 0: 4
# shape-only Llama-2-7B layers as 2 stages of 8 lpx3 chips. The second
# stage prepares its rotary tables and mask from the positions at once,
# then waits for the residual stream; only the first stage's work and the
# hop precede its span, so no chip is occupied for most of the step and
# both stages take a group each.
"$lpx" models export llama2-7b --shape-only --layers 4 --context 256 \
  -o "$tmp/l7.onnx" >/dev/null
if decode staged7b --model "$tmp/l7.onnx" --chip lpx3 --chips 16 --tp 8 --pp 2 \
     --weights fp8e4m3 --activations fp16; then
  occ=$(field staged7b stage_occupied_us) step=$(field staged7b tpot_compute_us)
  n=$(field staged7b sequences_in_flight)
  check "a stage's occupancy starts with the token's path ($occ of $step us, $n in flight)" \
    'less "$occ" "$($python -c "print(0.6 * $step)")" && [ "$n" = 2 ]'
fi

# An ONNX decode step as it is: its own batch and context, no prefill.
"$lpx" models export tiny-gpt2 -o "$tmp/step.onnx" --context 48 --batch 2 >/dev/null
if decode file --model "$tmp/step.onnx" --chip tsp-v1; then
  check "an ONNX step keeps its shapes and has no TTFT" \
    '[ "$(field file context) $(field file batch) $(field file ttft_us)" = "48 2 None" ]'
fi

# The resident KV cache is split by KV head over the tensor-parallel group:
# every chip holds only its heads' slice. tiny-gpt2 at context 48, batch 2,
# fp16: 2 layers x (K, V) x 2 rows x 4 heads x 48 positions x 16 x 2 bytes
# = 49152 bytes in all. tp 4: every chip has one head of both layers,
# 49152 / 4 = 12288; tp 2 x pp 2: two heads of one layer, also 12288.
for mesh in "4 1" "2 2"; do
  set -- $mesh
  if decode "kv$1" --model "$tmp/step.onnx" --chip lpx3 --chips 4 --tp "$1" --pp "$2" --activations fp16; then
    kv=$($python -c "import json,sys; print(*[c['kv_cache'] for c in json.load(open(sys.argv[1]))['sram_bytes_by_chip']])" "$tmp/kv$1.json")
    check "KV cache per chip with tp $1 x pp $2 is its heads' share ($kv)" '[ "$kv" = "12288 12288 12288 12288" ]'
  fi
done

expect_error "unknown preset" "unknown model preset 'llama9-1t'" -- --model llama9-1t --context 64 --prompt 8
expect_error "zero prompt" "--prompt '0' is not a positive integer" -- --model tiny-llama --context 64 --prompt 0
expect_error "context below the prompt" "--context 8 is smaller than --prompt 16" -- --model tiny-llama --context 8 --prompt 16
expect_error "missing output folder" "folder '.*/missing' does not exist" -- --model tiny-llama --context-sweep 32,64 -o "$tmp/missing/bad.csv"
expect_error "two sweeps" "--prompt and --context-sweep go without it" -- --model tiny-llama --context-sweep 32,64 --prompt-sweep 8,16 -o "$tmp/two.csv"
expect_error "prompt with a prompt sweep" "--prompt-sweep gives the prompts" -- --model tiny-llama --prompt 8 --prompt-sweep 8,16 -o "$tmp/two.csv"
expect_error "prompt sweep past the context" "--context 16 is smaller than --prompt 32" -- --model tiny-llama --context 16 --prompt-sweep 8,32 -o "$tmp/two.csv"
expect_error "context past the model's" "--context 300 is not between 2 .* and 256" -- --model tiny-llama --context 300 --prompt 8
expect_error "missing model file" "cannot read model '.*nothing.onnx'" -- --model "$tmp/nothing.onnx"
expect_error "negative chips" "--chips -2 is not a positive integer" -- --model tiny-llama --context 64 --prompt 8 --chips=-2
expect_error "shapes for a file" "an ONNX file has its own shapes" -- --model "$tmp/step.onnx" --context 64
expect_error "unknown chip key" "link.speed" -- --model tiny-llama --context 64 --prompt 8 --set link.speed=3
finish
