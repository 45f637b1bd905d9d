#!/usr/bin/env bash
# `lpx decode --report`: the page of one deployment of tiny-llama on 8 lpx3
# chips (128 KiB of SRAM each: tp 2 x pp 4, a prompt of 64 in 2 chunks of
# 32) loads in headless chromium with no console message and no network
# request, its script runs, and it shows what `lpx decode --json` prints
# for the same deployment: TTFT, TPOT, tokens/s and chips (compared as
# numbers with the JSON's), one SRAM strip entry per chip holding the JSON's
# weights and KV cache bytes, one row per pipeline stage in the prefill's
# and the step's timelines with a bar per chunk, and the placements tried
# with the chosen one marked. --report with a context sweep or --run, or to a
# folder that does not exist, is one error line and no file. Exit 77
# (skipped) when chromium is not installed. A few seconds.
source "$(dirname "$0")/common.sh" "$1"
source "$(dirname "$0")/browser.sh"
run=(--model tiny-llama --chip lpx3 --set sram.bytes=128KiB --context 64
     --prompt 64 --prefill-chunk 32)
report_and_json decode decode "${run[@]}"
dom="$tmp/decode.html.dom"
expect_ids "$dom" figures path path-prefill path-step path-step-chips sram sram-strip \
  bounds bound-table stage-terms placements placement-table
if python3 - "$dom" "$tmp/decode.json" <<'PY'
import html.parser, json, sys
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.ids = {}; s.svg = None; s.stages = {}
        s.chunks = {}; s.sram = []; s.table = None; s.rows = []
    def handle_starttag(s, tag, attrs):
        a = dict(attrs); c = a.get("class", "").split()
        if "id" in a: s.ids[a["id"]] = a
        if tag == "svg" and a.get("id"): s.svg = a["id"]
        if "stage-row" in c: s.stages.setdefault(s.svg, []).append(int(a["data-stage"]))
        if "chunk" in c: s.chunks.setdefault(s.svg, set()).add(c[1])
        if "sram-chip" in c: s.sram.append((int(a["data-chip"]), a["data-bytes"]))
        if tag == "table": s.table = a.get("id")
        if tag == "tr" and s.table == "placement-table": s.rows.append(a.get("class"))
    def handle_endtag(s, tag):
        if tag == "svg": s.svg = None
        if tag == "table": s.table = None
p = P(); p.feed(open(sys.argv[1]).read())
j = json.load(open(sys.argv[2]))
def value(id): return float(p.ids[id]["data-value"])
def close(a, b): return abs(a - b) <= 1e-9 * max(abs(b), 1)
for id, key in [("fig-ttft", "ttft_us"), ("fig-tpot", "tpot_us"),
                ("fig-tps-user", "tokens_per_second_per_user"),
                ("fig-tps", "tokens_per_second"), ("fig-chips", "chips")]:
    assert close(value(id), j[key]), (id, value(id), j[key])
chips = j["chips"]
assert chips == 8 and len(j["sram_bytes_by_chip"]) == chips, j["chips"]
# One strip entry per chip, in order, with the JSON's resident bytes (the
# weights and the KV cache; activations are what is left of the top).
assert [c for c, _ in p.sram] == list(range(chips)), p.sram
for (c, b), s in zip(p.sram, j["sram_bytes_by_chip"]):
    w, kv, act = map(int, b.split())
    assert (w, kv) == (s["weights"], s["kv_cache"]), (c, b, s)
    assert w + kv + act <= s["capacity"], (c, b, s)
# One row per stage: the placement's pp, as the latency bound counts them.
for svg, phase in [("path-prefill", "ttft"), ("path-step", "tpot")]:
    want = len(j["latency_bound"][phase]["stages"])
    assert want == j["pp"] == 4, (want, j["pp"])
    assert p.stages[svg] == list(range(want)), (svg, p.stages[svg])
# The prefill's 2 chunks (prompt 64 / chunk 32) each have their bars.
assert j["prompt"] // j["prefill_chunk"] == 2
assert p.chunks["path-prefill"] == {"c0", "c1"}, p.chunks
assert p.chunks["path-step"] == {"c0"}, p.chunks
# A header, then one row per placement tried; the chosen one is the JSON's.
tried = j["placements_tried"]
assert len(p.rows) == 1 + len(tried), (p.rows, tried)
chosen = [t for t, r in zip(tried, p.rows[1:]) if r == "chosen"]
assert chosen == [t for t in tried if (t["tp"], t["pp"]) == (j["tp"], j["pp"])
                  and "step_us" in t] and len(chosen) == 1, (chosen, tried)
PY
then ok "figures, SRAM strip, stage rows, chunks and placements match the JSON"
else fail "figures against the JSON"; fi

# Refused: with a sweep or --run, or into a folder that does not exist.
for extra in "--context-sweep 32,64 -o $tmp/s.csv" \
             "--run" ; do
  "$lpx" decode "${run[@]}" $extra --report "$tmp/refused.html" >"$tmp/err.out" 2>&1
  rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err.out")" -eq 1 ] && grep -q -- "--report" "$tmp/err.out" &&
     [ ! -e "$tmp/refused.html" ]; then
    ok "--report with $extra is one error line"
  else
    fail "--report with $extra" "exit $rc: $(cat "$tmp/err.out")"
  fi
done
"$lpx" decode "${run[@]}" --report "$tmp/no/such/dir/d.html" >"$tmp/err.out" 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err.out")" -eq 1 ] && ok "an unwritable --report path is one error line" ||
  fail "unwritable path" "exit $rc: $(cat "$tmp/err.out")"
# A deployment that does not fit writes no page.
"$lpx" decode --model tiny-llama --chip lpx3 --set sram.bytes=64KiB --report "$tmp/none.html" \
  >"$tmp/err.out" 2>&1
rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/none.html" ] && ok "a plan that fails writes no page" ||
  fail "failed plan" "exit $rc, file: $(ls "$tmp/none.html" 2>&1)"
finish
