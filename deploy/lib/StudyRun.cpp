//===- StudyRun.cpp - A study from its options to its files ---------------===//
#include "lpx/deploy/StudyRun.h"
#include "lpx/deploy/DeployError.h"

#include "lpx/isa/AtomicFile.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <thread>

using namespace lpx;
using namespace lpx::deploy;

StudySpec lpx::deploy::makeStudySpec(const StudyKind &kind,
                                     llvm::StringRef model,
                                     llvm::StringRef chip,
                                     const StudyOptions &options,
                                     const std::string &output,
                                     const std::string &plot,
                                     const std::string &report) {
  StudySpec s;
  s.kind = &kind;
  s.model = llvm::sys::path::filename(model).str();
  s.chipName = chip.str();
  s.options = options;
  s.output = output;
  s.plot = plot;
  s.report = report;
  return s;
}

static std::string studyMetricOf(const StudySpec &s) {
  return s.options.metric.empty() ? s.kind->defaultMetric : s.options.metric;
}

llvm::Error lpx::deploy::checkStudy(const StudySpec &s) {
  if (s.output.empty())
    return error("--sweep needs -o FILE.csv");
  if (!isStudyMetric(*s.kind, studyMetricOf(s)))
    return error("--metric " + studyMetricOf(s) +
                 " is not a numeric column of the study");
  if (!s.options.shard.empty()) {
    auto parsed = parseShard(s.options.shard);
    if (!parsed)
      return parsed.takeError();
    for (auto [name, path] : {std::pair{"--plot", &s.plot}, {"--report", &s.report}})
      if (!path->empty())
        return error(std::string(name) + " draws the whole study: give it "
                     "to `lpx sweep merge`, not to one --shard");
  }
  for (const std::string &path : {s.output, s.plot, s.report})
    if (!path.empty())
      if (auto e = isa::checkOutputPath(path))
        return e;
  return llvm::Error::success();
}

llvm::Expected<StudyOutcome>
lpx::deploy::runStudy(const StudySpec &s, const Grid &grid,
                      const std::function<void(size_t points)> &started,
                      const std::function<void(size_t, size_t)> &progress) {
  StudyOutcome out;
  out.gridSize = grid.size();
  out.sharded = !s.options.shard.empty();
  if (out.sharded) {
    auto parsed = parseShard(s.options.shard);
    if (!parsed)
      return parsed.takeError();
    out.shard = *parsed;
  }
  std::vector<size_t> points = shardPoints(
      grid.size(), out.shard, studyShardRun(grid, out.shard.count));
  unsigned jobs = s.options.jobs
                      ? s.options.jobs
                      : std::max(1u, std::thread::hardware_concurrency());
  out.jobs = unsigned(std::max<size_t>(1, std::min<size_t>(jobs, points.size())));
  if (started)
    started(points.size());
  out.rows = s.run(points, out.jobs, progress);
  // The frontier is the whole study's: a part's is marked when merged.
  if (s.kind->pareto && !out.sharded)
    markPareto(grid, out.rows);
  std::string head = studyCsvHeader(*s.kind, grid);
  if (out.sharded)
    head = partLine({s.model, s.chipName, out.shard, grid.axes(),
                     s.kind->name, s.baseLine}) +
           head;
  const std::string metric = studyMetricOf(s);
  if (auto e = writeStudyFiles(
          *s.kind, grid, points, head, out.rows,
          {s.output, s.plot, s.report, metric,
           metric + " of " + s.model + " on " + s.chipName, s.baseLine}))
    return std::move(e);
  return out;
}

std::string StudyOutcome::summary(const StudySpec &s, size_t axes,
                                  double seconds) const {
  std::map<std::string, size_t> counts;
  for (const std::vector<std::string> &r : rows)
    ++counts[r[axes]]; // status is the first column after the keys
  std::string by;
  for (auto [status, said] : {std::pair{"ok", "planned"},
                              {"does-not-fit", "fit no chip count"},
                              {"error", "failed"}})
    if (size_t n = counts[status])
      by += (by.empty() ? "" : ", ") + std::to_string(n) + " " + said;
  std::string part =
      sharded ? fmt::format(" (part {}/{} of {})", shard.index + 1,
                            shard.count, gridSize)
              : "";
  return fmt::format("studied {} deployment(s) of {} on {}{}: {} in {:.1f} s "
                     "on {} thread(s) -> {}{}{}\n",
                     rows.size(), s.model, s.chipName, part, by, seconds, jobs,
                     s.output, s.plot.empty() ? "" : ", " + s.plot,
                     s.report.empty() ? "" : ", " + s.report);
}
