#!/usr/bin/env python3
"""Studies of whole deployments end to end, on tiny-llama on lpx3 (seconds).

decode: `lpx decode --sweep` end to end, on tiny-llama on lpx3 (seconds).

Checks, with oracles the study does not compute itself:
  - every row equals `lpx decode --json` of the same deployment (chips,
    placement, TTFT, TPOT, tokens/s), run one at a time;
  - directions a correct model must show: more SRAM per chip never needs
    more chips; a longer link latency never lowers TPOT;
  - the frontier column marks exactly the rows no other row beats on chips
    and tokens/s per user;
  - the page (--report) asks the question (the keys, their values, the
    shared options), shows every CSV row with the CSV's frontier points
    marked in its table and in its frontier chart;
  - four shards merged by `lpx sweep merge` are byte-identical to the whole
    study, CSV, SVG and page;
  - bad studies are one-line errors with exit 2 and no output file.

serve: `lpx serve --sweep` end to end, on tiny-llama on lpx3 (seconds).

  - every row equals `lpx serve --json` of the same deployment and workload
    (deployment, P50/P99 TTFT and TPOT, tokens/s, goodput), run alone;
  - with --load-sweep, the row's highest load within the SLO is the one
    `lpx serve --load-sweep --json` reports alone;
  - two shards merged by `lpx sweep merge` are byte-identical to the whole;
  - the page (--report) shows every row and the chart, and the merged
    parts' page is byte-identical to the whole's;
  - the options of one run (--trace, the curve files) are refused with
    --sweep, and a swept key also given by its option (--max-batch,
    --chips), in one line, exit 2.

sensitivity: `lpx decode --sensitivity` (decode_sensitivity below; the ends of
  the clock and the host latency, re-simulated from the base's programs,
  against `lpx decode` alone too).

Usage: study_test.py LPX decode|serve|sensitivity
"""
import csv
import html.parser
import json
import os
import subprocess
import sys
import tempfile


class Checks:
    def __init__(self, lpx):
        self.lpx = lpx
        self.failures = []

    def check(self, what, cond, detail=""):
        print(("ok   " if cond else "FAIL ") + what +
              ("" if cond else ": " + detail))
        if not cond:
            self.failures.append(what)

    def run(self, args):
        return subprocess.run([self.lpx] + args, capture_output=True, text=True)

    def refused(self, args, words, path):
        """lpx ARGS fails in one line holding WORDS, exit 2, PATH unwritten."""
        r = self.run(args)
        lines = r.stderr.strip().splitlines()
        self.check("refused: " + words,
                   r.returncode == 2 and len(lines) == 1 and words in lines[0]
                   and not os.path.exists(path), r.stderr.strip())

    def same_files(self, pairs):
        """Each (whole, merged) pair byte for byte."""
        for a, b in pairs:
            same = (os.path.exists(b) and
                    open(a, "rb").read() == open(b, "rb").read())
            self.check("merged %s is byte-identical" % os.path.basename(b), same)

    def finish(self):
        print("%d failed" % len(self.failures))
        sys.exit(1 if self.failures else 0)


class StudyPage(html.parser.HTMLParser):
    """What a study's page shows: the axes table's rows, the shared
    options, the table's rows (data-point, class), the frontier chart's
    markers by series (their tooltips name the point) and the ids of the
    charts."""
    def __init__(self):
        super().__init__()
        self.axes, self.rows, self.svgs, self.marks = [], [], [], {}
        self.base, self.table, self.cell, self.div = "", None, None, None
        self.title = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.table = a.get("id")
        if tag == "tr" and self.table == "axes":
            self.axes.append([])
        if tag == "td" and self.table == "axes":
            self.cell = ""
        if tag == "tr" and self.table == "study-table" and "data-point" in a:
            self.rows.append((a["data-point"], a.get("class")))
        if tag == "code" and a.get("id") == "base-line":
            self.base = None
        if tag == "div" and a.get("class") == "plot":
            self.div = a.get("id")
            self.svgs.append(self.div)
        if tag == "title" and self.div == "frontier-plot":
            self.title = ""

    def handle_data(self, data):
        if self.base is None:
            self.base = data
        elif self.cell is not None:
            self.cell += data
        if self.title is not None:
            self.title += data

    def handle_endtag(self, tag):
        if tag == "td" and self.table == "axes":
            self.axes[-1].append(self.cell)
            self.cell = None
        if tag == "table":
            self.table = None
        if tag == "div":
            self.div = None
        if tag == "title" and self.title is not None:
            # "frontier: sram.bytes=1MiB, link.latency=100: 43.45k"
            series, point, _ = self.title.split(": ")
            self.marks.setdefault(series, []).append(point)
            self.title = None


def study_page(path):
    p = StudyPage()
    p.feed(open(path).read())
    p.axes = [a for a in p.axes if a]  # the header row has no cells
    return p


def decode_study(checks, tmp):
    check, run = checks.check, checks.run
    BASE = ["--model", "tiny-llama", "--chip", "lpx3", "--prompt", "16",
            "--context", "64"]
    SRAM = ["64KiB", "128KiB", "1MiB"]
    LINK = ["100", "700", "2800"]
    STUDY = ["--sweep", "sram.bytes=" + ",".join(SRAM),
             "--sweep", "link.latency=" + ",".join(LINK)]


    def rows_of(path):
        with open(path, newline="") as f:
            return list(csv.DictReader(f))


    # 1. The whole study.
    whole = os.path.join(tmp, "whole.csv")
    r = run(["decode"] + BASE + STUDY + ["-o", whole, "--plot", whole + ".svg",
                                          "--metric", "tpot_us",
                                          "--report", whole + ".html"])
    check("the 9-point study runs", r.returncode == 0, r.stderr.strip())
    if r.returncode != 0:
        sys.exit(1)
    rows = rows_of(whole)
    check("one row per point, in point order",
          [(x["sram.bytes"], x["link.latency"]) for x in rows]
          == [(s, l) for s in SRAM for l in LINK], str(len(rows)))
    check("every point planned", all(x["status"] == "ok" for x in rows))

    # 2. Each row is what `lpx decode` says of that deployment alone.
    for x in rows:
        one = run(["decode", "--json"] + BASE +
                  ["--set", "sram.bytes=" + x["sram.bytes"],
                   "--set", "link.latency=" + x["link.latency"]])
        if one.returncode != 0:
            check("decode alone at %s/%s" % (x["sram.bytes"], x["link.latency"]),
                  False, one.stderr.strip())
            continue
        d = json.loads(one.stdout)
        # One chip has no mesh: tp and pp are null in JSON, empty in the CSV.
        same = (int(x["chips"]) == d["chips"] and
                int(x["tp"] or 0) == (d["tp"] or 0) and
                int(x["pp"] or 0) == (d["pp"] or 0) and
                abs(float(x["tpot_us"]) - d["tpot_us"]) < 5e-4 and
                abs(float(x["ttft_us"]) - d["ttft_us"]) < 5e-4 and
                abs(float(x["tokens_per_s"]) - d["tokens_per_second"]) < 5e-3)
        check("row %s/%s = lpx decode alone" % (x["sram.bytes"], x["link.latency"]),
              same, "%s vs %s" % (x, {k: d[k] for k in ("chips", "tp", "pp",
                                                         "tpot_us", "ttft_us")}))

    # 3. Directions.
    def at(s, l):
        return next(x for x in rows if x["sram.bytes"] == s and x["link.latency"] == l)

    for l in LINK:
        chips = [int(at(s, l)["chips"]) for s in SRAM]
        check("more SRAM never needs more chips (link.latency %s)" % l,
              chips == sorted(chips, reverse=True) and chips[0] > chips[-1],
              str(chips))
    for s in SRAM:
        tpot = [float(at(s, l)["tpot_us"]) for l in LINK]
        check("a longer link never lowers TPOT (sram.bytes %s)" % s,
              tpot == sorted(tpot), str(tpot))

    # 4. The frontier, from the rows' own chips and tokens/s per user.
    def beats(a, b):
        ca, cb = int(a["chips"]), int(b["chips"])
        ta, tb = float(a["tokens_per_s_per_user"]), float(b["tokens_per_s_per_user"])
        return ca <= cb and ta >= tb and (ca < cb or ta > tb)

    expected = [not any(beats(o, x) for o in rows) for x in rows]
    check("the frontier is the rows nobody beats",
          [x["pareto"] == "frontier" for x in rows] == expected,
          str([x["pareto"] for x in rows]))

    # 4b. The page: the question, every row, the frontier's marked.
    page = study_page(whole + ".html")
    name = lambda x: "sram.bytes=%s, link.latency=%s" % (x["sram.bytes"],
                                                         x["link.latency"])
    check("the page asks the question: the keys, their values, the base",
          page.axes == [["sram.bytes", ", ".join(SRAM)],
                        ["link.latency", ", ".join(LINK)]] and
          "--context 64" in page.base and "--prompt 16" in page.base,
          "%s %s" % (page.axes, page.base))
    check("the page's table is the CSV's rows, the frontier's marked",
          [(n, c) for n, c in page.rows] ==
          [(name(x), "frontier" if x["pareto"] else None) for x in rows],
          str(page.rows))
    front = [name(x) for x in rows if x["pareto"] == "frontier"]
    check("the frontier chart marks the CSV's frontier points, the rest apart",
          sorted(page.marks.get("frontier", [])) == sorted(front) and
          sorted(page.marks.get("other points", [])) ==
          sorted(name(x) for x in rows if not x["pareto"]), str(page.marks))
    check("the page draws the metric's chart",
          page.svgs == ["metric-plot", "frontier-plot"], str(page.svgs))

    # 5. Shards, merged.
    parts = []
    for i in range(1, 5):
        part = os.path.join(tmp, "part%d.csv" % i)
        r = run(["decode"] + BASE + STUDY + ["--shard", "%d/4" % i, "-o", part])
        check("shard %d/4" % i, r.returncode == 0, r.stderr.strip())
        parts.append(part)
    merged = os.path.join(tmp, "merged.csv")
    r = run(["sweep", "merge"] + parts[::-1] + ["-o", merged, "--plot",
                                                merged + ".svg", "--report",
                                                merged + ".html"])
    check("sweep merge joins the study's parts", r.returncode == 0, r.stderr.strip())
    checks.same_files([(whole, merged), (whole + ".svg", merged + ".svg"),
                       (whole + ".html", merged + ".html")])
    other = os.path.join(tmp, "other.csv")
    run(["decode"] + BASE[:-2] + ["--context", "128"] + STUDY +
        ["--shard", "1/4", "-o", other])
    r = run(["sweep", "merge", other] + parts[1:] + ["-o", os.path.join(tmp, "x.csv")])
    check("parts of another study are refused",
          r.returncode == 2 and "different sweep" in r.stderr, r.stderr.strip())

    # 5b. Points that differ only in keys the compiler does not read are
    # re-simulated from another point's programs: the whole study reuses
    # the programs of one point per SRAM size for every clock and host
    # latency, each of its shards (runs of two host latencies dealt out)
    # compiles its own; merged, byte-identical.
    CLOCK = ["--sweep", "clock_mhz=800,1000,1500", "--sweep",
             "sram.bytes=128KiB,1MiB", "--sweep", "host.latency_us=2,20"]
    again = os.path.join(tmp, "again.csv")
    r = run(["decode"] + BASE + CLOCK + ["-o", again])
    check("the whole study re-simulates 10 of its 12 points",
          r.returncode == 0 and "re-simulated: 10 point(s) from the programs "
          "of 2 planned" in r.stdout, r.stdout + r.stderr)
    parts = []
    for i in range(1, 4):
        part = os.path.join(tmp, "again%d.csv" % i)
        r = run(["decode"] + BASE + CLOCK + ["--shard", "%d/3" % i, "-o", part])
        check("clock shard %d/3 plans 2 of its 4 points" % i,
              r.returncode == 0 and "re-simulated: 2 point(s) from the "
              "programs of 2 planned" in r.stdout, r.stdout + r.stderr)
        parts.append(part)
    merged = os.path.join(tmp, "again-merged.csv")
    r = run(["sweep", "merge"] + parts + ["-o", merged])
    checks.same_files([(again, merged)])
    rows = rows_of(again)
    for x in rows[:: 5]:  # a re-simulated row is what lpx decode says alone
        d = json.loads(run(["decode", "--json"] + BASE +
                           ["--set", "clock_mhz=" + x["clock_mhz"],
                            "--set", "sram.bytes=" + x["sram.bytes"],
                            "--set", "host.latency_us=" + x["host.latency_us"]]).stdout)
        check("re-simulated row %s/%s/%s = lpx decode alone" %
              (x["clock_mhz"], x["sram.bytes"], x["host.latency_us"]),
              abs(float(x["tpot_us"]) - d["tpot_us"]) < 5e-4 and
              abs(float(x["ttft_us"]) - d["ttft_us"]) < 5e-4 and
              int(x["chips"]) == d["chips"], "%s vs %s" % (x, d["tpot_us"]))

    # 6. Bad studies.
    bad = os.path.join(tmp, "bad.csv")
    for args, words in (
            (STUDY, "needs -o"),
            (["--sweep", "context=64,128", "-o", bad], "both give it"),
            (["--sweep", "sram.size=1,2", "-o", bad], "sram.size"),
            (["--sweep", "chips=0,8", "-o", bad], "not a positive integer"),
            (STUDY + ["-o", bad, "--metric", "bottleneck"], "not a numeric column"),
            (STUDY + ["-o", bad, "--shard", "1/2", "--plot", bad + ".svg"],
             "give it to `lpx sweep merge`"),
            (STUDY + ["-o", bad, "--shard", "1/2", "--report", bad + ".html"],
             "--report draws the whole study")):
        checks.refused(["decode"] + BASE + args, words, bad)


def serve_study(checks, tmp):
    check, run = checks.check, checks.run
    cache = ["--cache-dir", os.path.join(tmp, "cache")]
    BASE = ["--model", "tiny-llama", "--chip", "lpx3", "--context", "64",
            "--workload", "poisson:rate=200,prompt=16,output=8", "--requests",
            "200", "--slo", "ttft_p99=100us"] + cache
    LOADS = ["--load-sweep", "1000,5000,20000"]
    STUDY = ["--sweep", "sram.bytes=128KiB,1MiB", "--sweep", "max_batch=1,4"]


    whole = os.path.join(tmp, "whole.csv")
    r = run(["serve"] + BASE + LOADS + STUDY + ["-o", whole, "--plot", whole + ".svg",
                                                "--report", whole + ".html"])
    check("the 4-point serving study runs", r.returncode == 0, r.stderr.strip())
    if r.returncode != 0:
        sys.exit(1)
    with open(whole, newline="") as f:
        rows = list(csv.DictReader(f))
    check("one row per point", len(rows) == 4, str(len(rows)))
    check("some point holds the SLO at a swept load",
          any(x["highest_load_within_slo"] for x in rows))
    page = study_page(whole + ".html")
    check("the serving study's page: its rows, its chart, no frontier",
          [n for n, _ in page.rows] ==
          ["sram.bytes=%s, max_batch=%s" % (x["sram.bytes"], x["max_batch"])
           for x in rows] and page.svgs == ["metric-plot"],
          "%s %s" % (page.rows, page.svgs))

    for x in rows:
        alone = run(["serve", "--json"] + BASE + LOADS +
                    ["--set", "sram.bytes=" + x["sram.bytes"],
                     "--max-batch", x["max_batch"]])
        name = "row %s/%s" % (x["sram.bytes"], x["max_batch"])
        if alone.returncode != 0:
            check(name + " = lpx serve alone", False, alone.stderr.strip())
            continue
        d = json.loads(alone.stdout)
        base = d.get("base", d)  # the run at the workload's own load
        table = base["service_table"]
        close = lambda a, b: abs(float(a) - b) < 5e-4
        sweep = d.get("load_sweep", {})
        highest = sweep.get("highest_load_within_slo")
        same = (x["status"] == "ok" and x["deployment"] == table["deployment"] and
                close(x["ttft_p50_us"], base["ttft_us"]["p50"]) and
                close(x["ttft_p99_us"], base["ttft_us"]["p99"]) and
                close(x["tpot_p99_us"], base["tpot_us"]["p99"]) and
                abs(float(x["tokens_per_s"]) - base["tokens_per_second"]) < 5e-3 and
                close(x["goodput"], base["goodput"]) and
                (x["highest_load_within_slo"] or None) ==
                (None if highest is None else "%g" % highest))
        check(name + " = lpx serve alone", same, "%s vs %s" % (x, {
            "p99": base["ttft_us"]["p99"], "highest": highest}))

    parts = [os.path.join(tmp, "part%d.csv" % i) for i in (1, 2)]
    for i, part in enumerate(parts, 1):
        r = run(["serve"] + BASE + LOADS + STUDY + ["--shard", "%d/2" % i, "-o", part])
        check("shard %d/2" % i, r.returncode == 0, r.stderr.strip())
    merged = os.path.join(tmp, "merged.csv")
    r = run(["sweep", "merge"] + parts + ["-o", merged, "--plot", merged + ".svg",
                                          "--report", merged + ".html"])
    check("sweep merge joins the serving study's parts", r.returncode == 0,
          r.stderr.strip())
    checks.same_files([(whole, merged), (whole + ".svg", merged + ".svg"),
                       (whole + ".html", merged + ".html")])

    bad = os.path.join(tmp, "bad.csv")
    for extra, words in ((["--trace", bad + ".json"], "--trace is of one run"),
                         (["--sweep", "prompt=16"], "prompt"),
                         (["--max-batch", "4"], "--sweep max_batch and --max-batch"),
                         (["--sweep", "chips=1,8", "--chips", "8"],
                          "--sweep chips and --chips"),
                         ([], "needs -o")):
        out = [] if words == "needs -o" else ["-o", bad]
        checks.refused(["serve"] + BASE + STUDY + extra + out, words, bad)


def decode_sensitivity(checks, tmp):
    """`lpx decode --sensitivity`: the base and every end checked against
    `lpx decode --json` of that chip alone; the band brackets the base;
    directions; one CSV row per ranged assumption; refusals."""
    check, run = checks.check, checks.run
    base = ["--model", "tiny-llama", "--chip", "lpx3", "--prompt", "16",
            "--context", "64"]
    out = os.path.join(tmp, "sens.csv")
    r = run(["decode"] + base + ["--sensitivity", "-o", out, "--plot",
                                 out + ".svg"])
    check("the sensitivity runs", r.returncode == 0, r.stderr.strip())
    if r.returncode != 0:
        sys.exit(1)
    keys = run(["chip", "keys", "--chip", "lpx3", "--json"])
    ranged = [k for k in json.loads(keys.stdout) if k.get("range")]
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    check("one row per ranged assumption", len(rows) == len(ranged),
          "%d rows, %d ranges" % (len(rows), len(ranged)))
    alone = json.loads(run(["decode", "--json"] + base).stdout)
    line = [x for x in r.stdout.splitlines() if x.startswith("TPOT ")][0]
    check("the summary starts from the base's TPOT",
          line.startswith("TPOT %.3f us (band " % alone["tpot_us"]), line)
    tpots = [float(x[e + "_tpot_us"]) for x in rows for e in ("low", "high")
             if x[e + "_status"] == "ok"]
    check("the band brackets the base",
          min(tpots) <= alone["tpot_us"] <= max(tpots), line)
    # The clock's and the host latency's ends re-simulate the base's
    # programs (the compiler reads neither); they are checked below.
    check("the ends of keys the compiler does not read are re-simulated",
          "(4 of them the base's programs re-simulated)" in r.stdout,
          r.stdout.splitlines()[0])
    again = [x for x in rows if x["key"] in ("clock_mhz", "host.latency_us")]
    # The widest rows and some flat ones, each end against lpx decode alone.
    for x in rows[:4] + rows[-2:] + [x for x in again if x not in rows[:4]]:
        for end in ("low", "high"):
            d = run(["decode", "--json"] + base +
                    ["--set", "%s=%s" % (x["key"], x[end])])
            one = json.loads(d.stdout) if d.returncode == 0 else None
            check("%s at %s = lpx decode alone" % (x["key"], x[end]),
                  one is not None and x[end + "_status"] == "ok" and
                  abs(float(x[end + "_tpot_us"]) - one["tpot_us"]) < 5e-4 and
                  abs(float(x[end + "_ttft_us"]) - one["ttft_us"]) < 5e-4 and
                  int(float(x[end + "_chips"])) == one["chips"],
                  "%s vs %s" % (x, d.stdout[:200]))
    # The host latency adds to every token whatever the schedule (a unit
    # latency need not: the list scheduler orders by it, docs/sweeps.md).
    x = next(x for x in rows if x["key"] == "host.latency_us")
    check("a longer host latency raises TPOT",
          float(x["high_tpot_us"]) > float(x["low_tpot_us"]), str(x))
    check("the tornado is drawn",
          open(out + ".svg").read(4).startswith("<svg"))
    bad = os.path.join(tmp, "bad-sens.csv")
    for args, words in (
            (["--sweep", "chips=1,2"], "go without it"),
            (["--set", "mxm.latency=8"], "fixes an assumption"),
            (["--metric", "bottleneck"], "not a figure")):
        checks.refused(["decode"] + base + ["--sensitivity", "-o", bad] + args,
                       words, bad)


if __name__ == "__main__":
    checks = Checks(sys.argv[1])
    {"decode": decode_study, "serve": serve_study,
     "sensitivity": decode_sensitivity}[sys.argv[2]](
        checks, tempfile.mkdtemp())
    checks.finish()
