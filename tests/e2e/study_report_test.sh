#!/usr/bin/env bash
# The pages of the studies: `lpx decode --sweep ... --report` (a 2 x 2 study
# of tiny-llama on lpx3 whose 1-chip points do not fit) and `lpx decode
# --sensitivity --report` load in headless chromium with no console message
# and no network request and their scripts run; the study's page marks in
# its table and its frontier chart exactly the points the CSV's `pareto`
# column marks, lists the points that failed with their CSV messages, and
# the sensitivity's page draws one tornado bar per CSV row. Exit 77
# (skipped) when chromium is not installed. A few seconds.
source "$(dirname "$0")/common.sh" "$1"
source "$(dirname "$0")/browser.sh"
base=(--model tiny-llama --chip lpx3 --set sram.bytes=128KiB --context 64 --prompt 16)
"$lpx" decode "${base[@]}" --sweep chips=1,8 --sweep link.latency=100,2800 \
  -o "$tmp/study.csv" --report "$tmp/study.html" >"$tmp/text.out" || die "lpx decode --sweep --report"
load "$tmp/study.html"
clean_page "$tmp/study.html"
grep -q 'data-ready="1"' "$tmp/study.html.dom" && ok "the study page's script ran" ||
  fail "script" "data-ready is not 1"
expect_ids "$tmp/study.html.dom" question axes base-line chart metric-plot frontier \
  frontier-plot frontier-points table study-table failures failed-points
if python3 - "$tmp/study.html.dom" "$tmp/study.csv" <<'PY'
import csv, html.parser, sys
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.rows = []; s.div = None; s.title = None
        s.marks = []; s.failed = []; s.li = None
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == "tr" and "data-point" in a: s.rows.append((a["data-point"], a.get("class")))
        if tag == "div" and a.get("class") == "plot": s.div = a.get("id")
        if tag == "title" and s.div == "frontier-plot": s.title = ""
        if tag == "li" and a.get("class") == "failed-point": s.li = ""
    def handle_data(s, d):
        if s.title is not None: s.title += d
        if s.li is not None: s.li += d
    def handle_endtag(s, tag):
        if tag == "div": s.div = None
        if tag == "title" and s.title is not None:
            series, point, _ = s.title.split(": "); s.title = None
            if series == "frontier": s.marks.append(point)
        if tag == "li" and s.li is not None: s.failed.append(s.li); s.li = None
p = P(); p.feed(open(sys.argv[1]).read())
rows = list(csv.DictReader(open(sys.argv[2])))
name = lambda x: "chips=%s, link.latency=%s" % (x["chips_swept"], x["link.latency"])
want = [(name(x), "frontier" if x["pareto"] else ("failed" if x["status"] != "ok" else None))
        for x in rows]
assert p.rows == want, (p.rows, want)
# The swept chips and the planned chips are two columns of two names.
assert all(x["chips"] in ("", x["chips_swept"]) for x in rows), rows
front = [name(x) for x in rows if x["pareto"]]
assert front and sorted(p.marks) == sorted(front), (p.marks, front)
bad = [x for x in rows if x["status"] != "ok"]
assert len(bad) == 2 and len(p.failed) == 2, (bad, p.failed)
for x, li in zip(bad, p.failed):
    assert li.startswith(name(x) + " (" + x["status"] + "): ") and x["message"] in li, (li, x)
PY
then ok "the page's rows, frontier marks and failures are the CSV's"
else fail "study page against its CSV"; fi

"$lpx" decode "${base[@]}" --sensitivity -o "$tmp/sens.csv" --report "$tmp/sens.html" \
  >"$tmp/text.out" || die "lpx decode --sensitivity --report"
load "$tmp/sens.html"
clean_page "$tmp/sens.html"
grep -q 'data-ready="1"' "$tmp/sens.html.dom" && ok "the sensitivity page's script ran" ||
  fail "script" "data-ready is not 1"
expect_ids "$tmp/sens.html.dom" question base band tornado rows sensitivity-table
rows=$(($(wc -l <"$tmp/sens.csv") - 1))
trs=$(grep -o '<tr>' "$tmp/sens.html" | wc -l)
[ "$trs" -eq $((rows + 1)) ] && ok "one table row per CSV row ($rows)" ||
  fail "table rows" "$trs rows for $rows CSV rows"
missing=""
svg=$(sed -n '/<section id=.tornado.>/,/<\/section>/p' "$tmp/sens.html")
for key in $(tail -n +2 "$tmp/sens.csv" | cut -d, -f1); do
  grep -qF ">$key</text>" <<<"$svg" || missing="$missing $key"
done
[ -z "$missing" ] && ok "the tornado has a bar for every CSV row" || fail "tornado" "missing:$missing"
grep -qF "$(tail -1 "$tmp/text.out" | sed 's/ -> .*//')" "$tmp/sens.html" &&
  ok "the page states the printed band" || fail "band" "not on the page"
finish
