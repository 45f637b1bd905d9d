//===- SweepMerge.cpp - The parts of a sharded sweep, joined --------------===//
#include "lpx/deploy/SweepMerge.h"
#include "lpx/deploy/DeployError.h"
#include "lpx/deploy/SweepReport.h"
#include "lpx/deploy/DeploymentStudyTable.h"
#include "lpx/isa/AtomicFile.h"

#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>

using namespace lpx;
using namespace lpx::deploy;

namespace {

bool sameSweep(const PartInfo &a, const PartInfo &b) {
  if (a.model != b.model || a.chip != b.chip || a.kind != b.kind ||
      a.base != b.base || a.shard.count != b.shard.count ||
      a.axes.size() != b.axes.size())
    return false;
  for (size_t i = 0; i < a.axes.size(); ++i)
    if (a.axes[i].key != b.axes[i].key || a.axes[i].values != b.axes[i].values)
      return false;
  return true;
}

} // namespace

llvm::Error SweepMerge::add(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return error("cannot read '" + path + "': " + buffer.getError().message());
  return addText(path, (*buffer)->getBuffer());
}

llvm::Error SweepMerge::addText(const std::string &path, llvm::StringRef text) {
  auto [line, rest] = text.split('\n');
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
  const StudyKind *study = studyKindNamed(first->kind);
  if (!study && !first->kind.empty())
    return error("'" + path + "': a part of an unknown kind of sweep '" +
                 first->kind + "'");
  auto [header, rows] = rest.split('\n');
  if ((header + "\n").str() !=
      (study ? studyCsvHeader(*study, grid) : csvHeader(grid)))
    return error("'" + path + "': its CSV header does not match its sweep");
  std::vector<CsvRecord> records = splitCsv(rows);
  std::vector<size_t> points = shardPoints(
      grid.size(), shard, study ? studyShardRun(grid, shard.count) : 1);
  if (records.size() != points.size())
    return error("'" + path + "' has " + llvm::Twine(records.size()) +
                 " rows; part " + llvm::Twine(shard.index + 1) + "/" +
                 llvm::Twine(shard.count) + " has " +
                 llvm::Twine(points.size()) + " points");
  for (size_t k = 0; k < points.size(); ++k) {
    std::vector<std::string> axes = study ? studyAxisValues(grid, points[k])
                                          : csvAxisValues(grid, points[k]);
    if (study) {
      auto fields = studyRowsFromCsv(*study, grid, records[k].text);
      if (!fields)
        return error("'" + path + "': " + llvm::toString(fields.takeError()));
    } else {
      auto result = resultFromRow(grid, records[k]);
      if (!result)
        return error("'" + path + "': " + llvm::toString(result.takeError()));
      hazards += result->status == "hazards";
    }
    if (!std::equal(axes.begin(), axes.end(), records[k].fields.begin()))
      return error("'" + path + "': row " + llvm::Twine(k + 1) +
                   " is not the point this part should hold there");
    rowOfPoint[points[k]] = records[k].text;
  }
  return llvm::Error::success();
}

llvm::Error SweepMerge::checkComplete() const {
  std::string missing;
  for (size_t i = 0; i < partPath.size(); ++i)
    if (partPath[i].empty())
      missing += (missing.empty() ? "" : ", ") + std::to_string(i + 1) + "/" +
                 std::to_string(partPath.size());
  if (!missing.empty())
    return error("part(s) " + missing + " of the sweep are missing");
  return llvm::Error::success();
}

std::string SweepMerge::rows() const {
  std::string out;
  for (const std::string &row : rowOfPoint)
    out += row;
  return out;
}


std::string SweepMerge::summaryLine(size_t points, llvm::StringRef what,
                                    llvm::StringRef csvPath,
                                    llvm::StringRef plotPath,
                                    llvm::StringRef reportPath) const {
  return "merged " + std::to_string(partPath.size()) + " part(s): " +
         std::to_string(points) + " " + what.str() + " of " + first->model +
         " on " + first->chip + " -> " + csvPath.str() +
         (plotPath.empty() ? "" : ", " + plotPath.str()) +
         (reportPath.empty() ? "" : ", " + reportPath.str());
}

llvm::Expected<std::string> SweepMerge::write(llvm::StringRef csvPath,
                                              llvm::StringRef plotPath,
                                              std::string metric,
                                              llvm::StringRef reportPath) const {
  Grid grid(first->axes);
  std::vector<size_t> points = shardPoints(grid.size(), Shard());
  const StudyKind *kind = studyKindNamed(first->kind);
  if (!kind && !reportPath.empty())
    return error("--report is the page of a deployment study");
  for (llvm::StringRef path : {csvPath, plotPath, reportPath})
    if (!path.empty())
      if (auto e = isa::checkOutputPath(path))
        return std::move(e);
  if (kind) {
    if (metric.empty())
      metric = kind->defaultMetric;
    if (!isStudyMetric(*kind, metric))
      return error("--metric " + metric +
                   " is not a numeric column of the study");
    auto studyRows = studyRowsFromCsv(*kind, grid, rows());
    if (!studyRows)
      return studyRows.takeError();
    if (kind->pareto)
      markPareto(grid, *studyRows);
    if (auto e = writeStudyFiles(
            *kind, grid, points, studyCsvHeader(*kind, grid), *studyRows,
            {csvPath.str(), plotPath.str(), reportPath.str(), metric,
             metric + " of " + first->model + " on " + first->chip,
             first->base}))
      return std::move(e);
    return summaryLine(grid.size(), "deployment(s)", csvPath, plotPath,
                       reportPath);
  }
  if (metric.empty())
    metric = "seconds";
  if (auto e = checkSweepMetric(metric))
    return std::move(e);
  if (auto e = writeSweepFiles(grid, points, csvHeader(grid), rows(), csvPath,
                               plotPath, metric,
                               plotTitle(metric, first->model, first->chip)))
    return std::move(e);
  return summaryLine(grid.size(), "point(s)", csvPath, plotPath);
}
