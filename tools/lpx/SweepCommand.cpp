//===- SweepCommand.cpp - lpx sweep ---------------------------------------===//
//
// Compiles and simulates a model at every point of a grid of chip parameters
// and node counts. Points are independent, so they run on a pool of threads,
// each compile on its own MLIRContext; results land in a slot per point, so
// the output order is the point order whatever order they finish in. A point
// that cannot be compiled (a model too big for the chip, say) is a row with
// its status and message, not the end of the sweep.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "CompileSupport.h"
#include "lpx/Import/ImportArgs.h"
#include "Progress.h"
#include "SweepGrid.h"
#include "SweepReport.h"
#include "SweepShard.h"

#include "lpx/Driver/Compile.h"
#include "lpx/isa/ChipOverrides.h"
#include "lpx/isa/Program.h"
#include "lpx/sim/Simulator.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

using namespace lpx;
using namespace lpx::cli;

namespace {

const char *const kCmd = "sweep";

// Beyond this a sweep is almost certainly a typo; it would run for hours.
constexpr size_t kMaxPoints = 100000;

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// What every point shares: read-only while the workers run.
struct Sweep {
  std::string model;
  ImportOptions import;
  isa::ChipSpec base;
  Grid grid{{}};
};

/// The axes in command-line order; the node count is one of them, from
/// `--set nodes=...` where it was given, else from --nodes at the end.
llvm::Expected<Grid> buildGrid(const SweepArgs &args,
                               const isa::ChipSpec &base) {
  std::vector<Axis> axes;
  for (const std::string &spec : args.sets) {
    auto axis = parseAxis(spec);
    if (!axis)
      return axis.takeError();
    for (const Axis &a : axes)
      if (a.key == axis->key)
        return error("--set " + axis->key + " is given twice; put all its "
                     "values in one list");
    if (axis->key == kNodesKey && !args.nodes.empty())
      return error("the node count is given by both --nodes and --set nodes");
    axes.push_back(std::move(*axis));
  }
  if (llvm::none_of(axes, [](const Axis &a) { return a.key == kNodesKey; })) {
    auto nodes = parseValueList(kNodesKey,
                                args.nodes.empty() ? "1" : args.nodes);
    if (!nodes)
      return nodes.takeError();
    axes.push_back({kNodesKey, std::move(*nodes)});
  }

  // Check every value on its own now, so a typo fails before any compile
  // rather than as a column of failed rows.
  for (const Axis &a : axes)
    for (const std::string &v : a.values) {
      if (a.key == kNodesKey) {
        unsigned n;
        if (llvm::StringRef(v).getAsInteger(10, n) || n == 0)
          return error("--set nodes: '" + v + "' is not a positive node count");
        continue;
      }
      isa::ChipSpec trial = base;
      if (auto err = isa::applyOverride(trial, a.key, v))
        return err;
    }

  Grid grid(std::move(axes));
  size_t points = 1;
  for (const Axis &a : grid.axes()) {
    if (points > kMaxPoints / a.values.size())
      return error("the grid has more than " + llvm::Twine(kMaxPoints) +
                   " points");
    points *= a.values.size();
  }
  return grid;
}

/// Compiles and simulates one point. Never throws and never exits: every
/// failure becomes the point's status.
PointResult runPoint(const Sweep &sweep, size_t index) {
  PointResult r;
  std::vector<size_t> at = sweep.grid.coords(index);
  std::vector<std::pair<std::string, std::string>> settings;
  unsigned nodes = 1;
  for (size_t i = 0; i < at.size(); ++i) {
    const Axis &a = sweep.grid.axes()[i];
    if (a.key == kNodesKey)
      llvm::StringRef(a.values[at[i]]).getAsInteger(10, nodes);
    else
      settings.push_back({a.key, a.values[at[i]]});
  }

  isa::ChipSpec chip = sweep.base;
  if (auto err = isa::applyOverrides(chip, settings)) {
    r.status = "invalid-chip";
    r.message = llvm::toString(std::move(err));
    return r;
  }
  auto ctx = makeCompilerContext();
  FirstErrorCapture errors(ctx.get());
  auto program = compileToProgram(*ctx, sweep.model, sweep.import,
                                  CompileOptions{nodes}, chip);
  if (failed(program)) {
    r.status = "compile-error";
    r.message = errors.message().empty() ? "cannot compile" : errors.message();
    return r;
  }

  // Verified by the compiler: the checks `lpx simulate` makes on a file.
  auto sim = sim::simulate(*program);
  if (!sim) {
    r.status = "sim-error";
    r.message = llvm::toString(sim.takeError());
    return r;
  }
  r.status = sim->hazards.empty() ? "ok" : "hazards";
  if (!sim->hazards.empty())
    r.message = std::to_string(sim->hazardCount) +
                " hazards, first: " + sim->hazards.front().message;
  r.cycles = sim->totalCycles;
  r.seconds = sim->seconds;
  r.lowerBound = sim->lowerBound;
  r.efficiency = sim->efficiency;
  r.bottleneck = sim->bottleneck;
  return r;
}

/// Runs `points` on `jobs` threads; `progress` is drawn by the caller's
/// thread, which otherwise only waits.
std::vector<PointResult> runAll(const Sweep &sweep,
                                const std::vector<size_t> &points,
                                unsigned jobs, Progress &progress) {
  size_t total = points.size();
  std::vector<PointResult> results(total);
  std::atomic<size_t> next{0};
  std::mutex mutex;
  std::condition_variable changed;
  size_t done = 0, failed = 0;

  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < total;) {
      PointResult r;
      try {
        r = runPoint(sweep, points[i]);
      } catch (const std::exception &e) { // e.g. out of memory
        r.message = e.what();
      }
      std::lock_guard<std::mutex> lock(mutex);
      results[i] = std::move(r);
      ++done;
      failed += !results[i].timed();
      changed.notify_one();
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 0; j < jobs; ++j) {
    try {
      threads.emplace_back(worker);
    } catch (const std::system_error &) {
      break; // fewer threads than asked for; the main thread helps below
    }
  }
  if (threads.empty())
    worker();

  std::unique_lock<std::mutex> lock(mutex);
  while (done < total) {
    changed.wait_for(lock, std::chrono::milliseconds(100));
    progress.update(done, failed);
  }
  lock.unlock();
  for (std::thread &t : threads)
    t.join();
  progress.finish();
  return results;
}

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
  auto grid = buildGrid(args, sweep.base);
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
  std::vector<PointResult> results = runAll(sweep, points, jobs, progress);
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
