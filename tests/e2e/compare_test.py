#!/usr/bin/python3
"""`lpx decode --compare` and `--afd` on tiny-llama (docs/compare.md).

Usage: compare_test.py LPX

The GPU side is the analytic model of gpu/ (its figures are checked by
hand in tests/unit/gpu); here: the JSON keys, that the LPX side of a
comparison is the single run's, that the GPU side of --compare equals
--afd's all-GPU figure for the same GPUs, that the AFD step is the sum of
its split and its exchange is 2 crossings a layer of the batch's hidden
rows (tiny-llama: 2 layers, hidden 64, fp16 rows), and that bad input is
one line and exit 2. About 2 s.
"""
import json
import os
import subprocess
import sys
import tempfile

LPX = sys.argv[1]
MODEL = ["--model", "tiny-llama", "--context", "64", "--prompt", "16"]


def run(args, code=0):
    p = subprocess.run([LPX, "decode"] + MODEL + args, capture_output=True,
                       text=True)
    if p.returncode != code:
        sys.exit(f"FAIL: {' '.join(args)}: exit {p.returncode}, expected "
                 f"{code}\n{p.stderr}")
    return p


def near(a, b, what, rel=1e-9):
    if abs(a - b) > rel * max(abs(a), abs(b), 1e-12):
        sys.exit(f"FAIL: {what}: {a} != {b}")


KEYS = ["model", "gpu", "gpus", "tp", "context", "prompt", "batch", "weights",
        "ttft_us", "tpot_us", "tokens_per_second_per_user",
        "tokens_per_second", "bottleneck"]
AFD = "gpu=h200:2,link=2us:400GB/s"

for batch in (1, 2):
    b = ["--batch", str(batch)]
    single = json.loads(run(b + ["--json"]).stdout)
    both = json.loads(run(b + ["--json", "--compare", "h200:tp=2",
                               "--afd", AFD]).stdout)
    cmp, afd = both["compare"], both["afd"]
    for key in KEYS:
        if key not in cmp:
            sys.exit(f"FAIL: compare has no '{key}'")
        # the shared keys hold what the LPX report holds
        if key in ("model", "context", "prompt", "batch") and \
                cmp[key] != single[key]:
            sys.exit(f"FAIL: compare.{key} {cmp[key]} != {single[key]}")
    if cmp["model_kind"] != "analytic" or cmp["gpus"] != 2:
        sys.exit(f"FAIL: compare: {cmp}")
    for key in ("tpot_us", "ttft_us", "chips", "tokens_per_second"):
        near(both[key], single[key], f"LPX {key} beside a comparison")
    near(cmp["tokens_per_second_per_user"] * cmp["tpot_us"], 1e6,
         "GPU tokens/s per user")
    near(cmp["tokens_per_second"], batch * cmp["tokens_per_second_per_user"],
         "GPU aggregate tokens/s")
    split = afd["tpot_split_us"]
    near(afd["tpot_us"], split["gpu_attention"] + split["lpx_ffn"] +
         split["exchange"], "AFD split")
    near(split["exchange"], 2 * 2 * (2 + batch * 64 * 2 / 400e9 * 1e6),
         "AFD exchange")
    near(afd["all_lpx_tpot_us"], single["tpot_us"], "AFD all-LPX")
    near(afd["all_gpu_tpot_us"], cmp["tpot_us"], "AFD all-GPU")
    if not (afd["chips"] >= 1 and split["lpx_ffn"] > 0 and
            split["gpu_attention"] < cmp["tpot_us"]):
        sys.exit(f"FAIL: afd: {afd}")
    # The FFN side is the FFN-only step `lpx models export --ffn-only`
    # writes, timed alone on the same chips with a group's tensor
    # parallelism (here 1 chip).
    with tempfile.TemporaryDirectory() as tmp:
        ffn = os.path.join(tmp, "ffn.onnx")
        subprocess.run([LPX, "models", "export", "tiny-llama", "--ffn-only",
                        "--shape-only", "--context", "64", "--batch",
                        str(batch), "-o", ffn], check=True,
                       capture_output=True)
        alone = json.loads(subprocess.run(
            [LPX, "decode", "--model", ffn, "--chips", str(afd["chips"]),
             "--tp", str(min(afd["chips"], 8)), "--json"], check=True,
            capture_output=True, text=True).stdout)
        near(split["lpx_ffn"], alone["tpot_compute_us"], "AFD FFN step alone")

text = run(["--compare", "b200", "--afd", AFD]).stdout
for line in ("(analytic model", "GPU (analytic)", "attention-FFN "
             "disaggregation", "(an FFN-only program, compiled and simulated)"):
    if line not in text:
        sys.exit(f"FAIL: text has no '{line}'\n{text}")

for bad, says in [
        (["--compare", "a100"], "unknown GPU 'a100'"),
        (["--compare", "h200:tp=0"], "is not a GPU count"),
        (["--compare", "h200:pp=2"], "is not tp=N or weights=FORMAT"),
        (["--afd", "gpu=h200"], "is not a GPU count"),
        (["--afd", "gpu=h200:8"], "it takes gpu=GPU:N and link="),
        (["--afd", "gpu=h200:8,link=2us:fast"], "link bandwidth 'fast'"),
        (["--afd", "gpu=h200:8,link=soon:1GB/s"], "link latency"),
        (["--compare", "h200", "--context-sweep", "32,64", "-o", "/tmp/x.csv"],
         "go with one deployment")]:
    p = run(bad, code=2)
    lines = p.stderr.strip().splitlines()
    if len(lines) != 1 or says not in lines[0] or p.stdout:
        sys.exit(f"FAIL: {bad}: {p.stderr!r}")
# lpx serve --compare: the LPX report as without it, the GPU's beside it,
# served on a table of analytic times at the LPX table's points.
SERVE = ["serve", "--model", "tiny-llama", "--workload",
         "poisson:rate=20,prompt=8..16,output=4..8", "--requests", "20",
         "--json"]


def serve(args, code=0):
    p = subprocess.run([LPX] + SERVE + args, capture_output=True, text=True)
    if p.returncode != code:
        sys.exit(f"FAIL: serve {args}: exit {p.returncode}\n{p.stderr}")
    return p


alone = json.loads(serve([]).stdout)
beside = json.loads(serve(["--compare", "h200"]).stdout)
gpu = beside.pop("compare")
for key in ("ttft_us", "tpot_us", "e2e_us", "completed", "tokens_per_second"):
    if beside[key] != alone[key]:
        sys.exit(f"FAIL: serve {key} changed beside a comparison")
    if key not in gpu:
        sys.exit(f"FAIL: serve compare has no {key}")
table = gpu["service_table"]
if table["source"] != "analytic" or gpu["gpu"] != "h200" or \
        len(table["decode"]) != len(alone["service_table"]["decode"]):
    sys.exit(f"FAIL: serve compare table: {table}")
p = subprocess.run([LPX, "decode", "--model", "/nonexistent.onnx",
                    "--compare", "h200"], capture_output=True, text=True)
if p.returncode != 2 or "take a model preset" not in p.stderr:
    sys.exit(f"FAIL: --compare on a file: {p.stderr!r}")
p = serve(["--compare", "h900"], code=2)
if len(p.stderr.strip().splitlines()) != 1 or "unknown GPU" not in p.stderr:
    sys.exit(f"FAIL: serve --compare h900: {p.stderr!r}")
print("compare: ok")
