//===- DeploymentSweep.cpp - A study of whole deployments -----------------===//
#include "lpx/deploy/DeploymentSweep.h"
#include "lpx/deploy/PointPool.h"

#include "lpx/isa/ChipOverrides.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace lpx;
using namespace lpx::deploy;

namespace {

// Every point plans a deployment (minutes at 70B): past this it is a typo.
constexpr size_t kMaxStudyPoints = 10000;

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

bool isDeploymentKey(llvm::StringRef key) {
  return llvm::is_contained(kDeploymentKeys, key);
}

/// The option a deployment key sets.
std::string *optionOf(DecodeWords &w, llvm::StringRef key) {
  if (key == "chips") return &w.chips;
  if (key == "tp") return &w.tp;
  if (key == "pp") return &w.pp;
  if (key == "batch") return &w.batch;
  if (key == "context") return &w.context;
  if (key == "prompt") return &w.prompt;
  if (key == "weights") return &w.weights;
  return &w.activations;
}

/// The counts must be positive integers; format names are checked by the
/// point (the chip's formats are known only there).
llvm::Error checkDeploymentValue(llvm::StringRef key, llvm::StringRef v) {
  if (key == "weights" || key == "activations")
    return llvm::Error::success();
  uint64_t n;
  if (v.getAsInteger(10, n) || n == 0)
    return error("--sweep " + key + ": '" + v + "' is not a positive integer");
  return llvm::Error::success();
}

} // namespace

llvm::Expected<Grid>
lpx::deploy::buildDeploymentGrid(const std::vector<std::string> &specs,
                                 const isa::ChipSpec &base) {
  std::vector<Axis> axes;
  for (const std::string &spec : specs) {
    auto axis = parseAxis(spec);
    if (!axis)
      return axis.takeError();
    if (axis->key == kNodesKey)
      return error("--sweep nodes: a deployment's chips are `chips`");
    for (const Axis &a : axes)
      if (a.key == axis->key)
        return error("--sweep " + axis->key + " is given twice; put all its "
                     "values in one list");
    for (const std::string &v : axis->values) {
      if (isDeploymentKey(axis->key)) {
        if (auto e = checkDeploymentValue(axis->key, v))
          return std::move(e);
        continue;
      }
      isa::ChipSpec trial = base;
      if (auto e = isa::applyOverride(trial, axis->key, v))
        return error("--sweep: " + llvm::toString(std::move(e)));
    }
    axes.push_back(std::move(*axis));
  }
  Grid grid(std::move(axes));
  if (grid.size() > kMaxStudyPoints)
    return error("the study has " + llvm::Twine(grid.size()) +
                 " points; at most " + llvm::Twine(kMaxStudyPoints));
  return grid;
}

DecodeWords lpx::deploy::pointWords(const DecodeWords &base, const Grid &grid,
                                    size_t index) {
  DecodeWords w = base;
  std::vector<size_t> at = grid.coords(index);
  for (size_t i = 0; i < grid.axes().size(); ++i) {
    const Axis &a = grid.axes()[i];
    if (isDeploymentKey(a.key))
      *optionOf(w, a.key) = a.values[at[i]];
    else
      w.sets.push_back(a.key + "=" + a.values[at[i]]);
  }
  return w;
}

static DeploymentPoint planPoint(const DecodeWords &words,
                                 llvm::StringRef dir) {
  DeploymentPoint p;
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    p.message = "cannot create '" + dir.str() + "': " + ec.message();
    return p;
  }
  auto m = decodeFromWords(words, dir, {});
  llvm::sys::fs::remove_directories(dir);
  if (!m) {
    p.message = llvm::toString(m.takeError());
    if (llvm::StringRef(p.message).contains("does not fit"))
      p.status = "does-not-fit";
    return p;
  }
  p.status = "ok";
  p.metrics = std::move(*m);
  return p;
}

std::vector<DeploymentPoint> lpx::deploy::runDeploymentPoints(
    const DecodeWords &base, const Grid &grid,
    const std::vector<size_t> &points, unsigned jobs,
    llvm::StringRef scratchDir,
    const std::function<void(size_t, size_t)> &progress) {
  std::vector<DeploymentPoint> results(points.size());
  runOnThreads(
      points.size(), jobs,
      [&](size_t i) {
        llvm::SmallString<256> dir(scratchDir);
        llvm::sys::path::append(dir, "point-" + std::to_string(points[i]));
        try {
          results[i] = planPoint(pointWords(base, grid, points[i]), dir);
        } catch (const std::exception &e) { // e.g. out of memory
          results[i].message = e.what();
        }
        return results[i].ok();
      },
      progress);
  return results;
}
