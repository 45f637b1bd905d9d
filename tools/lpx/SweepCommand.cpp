//===- SweepCommand.cpp - lpx sweep ---------------------------------------===//
//
// The command line of a sweep: its options checked, the grid built and
// sharded, the points run by the deployment library (SweepRun.h) with a
// progress line, the CSV and chart written and a summary printed.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Progress.h"
#include "lpx/Import/ImportArgs.h"
#include "lpx/deploy/SweepRun.h"
#include "lpx/deploy/SweepShard.h"

#include "lpx/isa/ChipOverrides.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <thread>

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

namespace {

const char *const kCmd = "sweep";

} // namespace

int lpx::cli::runSweep(const SweepArgs &args) {
  if (args.model.empty() || args.output.empty())
    return reportError(kCmd, "a model and -o OUTPUT.csv are required "
                             "(or `lpx sweep merge PARTS... -o OUTPUT.csv`)");
  if (!llvm::is_contained(kMetrics, args.metric))
    return reportError(kCmd, "unknown metric '" + args.metric +
                                 "' (cycles, seconds, efficiency, "
                                 "tokens_per_s)");
  // Every point would fail the same way; say it once instead.
  if (!llvm::sys::fs::exists(args.model))
    return reportError(kCmd, "cannot open model '" + args.model +
                                 "': no such file");
  Sweep sweep;
  sweep.model = args.model;
  auto import = parseImportArgs(args.inputShapes, args.constInputs);
  if (!import)
    return reportError(kCmd, import.takeError());
  sweep.import = std::move(*import);
  auto base = isa::loadChipWithOverrides(
      args.chip.empty() ? isa::presetNames().front() : args.chip, {});
  if (!base)
    return reportError(kCmd, base.takeError());
  // The compiler reads the chip from its printed form; start from that form
  // so an unmodified point matches its own program's embedded description.
  auto normal = isa::parseChipSpec(isa::printChipSpec(*base), "chip");
  if (!normal)
    return reportError(kCmd, normal.takeError());
  sweep.base = std::move(*normal);
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
  unsigned jobs = args.jobs ? args.jobs
                            : std::max(1u, std::thread::hardware_concurrency());
  jobs = unsigned(std::max<size_t>(1, std::min<size_t>(jobs, total)));
  Progress progress(kCmd, total);
  std::vector<PointResult> results =
      runPoints(sweep, points, jobs, [&](size_t done, size_t failed) {
        progress.update(done, failed);
      });
  progress.finish();
  double elapsed = progress.elapsedSeconds();

  std::string head = csvHeader(sweep.grid);
  if (!args.shard.empty())
    head = partLine({llvm::sys::path::filename(args.model).str(),
                     sweep.base.name, shard, sweep.grid.axes()}) +
           head;
  if (auto e = writeSweepFiles(
          sweep.grid, points, head, csvRows(sweep.grid, points, results),
          args.output, args.plot, args.metric,
          plotTitle(args.metric, args.model, sweep.base.name)))
    return reportError(kCmd, std::move(e));

  size_t ok = 0, hazards = 0;
  for (const PointResult &r : results) {
    ok += r.status == "ok";
    hazards += r.status == "hazards";
  }
  llvm::outs() << "swept " << total << " point(s) of "
               << llvm::sys::path::filename(args.model);
  if (!args.shard.empty())
    llvm::outs() << " (part " << shard.index + 1 << "/" << shard.count
                 << " of " << sweep.grid.size() << ")";
  llvm::outs() << " on "
               << sweep.base.name << ": " << ok << " ok";
  if (hazards)
    llvm::outs() << ", " << hazards << " with hazards";
  if (total - ok - hazards)
    llvm::outs() << ", " << (total - ok - hazards) << " failed";
  llvm::outs() << llvm::format(" in %.1f s on %u thread(s) -> ", elapsed, jobs)
               << args.output << (args.plot.empty() ? "" : ", " + args.plot)
               << "\n";
  // Hazards mean the compiler scheduled something the chip cannot run:
  // report that like `lpx simulate` does.
  return hazards ? kCheckFailed : kOk;
}
