//===- DecodeCommand.cpp - lpx decode -------------------------------------===//
//
// Checks the options, then plans (DecodePlan.h), measures (DecodeMetrics.h)
// and prints; with --context-sweep, one plan per context length written as
// CSV and SVG (DecodeSweep.h). Exports go to a private scratch folder that
// is removed on every path out.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "lpx/deploy/DecodeGenerate.h"
#include "lpx/deploy/DecodeSweep.h"
#include "Progress.h"

#include "lpx/isa/AtomicFile.h"
#include "lpx/isa/ChipOverrides.h"
#include "lpx/models/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

namespace {

constexpr const char *kCmd = "decode";
constexpr int64_t kMaxChips = 1 << 16;

llvm::Error error(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
}

/// A folder of this run's exports, removed with everything in it.
struct ScratchDir {
  llvm::SmallString<256> path;
  ~ScratchDir() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }
};

/// Whether an ONNX step has past_key_values inputs to keep resident.
bool hasKvCache(const std::string &model) {
  auto buffer = llvm::MemoryBuffer::getFile(model);
  return buffer &&
         (*buffer)->getBuffer().contains("past_key_values.");
}

/// The options as numbers, checked against each other and the preset.
struct DecodeOptions {
  int64_t context = 0, prompt = 0, batch = 1, chips = 0, tp = 0, pp = 0;
  std::vector<int64_t> sweep;
  std::string plot;
};

llvm::Error parseNumbers(const DecodeArgs &a, DecodeOptions &o) {
  for (auto [text, name, out] :
       {std::tuple{&a.context, "--context", &o.context},
        std::tuple{&a.prompt, "--prompt", &o.prompt},
        std::tuple{&a.batch, "--batch", &o.batch},
        std::tuple{&a.chips, "--chips", &o.chips},
        std::tuple{&a.tp, "--tp", &o.tp}, std::tuple{&a.pp, "--pp", &o.pp}}) {
    if (auto e = parsePositive(*text, name, *out))
      return e;
    if (*out < 0)
      return error(llvm::Twine(name) + " " + *text + " is not a positive integer");
  }
  if (o.chips > kMaxChips)
    return error("--chips " + a.chips + " is more than " +
                 llvm::Twine(kMaxChips));
  llvm::SmallVector<llvm::StringRef> items;
  llvm::StringRef(a.contextSweep).split(items, ',', -1, false);
  for (llvm::StringRef item : items) {
    int64_t l = 0;
    if (auto e = parsePositive(item.trim().str(), "--context-sweep", l))
      return e;
    if (l < 0)
      return error("--context-sweep '" + item + "' is not a positive integer");
    o.sweep.push_back(l);
  }
  return llvm::Error::success();
}

/// The defaults of a preset's shapes when the options leave them out:
/// the preset's context up to kDefaultContext, a prompt of
/// kDefaultPrompt (at most the context), batch 1; what was defaulted, for
/// the report ("context 4096 (the preset's, up to 4096)").
constexpr int64_t kDefaultContext = 4096, kDefaultPrompt = 128;
std::vector<std::string> applyDefaults(const DecodeTarget &t,
                                       const DecodeArgs &a, DecodeOptions &o) {
  std::vector<std::string> said;
  if (!t.preset || !o.sweep.empty())
    return said;
  if (o.context == 0) {
    o.context = std::min<int64_t>(t.preset->maxContext, kDefaultContext);
    said.push_back(llvm::formatv("context {0} (the preset's, up to {1})",
                                 o.context, kDefaultContext));
  }
  if (o.prompt == 0) {
    o.prompt = std::min(kDefaultPrompt, o.context);
    said.push_back(llvm::formatv("prompt {0}", o.prompt));
  }
  if (a.batch == "1")
    said.push_back("batch 1");
  return said;
}

/// Shapes the preset accepts (its context length, batch limit).
llvm::Error checkShapes(const DecodeTarget &t, const DecodeOptions &o) {
  if (!t.preset) {
    if (o.context || o.prompt || o.batch != 1 || !o.sweep.empty())
      return error("--context, --prompt, --batch and --context-sweep shape a "
                   "preset's export; an ONNX file has its own shapes");
    return llvm::Error::success();
  }
  std::vector<int64_t> contexts = o.sweep;
  if (contexts.empty()) {
    if (o.context == 0)
      return error("--context is required with a preset (positions in the "
                   "KV cache at the decode step)");
    if (o.prompt == 0)
      return error("--prompt is required with a preset (tokens in the "
                   "prompt; the prefill's length)");
    if (o.context < o.prompt)
      return error("--context " + llvm::Twine(o.context) +
                   " is smaller than --prompt " + llvm::Twine(o.prompt) +
                   ": the cache must hold the prompt");
    contexts.push_back(o.context);
  }
  for (int64_t l : contexts) {
    models::ExportOptions step;
    step.context = l;
    step.batch = o.batch;
    if (auto e = models::resolveOptions(*t.preset, step))
      return e;
  }
  if (o.sweep.empty()) { // the prefill: the prompt, no past
    models::ExportOptions prefill;
    prefill.context = prefill.prompt = o.prompt;
    prefill.batch = o.batch;
    if (auto e = models::resolveOptions(*t.preset, prefill))
      return e;
  }
  return llvm::Error::success();
}

llvm::Error checkOutputs(const DecodeArgs &a, DecodeOptions &o) {
  if (o.sweep.empty()) {
    if (!a.output.empty() || !a.plot.empty())
      return error("-o and --plot go with --context-sweep");
    return llvm::Error::success();
  }
  if (a.output.empty())
    return error("--context-sweep needs -o FILE.csv");
  o.plot = a.plot;
  if (o.plot.empty()) {
    llvm::SmallString<256> svg(a.output);
    llvm::sys::path::replace_extension(svg, "svg");
    o.plot = svg.str().str();
  }
  if (auto e = checkOutputPath(a.output))
    return e;
  return checkOutputPath(o.plot);
}

llvm::Error loadTarget(const DecodeArgs &a, const DecodeOptions &o,
                       DecodeTarget &t) {
  if (llvm::StringRef(a.model).ends_with_insensitive(".onnx")) {
    if (!llvm::sys::fs::is_regular_file(a.model))
      return error("cannot read model '" + a.model + "': no such file");
    t.modelFile = a.model;
    t.noResidentKV = !hasKvCache(a.model);
  } else if (!(t.preset = models::findPreset(a.model))) {
    return error(unknownPresetMessage(a.model));
  }
  auto chip = isa::loadChipWithOverrides(
      a.chip.empty() ? isa::presetNames().front() : a.chip, a.sets);
  if (!chip)
    return chip.takeError();
  t.chip = std::move(*chip);
  // The formats the chip's deployments use, unless the options say.
  t.weights = a.weights.empty() ? t.chip.formats.weights : a.weights;
  t.activations =
      a.activations.empty() ? t.chip.formats.activations : a.activations;
  t.weightsFromChip = a.weights.empty() && !t.weights.empty();
  t.activationsFromChip = a.activations.empty() && !t.activations.empty();
  t.tp = unsigned(o.tp);
  t.pp = unsigned(o.pp);
  return llvm::Error::success();
}

/// One plan and its metrics, with a progress line per compile on a
/// terminal.
llvm::Expected<DecodeMetrics> measure(const DecodeTarget &t,
                                      const DecodeRequest &req) {
  std::optional<StageProgress> bar;
  PlanProgress progress;
  progress.compiling = [&](llvm::StringRef phase, unsigned chips) {
    bar.reset();
    bar.emplace(llvm::formatv("decode: {0} on {1} chip(s)", phase, chips).str());
  };
  progress.stage = [&](llvm::StringRef stage, unsigned i, unsigned n) {
    if (bar)
      bar->stage(stage, i, n);
  };
  auto plan = planDecode(t, req, progress);
  bar.reset();
  if (!plan)
    return plan.takeError();
  return measureDecode(t, req, *plan);
}

DecodeRequest requestFor(const DecodeTarget &t, const DecodeOptions &o,
                         int64_t context) {
  DecodeRequest req;
  req.chips = unsigned(o.chips);
  req.step = PhaseShape{context, 1, o.batch};
  if (t.preset && o.sweep.empty())
    req.prefill = PhaseShape{o.prompt, o.prompt, o.batch, context};
  return req;
}

int runSweep(const DecodeArgs &a, const DecodeTarget &t,
             const DecodeOptions &o) {
  std::vector<DecodeMetrics> points;
  for (int64_t context : o.sweep) {
    auto m = measure(t, requestFor(t, o, context));
    if (!m)
      return reportError(kCmd, "context " + std::to_string(context) + ": " +
                                   llvm::toString(m.takeError()));
    llvm::outs() << llvm::formatv("context {0}: {1} chip(s), TPOT {2:f3} us, "
                                  "physical bound {3:f3} us\n",
                                  context, m->chips, m->tpotUs(),
                                  m->physicalBoundUs);
    points.push_back(std::move(*m));
  }
  if (auto e = isa::writeFileAtomically(a.output, decodeSweepCsv(points)))
    return reportError(kCmd, std::move(e));
  if (auto e = isa::writeFileAtomically(o.plot, decodeSweepSvg(points)))
    return reportError(kCmd, std::move(e));
  llvm::outs() << "wrote " << a.output << ", " << o.plot << "\n";
  return kOk;
}

} // namespace

int lpx::cli::runDecode(const DecodeArgs &a) {
  DecodeOptions o;
  DecodeTarget t;
  if (auto e = parseNumbers(a, o))
    return reportError(kCmd, std::move(e));
  if (auto e = loadTarget(a, o, t))
    return reportError(kCmd, std::move(e));
  const std::vector<std::string> defaults = applyDefaults(t, a, o);
  if (auto e = checkShapes(t, o))
    return reportError(kCmd, std::move(e));
  if (auto e = checkOutputs(a, o))
    return reportError(kCmd, std::move(e));

  ScratchDir scratch;
  if (auto ec = llvm::sys::fs::createUniqueDirectory("lpx-decode", scratch.path))
    return reportError(kCmd, "cannot make a scratch folder: " + ec.message());
  t.scratchDir = scratch.path.str().str();
  if (!o.sweep.empty())
    return runSweep(a, t, o);

  auto m = measure(t, requestFor(t, o, o.context));
  if (!m)
    return reportError(kCmd, m.takeError());
  if (a.json) {
    llvm::json::Object j = decodeJson(*m);
    llvm::json::Array d;
    for (const std::string &s : defaults)
      d.push_back(s);
    j["defaults"] = std::move(d);
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(j)))
                 << "\n";
  } else {
    printDecodeText(*m, llvm::outs());
    if (!defaults.empty())
      llvm::outs() << "  defaults used: " << llvm::join(defaults, ", ")
                   << " (--context, --prompt, --batch to change)\n";
  }
  return kOk;
}

int lpx::cli::runDecodeRun(const DecodeArgs &a,
                           const std::vector<std::string> &promptIds,
                           unsigned tokens) {
  DecodeOptions o;
  if (auto e = parseNumbers(a, o))
    return reportError(kCmd, std::move(e));
  DecodeRunOptions run;
  run.model = a.model;
  run.chip = a.chip;
  run.sets = a.sets;
  run.chips = o.chips ? unsigned(o.chips) : 1;
  run.tp = unsigned(o.tp); // the step's placement; the prefill follows it
  run.pp = unsigned(o.pp);
  run.context = o.context;
  run.tokens = tokens;
  for (const std::string &text : promptIds) {
    auto ids = parseIdList(text);
    if (!ids)
      return reportError(kCmd, ids.takeError());
    run.prompts.push_back(std::move(*ids));
  }
  if (run.prompts.empty())
    run.prompts.push_back({1});
  if (o.batch != int64_t(run.prompts.size()) && !(o.batch == 1 && a.batch == "1"))
    return reportError(kCmd, error("--batch " + a.batch + " needs " + a.batch +
                                   " --prompt-ids (one per sequence), not " +
                                   llvm::Twine(run.prompts.size())));
  return runDecodeGenerate(run, a.json);
}
