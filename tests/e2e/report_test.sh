#!/usr/bin/env bash
# `lpx simulate --report`: the HTML page loads in a real headless browser
# (Debian's chromium) with no console message and no network request, its
# script runs, and it shows the expected elements: a timeline and an SRAM
# map per chip, the utilisation table with every queue of the simulation,
# the bounds, and one table row per instruction. Exit 77 (skipped) when
# chromium is not installed. About 5 s.
set -uo pipefail
lpx="$1"
source "$(dirname "$0")/testlib.sh"
source "$(dirname "$0")/browser.sh"

"$lpx" compile "$root/models/llama_step/model.onnx" --nodes 2 -o "$tmp/l2.lpxb" >/dev/null
"$lpx" simulate --json "$tmp/l2.lpxb" >"$tmp/sim.json"
"$lpx" simulate "$tmp/l2.lpxb" --report "$tmp/l2.html" >/dev/null
load "$tmp/l2.html"
dom="$tmp/l2.html.dom"

clean_page "$tmp/l2.html"
grep -q "data-ready=\"1\"" "$dom" && ok "its script ran" || fail "script" "data-ready is not 1"
for id in summary bounds timeline utilisation sram hazards instructions \
          timeline-chip0 timeline-chip1 sram-chip0 sram-chip1 instruction-table pager-status; do
  grep -q "id=\"$id\"" "$dom" || missing="${missing:-} #$id"
done
[ -z "${missing:-}" ] && ok "every expected element is there" || fail "elements" "missing:$missing"

instrs=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["instructions"])' "$tmp/sim.json")
rows=$(python3 - "$dom" <<'PY'
import sys, html.parser
class P(html.parser.HTMLParser):
    table = body = False; rows = 0
    def handle_starttag(self, tag, attrs):
        if tag == "table" and ("id", "instruction-table") in attrs: self.table = True
        if self.table and tag == "tbody": self.body = True
        if self.body and tag == "tr": self.rows += 1
    def handle_endtag(self, tag):
        if tag == "tbody": self.body = False; self.table = False
p = P(); p.feed(open(sys.argv[1]).read()); print(p.rows)
PY
)
[ "$rows" = "$instrs" ] && ok "$rows instruction rows for $instrs instructions" ||
  fail "instruction table" "$rows rows for $instrs instructions"
pages=$(( (instrs + 99) / 100 )) # 100 rows a page
grep -q "page 1 of $pages" "$dom" && ok "the pager shows page 1 of $pages" ||
  fail "pager" "no 'page 1 of $pages'"
queues=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["queues"]))' "$tmp/sim.json")
urows=$(sed -n '/id="utilisation"/,/<\/section>/p' "$dom" | grep -c '<tr><td>')
[ "$urows" = "$queues" ] && ok "$urows utilisation rows, one per simulated queue" ||
  fail "utilisation" "$urows rows for $queues queues"
bound=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["lower_bound"], d["bottleneck"])' "$tmp/sim.json")
grep -q "<b>${bound%% *}</b> cycles" "$dom" && grep -qF "${bound#* }" "$dom" &&
  ok "the bounds section names the lower bound and bottleneck ($bound)" ||
  fail "bounds" "'$bound' not in the page"

# A schedule with a hazard: the page lists it and marks its instruction.
# (Instruction 3, a reduce_mean of the first norm, reads a result that is
# not ready a cycle early.)
"$lpx" perturb "$tmp/l2.lpxb" --early 3 -o "$tmp/early.lpxb" >/dev/null
"$lpx" simulate "$tmp/early.lpxb" --report "$tmp/early.html" >/dev/null
rc=$?
load "$tmp/early.html"
marked=$(grep -c "<tr class=\"hazard\">" "$tmp/early.html.dom")
if [ $rc -eq 1 ] && [ ! -s "$tmp/early.html.console" ] && [ "$marked" -ge 2 ] &&
   grep -q "operand-not-ready" "$tmp/early.html.dom"; then
  ok "a hazard is listed and its instruction marked ($marked rows)"
else
  fail "hazard report" "exit $rc, $marked marked rows, console: $(head -2 "$tmp/early.html.console")"
fi

finish
