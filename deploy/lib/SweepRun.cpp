//===- SweepRun.cpp - Every point of a sweep, compiled and simulated ------===//
#include "lpx/deploy/SweepRun.h"
#include "lpx/deploy/DeployError.h"
#include "lpx/deploy/Evaluate.h"
#include "lpx/deploy/PointPool.h"

#include "lpx/Import/ImportArgs.h"
#include "lpx/isa/ChipOverrides.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/ADT/STLExtras.h"

#include <exception>

using namespace lpx;
using namespace lpx::deploy;

namespace {

// Beyond this a sweep is almost certainly a typo; it would run for hours.
constexpr size_t kMaxPoints = 100000;

} // namespace

llvm::Expected<Grid>
lpx::deploy::buildGrid(const std::vector<std::string> &sets,
                       const std::string &nodesList,
                       const isa::ChipSpec &base) {
  std::vector<Axis> axes;
  for (const std::string &spec : sets) {
    auto axis = parseAxis(spec);
    if (!axis)
      return axis.takeError();
    for (const Axis &a : axes)
      if (a.key == axis->key)
        return error("--set " + axis->key + " is given twice; put all its "
                     "values in one list");
    if (axis->key == kNodesKey && !nodesList.empty())
      return error("the node count is given by both --nodes and --set nodes");
    axes.push_back(std::move(*axis));
  }
  if (llvm::none_of(axes, [](const Axis &a) { return a.key == kNodesKey; })) {
    auto nodes = parseValueList(kNodesKey,
                                nodesList.empty() ? "1" : nodesList);
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

PointResult lpx::deploy::runPoint(const Sweep &sweep, size_t index) {
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
  return runChipPoint(sweep, settings, nodes);
}

PointResult lpx::deploy::runChipPoint(
    const Sweep &sweep,
    llvm::ArrayRef<std::pair<std::string, std::string>> settings,
    unsigned nodes) {
  PointResult r;
  isa::ChipSpec chip = sweep.base;
  if (auto err = isa::applyOverrides(chip, settings)) {
    r.status = "invalid-chip";
    r.message = llvm::toString(std::move(err));
    return r;
  }
  EvaluateOptions opts;
  opts.import = sweep.import;
  opts.compile = CompileOptions{nodes};
  Evaluation e = evaluate(sweep.model, chip, opts);
  if (!e.ok()) {
    // The compiler verifies what it emits, so a program that is not valid
    // is a compile error.
    r.status = *e.failedAt == EvaluateStage::Compile ? "compile-error"
                                                     : "sim-error";
    r.message = e.error;
    return r;
  }
  return resultOf(*e.sim);
}

PointResult lpx::deploy::resultOf(const sim::SimResult &sim) {
  PointResult r;
  r.status = sim.hazards.empty() ? "ok" : "hazards";
  if (!sim.hazards.empty())
    r.message = std::to_string(sim.hazardCount) +
                " hazards, first: " + sim.hazards.front().message;
  r.cycles = sim.totalCycles;
  r.seconds = sim.seconds;
  r.lowerBound = sim.lowerBound;
  r.efficiency = sim.efficiency;
  r.bottleneck = sim.bottleneck;
  return r;
}

std::vector<PointResult> lpx::deploy::runPoints(
    const Sweep &sweep, const std::vector<size_t> &points, unsigned jobs,
    const std::function<void(size_t done, size_t failed)> &progress) {
  std::vector<PointResult> results(points.size());
  runOnThreads(
      points.size(), jobs,
      [&](size_t i) {
        try {
          results[i] = runPoint(sweep, points[i]);
        } catch (const std::exception &e) { // e.g. out of memory
          results[i].message = e.what();
        }
        return results[i].timed();
      },
      progress);
  return results;
}


llvm::Error lpx::deploy::prepareSweep(
    const std::string &model, const std::vector<std::string> &inputShapes,
    const std::vector<std::string> &constInputs, const isa::ChipSpec &chip,
    Sweep &sweep) {
  if (!llvm::sys::fs::exists(model))
    return error("cannot open model '" + model + "': no such file");
  sweep.model = model;
  auto import = cli::parseImportArgs(inputShapes, constInputs);
  if (!import)
    return import.takeError();
  sweep.import = std::move(*import);
  auto normal = isa::parseChipSpec(isa::printChipSpec(chip), "chip");
  if (!normal)
    return normal.takeError();
  sweep.base = std::move(*normal);
  return llvm::Error::success();
}

llvm::Error lpx::deploy::writeSweepResults(
    const Sweep &sweep, const Shard *shard, llvm::ArrayRef<size_t> points,
    llvm::ArrayRef<PointResult> results, llvm::StringRef csvPath,
    llvm::StringRef plotPath, llvm::StringRef metric) {
  std::string head = csvHeader(sweep.grid);
  if (shard)
    head = partLine({llvm::sys::path::filename(sweep.model).str(),
                     sweep.base.name, *shard, sweep.grid.axes()}) +
           head;
  return writeSweepFiles(sweep.grid, points, head,
                         csvRows(sweep.grid, points, results), csvPath,
                         plotPath, metric,
                         plotTitle(metric, sweep.model, sweep.base.name));
}

bool lpx::deploy::anyHazards(llvm::ArrayRef<PointResult> results) {
  return llvm::any_of(
      results, [](const PointResult &r) { return r.status == "hazards"; });
}
