//===- main.cpp - The lpx command line ------------------------------------===//
//
// Only argument parsing lives here; each subcommand is in its own file.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "lpx/deploy/WordOptions.h"

#include "lpx/isa/ChipSpec.h"
#include <CLI/CLI.hpp>
#include <functional>

using namespace lpx::cli;
using namespace lpx::deploy;

/// Options that set words of the deployment layer (WordOptions.h).
template <typename Words>
static void addWords(CLI::App *app, llvm::ArrayRef<WordOption<Words>> options,
                     std::common_type_t<Words> &words) {
  for (const WordOption<Words> &o : options)
    app->add_option(o.flags, words.*o.word, o.help);
}

/// A command over a deployment (decode, serve, endpoint) with the
/// deployment options they share.
static CLI::App *addDeploymentCommand(CLI::App &app, const char *name,
                                      const std::string &help,
                                      DeploymentArgs &a,
                                      const std::string &defaultChip) {
  CLI::App *d = app.add_subcommand(name, help);
  d->add_option("--model", a.model,
                "Preset (see `lpx models list`) or an ONNX decode-step model")
      ->required();
  d->add_option("--chip", a.chip,
                "Chip preset or description file (default: " + defaultChip + ")");
  d->add_option("--set", a.sets, "Change a chip parameter: key=value (repeatable)");
  addWords(d, deploymentWordOptions(), a);
  return d;
}

/// A study's options (StudyRun.h): the grid, the points at once, the
/// plotted column and the part to run.
static void addStudyOptions(CLI::App *d, StudyOptions &o,
                            const std::string &sweepHelp,
                            const std::string &jobsHelp,
                            const char *defaultMetric, const char *shardHelp) {
  d->add_option("--sweep", o.sweeps, sweepHelp);
  d->add_option("--jobs,-j", o.jobs, jobsHelp)->check(CLI::Range(1u, 1024u));
  d->add_option("--metric", o.metric,
                std::string("What a --sweep study plots: a column of its CSV "
                            "(default ") + defaultMetric + ")");
  d->add_option("--shard", o.shard, shardHelp);
}

int main(int argc, char **argv) {
  CLI::App app{"lpx: compile ONNX models for an LPX-like dataflow chip, "
               "simulate them cycle by cycle and run them on the CPU"};
  app.require_subcommand(1);
  std::string defaultChip = lpx::isa::presetNames().front();

  CompileArgs compile;
  auto *c = app.add_subcommand("compile", "Compile an ONNX model into a program");
  c->add_option("model", compile.model, "ONNX model file")->required();
  c->add_option("-o,--output", compile.output, "Output file")->required();
  c->add_option("--chip", compile.chip,
                "Chip preset or description file (default: " + defaultChip + ")");
  c->add_option("--nodes", compile.nodes, "Number of nodes (chips)")
      ->check(CLI::Range(1u, 1u << 20));
  c->add_option("--tp", compile.tp,
                "Chips per tensor-parallel group (default: a group, up to "
                "the model's KV heads)")
      ->check(CLI::Range(1u, 1u << 20));
  c->add_option("--pp", compile.pp,
                "Pipeline stages of consecutive layers (default: the nodes "
                "left over by --tp)")
      ->check(CLI::Range(1u, 1u << 20));
  c->add_option("--input-shape", compile.inputShapes,
                "Pin an input's shape: name=1x128 (repeatable)");
  c->add_option("--const-input", compile.constInputs,
                "Fold an input to a constant from a TensorProto file: "
                "name=file.pb (repeatable)");
  c->add_option("--emit", compile.emit,
                "What to write: program, or the IR after a level: graph, "
                "partitioned, scheduled")
      ->check(CLI::IsMember({"program", "graph", "partitioned", "scheduled"}));
  c->add_option("--weights", compile.weights,
                "Number format of MatMul weights: fp32, fp16, bf16, fp8e4m3, "
                "fp8e5m2 (default: the model's)");
  c->add_option("--activations", compile.activations,
                "Number format of all other floating-point values");
  c->add_flag("--resident-kv", compile.residentKV,
             "Keep a decoder's KV cache resident in SRAM, appended in place "
             "at position_ids (its past/present inputs and outputs go)");
  c->add_option("--kv-context", compile.kvContext,
                "With --resident-kv, for a prefill exported without a past: "
                "the cache positions its present outputs are written into "
                "(the decode step's context)")
      ->check(CLI::Range(int64_t(1), int64_t(1) << 30));
  c->add_option("--chunks", compile.chunks,
                "With --resident-kv, for the step of one prefill chunk: the "
                "program runs this many chunks, pipelined through the stages "
                "(lpx-unroll-chunks)")
      ->check(CLI::Range(1u, 1u << 16));
  c->add_option("--set", compile.sets,
                "Change a chip parameter: key=value, e.g. link.latency=108 or "
                "sram.bytes=128MiB (repeatable; see `lpx chip keys`)");

  SweepArgs sweep;
  auto *w = app.add_subcommand(
      "sweep", "Compile and simulate a model over a grid of chip parameters "
               "and node counts");
  // Not ->required(): `lpx sweep merge` has neither; runSweep checks them.
  w->add_option("model", sweep.model, "ONNX model file");
  w->add_option("-o,--output", sweep.output, "CSV file, one row per point");
  w->add_option("--plot", sweep.plot,
                "SVG line chart of the metric against the first swept key");
  w->add_option("--chip", sweep.chip,
                "Chip preset or description file (default: " + defaultChip +
                    ")");
  w->add_option("--set", sweep.sets,
                "An axis: key=v1,v2,... or key=a..b:step or key=a..b:*factor; "
                "`nodes` sweeps the node count (repeatable)");
  w->add_option("--nodes", sweep.nodes, "Node count or list such as 1,2,4");
  w->add_option("--input-shape", sweep.inputShapes,
                "Pin an input's shape: name=1x128 (repeatable)");
  w->add_option("--const-input", sweep.constInputs,
                "Fold an input to a constant: name=file.pb (repeatable)");
  w->add_option("--metric", sweep.metric,
                "What to plot: cycles, seconds, efficiency, tokens_per_s "
                "(default: seconds)");
  w->add_option("--jobs,-j", sweep.jobs,
                "Points compiled at once (default: one per hardware thread)")
      ->check(CLI::Range(1u, 1024u));
  w->add_option("--shard", sweep.shard,
                "Run only part I of N of the grid (I/N, 1 <= I <= N); join "
                "the parts with `lpx sweep merge`");
  w->add_flag("--sensitivity", sweep.sensitivity,
              "Instead of a grid: the chip as described, then each "
              "assumption with a stated range alone at its low and high end "
              "(-o: CSV, --plot: tornado SVG, --report: page)");
  w->add_option("--report", sweep.report, "--sensitivity's HTML page");
  SweepMergeArgs merge;
  auto *wm = w->add_subcommand(
      "merge", "Join the part files of `lpx sweep --shard` (or of `lpx "
               "decode --sweep --shard`) into the unsharded CSV (and plot)");
  wm->add_option("parts", merge.parts, "Part files (CSV)")->required();
  wm->add_option("-o,--output", merge.output, "CSV file")->required();
  wm->add_option("--plot", merge.plot, "SVG line chart, as `lpx sweep`");
  wm->add_option("--report", merge.report, "A study's HTML page, as its --report");
  wm->add_option("--metric", merge.metric,
                 "What to plot: cycles, seconds, efficiency, tokens_per_s "
                 "(default: seconds); of a study, a column (default tpot_us)");
  w->require_subcommand(0, 1);

  SimulateArgs simulate;
  auto *s = app.add_subcommand("simulate", "Simulate a program cycle by cycle");
  s->add_option("program", simulate.program, "Program file")->required();
  s->add_flag("--json", simulate.json, "Machine-readable output");
  s->add_option("--max-cycles", simulate.maxCycles,
                "Stop with an error past this cycle");
  s->add_option("--trace", simulate.trace,
                "Write the timeline as Chrome/Perfetto trace-event JSON "
                "(open in ui.perfetto.dev or chrome://tracing)");
  s->add_option("--report", simulate.report,
                "Write a self-contained HTML report: timeline, utilisation, "
                "SRAM map, bounds, instruction table");
  s->add_flag("--per-layer", simulate.perLayer,
              "Also list cycles, MACs and MXM utilisation per ONNX node");
  s->add_flag("--no-vector-check", simulate.noVectorCheck,
              "Skip the vector-granular check (its own timing model; about "
              "half the simulation time)");
  s->add_flag("--sensitivity", simulate.sensitivity, "Re-simulate with each ranged assumption the compiler does not read at both ends of its range: the band (-o CSV, --plot tornado, --report page)");
  s->add_option("-o,--output", simulate.output, "--sensitivity's CSV");
  s->add_option("--plot", simulate.plot, "--sensitivity's tornado SVG");

  PerturbArgs perturb;
  auto *pt = app.add_subcommand(
      "perturb", "Move one instruction of a program earlier, to see the "
                 "simulator catch the hazard (docs/tutorial.md)");
  pt->add_option("program", perturb.program, "Program file")->required();
  pt->add_option("--early", perturb.instruction,
                 "Index of the instruction to move, in issue order from 0 (the "
                 "numbers of `lpx simulate --report` and --trace)")
      ->required();
  pt->add_option("--by", perturb.cycles, "Cycles earlier (default: 1)")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 62));
  pt->add_option("-o,--output", perturb.output, "Output program file")
      ->required();

  RunArgs run;
  auto *r = app.add_subcommand("run", "Run a program on the CPU runtime and "
                                      "compare with expected outputs");
  r->add_option("program", run.program, "Program file")->required();
  r->add_option("--data", run.dataDir,
                "Folder with input_N.pb (and output_N.pb to compare)")
      ->required();
  r->add_option("--out", run.outDir, "Write the outputs as output_N.pb here");
  r->add_option("--rtol", run.rtol, "Relative tolerance");
  r->add_option("--atol", run.atol, "Absolute tolerance");
  r->add_flag("--time", run.time,
              "Print the program's load time and the wall time per inference");
  r->add_option("--repeat", run.repeat,
                "Run the inference this many times (with --time: the median "
                "and the fastest)")
      ->check(CLI::Range(1u, 1000000u));
  r->add_option("--tolerance-of", run.toleranceOf,
                "Compare floating-point outputs with the tolerances of this "
                "number format (default: the coarser of the formats the "
                "program was compiled with, --weights/--activations); "
                "integer and bool outputs stay exact")
      ->check(CLI::IsMember({"fp32", "fp16", "bf16", "fp8e4m3", "fp8e5m2"}));

  InspectArgs inspect;
  auto *i = app.add_subcommand("inspect", "Print a program's instruction "
                                          "streams per node");
  i->add_option("program", inspect.program, "Program file")->required();

  auto *chip = app.add_subcommand("chip", "Chip descriptions");
  chip->require_subcommand(1);
  auto *chipList = chip->add_subcommand("list", "List the built-in presets");
  std::string showName = defaultChip, validateFile, keysChip = defaultChip;
  std::vector<std::string> showSets;
  bool keysJson = false;
  auto *show =
      chip->add_subcommand("show", "Print a resolved chip description");
  show->add_option("chip", showName, "Preset or file");
  show->add_option("--set", showSets,
                   "Change a parameter first: key=value (repeatable; keys: "
                   "`lpx chip keys`)");
  auto *validate =
      chip->add_subcommand("validate", "Check a chip description file");
  validate->add_option("file", validateFile, "Description file")->required();
  auto *keys = chip->add_subcommand(
      "keys", "List what --set changes: key, type, unit, the chip's value");
  keys->add_option("--chip", keysChip, "Preset or file");
  keys->add_flag("--json", keysJson, "Machine-readable output");

  auto *models = app.add_subcommand(
      "models", "Decoder-only LLM presets (published dimensions) as ONNX");
  models->require_subcommand(1);
  auto *modelsList = models->add_subcommand("list", "List the presets");
  ModelsExportArgs exportArgs;
  auto *x = models->add_subcommand(
      "export", "Write a preset's decode step (or prefill) as an ONNX model");
  x->add_option("name", exportArgs.name, "Preset (see `lpx models list`)")
      ->required();
  x->add_option("-o,--output", exportArgs.output, "ONNX file to write")
      ->required();
  x->add_flag("--shape-only", exportArgs.shapeOnly,
              "Weights without data (for compiling and simulating only)");
  x->add_flag("--ffn-only", exportArgs.ffnOnly, "The MLP/expert blocks alone (the LPX side of `lpx decode --afd`)");
  x->add_option("--layers", exportArgs.layers,
                "Decoder layers (default: all of the preset's)");
  x->add_option("--context", exportArgs.context,
                "Positions in the KV cache after the step (default: the "
                "preset's, see `lpx models list`)");
  x->add_option("--batch", exportArgs.batch, "Sequences per step (default 1)");
  x->add_option("--prompt", exportArgs.prompt,
                "Tokens per sequence in the step (default 1, a decode step; "
                "equal to --context: the prefill of a prompt)");
  x->add_option("--opset", exportArgs.opset,
                "13 (default: every op as primitives) or 23 (Attention, "
                "RotaryEmbedding, RMSNormalization, Gelu)");

  DecodeArgs decode;
  auto *d = addDeploymentCommand(
      app, "decode",
      "Time LLM inference as a deployment runs it: compile and simulate the "
      "prefill and a decode step; TTFT, TPOT, tokens/s, chips needed, "
      "efficiency against the physical bound",
      decode, defaultChip);
  addWords(d, decodeWordOptions(), decode);
  addWords(d, decodeSweepWordOptions(), decode);
  addWords(d, speculativeWordOptions(), decode); // --draft (Speculative.h)
  addWords(d, compareWordOptions(), decode);
  d->add_option("--report", decode.report,
                "Self-contained HTML report of the deployment (figures, the "
                "tokens' path through the stages, SRAM per chip, bounds, "
                "placements tried), of a --sweep study or of a --sensitivity");
  addStudyOptions(d, decode,
                  "A study of whole deployments: key=v1,v2,... (a chip key of "
                  "--set, or chips, tp, pp, batch, context, prompt, weights, "
                  "activations), each point planned as lpx decode plans one; "
                  "repeatable (the grid of all)",
                  "Study points planned at once (default: one per hardware "
                  "thread)",
                  "tpot_us",
                  "Run only part I of N of a --sweep study; join the parts "
                  "with `lpx sweep merge`");
  d->add_flag("--sensitivity", decode.sensitivity,
              "Plan the deployment again with each of the chip's ranged "
              "assumptions at the low and the high end of its range: the band "
              "of TTFT, TPOT and tokens/s (-o CSV, --plot tornado SVG of "
              "--metric, default tpot_us, --report page)");
  d->add_flag("--json", decode.json, "Print JSON (keys in docs/decode.md)");
  d->add_option("--sample", decode.sample,
                "greedy: the prefill returns the first token (an ArgMax on "
                "the chip) instead of the last position's logits")
      ->check(CLI::IsMember({"greedy"}));
  // --run: greedy generation on the CPU runtime (DecodeGenerate.h).
  bool decodeRun = false;
  std::vector<std::string> promptIds;
  unsigned decodeTokens = 32;
  d->add_flag("--run", decodeRun,
              "Generate tokens on the CPU runtime with the KV cache resident "
              "(instead of timing)");
  d->add_option("--prompt-ids", promptIds,
                "With --run: a prompt's token ids, 1,2,3; repeat for a batch "
                "(one per sequence, all of one length)");
  d->add_option("--tokens", decodeTokens,
                "With --run: tokens to generate (default 32)")
      ->check(CLI::Range(1u, 1u << 20));

  ServeArgs serve;
  auto *sv = addDeploymentCommand(
      app, "serve",
      "Serve a workload on a deployment: queueing, batching and the network "
      "over compiled and simulated steps (docs/serving.md)",
      serve, defaultChip);
  addWords(sv, serveWordOptions(), serve);
  sv->add_option("--plot", serve.plot, "SVG of a --sweep study");
  sv->add_option("--compare", serve.compare,
                 "The same load on a GPU deployment, analytic: GPU[:tp=N] "
                 "(docs/compare.md)");
  addStudyOptions(sv, serve,
                  "A study of deployments under the workload: key=v1,v2,... "
                  "(a chip key, or chips, tp, pp, context, weights, "
                  "activations, max_batch); -o is then the study's CSV",
                  "Study points served at once", "ttft_p99_us",
                  "Run only part I of N of a --sweep study");
  sv->add_flag("--json", serve.json, "Print JSON (keys in docs/serving.md)");
  sv->add_flag("--keep-session-cache", serve.keepSessionCache, "Agent caches stay");

  EndpointArgs endpoint;
  auto *ep = addDeploymentCommand(
      app, "endpoint",
      "An OpenAI-compatible streaming HTTP server whose chunks leave at the "
      "simulated deployment's times (docs/endpoint.md)",
      endpoint, defaultChip);
  addWords(ep, lpx::endpoint::endpointWordOptions(), endpoint);

  CoverageArgs coverage;
  auto *v = app.add_subcommand(
      "coverage", "Report which nodes of models compile for the chip and "
                  "what blocks the rest (exit 0 portable, 1 not, 2 bad input)");
  v->add_option("models", coverage.models, "ONNX model files");
  v->add_flag("--ops", coverage.ops,
              "The table of every ONNX operator instead of a model report");
  v->add_option("--format", coverage.format, "text, md, json or html")
      ->check(CLI::IsMember({"text", "md", "json", "html"}));
  v->add_option("--chip", coverage.chip,
                "Chip to price portable models on (default: " + defaultChip +
                    ")");
  v->add_option("--input-shape", coverage.inputShapes,
                "Pin an input's shape: name=1x128 (repeatable)");
  v->add_option("--const-input", coverage.constInputs,
                "Fold an input to a constant: name=file.pb (repeatable)");
  v->add_option("--expectations", coverage.expectations,
                "With --ops: the node-test expectation list to count passing "
                "tests from");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    if (e.get_exit_code() == 0)
      return app.exit(e);
    app.exit(e);
    return kError;
  }
  // The first parsed command of this list runs (sweep merge before sweep).
  const std::pair<CLI::App *, std::function<int()>> commands[] = {
      {c, [&] { return runCompile(compile); }},
      {wm, [&] { return runSweepMerge(merge); }},
      {w, [&] { return runSweep(sweep); }},
      {v, [&] { return runCoverage(coverage); }},
      {s, [&] { return runSimulate(simulate); }},
      {r, [&] { return runRun(run); }},
      {pt, [&] { return runPerturb(perturb); }},
      {i, [&] { return runInspect(inspect); }},
      {modelsList, [&] { return runModelsList(); }},
      {x, [&] { return runModelsExport(exportArgs); }},
      {d, [&] { return decodeRun ? runDecodeRun(decode, promptIds, decodeTokens)
                                 : runDecode(decode); }},
      {sv, [&] { return runServe(serve); }},
      {ep, [&] { return runEndpoint(endpoint); }},
      {chipList, [&] { return runChipList(); }},
      {show, [&] { return runChipShow(showName, showSets); }},
      {validate, [&] { return runChipValidate(validateFile); }},
      {keys, [&] { return runChipKeys(keysChip, keysJson); }}};
  for (const auto &[command, runCommand] : commands)
    if (command->parsed())
      return runCommand();
  return kError;
}
