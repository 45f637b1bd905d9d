//===- SweepCommand.cpp - lpx sweep ---------------------------------------===//
//
// The command line of a sweep: its options checked, the grid built and
// sharded, the points run by the deployment library (SweepRun.h) with a
// progress line, the CSV and chart written and a summary printed; or, with
// --sensitivity, the chip's assumptions one at a time (Sensitivity.h).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Progress.h"
#include "lpx/deploy/PointPool.h"
#include "lpx/deploy/SensitivityChecks.h"
#include "lpx/deploy/SensitivityReport.h"
#include "lpx/deploy/SweepRun.h"
#include "lpx/deploy/SweepShard.h"

#include "lpx/isa/ChipOverrides.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

namespace {

const char *const kCmd = "sweep";

std::string chipName(const SweepArgs &args) {
  return args.chip.empty() ? isa::presetNames().front() : args.chip;
}

int runSensitivityStudy(const SweepArgs &args) {
  if (args.model.empty())
    return reportError(kCmd, "--sensitivity needs a model");
  if (!args.sets.empty() || !args.shard.empty() || args.metric != "seconds")
    return reportError(kCmd, "--sensitivity varies the chip's own "
                             "assumptions and reports seconds and cycles: "
                             "--set, --shard and --metric are for grids");
  auto nodes = sensitivityNodes(args.nodes);
  if (!nodes)
    return reportError(kCmd, nodes.takeError());
  auto chip = loadRangedChip(chipName(args));
  if (!chip)
    return reportError(kCmd, chip.takeError());
  Sweep sweep;
  if (auto e = prepareSweep(args.model, args.inputShapes,
                              args.constInputs, chip->chip, sweep))
    return reportError(kCmd, std::move(e));

  size_t total = sensitivityPoints(sweep.base, chip->ranges);
  unsigned jobs = poolThreads(args.jobs, total);
  Progress progress(kCmd, total);
  Sensitivity s = runSensitivity(
      sweep, *nodes, chip->ranges, jobs,
      [&](size_t done, size_t failed) { progress.update(done, failed); });
  progress.finish();
  double elapsed = progress.elapsedSeconds();
  if (auto e = checkSensitivityBase(s, sweep.base.name))
    return reportError(kCmd, std::move(e));
  std::string title = sensitivityTitle(args.model, sweep.base.name);
  if (auto e = writeSensitivityFiles(s, args.output, args.plot, args.report,
                                     title))
    return reportError(kCmd, std::move(e));

  llvm::raw_ostream &os = llvm::outs();
  printSensitivity(s, llvm::sys::path::filename(args.model), sweep.base.name,
                   *nodes, elapsed, jobs, os);
  os << writtenTo({args.output, args.plot, args.report}) << "\n";
  return anyHazards(s) ? kCheckFailed : kOk;
}

} // namespace

int lpx::cli::runSweep(const SweepArgs &args) {
  if (args.sensitivity)
    return runSensitivityStudy(args);
  if (args.model.empty() || args.output.empty())
    return reportError(kCmd, "a model and -o OUTPUT.csv are required "
                             "(or `lpx sweep merge PARTS... -o OUTPUT.csv`)");
  if (auto e = checkSweepMetric(args.metric))
    return reportError(kCmd, std::move(e));
  auto base = isa::loadChipWithOverrides(chipName(args), {});
  if (!base)
    return reportError(kCmd, base.takeError());
  Sweep sweep;
  if (auto e = prepareSweep(args.model, args.inputShapes,
                              args.constInputs, *base, sweep))
    return reportError(kCmd, std::move(e));
  auto grid = buildGrid(args.sets, args.nodes, sweep.base);
  if (!grid)
    return reportError(kCmd, grid.takeError());
  sweep.grid = std::move(*grid);

  Shard shard;
  if (!args.shard.empty()) {
    auto parsed = parseShard(args.shard);
    if (!parsed)
      return reportError(kCmd, parsed.takeError());
    shard = *parsed;
    if (!args.plot.empty())
      return reportError(kCmd, "--plot draws the whole grid: give it to "
                               "`lpx sweep merge`, not to one --shard");
  }
  std::vector<size_t> points = shardPoints(sweep.grid.size(), shard);
  size_t total = points.size();
  unsigned jobs = poolThreads(args.jobs, total);
  Progress progress(kCmd, total);
  std::vector<PointResult> results =
      runPoints(sweep, points, jobs, [&](size_t done, size_t failed) {
        progress.update(done, failed);
      });
  progress.finish();
  double elapsed = progress.elapsedSeconds();

  const Shard *part = args.shard.empty() ? nullptr : &shard;
  if (auto e = writeSweepResults(sweep, part, points, results, args.output,
                                 args.plot, args.metric))
    return reportError(kCmd, std::move(e));

  llvm::outs() << sweepSummaryLine(results, args.model, sweep.base.name,
                                   part, sweep.grid.size(), elapsed, jobs,
                                   args.output, args.plot)
               << "\n";
  // Hazards mean the compiler scheduled something the chip cannot run:
  // report that like `lpx simulate` does.
  return anyHazards(results) ? kCheckFailed : kOk;
}
