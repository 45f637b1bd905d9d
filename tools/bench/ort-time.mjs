// Wall time of onnxruntime-node on one model, for tools/bench/runtime.sh.
//
//   ORT_DIR=/tmp/ort node tools/bench/ort-time.mjs MODEL_DIR [RUNS]
//
// Creates a CPU session for MODEL_DIR/model.onnx (default graph optimisations,
// default threads: onnxruntime as a user would run it), feeds
// MODEL_DIR/test_data_set_0/input_<i>.pb and runs RUNS inferences (default 3).
// Prints one line: "ort: session S s, inference MEDIAN s (median of RUNS,
// fastest F s)".
import path from "node:path";
import { createRequire } from "node:module";
import { readFeeds } from "../../models/reference/tensorproto.mjs";

const ortDir = process.env.ORT_DIR || "/tmp/ort";
const require = createRequire(path.join(path.resolve(ortDir), "package.json"));
const ort = require("onnxruntime-node");

const [modelDir, runsArg] = process.argv.slice(2);
if (!modelDir) {
  console.error("usage: node tools/bench/ort-time.mjs MODEL_DIR [RUNS]");
  process.exit(2);
}
const runs = Number(runsArg || 3);
const seconds = (t0) => Number(process.hrtime.bigint() - t0) / 1e9;

let t0 = process.hrtime.bigint();
const session = await ort.InferenceSession.create(path.join(modelDir, "model.onnx"), {
  executionProviders: ["cpu"],
});
const sessionSeconds = seconds(t0);
const feeds = readFeeds(ort, session, path.join(modelDir, "test_data_set_0"));
const times = [];
for (let i = 0; i < runs; i++) {
  t0 = process.hrtime.bigint();
  await session.run(feeds);
  times.push(seconds(t0));
}
times.sort((a, b) => a - b);
console.log(`ort: session ${sessionSeconds.toFixed(3)} s, inference ` +
            `${times[Math.floor(times.length / 2)].toFixed(3)} s (median of ${runs}, ` +
            `fastest ${times[0].toFixed(3)} s)`);
