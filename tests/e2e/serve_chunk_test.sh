#!/usr/bin/env bash
# `lpx serve --prefill-chunk` on tiny-llama (lpx3, context 256, chunks of
# 64, max batch 2): the table's prefill is chunk points (one chunk of 64
# tokens ending at 64, 128 and 256, each compiled and simulated) beside
# whole prompts of one chunk; a held-out chunk point within 5% of the
# interpolation from its neighbours; one request's TTFT is its chunks'
# times read from the table (interpolated at each chunk's end, as
# docs/serving.md says) pipelined through the table's stages (one after
# another on one stage; on 16 chips, tp 1 pp 5, each chunk entering a
# stage when the one before has left it, derived here from the table's
# shares) plus the prefill's host I/O, under both policies, and on five
# stages between `lpx decode`'s chunked program and the chunks one after
# another;
# the chunk is part of the cache key; chips past the step's mesh are in no
# pipeline stage; bad chunks get one line and exit 2.
# A few seconds.
source "$(dirname "$0")/common.sh" "$1"
python=/usr/bin/python3
cache="$tmp/cache"
base=(--model tiny-llama --chip lpx3 --context 256 --max-batch 2 --cache-dir "$cache")
one=(--workload "poisson:rate=1,prompt=200,output=2" --requests 1 --json)

if serve chunked "${one[@]}" --prefill-chunk 64 -o "$tmp/chunked.csv" &&
   serve first "${one[@]}" --prefill-chunk 64 --policy prefill-first &&
   serve text --workload "poisson:rate=1,prompt=200,output=2" --requests 1 --prefill-chunk 64; then
  check "the text names the chunk" "grep -q 'prefill in chunks of 64 tokens' '$tmp/text.out'"
  if serve staged "${one[@]}" --prefill-chunk 64 --chips 16 &&
     serve stagedfirst "${one[@]}" --prefill-chunk 64 --chips 16 --policy prefill-first &&
     "$lpx" decode --model tiny-llama --chip lpx3 --chips 16 --context 256 --prompt 200 \
       --prefill-chunk 64 --batch 1 --json >"$tmp/decode.out" &&
     $python - "$tmp/chunked.out" "$tmp/first.out" "$tmp/chunked.csv" "$tmp/staged.out" \
       "$tmp/stagedfirst.out" "$tmp/decode.out" <<'PY'
import csv, json, sys
r = json.load(open(sys.argv[1]))
t = r["service_table"]
assert t["prefill_chunk"] == 64, t["prefill_chunk"]
assert "prefill chunk 64" in t["cache_key"], t["cache_key"]
whole = sorted(p["prompt"] for p in t["prefill"] if p["chunk"] == 0)
chunk = {p["prompt"]: p["us"] for p in t["prefill"] if p["chunk"] == 64}
assert whole == [32, 64], whole          # the grid's prompts of one chunk
assert sorted(chunk) == [64, 128, 256], chunk
assert all(p["batch"] == 1 for p in t["prefill"])
# Attention over more positions: a later chunk takes longer.
assert chunk[64] < chunk[128] < chunk[256], chunk
# Held out: the chunk ending at 128 from those at 64 and 256.
line = chunk[64] + (chunk[256] - chunk[64]) * (128 - 64) / (256 - 64)
assert abs(line - chunk[128]) / chunk[128] <= 0.05, (line, chunk[128])

def at(end):  # the table's piecewise-linear interpolation
    ends = sorted(chunk)
    end = max(end, ends[0])
    for lo, hi in zip(ends, ends[1:]):
        if end <= hi:
            return chunk[lo] + (chunk[hi] - chunk[lo]) * (end - lo) / (hi - lo)
# A prompt of 200: chunks ending at 64, 128, 192 and 200 (8 tokens, timed
# as a chunk ending there), then the host I/O of the prefill.
ends = (64, 128, 192, 200)
def pipelined(table, times):
    # The engine's arithmetic (integer ns, the prefill's own stage shares in
    # 32-bit fixed point): chunk k leaves stage s at max(it left s-1, chunk
    # k-1 left s) + its part.
    cum, acc = [], 0.0
    for share in table["prefill_stage_share"]:
        acc += share
        cum.append(round(min(acc, 1.0) * 2**32))
    free = [0] * len(cum)
    for us in times:
        ns, before, out = round(us * 1000), 0, 0
        for s in range(len(cum)):
            upto = ns if s == len(cum) - 1 else (ns * cum[s]) >> 32
            out = max(out, free[s]) + upto - before
            free[s], before = out, upto
    return out / 1000 + table["prefill_host_io_us"]
assert t["stages"] == 1, t["stages"]
expect = pipelined(t, [at(e) for e in ends])
assert abs(expect - (sum(at(e) for e in ends) + t["prefill_host_io_us"])) <= 2e-3
for name, run in (("chunked", r), ("prefill-first", json.load(open(sys.argv[2])))):
    got = run["ttft_us"]["p50"]
    assert abs(got - expect) <= 2e-3, (name, got, expect)
row = next(csv.DictReader(open(sys.argv[3])))
assert row["prompt_tokens"] == "200" and row["network_us"] == "0.000", row
# Five stages: the chunks overlap, so the first token comes sooner than
# their sum; no sooner than the chunked program lpx decode compiles and
# simulates for the same prompt on the same chips and placement.
staged = json.load(open(sys.argv[4]))
s5 = staged["service_table"]
assert s5["stages"] == 5, s5["stages"]
# The chunk's own shares: its program leaves the fifth chip idle (the
# step's does not), so that stage's share of a chunk is 0.
assert s5["prefill_stage_share"] != s5["stage_share"], s5
assert s5["prefill_stage_share"][4] == 0 and s5["stage_share"][4] > 0, s5
chunk = {p["prompt"]: p["us"] for p in s5["prefill"] if p["chunk"] == 64}
times = [at(e) for e in ends]
expect = pipelined(s5, times)
for name, run in (("chunked", staged), ("prefill-first", json.load(open(sys.argv[5])))):
    got = run["ttft_us"]["p50"]
    assert abs(got - expect) <= 2e-3, (name, got, expect)
serial = sum(times) + s5["prefill_host_io_us"]
decode = json.load(open(sys.argv[6]))
assert (decode["pp"], decode["tp"], decode["prefill_chunk"]) == (5, 1, 64), decode
assert decode["ttft_us"] <= expect < serial, (decode["ttft_us"], expect, serial)
PY
  then ok "chunk points, a held-out chunk and TTFT as the chunks pipelined through the stages"
  else fail "chunk points, a held-out chunk and TTFT as the chunks pipelined through the stages"; fi
fi

# Without --prefill-chunk the chooser keeps a prompt of 256 whole (chunks of
# at least 256): another key, another entry (the third: the chunked table
# on 1 and on 16 chips before it), no chunk points.
if serve whole "${one[@]}"; then
  check "a whole-prompt table beside the chunked one" \
    "[ \$(ls '$cache' | wc -l) -eq 3 ] && $python -c 'import json,sys; t=json.load(open(sys.argv[1]))[\"service_table\"]; assert t[\"prefill_chunk\"] == 0 and all(p[\"chunk\"] == 0 for p in t[\"prefill\"]) and \"prefill chunk\" not in t[\"cache_key\"]' '$tmp/whole.out'"
fi
if serve again "${one[@]}" --prefill-chunk 64; then
  check "the chunked table read back from the cache" \
    "$python -c 'import json,sys; a,b=(json.load(open(f))[\"service_table\"] for f in sys.argv[1:]); assert a==b' '$tmp/chunked.out' '$tmp/again.out'"
fi

# More chips than the step's mesh uses (as when a chunked prefill needs more
# chips than the step): tiny-llama on 16 lpx3 chips is placed tp 1 pp 5, as
# on 8; the chips past the mesh are in no stage, so the stages and their
# shares are the 8-chip table's.
base=(--model tiny-llama --chip lpx3 --context 64 --max-batch 4 --cache-dir "$cache")
mesh=(--workload "poisson:rate=1000,prompt=8..64,output=8" --requests 20 --json)
if serve on8 "${mesh[@]}" --chips 8 && serve on16 "${mesh[@]}" --chips 16; then
  check "chips past the mesh are in no stage" \
    "$python -c 'import json,sys; a,b=(json.load(open(f))[\"service_table\"] for f in sys.argv[1:]); assert a[\"stages\"] == b[\"stages\"] == 5 and a[\"stage_share\"] == b[\"stage_share\"], (a[\"stage_share\"], b[\"stage_share\"]); assert \"16 chip(s), tp 1 pp 5\" in b[\"deployment\"], b[\"deployment\"]' '$tmp/on8.out' '$tmp/on16.out'"
fi

base=(--model tiny-llama --chip lpx3 --context 256 --max-batch 2 --cache-dir "$cache")
bad() {
  local what="$1"; shift
  "$lpx" serve "${base[@]}" "${one[@]}" "$@" >/dev/null 2>"$tmp/bad.err"
  local rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ]; then
    ok "bad: $what"
  else
    fail "bad: $what (exit $rc)" "$(head -2 "$tmp/bad.err")"
  fi
}
bad "a chunk of 0" --prefill-chunk 0
bad "a chunk that is not a number" --prefill-chunk many
bad "chunks past the context" --prefill-chunk 100
finish
