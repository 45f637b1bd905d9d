//===- DecodeSensitivityCommand.cpp - lpx decode --sensitivity ------------===//
//
// The deployment planned on the chip as described, then at each end of
// every ranged assumption (DecodeSensitivity.h), with a progress line; the
// rows printed widest TPOT swing first, the band of each figure, the CSV
// (-o), the tornado of --metric (--plot) and the page (--report) written.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Progress.h"
#include "lpx/deploy/DecodeSensitivity.h"
#include "lpx/deploy/Sensitivity.h"

#include "lpx/isa/ChipOverrides.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <thread>

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

static constexpr const char *kCmd = "decode";

int lpx::cli::runDecodeSensitivity(const DecodeArgs &a) {
  if (!a.sweeps.empty() || !a.contextSweep.empty() || !a.promptSweep.empty() ||
      !a.shard.empty())
    return reportError(kCmd, "--sensitivity varies the chip's own "
                             "assumptions: --sweep, --context-sweep, "
                             "--prompt-sweep and --shard go without it");
  const DecodeFigure *figure =
      decodeFigureNamed(a.metric.empty() ? "tpot_us" : a.metric);
  if (!figure)
    return reportError(kCmd, "--metric " + a.metric +
                                 " is not a figure of a sensitivity (tpot_us, "
                                 "ttft_us, tokens_per_s_per_user, "
                                 "tokens_per_s, chips)");
  for (const std::string &path : {a.output, a.plot, a.report})
    if (!path.empty())
      if (auto e = checkOutputPath(path))
        return reportError(kCmd, std::move(e));
  const std::string chipName =
      a.chip.empty() ? isa::presetNames().front() : a.chip;
  auto assumptions = isa::loadChipAssumptions(chipName);
  if (!assumptions)
    return reportError(kCmd, assumptions.takeError());
  if (assumptions->ranges.empty())
    return reportError(kCmd, "chip '" + chipName +
                                 "' states no assumption ranges (`# "
                                 "ASSUMPTION range A..B: why`)");
  // The chip as the words give it (--set applied): its values are the base.
  auto base = isa::loadChipWithOverrides(chipName, a.sets);
  if (!base)
    return reportError(kCmd, base.takeError());
  for (const std::string &set : a.sets)
    for (const isa::AssumptionRange &r : assumptions->ranges)
      if (llvm::StringRef(set).split('=').first == r.key)
        return reportError(kCmd, "--set " + set + " fixes an assumption "
                                 "--sensitivity varies; keep one");
  ScratchDir scratch;
  if (auto e = scratch.create("lpx-sensitivity"))
    return reportError(kCmd, std::move(e));

  const size_t total = sensitivityPoints(*base, assumptions->ranges);
  unsigned jobs =
      a.jobs ? a.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = unsigned(std::max<size_t>(1, std::min<size_t>(jobs, total)));
  Progress progress("decode --sensitivity", total, "deployments");
  DecodeSensitivity s = runDecodeSensitivity(
      a, *base, assumptions->ranges, jobs, scratch.path,
      [&](size_t done, size_t failed) { progress.update(done, failed); });
  progress.finish();
  if (!s.base.ok())
    return reportError(kCmd, "the deployment on " + base->name +
                                 " as described failed: " + s.base.message);

  const std::string model = llvm::sys::path::filename(a.model).str();
  if (auto e = writeSensitivityPage(
          decodeSensitivityPage(s, *figure, model, base->name), a.output,
          a.plot, a.report))
    return reportError(kCmd, std::move(e));
  printDecodeSensitivity(s, *figure, model, base->name,
                         progress.elapsedSeconds(), jobs, llvm::outs());
  llvm::outs() << writtenTo({a.output, a.plot, a.report}) << "\n";
  return kOk;
}
