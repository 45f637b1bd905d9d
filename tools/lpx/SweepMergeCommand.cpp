//===- SweepMergeCommand.cpp - lpx sweep merge ----------------------------===//
//
// Joins the part files of `lpx sweep --shard I/N` into the CSV (and chart)
// the unsharded sweep writes (SweepMerge.h checks the parts).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "lpx/deploy/SweepMerge.h"
#include "lpx/deploy/SweepReport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

static const char *const kCmd = "sweep merge";

int lpx::cli::runSweepMerge(const SweepMergeArgs &args) {
  if (!llvm::is_contained(kMetrics, args.metric))
    return reportError(kCmd, "unknown metric '" + args.metric +
                                 "' (cycles, seconds, efficiency, "
                                 "tokens_per_s)");
  if (args.parts.empty())
    return reportError(kCmd, "no part files given");
  SweepMerge merge;
  for (const std::string &path : args.parts)
    if (auto e = merge.add(path))
      return reportError(kCmd, std::move(e));
  if (auto e = merge.checkComplete())
    return reportError(kCmd, std::move(e));

  Grid grid(merge.first->axes);
  std::vector<size_t> points(grid.size());
  for (size_t p = 0; p < points.size(); ++p)
    points[p] = p;
  if (auto e = writeSweepFiles(
          grid, points, csvHeader(grid), merge.rows(), args.output, args.plot,
          args.metric,
          plotTitle(args.metric, merge.first->model, merge.first->chip)))
    return reportError(kCmd, std::move(e));
  llvm::outs() << "merged " << args.parts.size() << " part(s): "
               << grid.size() << " point(s) of " << merge.first->model
               << " on " << merge.first->chip << " -> " << args.output
               << (args.plot.empty() ? "" : ", " + args.plot) << "\n";
  return merge.hazards ? kCheckFailed : kOk;
}
