// Greedy decoding of the tiny presets by onnxruntime: the reference the lpx
// decode path is checked against (issue 9), from an implementation
// independent of lpx.
//
//   ORT_DIR=/tmp/ort node models/reference/decode.mjs LPX OUT_DIR [MODEL...]
//
// For each MODEL (default tiny-llama tiny-gpt2) it runs `LPX models export
// MODEL` (context 64, batch 1), then feeds the prompt ids 1, 2, 3 one token
// per step and generates 32 tokens greedily, carrying the KV cache: the
// present.{i}.key/.value of a step, minus its oldest position, is the next
// step's past_key_values (the cache has a fixed 63 past slots; the
// attention_mask marks the filled ones, right-aligned). It writes
// OUT_DIR/MODEL.json: prompt_ids, generated_ids and the logits of every step
// (prompt steps included), float32 values printed with 9 significant digits.
//
// onnxruntime-node is not a dependency of the repository and CI does not need
// it; install it outside (see models/README.md) with --ignore-scripts.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

const ortDir = process.env.ORT_DIR || "/tmp/ort";
const require = createRequire(path.join(path.resolve(ortDir), "package.json"));
const ort = require("onnxruntime-node");

const PROMPT = [1, 2, 3];
const NEW_TOKENS = 32;
const CONTEXT = 64;

function dimsOf(session, name) {
  const meta = session.inputMetadata?.find?.((m) => m.name === name);
  return meta?.shape;
}

async function decode(lpx, model, outDir) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lpx-decode-"));
  const file = path.join(tmp, `${model}.onnx`);
  execFileSync(lpx, ["models", "export", model, "-o", file, "--context", String(CONTEXT)]);
  const session = await ort.InferenceSession.create(file, { graphOptimizationLevel: "disabled" });
  const pastNames = session.inputNames.filter((n) => n.startsWith("past_key_values."));
  // [1, kv, CONTEXT-1, hd] from the first present output's shape after a step;
  // the export's input shapes are static, read them from a dry allocation.
  let past = null;
  const ids = [...PROMPT];
  const logitsPerStep = [];
  for (let step = 0; step < PROMPT.length + NEW_TOKENS - 1; ++step) {
    const feeds = {
      input_ids: new ort.Tensor("int64", BigInt64Array.from([BigInt(ids[step])]), [1, 1]),
      position_ids: new ort.Tensor("int64", BigInt64Array.from([BigInt(step)]), [1, 1]),
    };
    const mask = new BigInt64Array(CONTEXT);
    for (let j = CONTEXT - 1 - step; j < CONTEXT; ++j) mask[j] = 1n;
    feeds.attention_mask = new ort.Tensor("int64", mask, [1, CONTEXT]);
    for (const name of pastNames) {
      if (!past) {
        const shape = dimsOf(session, name) || null;
        if (!shape) throw new Error("cannot read the shape of " + name);
        feeds[name] = new ort.Tensor("float32", new Float32Array(shape.reduce((a, b) => a * b, 1)), shape);
      } else {
        feeds[name] = past[name];
      }
    }
    const out = await session.run(feeds);
    const logits = out.logits.data;
    logitsPerStep.push(Array.from(logits, (v) => Number(v.toPrecision(9))));
    past = {};
    for (const name of pastNames) {
      const present = out[name.replace("past_key_values.", "present.")];
      const [b, kv, len, hd] = present.dims;
      const keep = new Float32Array(b * kv * (len - 1) * hd);
      for (let h = 0; h < b * kv; ++h)
        keep.set(present.data.subarray((h * len + 1) * hd, (h + 1) * len * hd), h * (len - 1) * hd);
      past[name] = new ort.Tensor("float32", keep, [b, kv, len - 1, hd]);
    }
    if (step >= PROMPT.length - 1) {
      let best = 0;
      for (let v = 1; v < logits.length; ++v) if (logits[v] > logits[best]) best = v;
      ids.push(best);
    }
  }
  fs.rmSync(tmp, { recursive: true });
  const result = {
    model,
    context: CONTEXT,
    prompt_ids: PROMPT,
    generated_ids: ids.slice(PROMPT.length),
    logits: logitsPerStep,
    onnxruntime: require("onnxruntime-node/package.json").version,
  };
  fs.writeFileSync(path.join(outDir, `${model}.json`), JSON.stringify(result) + "\n");
  console.log(`${model}: generated ${result.generated_ids.join(",")}`);
}

const [lpx, outDir, ...models] = process.argv.slice(2);
if (!lpx || !outDir) {
  console.error("usage: node decode.mjs LPX OUT_DIR [MODEL...]");
  process.exit(2);
}
fs.mkdirSync(outDir, { recursive: true });
for (const m of models.length ? models : ["tiny-llama", "tiny-gpt2"]) await decode(lpx, m, outDir);
