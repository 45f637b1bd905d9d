#!/usr/bin/env bash
# `lpx serve` on tiny-llama (lpx3, context 64, max batch 8): the stable JSON
# keys; held-out points (contexts the table's grid did not
# simulate, a prompt length) within 5% of their own simulation
# (`lpx decode` compiles and simulates them; the table's interpolation is
# recomputed here from its simulated points); the table read back from the
# cache on a second run, rebuilt when the cache file is damaged; the same
# seed gives the same bytes; more load gives a higher P99 TTFT; bad input
# gets one line, exit 2 and no file. A few seconds.
source "$(dirname "$0")/common.sh" "$1"
python=/usr/bin/python3
cache="$tmp/cache"
core=(--chip lpx3 --context 64 --cache-dir "$cache")
base=(--model tiny-llama --max-batch 8 "${core[@]}")
load() { echo "poisson:rate=$1,prompt=8..32,output=8..16"; }

# A run's figures: its output from the counts on (the lines above say
# where the table came from and how long it took to build).
figures() { sed -n '/^requests /,$p' "$tmp/$1.out"; }

# The first run builds the table, the second reads it from the cache.
if serve first --workload "$(load 1000)" --requests 200 &&
   serve second --workload "$(load 1000)" --requests 200; then
  check "first run compiles the table" "grep -q 'compiled and simulated; built' '$tmp/first.out'"
  check "second run reads it from the cache" "grep -q 'read from cache' '$tmp/second.out'"
  check "the build says where its time went" "grep -q '^  built in .* s: plan .* points compiled' '$tmp/first.out'"
  check "cache reuse changes no figure" \
    "diff <(figures first) <(figures second) >/dev/null"
fi
entry=$(ls "$cache"/serve-*.json 2>/dev/null | head -1)
check "one cache entry, JSON" "[ -n '$entry' ] && $python -c 'import json,sys; json.load(open(sys.argv[1]))' '$entry'"

if serve keys --workload "$(load 1000)" --requests 200 --slo ttft_p95=1ms --json; then
  if $python - "$tmp/keys.out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
keys = ["requests", "completed", "rejected", "retries", "ttft_us", "tpot_us",
        "e2e_us", "queue_us", "session_e2e_us", "tokens_per_second", "slo",
        "goodput", "max_batch", "service_table", "wall_s"]
missing = [k for k in keys if k not in r]
assert not missing, missing
for k in ["ttft_us", "tpot_us", "e2e_us", "queue_us"]:
    s = r[k]
    assert s["p50"] <= s["p90"] <= s["p95"] <= s["p99"] <= s["max"], (k, s)
assert r["requests"] == 200 and r["completed"] + r["rejected"] == 200, r
assert r["max_batch"] == 8
t = r["service_table"]
assert t["source"] == "simulated"
# The grid: every batch 1..8 x contexts 8,16,32,64; prefills at 8..64.
assert sorted({(p["batch"], p["context"]) for p in t["decode"]}) == \
    [(b, c) for b in range(1, 9) for c in (8, 16, 32, 64)], t["decode"]
assert sorted(p["prompt"] for p in t["prefill"]) == [8, 16, 32, 64]
assert t["max_sequences"] >= 8 and t["stages"] == 1
assert "lpx " in t["cache_key"] and "tiny-llama" in t["cache_key"]
assert set(r["slo"]) >= {"holds", "terms"} and 0 <= r["goodput"] <= 1
PY
  then ok "stable JSON keys"; else fail "stable JSON keys"; fi
fi

# Held out: contexts 24 and 48 (not simulated by the grid) at batches 3 and
# 6, and the prefill of 24 tokens; each simulated by `lpx decode` on the
# same deployment and compared with the table's piecewise-linear
# interpolation. (Every batch up to 16 is simulated: ServiceTableBuild.h.)
for b in 3 6; do
  for c in 24 48; do
    "$lpx" decode --model tiny-llama --chip lpx3 --context $c --prompt 24 --batch $b --json \
      >"$tmp/held-$b-$c.json" 2>/dev/null || fail "decode held-out b$b c$c"
  done
done
if $python - "$tmp/keys.out" "$tmp" <<'PY'
import json, sys, bisect
t = json.load(open(sys.argv[1]))["service_table"]
grid = {(p["batch"], p["context"]): p["us"] for p in t["decode"]}
pre = {p["prompt"]: p["us"] for p in t["prefill"]}
def lin(xs, x, f):
    i = bisect.bisect_left(xs, x)
    if xs[i] == x: return f(xs[i])
    x0, x1 = xs[i - 1], xs[i]
    return f(x0) + (f(x1) - f(x0)) * (x - x0) / (x1 - x0)
bs = sorted({b for b, _ in grid}); cs = sorted({c for _, c in grid})
worst = 0
for b in (3, 6):
    for c in (24, 48):
        table = lin(bs, b, lambda bb: lin(cs, c, lambda cc: grid[(bb, cc)]))
        sim = json.load(open(f"{sys.argv[2]}/held-{b}-{c}.json"))
        err = abs(table - sim["tpot_compute_us"]) / sim["tpot_compute_us"]
        worst = max(worst, err)
        assert err < 0.05, (b, c, table, sim["tpot_compute_us"])
print(f"worst held-out decode error {100 * worst:.2f}%")
PY
then ok "held-out decode points within 5% of their simulation"; else fail "held-out decode points"; fi
# The prefill of 24 tokens into a 64-position cache, as the table's are.
"$lpx" decode --model tiny-llama --chip lpx3 --context 64 --prompt 24 --json \
  >"$tmp/held-prefill.json" 2>/dev/null || fail "decode held-out prefill"
if $python - "$tmp/keys.out" "$tmp/held-prefill.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["service_table"]
pre = {p["prompt"]: p["us"] for p in t["prefill"]}
table = pre[16] + (pre[32] - pre[16]) * (24 - 16) / (32 - 16)
sim = json.load(open(sys.argv[2]))["ttft_compute_us"]
assert abs(table - sim) / sim < 0.05, (table, sim)
PY
then ok "held-out prefill within 5% of its simulation"; else fail "held-out prefill"; fi

# A damaged entry is rebuilt, not trusted.
if [ -n "$entry" ]; then
  head -c 200 "$entry" >"$tmp/cut" && cp "$tmp/cut" "$entry"
  if serve damaged --workload "$(load 1000)" --requests 200; then
    check "damaged cache entry rebuilt" "grep -q 'cache entry rebuilt' '$tmp/damaged.out' && grep -q '; built' '$tmp/damaged.out'"
    check "rebuilt figures equal the first" \
      "diff <(figures damaged) <(figures first) >/dev/null"
    check "rebuilt entry reads back" "$python -c 'import json,sys; json.load(open(sys.argv[1]))' '$entry'"
  fi
fi

# Same seed, same bytes; the CSV too.
if serve seed1 --workload "$(load 5000)" --requests 300 --seed 7 --json -o "$tmp/a.csv" &&
   serve seed2 --workload "$(load 5000)" --requests 300 --seed 7 --json -o "$tmp/b.csv"; then
  check "same seed, byte-identical JSON" "cmp -s '$tmp/seed1.out' '$tmp/seed2.out'"
  check "same seed, byte-identical CSV" "cmp -s '$tmp/a.csv' '$tmp/b.csv' && [ \$(wc -l <'$tmp/a.csv') -eq 301 ]"
fi

# More load, a higher P99 TTFT (the chip's compute is the same).
if serve light --workload "$(load 1000)" --requests 300 --json &&
   serve heavy --workload "$(load 20000)" --requests 300 --json; then
  p99() { $python -c "import json,sys; print(json.load(open(sys.argv[1]))['ttft_us']['p99'])" "$tmp/$1.out"; }
  check "more load, higher P99 TTFT ($(p99 light) -> $(p99 heavy) us)" \
    "$python -c 'import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)' $(p99 light) $(p99 heavy)"
fi

# --keep-session-cache reaches the engine (its effect is serve_tests').
if serve keep --workload agent:rate=200,calls=2..3,tool=1ms,prompt=8,result=4,output=4 \
     --requests 50 --keep-session-cache --json; then
  check "--keep-session-cache in the report" \
    "$python -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if r[\"keep_session_cache\"] and r[\"sessions\"] > 0 else 1)' '$tmp/keep.out'"
fi

# --load-sweep: the curve in text, JSON, CSV and SVG, the same figures as
# single runs at those loads; the highest load within the SLO.
if serve sweep --workload "$(load 1000)" --requests 300 --slo ttft_p95=150us \
     --load-sweep 1000,8000 --curve-csv "$tmp/curve.csv" --curve-svg "$tmp/curve.svg" &&
   serve sweepjson --workload "$(load 1000)" --requests 300 --slo ttft_p95=150us \
     --load-sweep 1000,8000 --json &&
   serve at8000 --workload "$(load 8000)" --requests 300 --slo ttft_p95=150us --json; then
  check "the sweep's text names the highest load within the SLO" \
    "grep -q 'highest load within the SLO: 1000$' '$tmp/sweep.out'"
  check "curve CSV: a header and a row per load" "[ \$(wc -l <'$tmp/curve.csv') -eq 3 ]"
  check "curve SVG: three plots" "[ \$(grep -c '<svg' '$tmp/curve.svg') -eq 4 ]"
  if $python - "$tmp/sweepjson.out" "$tmp/at8000.out" "$tmp/curve.csv" <<'PY'
import csv, json, sys
r = json.load(open(sys.argv[1]))
one = json.load(open(sys.argv[2]))
s = r["load_sweep"]
assert [p["load"] for p in s["loads"]] == [1000, 8000], s
assert s["highest_load_within_slo"] == 1000 and s["load_of"] == "rate", s
p = s["loads"][1]
assert p["ttft_us"]["p99"] == one["ttft_us"]["p99"], (p, one["ttft_us"])
assert p["tokens_per_second"] == one["tokens_per_second"]
assert p["slo_holds"] is False and s["loads"][0]["slo_holds"] is True
rows = list(csv.DictReader(open(sys.argv[3])))
assert abs(float(rows[1]["ttft_p99_us"]) - one["ttft_us"]["p99"]) < 1e-3, rows
PY
  then ok "sweep JSON and CSV agree with a single run at that load"; else fail "sweep JSON"; fi
fi

# --trace: Perfetto JSON, a track per pipeline group and batch slot, a slice
# per request phase; slots never hold two requests at once.
if serve traced --workload "$(load 20000)" --requests 200 --trace "$tmp/serve.json"; then
  if $python - "$tmp/serve.json" <<'PY'
import json, sys, collections
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
names = [e["args"]["name"] for e in ev if e["ph"] == "M"]
assert "pipeline group 0" in names and "batch slot 0" in names, names
assert sum(1 for n in names if n.startswith("batch slot")) <= 8
phases = collections.Counter(e["name"] for e in ev if e["ph"] == "b")
assert phases["prefill"] == phases["decode"] == phases["queue"] == 200, phases
track = collections.defaultdict(list)
for e in ev:
    if e["ph"] == "X" and e["tid"] > 0:
        track[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"]))
for k, v in track.items():
    v.sort()
    assert all(a[1] <= b[0] + 1e-6 for a, b in zip(v, v[1:])), k
assert t["otherData"]["requests_kept"] == 200
PY
  then ok "trace: tracks per group and slot, phases per request"; else fail "trace"; fi
fi

# Bad input: one line on stderr, exit 2, no CSV.
bad() {
  local what="$1"; shift
  "$lpx" serve "${core[@]}" "$@" -o "$tmp/bad.csv" >/dev/null 2>"$tmp/bad.err"
  local rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && [ ! -e "$tmp/bad.csv" ]; then
    ok "bad input: $what"
  else
    fail "bad input: $what (exit $rc)" "$(head -2 "$tmp/bad.err")"
  fi
}
bad "no workload" --model tiny-llama
bad "rate 0" --model tiny-llama --workload poisson:rate=0,prompt=8,output=8
bad "unknown workload key" --model tiny-llama --workload poisson:rate=1,prompt=8,output=8,colour=red
bad "max batch 0" --model tiny-llama --workload "$(load 1)" --max-batch 0
bad "unknown policy" --model tiny-llama --workload "$(load 1)" --policy fastest
bad "SLO naming no metric" --model tiny-llama --workload "$(load 1)" --slo p99=1s
bad "both duration and requests" --model tiny-llama --workload "$(load 1)" --duration 1s --requests 10
bad "unknown preset" --workload "$(load 1)" --model tiny-lama
bad "an ONNX file that is not there" --workload "$(load 1)" --model "$tmp/none.onnx"
bad "a decode-step ONNX file" --workload "$(load 1)" --model "$root/models/llama_step/model.onnx"
check "the ONNX refusal names what is missing" "grep -q 'no prefill' '$tmp/bad.err'"
bad "a curve without a sweep" --model tiny-llama --workload "$(load 1)" --curve-csv "$tmp/c.csv"
bad "a sweep of a trace" --model tiny-llama --workload "trace:$tmp/none.csv" --load-sweep 1,2
bad "batch beyond the preset" --model tiny-llama --workload "$(load 1)" --max-batch 100000000
"$lpx" serve "${base[@]}" --workload "$(load 1)" -o "$tmp/no/such/dir.csv" >/dev/null 2>"$tmp/bad.err"
check "output folder missing: exit 2" "[ $? -eq 2 ]"

finish
