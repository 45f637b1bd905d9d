#!/usr/bin/env python3
"""`lpx serve --sweep` end to end, on tiny-llama on lpx3 (seconds).

  - every row equals `lpx serve --json` of the same deployment and workload
    (deployment, P50/P99 TTFT and TPOT, tokens/s, goodput), run alone;
  - with --load-sweep, the row's highest load within the SLO is the one
    `lpx serve --load-sweep --json` reports alone;
  - two shards merged by `lpx sweep merge` are byte-identical to the whole;
  - the options of one run (--report, --trace, the curve files) are refused
    with --sweep, in one line, exit 2.
Usage: serve_study_test.py LPX
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

lpx = sys.argv[1]
tmp = tempfile.mkdtemp()
failures = []
cache = ["--cache-dir", os.path.join(tmp, "cache")]
BASE = ["--model", "tiny-llama", "--chip", "lpx3", "--context", "64",
        "--workload", "poisson:rate=200,prompt=16,output=8", "--requests",
        "200", "--slo", "ttft_p99=100us"] + cache
LOADS = ["--load-sweep", "1000,5000,20000"]
STUDY = ["--sweep", "sram.bytes=128KiB,1MiB", "--sweep", "max_batch=1,4"]


def check(what, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + what + ("" if cond else ": " + detail))
    if not cond:
        failures.append(what)


def run(args):
    return subprocess.run([lpx] + args, capture_output=True, text=True)


whole = os.path.join(tmp, "whole.csv")
r = run(["serve"] + BASE + LOADS + STUDY + ["-o", whole, "--plot", whole + ".svg"])
check("the 4-point serving study runs", r.returncode == 0, r.stderr.strip())
if r.returncode != 0:
    sys.exit(1)
with open(whole, newline="") as f:
    rows = list(csv.DictReader(f))
check("one row per point", len(rows) == 4, str(len(rows)))
check("some point holds the SLO at a swept load",
      any(x["highest_load_within_slo"] for x in rows))

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
r = run(["sweep", "merge"] + parts + ["-o", merged, "--plot", merged + ".svg"])
check("sweep merge joins the serving study's parts", r.returncode == 0,
      r.stderr.strip())
for a, b in ((whole, merged), (whole + ".svg", merged + ".svg")):
    same = os.path.exists(b) and open(a, "rb").read() == open(b, "rb").read()
    check("merged %s is byte-identical" % os.path.basename(b), same)

bad = os.path.join(tmp, "bad.csv")
for extra, words in ((["--report", bad + ".html"], "--report is of one run"),
                     (["--trace", bad + ".json"], "--trace is of one run"),
                     (["--sweep", "prompt=16"], "prompt"),
                     ([], "needs -o")):
    args = ["serve"] + BASE + STUDY + extra + ([] if words == "needs -o" else ["-o", bad])
    r = run(args)
    lines = r.stderr.strip().splitlines()
    check("refused: " + words, r.returncode == 2 and len(lines) == 1 and
          words in lines[0] and not os.path.exists(bad), r.stderr.strip())

print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
