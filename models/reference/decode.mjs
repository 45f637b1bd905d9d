// Greedy decoding of the tiny presets by onnxruntime: the reference the lpx
// decode path is checked against (issue 9), from an implementation
// independent of lpx.
//
//   ORT_DIR=/tmp/ort node models/reference/decode.mjs LPX OUT_DIR [--batch B] [--opset 23] [MODEL...]
//
// For each MODEL (default tiny-llama tiny-gpt2) it runs `LPX models export
// MODEL` (context 64, batch B, default 1), then feeds each sequence's prompt
// (sequence b: 1, 2, 3 plus 6 b) one token per step and generates 32 tokens
// per sequence greedily, carrying the KV cache: the present.{i}.key/.value
// of a step, minus its oldest position, is the next step's past_key_values
// (the cache has a fixed 63 past slots; the attention_mask marks the filled
// ones, right-aligned). It writes OUT_DIR/MODEL.json (batch 1) or
// OUT_DIR/MODEL-batchB.json: prompt_ids, generated_ids and the logits of
// every step (prompt steps included), float32 values printed with 9
// significant digits. With --opset 23 the export is written with opset 23's
// Attention, RotaryEmbedding, RMSNormalization and Gelu (MODEL-opset23.json).
// At batch 1 prompt_ids and generated_ids are lists of
// ids and logits[step] one row; at batch B they are lists per sequence and
// logits[step] has a row per sequence.
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

const PROMPT = [1, 2, 3]; // sequence b: each id plus 6 b
const NEW_TOKENS = 32;
const CONTEXT = 64;

function dimsOf(session, name) {
  const meta = session.inputMetadata?.find?.((m) => m.name === name);
  return meta?.shape;
}

function argmax(row) {
  let best = 0;
  for (let v = 1; v < row.length; ++v) if (row[v] > row[best]) best = v;
  return best;
}

async function decode(lpx, model, outDir, batch, opset) {
  const prompts = Array.from({ length: batch }, (_, b) => PROMPT.map((id) => id + 6 * b));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lpx-decode-"));
  const file = path.join(tmp, `${model}.onnx`);
  execFileSync(lpx, ["models", "export", model, "-o", file, "--context", String(CONTEXT),
                     "--batch", String(batch), ...(opset ? ["--opset", String(opset)] : [])]);
  const session = await ort.InferenceSession.create(file, { graphOptimizationLevel: "disabled" });
  const pastNames = session.inputNames.filter((n) => n.startsWith("past_key_values."));
  // [1, kv, CONTEXT-1, hd] from the first present output's shape after a step;
  // the export's input shapes are static, read them from a dry allocation.
  let past = null;
  const ids = prompts.map((p) => [...p]);
  const logitsPerStep = [];
  for (let step = 0; step < PROMPT.length + NEW_TOKENS - 1; ++step) {
    const feeds = {
      input_ids: new ort.Tensor("int64", BigInt64Array.from(ids, (s) => BigInt(s[step])), [batch, 1]),
      position_ids: new ort.Tensor("int64", new BigInt64Array(batch).fill(BigInt(step)), [batch, 1]),
    };
    const mask = new BigInt64Array(batch * CONTEXT);
    for (let b = 0; b < batch; ++b)
      for (let j = CONTEXT - 1 - step; j < CONTEXT; ++j) mask[b * CONTEXT + j] = 1n;
    feeds.attention_mask = new ort.Tensor("int64", mask, [batch, CONTEXT]);
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
    const vocab = out.logits.dims[2];
    const rows = Array.from({ length: batch }, (_, b) =>
      Array.from(out.logits.data.subarray(b * vocab, (b + 1) * vocab), (v) => Number(v.toPrecision(9))));
    logitsPerStep.push(batch === 1 ? rows[0] : rows);
    past = {};
    for (const name of pastNames) {
      const present = out[name.replace("past_key_values.", "present.")];
      const [b, kv, len, hd] = present.dims;
      const keep = new Float32Array(b * kv * (len - 1) * hd);
      for (let h = 0; h < b * kv; ++h)
        keep.set(present.data.subarray((h * len + 1) * hd, (h + 1) * len * hd), h * (len - 1) * hd);
      past[name] = new ort.Tensor("float32", keep, [b, kv, len - 1, hd]);
    }
    if (step >= PROMPT.length - 1)
      for (let b = 0; b < batch; ++b) ids[b].push(argmax(out.logits.data.subarray(b * vocab, (b + 1) * vocab)));
  }
  fs.rmSync(tmp, { recursive: true });
  const generated = ids.map((s) => s.slice(PROMPT.length));
  const result = {
    model,
    context: CONTEXT,
    ...(batch === 1 ? {} : { batch }),
    ...(opset ? { opset } : {}),
    prompt_ids: batch === 1 ? prompts[0] : prompts,
    generated_ids: batch === 1 ? generated[0] : generated,
    logits: logitsPerStep,
    onnxruntime: require("onnxruntime-node/package.json").version,
  };
  const name = `${model}${batch === 1 ? "" : `-batch${batch}`}${opset ? `-opset${opset}` : ""}.json`;
  fs.writeFileSync(path.join(outDir, name), JSON.stringify(result) + "\n");
  console.log(`${name}: generated ${generated.map((s) => s.join(",")).join(" | ")}`);
}

const [lpx, outDir, ...rest] = process.argv.slice(2);
let batch = 1;
if (rest[0] === "--batch") {
  batch = Number(rest[1]);
  rest.splice(0, 2);
}
let opset = 0;
if (rest[0] === "--opset") {
  opset = Number(rest[1]);
  rest.splice(0, 2);
}
if (!lpx || !outDir || !(Number.isInteger(batch) && batch >= 1)) {
  console.error("usage: node decode.mjs LPX OUT_DIR [--batch B] [--opset 23] [MODEL...]");
  process.exit(2);
}
fs.mkdirSync(outDir, { recursive: true });
for (const m of rest.length ? rest : ["tiny-llama", "tiny-gpt2"]) await decode(lpx, m, outDir, batch, opset);
