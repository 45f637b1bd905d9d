//===- StudyDriver.cpp - The command line of a study ----------------------===//
#include "StudyDriver.h"
#include "Commands.h"
#include "Progress.h"

#include "lpx/deploy/SweepShard.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <thread>

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

std::string lpx::cli::statusCounts(
    const std::vector<std::vector<std::string>> &rows, size_t axes) {
  std::map<std::string, size_t> counts;
  for (const std::vector<std::string> &r : rows)
    ++counts[r[axes]]; // status is the first column after the keys
  std::string out;
  for (const char *status : {"ok", "does-not-fit", "error"})
    if (size_t n = counts[status])
      out += (out.empty() ? "" : ", ") + std::to_string(n) + " " +
             (llvm::StringRef(status) == "ok"             ? "planned"
              : llvm::StringRef(status) == "does-not-fit" ? "fit no chip count"
                                                          : "failed");
  return out;
}

StudySpec lpx::cli::makeStudySpec(const StudyKind &kind, const char *command,
                                  llvm::StringRef model, llvm::StringRef chip,
                                  const StudyOptions &options,
                                  const std::string &output,
                                  const std::string &plot) {
  StudySpec s;
  s.kind = &kind;
  s.command = command;
  s.model = llvm::sys::path::filename(model).str();
  s.chipName = chip.str();
  s.options = options;
  s.output = output;
  s.plot = plot;
  return s;
}

int lpx::cli::runStudy(const StudySpec &s, const Grid &grid,
                       std::vector<std::vector<std::string>> *written) {
  const StudyKind &kind = *s.kind;
  if (s.output.empty())
    return reportError(s.command, "--sweep needs -o FILE.csv");
  const std::string metric = s.options.metric.empty() ? kind.defaultMetric : s.options.metric;
  if (!isStudyMetric(kind, metric))
    return reportError(s.command, "--metric " + metric +
                                      " is not a numeric column of the study");
  Shard shard;
  if (!s.options.shard.empty()) {
    auto parsed = parseShard(s.options.shard);
    if (!parsed)
      return reportError(s.command, parsed.takeError());
    shard = *parsed;
    if (!s.plot.empty())
      return reportError(s.command, "--plot draws the whole study: give it to "
                                    "`lpx sweep merge`, not to one --shard");
  }
  for (const std::string &path : {s.output, s.plot})
    if (!path.empty())
      if (auto e = checkOutputPath(path))
        return reportError(s.command, std::move(e));

  std::vector<size_t> points =
      shardPoints(grid.size(), shard, studyShardRun(grid, shard.count));
  unsigned jobs =
      s.options.jobs ? s.options.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = unsigned(std::max<size_t>(1, std::min<size_t>(jobs, points.size())));
  Progress progress(std::string(s.command) + " --sweep", points.size());
  std::vector<std::vector<std::string>> rows =
      s.run(points, jobs,
            [&](size_t done, size_t failed) { progress.update(done, failed); });
  progress.finish();
  // The frontier is the whole study's: a part's is marked when merged.
  if (kind.pareto && s.options.shard.empty())
    markPareto(grid, rows);
  std::string head = studyCsvHeader(kind, grid);
  if (!s.options.shard.empty())
    head = partLine({s.model, s.chipName, shard, grid.axes(), kind.name,
                     s.baseLine}) +
           head;
  if (auto e = writeStudyFiles(kind, grid, points, head, rows, s.output,
                               s.plot, metric,
                               metric + " of " + s.model + " on " + s.chipName))
    return reportError(s.command, std::move(e));
  llvm::outs() << "studied " << points.size() << " deployment(s) of "
               << s.model << " on " << s.chipName;
  if (!s.options.shard.empty())
    llvm::outs() << " (part " << shard.index + 1 << "/" << shard.count
                 << " of " << grid.size() << ")";
  llvm::outs() << ": " << statusCounts(rows, grid.axes().size())
               << llvm::format(" in %.1f s on %u thread(s) -> ",
                               progress.elapsedSeconds(), jobs)
               << s.output << (s.plot.empty() ? "" : ", " + s.plot) << "\n";
  if (written)
    *written = std::move(rows);
  return kOk;
}
