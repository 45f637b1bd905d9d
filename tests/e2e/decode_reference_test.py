#!/usr/bin/python3
"""Greedy decoding of the tiny presets on the lpx CPU runtime, against
onnxruntime's (models/reference/decode/*.json, made by
models/reference/decode.mjs).

Usage: decode_reference_test.py LPX REFERENCE_DIR [--nodes N] [--tp T] [--pp P]
       [--set KEY=VALUE] [--tables-on K] [MODEL...]

For each model: `lpx models export` (context 64), `lpx compile` for N chips
(default 2; the placement the compiler chooses, or the given --tp / --pp;
--set changes the chip, as `lpx compile --set`; with --tables-on, the
pieces of the embedding table and of the logits (the LM head's) must be on
at least K chips together),
then the reference's steps one by one with `lpx run --out`: prompt ids 1, 2, 3
and the generated ids, position = step, the cache carried as the reference
script carries it (present minus its oldest position is the next past, the
attention mask marks the filled, right-aligned slots). Every step's logits
must match onnxruntime's within tolerance, and the greedy token must be the
reference's. About 10 s.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from onnx import numpy_helper, load_tensor

ATOL, RTOL = 1e-4, 1e-3


def write(dirname, index, name, array):
    t = numpy_helper.from_array(array, name)
    with open(os.path.join(dirname, f"input_{index}.pb"), "wb") as f:
        f.write(t.SerializeToString())


def tables_on(lpx, prog):
    """Chips holding a piece of the embedding table or computing a piece of
    the logits (the LM head's), from `lpx inspect`'s buffer list."""
    r = subprocess.run([lpx, "inspect", prog], capture_output=True, text=True,
                       check=True)
    nodes = set()
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) == 7 and f[1] == "node" and (f[6], f[4]) in (
                ("model.embed_tokens.weight", "const"), ("logits", "output")):
            nodes.add(int(f[2]))
    return len(nodes)


def run_model(lpx, ref_dir, model, tmp, placement, min_tables=0):
    with open(os.path.join(ref_dir, f"{model}.json")) as f:
        ref = json.load(f)
    context = ref["context"]
    onnx_file = os.path.join(tmp, f"{model}.onnx")
    prog = os.path.join(tmp, f"{model}.lpxb")
    subprocess.run([lpx, "models", "export", model, "-o", onnx_file,
                    "--context", str(context)], check=True, capture_output=True)
    subprocess.run([lpx, "compile", onnx_file, "-o", prog, *placement],
                   check=True, capture_output=True)
    if min_tables and tables_on(lpx, prog) < min_tables:
        raise AssertionError(f"the embedding and LM head are on "
                             f"{tables_on(lpx, prog)} chips, expected at "
                             f"least {min_tables}")
    import onnx
    g = onnx.load(onnx_file).graph
    past_shapes = {i.name: [d.dim_value for d in i.type.tensor_type.shape.dim]
                   for i in g.input if i.name.startswith("past_key_values.")}
    order = [i.name for i in g.input]
    out_names = [o.name for o in g.output]
    past = {n: np.zeros(s, np.float32) for n, s in past_shapes.items()}
    ids = ref["prompt_ids"] + ref["generated_ids"]
    prompt = len(ref["prompt_ids"])
    worst = 0.0
    for step, want in enumerate(ref["logits"]):
        data, out = os.path.join(tmp, "in"), os.path.join(tmp, "out")
        for d in (data, out):
            os.makedirs(d, exist_ok=True)
            for f in os.listdir(d):
                os.remove(os.path.join(d, f))
        mask = np.zeros((1, context), np.int64)
        mask[0, context - 1 - step:] = 1
        values = {"input_ids": np.array([[ids[step]]], np.int64),
                  "position_ids": np.array([[step]], np.int64),
                  "attention_mask": mask, **past}
        for i, name in enumerate(order):
            write(data, i, name, values[name])
        r = subprocess.run([lpx, "run", prog, "--data", data, "--out", out],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError(f"step {step}: lpx run failed: {r.stderr.strip()}")
        outs = {name: numpy_helper.to_array(load_tensor(os.path.join(out, f"output_{i}.pb")))
                for i, name in enumerate(out_names)}
        logits = outs["logits"].reshape(-1)
        want = np.array(want, np.float32)
        err = np.abs(logits - want)
        worst = max(worst, float(err.max()))
        if not np.all(err <= ATOL + RTOL * np.abs(want)):
            raise AssertionError(f"step {step}: logits differ by {err.max():.3g}")
        if step >= prompt - 1 and int(np.argmax(logits)) != ids[step + 1]:
            raise AssertionError(f"step {step}: greedy token {int(np.argmax(logits))}, "
                                 f"onnxruntime's {ids[step + 1]}")
        past = {n: outs[n.replace("past_key_values.", "present.")][:, :, 1:, :].copy()
                for n in past_shapes}
    print(f"ok   {model}: {len(ref['logits'])} steps, {len(ref['generated_ids'])} "
          f"generated ids match onnxruntime, worst logit error {worst:.2e}")


def run_each(models, check):
    """check(model) for every model, a FAIL line for each that raises; the
    exit code (also used by decode_generate_test.py)."""
    failed = 0
    for model in models:
        try:
            check(model)
        except (AssertionError, subprocess.CalledProcessError) as e:
            print(f"FAIL {model}: {e}")
            failed += 1
    return 1 if failed else 0


def main(run=None):
    """`run(lpx, ref_dir, model, tmp)` (default run_model, with the
    placement options --nodes / --tp / --pp) for the models on the command
    line, or the tiny presets (also used by prefill_reference_test.py)."""
    lpx, ref_dir, *rest = sys.argv[1:]
    nodes, placement, models, min_tables = "2", [], [], 0
    while rest:
        if rest[0] == "--tables-on":
            min_tables = int(rest[1])
        elif rest[0] == "--nodes":
            nodes = rest[1]
        elif rest[0] in ("--tp", "--pp", "--set"):
            placement += rest[:2]
        else:
            models.append(rest.pop(0))
            continue
        rest = rest[2:]
    placement = ["--nodes", nodes] + placement
    with tempfile.TemporaryDirectory() as tmp:
        if run:
            check = lambda m: run(lpx, ref_dir, m, tmp)
        else:
            check = lambda m: run_model(lpx, ref_dir, m, tmp, placement,
                                        min_tables)
        return run_each(models or ["tiny-llama", "tiny-gpt2", "tiny-mixtral"], check)


if __name__ == "__main__":
    sys.exit(main())
