// Expected outputs for an lpx built-in model, from an implementation independent
// of lpx: onnxruntime (the onnxruntime-node npm package, CPU provider).
//
//   node models/reference/expected.mjs MODEL_DIR [MODEL_DIR...]
//
// For each MODEL_DIR it loads MODEL_DIR/model.onnx, reads every
// MODEL_DIR/test_data_set_0/input_<i>.pb (ONNX TensorProto, bound by its `name`
// field), runs the model and writes MODEL_DIR/test_data_set_0/output_<i>.pb,
// one per graph output in graph output order (TensorProto: dims, data_type,
// name, raw_data; float32 only).
//
// onnxruntime-node is NOT a dependency of the repository and is not needed by
// CI: the produced output_<i>.pb files are committed. Install it outside the
// repository and point NODE_PATH-less resolution at it with ORT_DIR:
//
//   mkdir -p /tmp/ort && (cd /tmp/ort && npm init -y && npm install --ignore-scripts onnxruntime-node)
//   ORT_DIR=/tmp/ort node models/reference/expected.mjs models/mlp models/llama_step
//
// (--ignore-scripts skips the package's post-install download; the CPU library
// ships inside the package.)

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { readFeeds, serializeFloatTensor } from "./tensorproto.mjs";

const ortDir = process.env.ORT_DIR || "/tmp/ort";
const require = createRequire(path.join(path.resolve(ortDir), "package.json"));
const ort = require("onnxruntime-node");

function writeAtomic(file, bytes) {
  fs.writeFileSync(file + ".tmp", bytes);
  fs.renameSync(file + ".tmp", file);
}

async function run(modelDir) {
  const dataDir = path.join(modelDir, "test_data_set_0");
  const session = await ort.InferenceSession.create(path.join(modelDir, "model.onnx"), {
    executionProviders: ["cpu"],
    graphOptimizationLevel: "disabled", // evaluate the graph as written
  });
  const feeds = readFeeds(ort, session, dataDir);

  const results = await session.run(feeds);
  session.outputNames.forEach((name, i) => {
    const r = results[name];
    if (r.type !== "float32") throw new Error(`output '${name}' has type ${r.type}, expected float32`);
    const file = path.join(dataDir, `output_${i}.pb`);
    writeAtomic(file, serializeFloatTensor(name, r.dims, r.data));
    console.log(`${file}: '${name}' [${r.dims.join(",")}]`);
  });
}

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  console.error("usage: node models/reference/expected.mjs MODEL_DIR [MODEL_DIR...]");
  process.exit(2);
}
for (const d of dirs) {
  try {
    await run(d);
  } catch (e) {
    console.error(`error: ${d}: ${e.message}`);
    process.exit(1);
  }
}
