//===- DecodeStudyCommand.cpp - lpx decode --sweep ------------------------===//
//
// A study of whole deployments (DeploymentSweep.h): the grid built from
// the --sweep axes and checked against the chip, sharded, every point
// planned on a pool of threads with a progress line, the CSV and chart
// written (DeploymentStudyTable.h) and the frontier printed.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Progress.h"
#include "lpx/deploy/DeploymentStudyTable.h"
#include "lpx/deploy/SweepShard.h"

#include "lpx/isa/ChipOverrides.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <thread>

using namespace lpx;
using namespace lpx::cli;
using namespace lpx::deploy;

namespace {

constexpr const char *kCmd = "decode";

/// The options every point shares, as one line (a part file records it so
/// that parts of different studies are not merged).
std::string baseLine(const DecodeArgs &a) {
  std::string s = "--model " + a.model;
  auto add = [&](const char *name, const std::string &v) {
    if (!v.empty())
      s += std::string(" ") + name + " " + v;
  };
  add("--chip", a.chip);
  for (const std::string &set : a.sets)
    add("--set", set);
  for (auto [name, v] :
       {std::pair{"--context", &a.context}, {"--prompt", &a.prompt},
        {"--batch", &a.batch}, {"--chips", &a.chips}, {"--tp", &a.tp},
        {"--pp", &a.pp}, {"--weights", &a.weights},
        {"--activations", &a.activations},
        {"--prefill-chunk", &a.prefillChunk}, {"--sample", &a.sample}})
    add(name, *v);
  return s;
}

/// A swept key the options also fix: one of them would be ignored.
std::optional<std::string> givenTwice(const DecodeArgs &a, const Grid &grid) {
  for (const Axis &axis : grid.axes()) {
    llvm::StringRef k = axis.key;
    const std::string *fixed = k == "chips"     ? &a.chips
                               : k == "tp"      ? &a.tp
                               : k == "pp"      ? &a.pp
                               : k == "context" ? &a.context
                               : k == "prompt"  ? &a.prompt
                               : k == "weights" ? &a.weights
                               : k == "activations" ? &a.activations
                                                    : nullptr;
    if (fixed && !fixed->empty())
      return "--sweep " + axis.key + " and --" + axis.key +
             " both give it; keep one";
    if (k == "batch" && a.batch != "1")
      return std::string("--sweep batch and --batch both give it; keep one");
    for (const std::string &set : a.sets)
      if (llvm::StringRef(set).split('=').first == k)
        return "--sweep " + axis.key + " and --set " + set +
               " both give it; keep one";
  }
  return std::nullopt;
}

void printFrontier(const Grid &grid,
                   const std::vector<std::vector<std::string>> &rows) {
  const size_t axes = grid.axes().size();
  auto col = [&](const std::vector<std::string> &r, const char *name) {
    size_t i = size_t(llvm::find(kStudyColumns, llvm::StringRef(name)) -
                      std::begin(kStudyColumns));
    return r[axes + i];
  };
  for (const std::vector<std::string> &r : rows) {
    if (col(r, "pareto").empty())
      continue;
    std::string at;
    for (size_t i = 0; i < axes; ++i)
      at += (i ? ", " : "") + grid.axes()[i].key + "=" + r[i];
    llvm::outs() << "  frontier: " << at << ": " << col(r, "chips")
                 << " chip(s), TPOT " << col(r, "tpot_us") << " us, "
                 << col(r, "tokens_per_s_per_user") << " tokens/s per user\n";
  }
}

} // namespace

int lpx::cli::runDecodeStudy(const DecodeArgs &a) {
  if (a.output.empty())
    return reportError(kCmd, "--sweep needs -o FILE.csv");
  if (!isStudyMetric(a.metric))
    return reportError(kCmd, "--metric " + a.metric +
                                 " is not a numeric column of the study "
                                 "(tpot_us, ttft_us, tokens_per_s, chips, ...)");
  auto chip = isa::loadChipWithOverrides(
      a.chip.empty() ? isa::presetNames().front() : a.chip, a.sets);
  if (!chip)
    return reportError(kCmd, chip.takeError());
  auto grid = buildDeploymentGrid(a.sweeps, *chip);
  if (!grid)
    return reportError(kCmd, grid.takeError());
  if (auto twice = givenTwice(a, *grid))
    return reportError(kCmd, *twice);
  Shard shard;
  if (!a.shard.empty()) {
    auto parsed = parseShard(a.shard);
    if (!parsed)
      return reportError(kCmd, parsed.takeError());
    shard = *parsed;
    if (!a.plot.empty())
      return reportError(kCmd, "--plot draws the whole study: give it to "
                               "`lpx sweep merge`, not to one --shard");
  }
  for (const std::string &path : {a.output, a.plot})
    if (!path.empty())
      if (auto e = checkOutputPath(path))
        return reportError(kCmd, std::move(e));

  ScratchDir scratch;
  if (auto e = scratch.create("lpx-study"))
    return reportError(kCmd, std::move(e));
  std::vector<size_t> points = shardPoints(grid->size(), shard);
  unsigned jobs =
      a.jobs ? a.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = unsigned(std::max<size_t>(1, std::min<size_t>(jobs, points.size())));
  Progress progress("decode --sweep", points.size());
  std::vector<DeploymentPoint> results = runDeploymentPoints(
      a, *grid, points, jobs, scratch.path,
      [&](size_t done, size_t failed) { progress.update(done, failed); });
  progress.finish();

  std::vector<std::vector<std::string>> rows;
  for (size_t k = 0; k < points.size(); ++k)
    rows.push_back(studyRowFields(*grid, points[k], results[k]));
  if (a.shard.empty())
    markPareto(*grid, rows); // over the whole study: merge marks the parts'
  std::string head = studyCsvHeader(*grid);
  const std::string model = llvm::sys::path::filename(a.model).str();
  if (!a.shard.empty())
    head = partLine({model, chip->name, shard, grid->axes(), kStudyKind,
                     baseLine(a)}) +
           head;
  if (auto e = writeStudyFiles(*grid, points, head, rows, a.output, a.plot,
                               a.metric,
                               a.metric + " of " + model + " on " + chip->name))
    return reportError(kCmd, std::move(e));

  size_t ok = llvm::count_if(results, [](auto &r) { return r.ok(); });
  size_t misfit = llvm::count_if(
      results, [](auto &r) { return r.status == "does-not-fit"; });
  llvm::outs() << "studied " << points.size() << " deployment(s) of " << model
               << " on " << chip->name;
  if (!a.shard.empty())
    llvm::outs() << " (part " << shard.index + 1 << "/" << shard.count
                 << " of " << grid->size() << ")";
  llvm::outs() << ": " << ok << " planned";
  if (misfit)
    llvm::outs() << ", " << misfit << " fit no chip count";
  if (points.size() - ok - misfit)
    llvm::outs() << ", " << (points.size() - ok - misfit) << " failed";
  llvm::outs() << llvm::format(" in %.1f s on %u thread(s) -> ",
                               progress.elapsedSeconds(), jobs)
               << a.output << (a.plot.empty() ? "" : ", " + a.plot) << "\n";
  printFrontier(*grid, rows);
  return kOk;
}
