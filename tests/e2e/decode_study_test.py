#!/usr/bin/env python3
"""`lpx decode --sweep` end to end, on tiny-llama on lpx3 (seconds).

Checks, with oracles the study does not compute itself:
  - every row equals `lpx decode --json` of the same deployment (chips,
    placement, TTFT, TPOT, tokens/s), run one at a time;
  - directions a correct model must show: more SRAM per chip never needs
    more chips; a longer link latency never lowers TPOT;
  - the frontier column marks exactly the rows no other row beats on chips
    and tokens/s per user;
  - four shards merged by `lpx sweep merge` are byte-identical to the whole
    study, CSV and SVG;
  - bad studies are one-line errors with exit 2 and no output file.
Usage: decode_study_test.py LPX
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
BASE = ["--model", "tiny-llama", "--chip", "lpx3", "--prompt", "16",
        "--context", "64"]
SRAM = ["64KiB", "128KiB", "1MiB"]
LINK = ["100", "700", "2800"]
STUDY = ["--sweep", "sram.bytes=" + ",".join(SRAM),
         "--sweep", "link.latency=" + ",".join(LINK)]


def check(what, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + what + ("" if cond else ": " + detail))
    if not cond:
        failures.append(what)


def run(args):
    return subprocess.run([lpx] + args, capture_output=True, text=True)


def rows_of(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


# 1. The whole study.
whole = os.path.join(tmp, "whole.csv")
r = run(["decode"] + BASE + STUDY + ["-o", whole, "--plot", whole + ".svg",
                                      "--metric", "tpot_us"])
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

# 5. Shards, merged.
parts = []
for i in range(1, 5):
    part = os.path.join(tmp, "part%d.csv" % i)
    r = run(["decode"] + BASE + STUDY + ["--shard", "%d/4" % i, "-o", part])
    check("shard %d/4" % i, r.returncode == 0, r.stderr.strip())
    parts.append(part)
merged = os.path.join(tmp, "merged.csv")
r = run(["sweep", "merge"] + parts[::-1] + ["-o", merged, "--plot",
                                            merged + ".svg"])
check("sweep merge joins the study's parts", r.returncode == 0, r.stderr.strip())
for a, b in ((whole, merged), (whole + ".svg", merged + ".svg")):
    same = os.path.exists(b) and open(a, "rb").read() == open(b, "rb").read()
    check("merged %s is byte-identical" % os.path.basename(b), same)
other = os.path.join(tmp, "other.csv")
run(["decode"] + BASE[:-2] + ["--context", "128"] + STUDY +
    ["--shard", "1/4", "-o", other])
r = run(["sweep", "merge", other] + parts[1:] + ["-o", os.path.join(tmp, "x.csv")])
check("parts of another study are refused",
      r.returncode == 2 and "different sweep" in r.stderr, r.stderr.strip())

# 6. Bad studies.
bad = os.path.join(tmp, "bad.csv")
for args, words in (
        (STUDY, "needs -o"),
        (["--sweep", "context=64,128", "-o", bad], "both give it"),
        (["--sweep", "sram.size=1,2", "-o", bad], "sram.size"),
        (["--sweep", "chips=0,8", "-o", bad], "not a positive integer"),
        (STUDY + ["-o", bad, "--metric", "bottleneck"], "not a numeric column"),
        (STUDY + ["-o", bad, "--shard", "1/2", "--plot", bad + ".svg"],
         "give it to `lpx sweep merge`")):
    r = run(["decode"] + BASE + args)
    lines = r.stderr.strip().splitlines()
    check("refused: %s" % words,
          r.returncode == 2 and len(lines) == 1 and words in lines[0]
          and not os.path.exists(bad), r.stderr.strip())

print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
