#!/usr/bin/python3
"""`lpx decode --run`: greedy generation with the KV cache resident in SRAM,
on the CPU runtime, against onnxruntime's (models/reference/decode/*.json,
made by models/reference/decode.mjs from the same exported models with their
cache inputs and outputs).

Usage: decode_generate_test.py LPX REFERENCE_DIR CHIPS [--set KEY=VALUE]...
       [--expect-remark TEXT] [--prefill-chunk C] [REFERENCE...]

Each REFERENCE names REFERENCE_DIR/REFERENCE.json: MODEL (batch 1) or
MODEL-batchB (B sequences, made with decode.mjs --batch B). For each, `lpx
decode --model MODEL --run --prompt-ids <each sequence's prompt> ...
--tokens <as many> --context <the reference's> --chips CHIPS [--batch B]
--json` must print the reference's generated ids token for token (a list
per sequence at batch B) and every position's logits within the fp32
tolerance of decode_reference_test.py. The prompt goes through the prefill
program into the resident cache: host I/O is the prompt's ids, positions
and mask in and its logits out, then per step only the token, position,
mask and logits (no cache). The same step compiled with `lpx compile
--resident-kv` must simulate without hazards, with that host I/O, and on
more than one chip hold each KV cache as resident state split over its
tensor-parallel group (one piece per chip, by KV head). --set changes the
chip for both (a smaller SRAM makes the placement spread more); the
compile's remarks must then include each --expect-remark text. With
--prefill-chunk C the prompt also goes through the chunked prefill (ceil(S /
C) chunks of C tokens in one program, the last padded): lpx checks its
cache at the prompt's positions and its first token against the
whole-prompt prefill's and generates from its cache, so the ids must still
be onnxruntime's; the chunked program compiled with `lpx compile --chunks`
must simulate without hazards. About 3 s per reference.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

from decode_reference_test import run_each

ATOL, RTOL = 1e-4, 1e-3


def check(lpx, ref_dir, chips, name, chip_sets=(), remarks=(), chunk=0):
    with open(f"{ref_dir}/{name}.json") as f:
        ref = json.load(f)
    model, batch = ref["model"], ref.get("batch", 1)
    prompts = ref["prompt_ids"] if batch > 1 else [ref["prompt_ids"]]
    tokens = len(ref["generated_ids"][0] if batch > 1 else ref["generated_ids"])
    cmd = [lpx, "decode", "--model", model, "--run", "--json",
           "--tokens", str(tokens), "--context", str(ref["context"]),
           "--chips", str(chips)] + list(chip_sets)
    for p in prompts:
        cmd += ["--prompt-ids", ",".join(map(str, p))]
    if batch > 1:
        cmd += ["--batch", str(batch)]
    if chunk:
        cmd += ["--prefill-chunk", str(chunk)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError(f"lpx decode failed: {r.stderr.strip()}")
    got = json.loads(r.stdout)
    if got["generated_ids"] != ref["generated_ids"]:
        raise AssertionError(f"generated {got['generated_ids']}, onnxruntime "
                             f"{ref['generated_ids']}")
    if len(got["logits"]) != len(ref["logits"]):
        raise AssertionError(f"{len(got['logits'])} steps of logits, "
                             f"onnxruntime has {len(ref['logits'])}")
    worst = 0.0
    for step, (a, b) in enumerate(zip(got["logits"], ref["logits"])):
        a, b = np.array(a, np.float64), np.array(b, np.float64)
        err = np.abs(a - b)
        worst = max(worst, float(err.max()))
        if not np.all(err <= ATOL + RTOL * np.abs(b)):
            raise AssertionError(f"step {step}: logits differ by {err.max():.3g}")
    # Per sequence and position the host sends the id and the position (8
    # bytes each), per sequence the mask (8 per position the program
    # attends to: the prompt's in the prefill, the cache's in the step),
    # and reads the logits (4 per vocabulary entry and position): the
    # prefill for the whole prompt once, then the step for one token.
    vocab, prompt = len(np.array(ref["logits"][0]).reshape(-1)) // batch, len(prompts[0])
    want = {"prefill_host_input_bytes": batch * 24 * prompt,
            "prefill_host_output_bytes": batch * 4 * vocab * prompt,
            "host_input_bytes_per_step": batch * (16 + 8 * ref["context"]),
            "host_output_bytes_per_step": batch * 4 * vocab}
    io = {k: got[k] for k in want}
    if not got["prefill"] or io != want:
        raise AssertionError(f"host I/O {io} (prefill: {got['prefill']}); expected {want}")
    if got["kv_cache_bytes"] <= 0:
        raise AssertionError("no resident KV cache reported")
    chunks = -(-prompt // chunk) if 0 < chunk < prompt else 0
    if got["prefill_chunks"] != chunks:
        raise AssertionError(f"{got['prefill_chunks']} prefill chunks, not {chunks}")
    if chunks and got["chunked_cache_max_abs_diff"] > ATOL:
        raise AssertionError(f"the chunked cache differs by "
                             f"{got['chunked_cache_max_abs_diff']:.3g}")
    if chunks:
        simulate_chunks(lpx, model, ref["context"], batch, chips, chunk, chunks,
                        chip_sets)
    simulate(lpx, model, ref["context"], batch, chips,
             want["host_input_bytes_per_step"], want["host_output_bytes_per_step"],
             chip_sets, remarks)
    print(f"ok   {name} on {chips} chips" +
          (f", prefill in {chunks} chunks of {chunk}" if chunks else "") +
          f": {batch} x {tokens} ids match "
          f"onnxruntime, worst logit error {worst:.2e}, cache "
          f"{got['kv_cache_bytes']} bytes resident")


def simulate(lpx, model, context, batch, chips, want_in, want_out,
             chip_sets=(), remarks=()):
    with tempfile.TemporaryDirectory() as tmp:
        onnx_file, prog = os.path.join(tmp, "m.onnx"), os.path.join(tmp, "m.lpxb")
        for cmd in ([lpx, "models", "export", model, "-o", onnx_file, "--context",
                     str(context), "--batch", str(batch)],
                    [lpx, "compile", onnx_file, "-o", prog, "--nodes", str(chips),
                     "--resident-kv"] + list(chip_sets)):
            said = subprocess.run(cmd, check=True, capture_output=True,
                                  text=True).stderr
        for text in remarks:
            if text not in said:
                raise AssertionError(f"the compile does not say {text!r}: {said}")
        r = subprocess.run([lpx, "simulate", prog, "--json"], capture_output=True,
                           text=True, check=True)
        if chips > 1:
            check_split_state(lpx, prog)
    sim = json.loads(r.stdout)
    if sim["hazard_count"] != 0:
        raise AssertionError(f"{sim['hazard_count']} hazards: {sim['hazards'][:2]}")
    if (sim["host_input_bytes"], sim["host_output_bytes"]) != (want_in, want_out):
        raise AssertionError(f"simulated host I/O {sim['host_input_bytes']} in, "
                             f"{sim['host_output_bytes']} out")


def simulate_chunks(lpx, model, context, batch, chips, chunk, chunks,
                    chip_sets=()):
    """The chunked prefill as `lpx decode` times it: the step of one chunk
    compiled with --chunks, simulated without hazards, with every chunk's
    ids, positions and mask in."""
    with tempfile.TemporaryDirectory() as tmp:
        onnx_file, prog = os.path.join(tmp, "c.onnx"), os.path.join(tmp, "c.lpxb")
        for cmd in ([lpx, "models", "export", model, "-o", onnx_file, "--context",
                     str(context), "--batch", str(batch), "--prompt", str(chunk)],
                    [lpx, "compile", onnx_file, "-o", prog, "--nodes", str(chips),
                     "--resident-kv", "--chunks", str(chunks)] + list(chip_sets)):
            subprocess.run(cmd, check=True, capture_output=True, text=True)
        r = subprocess.run([lpx, "simulate", prog, "--json"], capture_output=True,
                           text=True, check=True)
    sim = json.loads(r.stdout)
    if sim["hazard_count"] != 0:
        raise AssertionError(f"chunked prefill: {sim['hazard_count']} hazards: "
                             f"{sim['hazards'][:2]}")
    want_in = chunks * batch * (16 * chunk + 8 * context)
    if sim["host_input_bytes"] != want_in:
        raise AssertionError(f"chunked prefill: {sim['host_input_bytes']} bytes "
                             f"in, not {want_in}")


def check_split_state(lpx, prog):
    """Every KV cache of the program is resident state split by KV head over
    the chips of its tensor-parallel group (tp > 1 on these chip counts):
    one state buffer on each of as many distinct chips as the largest
    divisor of the cache's KV heads up to tp (tiny-mixtral's tp 4, chosen
    for its 4 experts, splits its 2 KV heads over 2 chips)."""
    text = subprocess.run([lpx, "inspect", prog], capture_output=True, text=True,
                          check=True).stdout
    m = re.search(r"^placement: tensor-parallel groups of (\d+)", text, re.M)
    tp = int(m.group(1)) if m else 0
    if tp < 2:
        raise AssertionError("no tensor-parallel group: the state is not split")
    states = {}
    for node, shape, name in re.findall(
            r"^\s+%\d+\s+node (\d+) @\d+\s+state\s+(\S+)\s+(\S+)$", text, re.M):
        states.setdefault(name, []).append((int(node), shape))
    if not states:
        raise AssertionError("no resident state in the program")
    for name, pieces in states.items():
        nodes = {n for n, _ in pieces}
        heads = sum(int(shape.split("x")[1]) for _, shape in pieces)
        want = max(d for d in range(1, min(heads, tp) + 1) if heads % d == 0)
        if want < 2 or len(pieces) != want or len(nodes) != want:
            raise AssertionError(f"state {name}: {len(pieces)} pieces on chips "
                                 f"{sorted(nodes)}, not one on each of {want} chips")


def main():
    lpx, ref_dir, chips, *rest = sys.argv[1:]
    chip_sets, remarks, models, chunk = [], [], [], 0
    while rest:
        if rest[0] == "--prefill-chunk" and len(rest) > 1:
            chunk = int(rest[1])
            rest = rest[2:]
        elif rest[0] in ("--set", "--expect-remark") and len(rest) > 1:
            (chip_sets if rest[0] == "--set" else remarks).extend(
                rest[:2] if rest[0] == "--set" else rest[1:2])
            rest = rest[2:]
        else:
            models.append(rest.pop(0))
    return run_each(models or ["tiny-llama", "tiny-gpt2"],
                    lambda m: check(lpx, ref_dir, int(chips), m, chip_sets,
                                    remarks, chunk))


if __name__ == "__main__":
    sys.exit(main())
