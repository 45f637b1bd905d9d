#!/usr/bin/python3
"""The prefill export (`lpx models export --prompt S --context S`) against
onnxruntime's decoding of the same prompt (models/reference/decode/*.json).

Usage: prefill_reference_test.py LPX REFERENCE_DIR [MODEL...]

The reference fed the prompt ids one decode step at a time; the prefill
takes all of them in one step with a causal mask. Row i of the prefill's
logits must therefore equal the reference's logits of step i: a wrong mask
(a token seeing later ones), wrong positions or a wrong cache layout all
break it. The prefill is compiled for 2 chips and run on the lpx runtime.
About 2 s.
"""
import json
import os
import subprocess
import sys

import numpy as np
from onnx import load_tensor, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from decode_reference_test import ATOL, RTOL, main, write  # noqa: E402


def run_model(lpx, ref_dir, model, tmp):
    with open(os.path.join(ref_dir, f"{model}.json")) as f:
        ref = json.load(f)
    ids = ref["prompt_ids"]
    s = len(ids)
    onnx_file = os.path.join(tmp, f"{model}-prefill.onnx")
    prog = os.path.join(tmp, f"{model}-prefill.lpxb")
    subprocess.run([lpx, "models", "export", model, "-o", onnx_file,
                    "--prompt", str(s), "--context", str(s)],
                   check=True, capture_output=True)
    subprocess.run([lpx, "compile", onnx_file, "-o", prog, "--nodes", "2"],
                   check=True, capture_output=True)
    import onnx
    g = onnx.load(onnx_file).graph
    values = {"input_ids": np.array([ids], np.int64),
              "position_ids": np.arange(s, dtype=np.int64)[None, :],
              "attention_mask": np.ones((1, s), np.int64)}
    data, out = os.path.join(tmp, "in"), os.path.join(tmp, "out")
    for d in (data, out):
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            os.remove(os.path.join(d, f))
    for i, inp in enumerate(g.input):
        write(data, i, inp.name, values[inp.name])
    r = subprocess.run([lpx, "run", prog, "--data", data, "--out", out],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError(f"lpx run failed: {r.stderr.strip()}")
    names = [o.name for o in g.output]
    logits = numpy_helper.to_array(
        load_tensor(os.path.join(out, f"output_{names.index('logits')}.pb")))
    worst = 0.0
    for i in range(s):
        want = np.array(ref["logits"][i], np.float32)
        err = np.abs(logits[0, i] - want)
        worst = max(worst, float(err.max()))
        if not np.all(err <= ATOL + RTOL * np.abs(want)):
            raise AssertionError(f"token {i}: logits differ from onnxruntime's "
                                 f"step {i} by {err.max():.3g}")
    print(f"ok   {model}: prefill of {s} tokens matches onnxruntime's {s} "
          f"steps, worst logit error {worst:.2e}")


if __name__ == "__main__":
    sys.exit(main(run_model))
