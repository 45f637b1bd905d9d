//===- DecodeCommand.cpp - lpx decode -------------------------------------===//
//
// Checks the options, then plans (DecodePlan.h), measures (DecodeMetrics.h)
// and prints, with --report also the page (DecodeReport.h); with
// --context-sweep, one plan per context length written as CSV and SVG
// (DecodeSweep.h). Exports go to a private scratch folder that
// is removed on every path out.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "lpx/deploy/DecodeGenerate.h"
#include "lpx/deploy/DecodeReport.h"
#include "lpx/deploy/DecodeSweep.h"
#include "lpx/deploy/DeploymentTarget.h"
#include "Progress.h"

#include "lpx/isa/AtomicFile.h"
#include "lpx/models/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

namespace {

constexpr const char *kCmd = "decode";

llvm::Error error(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
}

/// The options as numbers, checked against each other and the preset.
struct DecodeOptions : DecodeNumbers {
  std::vector<int64_t> sweep;   // contexts of --context-sweep
  std::vector<int64_t> prompts; // prompts of --prompt-sweep
  std::string plot;
  bool sweeping() const { return !sweep.empty() || !prompts.empty(); }
};

llvm::Error parseNumbers(const DecodeArgs &a, DecodeOptions &o) {
  if (auto e = parseDecodeNumbers(a, o))
    return e;
  if (auto e = parsePositiveList(a.contextSweep, "--context-sweep", o.sweep))
    return e;
  if (auto e = parsePositiveList(a.promptSweep, "--prompt-sweep", o.prompts))
    return e;
  if (!o.prompts.empty() && (o.prompt || !o.sweep.empty()))
    return error("--prompt-sweep gives the prompts; --prompt and "
                 "--context-sweep go without it");
  if (a.sweeps.empty() && (!a.metric.empty() || !a.shard.empty() || a.jobs))
    return error("--metric, --shard and --jobs go with --sweep or "
                 "--sensitivity");
  if (!a.sweeps.empty() && o.sweeping())
    return error("--sweep is a study of whole deployments; --context-sweep "
                 "and --prompt-sweep go without it");
  return llvm::Error::success();
}

/// The preset's shape defaults for a sweep (a context sweep takes none).
void applyDefaults(const DecodeTarget &t, const DecodeArgs &a,
                   DecodeOptions &o) {
  if (o.sweep.empty())
    decodeDefaults(t, o.context, o.prompt, a.batch == "1", o.prompts);
}

llvm::Error checkOutputs(const DecodeArgs &a, DecodeOptions &o) {
  if (!o.sweeping()) {
    if (!a.output.empty() || !a.plot.empty())
      return error("-o and --plot go with --context-sweep or --prompt-sweep");
    return llvm::Error::success();
  }
  if (a.output.empty())
    return error(llvm::Twine(o.sweep.empty() ? "--prompt-sweep"
                                             : "--context-sweep") +
                 " needs -o FILE.csv");
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

/// One plan and its metrics, with a progress line per compile on a
/// terminal.
llvm::Expected<DecodeMetrics> measure(const DecodeTarget &t,
                                      llvm::Expected<DecodeRequest> req) {
  if (!req)
    return req.takeError();
  std::optional<StageProgress> bar;
  auto plan = planDecode(t, *req, compileProgress(bar, kCmd));
  bar.reset();
  if (!plan)
    return plan.takeError();
  return measureDecode(t, *req, *plan);
}

int runSweep(const DecodeArgs &a, const DecodeTarget &t,
             const DecodeOptions &o) {
  const bool prompts = !o.prompts.empty();
  const SweepAxis axis = prompts ? SweepAxis::Prompt : SweepAxis::Context;
  std::vector<DecodeMetrics> points;
  for (int64_t x : prompts ? o.prompts : o.sweep) {
    auto m = measure(t, decodeRequest(t, o, prompts ? o.context : x,
                                      prompts ? x : 0));
    if (!m)
      return reportError(kCmd, (prompts ? "prompt " : "context ") +
                                   std::to_string(x) + ": " +
                                   llvm::toString(m.takeError()));
    llvm::outs() << sweepPointLine(*m, axis) << "\n";
    points.push_back(std::move(*m));
  }
  const auto [csv, svg] = sweepFiles(points, axis);
  if (auto e = isa::writeFileAtomically(a.output, csv))
    return reportError(kCmd, std::move(e));
  if (auto e = isa::writeFileAtomically(o.plot, svg))
    return reportError(kCmd, std::move(e));
  llvm::outs() << "wrote " << a.output << ", " << o.plot << "\n";
  return kOk;
}

} // namespace

lpx::deploy::PlanProgress lpx::cli::compileProgress(std::optional<StageProgress> &bar,
                                               llvm::StringRef command) {
  lpx::deploy::PlanProgress progress;
  progress.compiling = [&bar, command](llvm::StringRef phase, unsigned chips) {
    bar.reset();
    bar.emplace(llvm::formatv("{0}: {1} on {2} chip(s)", command, phase, chips).str());
  };
  progress.stage = [&bar](llvm::StringRef stage, unsigned i, unsigned n) {
    if (bar)
      bar->stage(stage, i, n);
  };
  return progress;
}

int lpx::cli::runDecode(const DecodeArgs &a) {
  if (!a.report.empty()) {
    if (!a.contextSweep.empty() || !a.promptSweep.empty())
      return reportError(kCmd, "--report is the page of one deployment, a "
                               "--sweep or a --sensitivity; --context-sweep "
                               "and --prompt-sweep go without it");
    if (auto e = checkOutputPath(a.report))
      return reportError(kCmd, std::move(e));
  }
  if (a.sensitivity)
    return runDecodeSensitivity(a);
  if (!a.sweeps.empty())
    return runDecodeStudy(a);
  DecodeOptions o;
  DecodeTarget t;
  if (auto e = parseNumbers(a, o))
    return reportError(kCmd, std::move(e));
  if (auto e = checkOutputs(a, o))
    return reportError(kCmd, std::move(e));
  ScratchDir scratch;
  if (auto e = scratch.create("lpx-decode"))
    return reportError(kCmd, std::move(e));
  if (!o.sweeping()) {
    std::optional<StageProgress> bar;
    auto m = decodeFromWords(a, scratch.path, compileProgress(bar, kCmd));
    bar.reset();
    if (!m)
      return reportError(kCmd, m.takeError());
    if (!a.report.empty())
      if (auto e = isa::writeFileAtomically(a.report, renderDecodeReport(*m)))
        return reportError(kCmd, std::move(e));
    if (a.json)
      llvm::outs() << llvm::formatv("{0:2}",
                                    llvm::json::Value(decodeJson(*m)))
                   << "\n";
    else
      printDecodeText(*m, llvm::outs());
    return kOk;
  }
  if (auto e = loadTarget(a, o, t))
    return reportError(kCmd, std::move(e));
  applyDefaults(t, a, o);
  if (auto e = checkDecodeShapes(t, o.context, o.prompt, o.batch, o.sweep,
                                 o.prompts))
    return reportError(kCmd, std::move(e));
  t.scratchDir = scratch.path.str().str();
  return runSweep(a, t, o);
}

int lpx::cli::runDecodeRun(const DecodeArgs &a,
                           const std::vector<std::string> &promptIds,
                           unsigned tokens) {
  if (!a.report.empty())
    return reportError(kCmd, "--report is the page of a timed deployment; "
                             "--run generates tokens without it");
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
  run.prefillChunk = o.prefillChunk;
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
