#!/usr/bin/env bash
# `lpx serve --report`: the HTML page of a swept run on tiny-llama (lpx3)
# loads in headless chromium with no console message and no network
# request, its script runs, and it shows what the issue asks: the summary
# naming the interpolation, the CDFs of TTFT, TPOT and E2E, the load curve
# with a row per load, the batch size and queue length over time, and a row
# per simulated point of the service table (as many as the JSON's). Exit 77
# (skipped) when chromium is not installed. A few seconds.
source "$(dirname "$0")/common.sh" "$1"
source "$(dirname "$0")/browser.sh"
run=(--model tiny-llama --chip lpx3 --context 64 --cache-dir "$tmp/cache"
     --workload poisson:rate=1000,prompt=8..32,output=8..16 --requests 300
     --slo ttft_p95=150us --load-sweep 1000,4000,8000)
report_and_json serve serve "${run[@]}"
dom="$tmp/serve.html.dom"
expect_ids "$dom" summary interpolation latency-table cdf cdf-ttft cdf-tpot cdf-e2e \
  load-curve curve-table over-time service-table decode-points prefill-points
interp=$(sed -n 's/^  interpolation: //p' "$tmp/text.out")
grep -qF "$interp" "$dom" && ok "the page states the interpolation ($interp)" ||
  fail "interpolation" "'$interp' not on the page"
if python3 - "$dom" "$tmp/serve.json" <<'PY'
import html.parser, json, sys
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.table = None; s.rows = {}; s.svgs = 0
    def handle_starttag(s, tag, attrs):
        a = dict(attrs)
        if tag == "table": s.table = a.get("id")
        if tag == "tr" and s.table: s.rows[s.table] = s.rows.get(s.table, 0) + 1
        if tag == "svg": s.svgs += 1
    def handle_endtag(s, tag):
        if tag == "table": s.table = None
p = P(); p.feed(open(sys.argv[1]).read())
r = json.load(open(sys.argv[2]))
t = r["service_table"]
# A header row, then one per point, per load.
assert p.rows["decode-points"] == 1 + len(t["decode"]), p.rows
assert p.rows["prefill-points"] == 1 + len(t["prefill"]), p.rows
assert p.rows["curve-table"] == 1 + len(r["load_sweep"]["loads"]) == 4, p.rows
# 3 CDFs, 3 curve plots, 2 over time.
assert p.svgs == 8, p.svgs
PY
then ok "a row per simulated point and per load, eight plots"; else fail "tables and plots"; fi
finish
