//===- DecodeStudyCommand.cpp - lpx decode --sweep ------------------------===//
//
// A study of whole deployments (DeploymentSweep.h): the grid built from
// the --sweep axes and checked against the chip, sharded, every point
// planned on a pool of threads with a progress line, the CSV and chart
// written (DeploymentStudyTable.h) and the frontier printed.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "StudyDriver.h"
#include "lpx/deploy/DeploymentStudyTable.h"

#include "lpx/isa/ChipOverrides.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"


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
  auto chip = isa::loadChipWithOverrides(
      a.chip.empty() ? isa::presetNames().front() : a.chip, a.sets);
  if (!chip)
    return reportError(kCmd, chip.takeError());
  auto grid = buildDeploymentGrid(a.sweeps, *chip);
  if (!grid)
    return reportError(kCmd, grid.takeError());
  if (auto twice = givenTwice(a, *grid))
    return reportError(kCmd, *twice);
  ScratchDir scratch;
  if (auto e = scratch.create("lpx-study"))
    return reportError(kCmd, std::move(e));

  StudySpec spec = makeStudySpec(decodeStudyKind(), kCmd, a.model, chip->name,
                                 a, a.output, a.plot);
  spec.baseLine = baseLine(a);
  std::vector<DeploymentPoint> results;
  spec.run = [&](const std::vector<size_t> &points, unsigned jobs,
                 const std::function<void(size_t, size_t)> &progress) {
    results = runDeploymentPoints(a, *grid, points, jobs, scratch.path,
                                  progress);
    std::vector<std::vector<std::string>> rows;
    for (size_t k = 0; k < points.size(); ++k)
      rows.push_back(studyRowFields(*grid, points[k], results[k]));
    return rows;
  };
  std::vector<std::vector<std::string>> rows;
  if (int rc = runStudy(spec, *grid, &rows); rc != kOk)
    return rc;

  size_t searched = 0, hinted = 0, compiles = 0;
  for (const DeploymentPoint &r : results)
    if (r.ok() && r.metrics.searched) {
      ++searched;
      hinted += r.metrics.hintConfirmed;
      compiles += r.metrics.searchCompiles;
    }
  if (searched) {
    llvm::outs() << "  chip search: " << compiles << " compile(s) for "
                 << searched << " point(s)";
    if (hinted)
      llvm::outs() << "; " << hinted
                   << " started from the count of the point before them in "
                      "the last key and were confirmed in 2";
    llvm::outs() << "\n";
  }
  printFrontier(*grid, rows);
  return kOk;
}
