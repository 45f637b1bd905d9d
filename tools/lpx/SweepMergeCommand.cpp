//===- SweepMergeCommand.cpp - lpx sweep merge ----------------------------===//
//
// Joins the part files of `lpx sweep --shard I/N` into the CSV (and chart)
// the unsharded sweep writes (SweepMerge.h checks the parts).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "lpx/deploy/SweepMerge.h"
#include "lpx/deploy/SweepReport.h"
#include "lpx/deploy/DeploymentStudyTable.h"

#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

static const char *const kCmd = "sweep merge";

/// The parts of `lpx decode --sweep --shard`: the frontier is marked
/// over every row, as the whole study marks it.
static int writeStudy(const SweepMergeArgs &args, const SweepMerge &merge,
                      const StudyKind &kind) {
  const std::string metric =
      args.metric.empty() ? kind.defaultMetric : args.metric;
  if (!isStudyMetric(kind, metric))
    return reportError(kCmd, "--metric " + metric +
                                 " is not a numeric column of the study");
  Grid grid(merge.first->axes);
  auto rows = studyRowsFromCsv(kind, grid, merge.rows());
  if (!rows)
    return reportError(kCmd, rows.takeError());
  if (kind.pareto)
    markPareto(grid, *rows);
  std::vector<size_t> points = shardPoints(grid.size(), Shard());
  if (auto e = writeStudyFiles(kind, grid, points, studyCsvHeader(kind, grid),
                               *rows,
                               args.output, args.plot, metric,
                               metric + " of " + merge.first->model + " on " +
                                   merge.first->chip))
    return reportError(kCmd, std::move(e));
  llvm::outs() << merge.summaryLine(grid.size(), "deployment(s)", args.output,
                                    args.plot)
               << "\n";
  return kOk;
}

int lpx::cli::runSweepMerge(const SweepMergeArgs &args) {
  if (args.parts.empty())
    return reportError(kCmd, "no part files given");
  SweepMerge merge;
  for (const std::string &path : args.parts)
    if (auto e = merge.add(path))
      return reportError(kCmd, std::move(e));
  if (auto e = merge.checkComplete())
    return reportError(kCmd, std::move(e));
  if (const StudyKind *kind = studyKindNamed(merge.first->kind))
    return writeStudy(args, merge, *kind);
  const std::string metric = args.metric.empty() ? "seconds" : args.metric;
  if (auto e = checkSweepMetric(metric))
    return reportError(kCmd, std::move(e));
  Grid grid(merge.first->axes);
  std::vector<size_t> points = shardPoints(grid.size(), Shard());
  if (auto e = writeSweepFiles(
          grid, points, csvHeader(grid), merge.rows(), args.output, args.plot,
          metric,
          plotTitle(metric, merge.first->model, merge.first->chip)))
    return reportError(kCmd, std::move(e));
  llvm::outs() << merge.summaryLine(grid.size(), "point(s)", args.output,
                                    args.plot)
               << "\n";
  return merge.hazards ? kCheckFailed : kOk;
}
