//===- DecodeCommand.cpp - lpx decode -------------------------------------===//
//
// Checks the options, then plans (DecodePlan.h), measures (DecodeMetrics.h)
// and prints, with --report also the page (DecodeReport.h); with
// --context-sweep, one plan per context length written as CSV and SVG
// (DecodeSweep.h); with --run, greedy generation (DecodeGenerate.h).
// Exports go to a private scratch folder that is removed on every path out.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Progress.h"
#include "lpx/deploy/DecodeReport.h"
#include "lpx/deploy/DecodeSweep.h"
#include "lpx/deploy/GpuCompare.h"

#include "lpx/isa/AtomicFile.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

namespace {

constexpr const char *kCmd = "decode";

int runLengthSweep(const DecodeArgs &a, const DecodeTarget &t,
                   const DecodeSweepNumbers &o) {
  const SweepAxis axis =
      o.prompts.empty() ? SweepAxis::Context : SweepAxis::Prompt;
  std::optional<StageProgress> bar;
  auto points = runDecodeSweep(
      t, o, compileProgress(bar, kCmd), [&](const DecodeMetrics &m) {
        bar.reset();
        llvm::outs() << sweepPointLine(m, axis) << "\n";
      });
  bar.reset();
  if (!points)
    return reportError(kCmd, points.takeError());
  if (auto e = writeDecodeSweep(*points, axis, a.output, o.plot))
    return reportError(kCmd, std::move(e));
  llvm::outs() << "wrote " << a.output << ", " << o.plot << "\n";
  return kOk;
}

/// --draft: the target and its draft timed (Speculative.h).
int runSpeculative(const DecodeArgs &a, const SpeculativeNumbers &s) {
  std::optional<StageProgress> bar;
  DecodeMetrics target;
  auto m = planSpeculative(a, s, compileProgress(bar, kCmd), target);
  bar.reset();
  if (!m)
    return reportError(kCmd, m.takeError());
  printSpeculativeDecode(target, *m, a.json, llvm::outs());
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
  SpeculativeNumbers s;
  if (auto e = parseSpeculative(a, a.model, s))
    return reportError(kCmd, std::move(e));
  if (s.active())
    return a.sensitivity || !a.sweeps.empty() || !a.report.empty() ||
                   !a.contextSweep.empty() || !a.promptSweep.empty()
               ? reportError(kCmd, kSpeculativeAlone)
               : runSpeculative(a, s);
  if (!a.report.empty()) {
    if (!a.contextSweep.empty() || !a.promptSweep.empty())
      return reportError(kCmd, "--report is the page of one deployment, a "
                               "--sweep or a --sensitivity; --context-sweep "
                               "and --prompt-sweep go without it");
    if (auto e = checkOutputPath(a.report))
      return reportError(kCmd, std::move(e));
  }
  if (auto e = checkCompareWords(a, a.model))
    return reportError(kCmd, std::move(e));
  if (a.comparing() && (a.sensitivity || !a.sweeps.empty() ||
                        !a.contextSweep.empty() || !a.promptSweep.empty()))
    return reportError(kCmd, "--compare and --afd go with one deployment, "
                             "not a sweep or a --sensitivity");
  if (a.sensitivity)
    return runDecodeSensitivity(a);
  if (!a.sweeps.empty())
    return runDecodeStudy(a);
  DecodeSweepNumbers o;
  DecodeTarget t;
  if (auto e = parseDecodeSweep(a, a, a, o))
    return reportError(kCmd, std::move(e));
  if (auto e = checkDecodeSweepOutputs(a, o))
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
    Comparisons cmp;
    if (a.comparing())
      if (auto e = runComparisons(a, a, *m, scratch.path,
                                  compileProgress(bar, kCmd))
                       .moveInto(cmp))
        return reportError(kCmd, std::move(e));
    bar.reset();
    if (!a.report.empty())
      if (auto e = isa::writeFileAtomically(a.report, renderDecodeReport(*m)))
        return reportError(kCmd, std::move(e));
    if (a.json) {
      llvm::json::Object report = decodeJson(*m);
      addComparisonsJson(report, cmp, *m);
      llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(report)))
                   << "\n";
    } else {
      printDecodeText(*m, llvm::outs());
      printComparisons(cmp, *m, llvm::outs());
    }
    return kOk;
  }
  if (auto e = loadDecodeSweepTarget(a, o, t))
    return reportError(kCmd, std::move(e));
  t.scratchDir = scratch.path.str().str();
  return runLengthSweep(a, t, o);
}

int lpx::cli::runDecodeRun(const DecodeArgs &a,
                           const std::vector<std::string> &promptIds,
                           unsigned tokens) {
  if (!a.report.empty())
    return reportError(kCmd, "--report is the page of a timed deployment; "
                             "--run generates tokens without it");
  if (a.comparing())
    return reportError(kCmd, "--compare and --afd time a deployment; --run "
                             "generates tokens without them");
  DecodeSweepNumbers o;
  if (auto e = parseDecodeSweep(a, a, a, o))
    return reportError(kCmd, std::move(e));
  auto run = decodeRunOptions(a, o, promptIds, tokens);
  if (!run)
    return reportError(kCmd, run.takeError());
  SpeculativeNumbers s;
  if (auto e = parseSpeculativeRun(a, a.model, s))
    return reportError(kCmd, std::move(e));
  if (s.active()) { // the CPU runtime's rounds (Speculative.h)
    if (auto e = runSpeculative(*run, s, a.json, llvm::outs()))
      return reportError(kCmd, std::move(e));
    return kOk;
  }
  auto r = generateGreedy(*run);
  if (!r)
    return reportError(kCmd, r.takeError());
  if (a.json)
    printDecodeRunJson(*run, *r, llvm::outs());
  else
    printDecodeRunText(*run, *r, llvm::outs());
  return kOk;
}
