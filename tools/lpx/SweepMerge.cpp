//===- SweepMerge.cpp - lpx sweep merge -----------------------------------===//
//
// Joins the part files of `lpx sweep --shard I/N` into the CSV (and chart)
// the unsharded sweep writes. The first line of every part describes the
// whole sweep; the parts must agree on it, each of 1..N must be there
// exactly once, and each must hold exactly its points, or nothing is
// written.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "lpx/deploy/SweepReport.h"
#include "lpx/deploy/SweepShard.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

namespace {

const char *const kCmd = "sweep merge";

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

bool sameSweep(const PartInfo &a, const PartInfo &b) {
  if (a.model != b.model || a.chip != b.chip || a.shard.count != b.shard.count ||
      a.axes.size() != b.axes.size())
    return false;
  for (size_t i = 0; i < a.axes.size(); ++i)
    if (a.axes[i].key != b.axes[i].key || a.axes[i].values != b.axes[i].values)
      return false;
  return true;
}

struct Merge {
  std::optional<PartInfo> first;
  std::string firstPath;
  std::vector<std::string> partPath;  // per shard; empty: not seen yet
  std::vector<std::string> rowOfPoint; // CSV text per point
  size_t hazards = 0;

  llvm::Error add(const std::string &path);
  llvm::Error checkComplete() const;
};

llvm::Error Merge::add(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return error("cannot read '" + path + "': " + buffer.getError().message());
  auto [line, rest] = (*buffer)->getBuffer().split('\n');
  auto info = parsePartLine(line);
  if (!info)
    return error("'" + path + "': " + llvm::toString(info.takeError()));
  if (!first) {
    first = *info;
    firstPath = path;
    Grid grid(first->axes);
    partPath.resize(first->shard.count);
    rowOfPoint.resize(grid.size());
  } else if (!sameSweep(*first, *info)) {
    return error("'" + path + "' is part of a different sweep than '" +
                 firstPath + "' (model, chip, axes or part count differ)");
  }
  const Shard shard = info->shard;
  std::string &seen = partPath[shard.index];
  if (!seen.empty())
    return error("'" + path + "' and '" + seen + "' are both part " +
                 std::to_string(shard.index + 1) + "/" +
                 std::to_string(shard.count));
  seen = path;

  Grid grid(first->axes);
  auto [header, rows] = rest.split('\n');
  if ((header + "\n").str() != csvHeader(grid))
    return error("'" + path + "': its CSV header does not match its sweep");
  std::vector<CsvRecord> records = splitCsv(rows);
  std::vector<size_t> points = shardPoints(grid.size(), shard);
  if (records.size() != points.size())
    return error("'" + path + "' has " + llvm::Twine(records.size()) +
                 " rows; part " + llvm::Twine(shard.index + 1) + "/" +
                 llvm::Twine(shard.count) + " has " +
                 llvm::Twine(points.size()) + " points");
  for (size_t k = 0; k < points.size(); ++k) {
    std::vector<std::string> axes = csvAxisValues(grid, points[k]);
    auto result = resultFromRow(grid, records[k]);
    if (!result)
      return error("'" + path + "': " + llvm::toString(result.takeError()));
    if (!std::equal(axes.begin(), axes.end(), records[k].fields.begin()))
      return error("'" + path + "': row " + llvm::Twine(k + 1) +
                   " is not the point this part should hold there");
    hazards += result->status == "hazards";
    rowOfPoint[points[k]] = records[k].text;
  }
  return llvm::Error::success();
}

llvm::Error Merge::checkComplete() const {
  std::string missing;
  for (size_t i = 0; i < partPath.size(); ++i)
    if (partPath[i].empty())
      missing += (missing.empty() ? "" : ", ") + std::to_string(i + 1) + "/" +
                 std::to_string(partPath.size());
  if (!missing.empty())
    return error("part(s) " + missing + " of the sweep are missing");
  return llvm::Error::success();
}

} // namespace

int lpx::cli::runSweepMerge(const SweepMergeArgs &args) {
  if (!llvm::is_contained(kMetrics, args.metric))
    return reportError(kCmd, "unknown metric '" + args.metric +
                                 "' (cycles, seconds, efficiency, "
                                 "tokens_per_s)");
  if (args.parts.empty())
    return reportError(kCmd, "no part files given");
  Merge merge;
  for (const std::string &path : args.parts)
    if (auto e = merge.add(path))
      return reportError(kCmd, std::move(e));
  if (auto e = merge.checkComplete())
    return reportError(kCmd, std::move(e));

  Grid grid(merge.first->axes);
  std::vector<size_t> points(grid.size());
  for (size_t p = 0; p < points.size(); ++p)
    points[p] = p;
  std::string rows;
  for (const std::string &row : merge.rowOfPoint)
    rows += row;
  if (auto e = writeSweepFiles(
          grid, points, csvHeader(grid), rows, args.output, args.plot,
          args.metric,
          plotTitle(args.metric, merge.first->model, merge.first->chip)))
    return reportError(kCmd, std::move(e));
  llvm::outs() << "merged " << args.parts.size() << " part(s): "
               << grid.size() << " point(s) of " << merge.first->model
               << " on " << merge.first->chip << " -> " << args.output
               << (args.plot.empty() ? "" : ", " + args.plot) << "\n";
  return merge.hazards ? kCheckFailed : kOk;
}
