//===- SweepRun.h - Every point of a sweep, compiled and simulated -*- C++ -*-===//
//
// A grid of what-if compiles and simulations (docs/sweeps.md): the axes
// are chip keys and the node count. Points are independent, so they run on
// a pool of threads, each through its own evaluate() (its own MLIRContext);
// results land in a slot per point, so the output order is the point order
// whatever order they finish in. A point that cannot be compiled (a model
// too big for the chip, say) is a row with its status and message, not the
// end of the sweep.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_SWEEPRUN_H
#define LPX_DEPLOY_SWEEPRUN_H

#include "lpx/Import/ONNXImporter.h"
#include "lpx/deploy/SweepGrid.h"
#include "lpx/deploy/SweepReport.h"
#include "lpx/isa/ChipSpec.h"
#include "lpx/sim/Simulator.h"
#include "llvm/ADT/ArrayRef.h"
#include <functional>
#include <string>
#include <vector>

namespace lpx::deploy {

/// What every point shares: read-only while the workers run.
struct Sweep {
  std::string model;
  ImportOptions import;
  isa::ChipSpec base;
  Grid grid{{}};
};

/// The model, the import options of `inputShapes` and `constInputs` and
/// the base chip every point shares: `chip` in its printed form, which the
/// compiler reads, so an unmodified point matches its own program's
/// embedded description. A model that does not exist is one error, not a
/// failure per point.
llvm::Error prepareSweep(const std::string &model,
                         const std::vector<std::string> &inputShapes,
                         const std::vector<std::string> &constInputs,
                         const isa::ChipSpec &chip, Sweep &sweep);

/// The axes in command-line order (`sets`: "key=v1,v2" or
/// "key=a..b:step"); the node count is one of them, from `--set nodes=...`
/// where it was given, else from `nodes` ("1,2,4"; empty: 1) at the end.
/// Every value is checked against `base` before any compile.
llvm::Expected<Grid> buildGrid(const std::vector<std::string> &sets,
                               const std::string &nodes,
                               const isa::ChipSpec &base);

/// Compiles and simulates one point. Never throws and never exits: every
/// failure becomes the point's status.
PointResult runPoint(const Sweep &sweep, size_t index);

/// Compiles and simulates `sweep.model` for `nodes` nodes of `sweep.base`
/// with `settings` (key, value) applied as `--set` applies them; the grid
/// is not read. Never throws; every failure becomes the result's status.
PointResult
runChipPoint(const Sweep &sweep,
             llvm::ArrayRef<std::pair<std::string, std::string>> settings,
             unsigned nodes);

/// A simulation's figures as a point's result: ok, or hazards with the
/// first one's message.
PointResult resultOf(const sim::SimResult &sim);
/// Writes the CSV of `points`' `results` (after the part line of `shard`
/// when the sweep is one part; null: the whole grid) and, unless
/// `plotPath` is empty, the chart of `metric` (writeSweepFiles).
llvm::Error writeSweepResults(const Sweep &sweep, const Shard *shard,
                              llvm::ArrayRef<size_t> points,
                              llvm::ArrayRef<PointResult> results,
                              llvm::StringRef csvPath,
                              llvm::StringRef plotPath,
                              llvm::StringRef metric);

/// Whether any of `results` had hazards (a schedule the chip cannot run).
bool anyHazards(llvm::ArrayRef<PointResult> results);

/// Runs `points` on `jobs` threads; `progress` hears (done, failed) on the
/// caller's thread, which otherwise only waits.
std::vector<PointResult>
runPoints(const Sweep &sweep, const std::vector<size_t> &points, unsigned jobs,
          const std::function<void(size_t done, size_t failed)> &progress);

} // namespace lpx::deploy

#endif
