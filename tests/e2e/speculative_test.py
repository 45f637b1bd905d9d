#!/usr/bin/python3
"""Speculative decoding (`lpx decode --draft D --speculate K`, issue 27).

Usage: speculative_test.py LPX REFERENCE_DIR

1. Correctness: greedy speculative decoding on the CPU runtime (`--run
   --draft D --speculate K`) yields onnxruntime's greedy ids of the target
   (REFERENCE_DIR/MODEL-batch2.json, from models/reference/decode.mjs; each
   of its two prompts run as a sequence of its own), with the target as its
   own draft (every draft kept: the draft's catch-up step), with another
   tiny preset of the same vocabulary (few or no drafts kept), and on 8
   chips (the verification placed as the step, tensor-parallel).
2. Timing: the draft's step is what `lpx decode --model D` reports for the
   same shapes; the verification is the step of K + 1 tokens into the
   L-position cache as `lpx models export --prompt K+1 --context L`, `lpx
   compile --resident-kv` and `lpx simulate` time it; the tokens per round
   (1 - a^(K+1)) / (1 - a), the round (K + a^K) draft steps plus the
   verification, and tokens/s per user follow from them.
3. Measured acceptance: `--accept measured` counts what a `--run` over the
   same prompt set counts.
4. Bad input: one line, exit 2.
About 10 s.
"""
import json
import os
import subprocess
import sys
import tempfile

CHIP = ["--chip", "lpx3"]


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed: {r.stderr.strip()}")
    return r.stdout


def lpx_json(lpx, *args):
    return json.loads(run([lpx, *args, "--json"]))


def close(a, b, what):
    if abs(a - b) > 1e-9 * max(1.0, abs(b)):
        raise AssertionError(f"{what}: {a} is not {b}")


def check_generation(lpx, ref_dir):
    cases = [("tiny-llama", "tiny-llama", 4, 1), ("tiny-llama", "tiny-mixtral", 3, 1),
             ("tiny-gpt2", "tiny-gpt2", 2, 1), ("tiny-gpt2", "tiny-llama", 3, 1),
             ("tiny-mixtral", "tiny-mixtral", 5, 1), ("tiny-mixtral", "tiny-llama", 2, 1),
             ("tiny-llama", "tiny-mixtral", 2, 8)]
    for target, draft, k, chips in cases:
        with open(f"{ref_dir}/{target}-batch2.json") as f:
            ref = json.load(f)
        cmd = ["decode", "--model", target, "--run", "--draft", draft,
               "--speculate", str(k), "--context", str(ref["context"]),
               "--tokens", str(len(ref["generated_ids"][0])), "--chips", str(chips)]
        for p in ref["prompt_ids"]:
            cmd += ["--prompt-ids", ",".join(map(str, p))]
        got = lpx_json(lpx, *cmd)
        if got["generated_ids"] != ref["generated_ids"]:
            raise AssertionError(f"{target} with draft {draft}, K={k}: generated "
                                 f"{got['generated_ids']}, onnxruntime "
                                 f"{ref['generated_ids']}")
        s = got["speculative"]
        if s["tokens"] != s["accepted"] + s["rounds"] or s["drafted"] != k * s["rounds"]:
            raise AssertionError(f"rounds do not add up: {s}")
        if draft == target and (s["acceptance"] != 1 or s["all_accepted_rounds"] != s["rounds"]):
            raise AssertionError(f"{target} as its own draft kept {s}")
        print(f"ok   {target} with draft {draft}, K={k}, {chips} chip(s): "
              f"onnxruntime's ids, acceptance {s['acceptance']:.3f}")


def check_timing(lpx, k=4, a=0.7):
    spec = lpx_json(lpx, "decode", "--model", "tiny-llama", *CHIP, "--draft",
                    "tiny-gpt2", "--speculate", str(k), "--accept", str(a))
    s = spec["speculative"]
    context, prompt = spec["context"], spec["prompt"]
    draft = lpx_json(lpx, "decode", "--model", "tiny-gpt2", *CHIP, "--context",
                     str(context), "--prompt", str(prompt))
    close(s["draft_step_us"], draft["tpot_us"], "draft step")
    if s["draft_chips"] != draft["chips"] or s["acceptance_source"] != "given":
        raise AssertionError(f"draft chips {s['draft_chips']}, {draft['chips']}")
    with tempfile.TemporaryDirectory() as tmp:
        onnx_file, prog = os.path.join(tmp, "v.onnx"), os.path.join(tmp, "v.lpxb")
        run([lpx, "models", "export", "tiny-llama", "-o", onnx_file, "--prompt",
             str(k + 1), "--context", str(context)])
        run([lpx, "compile", onnx_file, "-o", prog, "--resident-kv", *CHIP,
             "--nodes", str(spec["chips"]), "--weights", spec["weights"],
             "--activations", spec["activations"]])
        sim = lpx_json(lpx, "simulate", prog)
    if sim["hazard_count"]:
        raise AssertionError(f"the verification step has {sim['hazard_count']} hazards")
    close(s["verify_step_compute_us"], sim["time_us"], "verification step")
    close(s["verify_step_host_io_us"], sim["host_input_us"] + sim["host_output_us"],
          "verification host I/O")
    per_round = (1 - a ** (k + 1)) / (1 - a)
    close(s["tokens_per_round"], per_round, "tokens per round")
    round_us = (k + a ** k) * s["draft_step_us"] + s["verify_step_us"]
    close(s["round_us"], round_us, "round")
    close(s["tokens_per_second_per_user"], per_round / round_us * 1e6, "tokens/s per user")
    close(s["target_tokens_per_second_per_user"], spec["tokens_per_second_per_user"],
          "without speculation")
    print(f"ok   timing: draft step {s['draft_step_us']:.2f} us, verification of "
          f"{k + 1} tokens {s['verify_step_us']:.2f} us as simulated, "
          f"{s['tokens_per_second_per_user']:.1f} tokens/s per user")


def check_measured(lpx, k=3):
    spec = lpx_json(lpx, "decode", "--model", "tiny-llama", *CHIP, "--draft",
                    "tiny-mixtral", "--speculate", str(k), "--context", "64",
                    "--prompt", "3", "--accept", "measured")
    s = spec["speculative"]
    cmd = ["decode", "--model", "tiny-llama", *CHIP, "--run", "--draft",
           "tiny-mixtral", "--speculate", str(k), "--context", "64", "--tokens", "32"]
    for b in range(4):  # decode.mjs's prompts: 1, 2, 3 plus 6 b
        cmd += ["--prompt-ids", ",".join(str(i + 6 * b) for i in (1, 2, 3))]
    counted = lpx_json(lpx, *cmd)["speculative"]
    for key in ("rounds", "drafted", "compared", "accepted", "all_accepted_rounds", "tokens"):
        if s["measured"][key] != counted[key]:
            raise AssertionError(f"measured {key} {s['measured'][key]}, the run's {counted[key]}")
    close(s["acceptance"], counted["acceptance"], "measured acceptance")
    close(s["tokens_per_round"], counted["tokens_per_round"], "measured tokens per round")
    if s["acceptance_source"] != "measured" or not 0 < s["acceptance"] < 1:
        raise AssertionError(f"measured acceptance {s['acceptance']}")
    print(f"ok   measured acceptance {s['acceptance']:.3f} over "
          f"{s['measured']['prompts']} prompts, as the --run counts it")


def check_bad_input(lpx):
    base = ["decode", "--model", "tiny-llama"]
    for args, says in [
            (["--draft", "nope", "--speculate", "2"], "unknown model preset"),
            (["--draft", "tiny-gpt2", "--speculate", "0"], "--speculate '0'"),
            (["--draft", "tiny-gpt2", "--speculate", "65"], "--speculate '65'"),
            (["--draft", "tiny-gpt2", "--speculate", "x"], "--speculate 'x'"),
            (["--draft", "tiny-gpt2"], "needs --speculate"),
            (["--speculate", "3"], "go with --draft"),
            (["--draft", "tiny-gpt2", "--speculate", "2", "--accept", "0"], "--accept '0'"),
            (["--draft", "tiny-gpt2", "--speculate", "2", "--accept", "1.5"], "--accept '1.5'"),
            (["--draft", "tiny-gpt2", "--speculate", "2", "--accept", "nan"], "--accept 'nan'"),
            (["--draft", "tiny-vocab", "--speculate", "2"], "do not share a vocabulary"),
            (["--draft", "tiny-gpt2", "--speculate", "2", "--run", "--accept", "0.5"],
             "--accept goes without --run"),
            (["--draft", "tiny-gpt2", "--speculate", "2", "--context-sweep", "64",
              "-o", "x.csv"], "--draft times one deployment"),
            (["--draft", "tiny-gpt2", "--speculate", "60", "--context", "64",
              "--prompt", "8", "--accept", "0.5"], "cache positions")]:
        r = subprocess.run([lpx, *base, *args], capture_output=True, text=True)
        lines = r.stderr.strip().splitlines()
        if r.returncode != 2 or r.stdout or len(lines) != 1 or says not in lines[0]:
            raise AssertionError(f"{' '.join(args)}: exit {r.returncode}, "
                                 f"stderr {r.stderr!r}, wanted one line with {says!r}")
    for args, says in [(["--model", "llama2-70b", "--draft", "mixtral-8x7b"],
                        "do not share a vocabulary"),
                       (["--model", "llama2-70b", "--draft", "llama2-7b"],
                        "--accept measured runs")]:
        r = subprocess.run([lpx, "decode", *args, "--speculate", "4"],
                           capture_output=True, text=True)
        if r.returncode != 2 or says not in r.stderr or r.stdout:
            raise AssertionError(f"{' '.join(args)}: exit {r.returncode}, {r.stderr!r}")
    print("ok   bad input: one line, exit 2")


def main():
    lpx, ref_dir = sys.argv[1:3]
    check_generation(lpx, ref_dir)
    check_timing(lpx)
    check_measured(lpx)
    check_bad_input(lpx)


if __name__ == "__main__":
    main()
