//===- DeploymentSweep.cpp - A study of whole deployments -----------------===//
#include "lpx/deploy/DeploymentSweep.h"
#include "lpx/deploy/DeployError.h"
#include "lpx/deploy/Evaluate.h"
#include "lpx/deploy/PointPool.h"

#include "lpx/isa/ChipOverrides.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace lpx;
using namespace lpx::deploy;

namespace {

// Every point plans a deployment (minutes at 70B): past this it is a typo.
constexpr size_t kMaxStudyPoints = 10000;

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

std::string *lpx::deploy::deploymentOption(DeploymentArgs &a,
                                           llvm::StringRef key) {
  if (key == "chips") return &a.chips;
  if (key == "tp") return &a.tp;
  if (key == "pp") return &a.pp;
  if (key == "context") return &a.context;
  if (key == "weights") return &a.weights;
  if (key == "activations") return &a.activations;
  return nullptr;
}

llvm::Expected<Grid>
lpx::deploy::buildDeploymentGrid(const std::vector<std::string> &specs,
                                 const isa::ChipSpec &base) {
  return buildStudyGrid(specs, base, kDeploymentKeys);
}

llvm::Expected<Grid>
lpx::deploy::buildStudyGrid(const std::vector<std::string> &specs,
                            const isa::ChipSpec &base,
                            llvm::ArrayRef<const char *> ownKeys) {
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
      if (llvm::is_contained(ownKeys, axis->key)) {
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

void lpx::deploy::forEachValue(
    const Grid &grid, size_t index,
    const std::function<void(const std::string &, const std::string &)> &fn) {
  std::vector<size_t> at = grid.coords(index);
  for (size_t i = 0; i < grid.axes().size(); ++i)
    fn(grid.axes()[i].key, grid.axes()[i].values[at[i]]);
}

void lpx::deploy::setStudyValue(DeploymentArgs &a, const std::string &key,
                                const std::string &value) {
  if (std::string *option = deploymentOption(a, key))
    *option = value;
  else
    a.sets.push_back(key + "=" + value);
}

std::string lpx::deploy::decodeWordsLine(const DecodeWords &w) {
  std::string s = "--model " + w.model;
  auto add = [&](const char *name, const std::string &v) {
    if (!v.empty())
      s += std::string(" ") + name + " " + v;
  };
  add("--chip", w.chip);
  for (const std::string &set : w.sets)
    add("--set", set);
  for (auto [name, v] :
       {std::pair{"--context", &w.context}, {"--prompt", &w.prompt},
        {"--batch", &w.batch}, {"--chips", &w.chips}, {"--tp", &w.tp},
        {"--pp", &w.pp}, {"--weights", &w.weights},
        {"--activations", &w.activations},
        {"--prefill-chunk", &w.prefillChunk}, {"--sample", &w.sample}})
    add(name, *v);
  return s;
}

std::optional<std::string> lpx::deploy::sweptTwice(const DecodeWords &w,
                                                   const Grid &grid) {
  DecodeWords given = w; // deploymentOption hands out the field to set
  for (const Axis &axis : grid.axes()) {
    const std::string *fixed = deploymentOption(given, axis.key);
    if (axis.key == "prompt")
      fixed = &w.prompt;
    if (fixed && !fixed->empty())
      return "--sweep " + axis.key + " and --" + axis.key +
             " both give it; keep one";
    if (axis.key == "batch" && w.batch != "1")
      return std::string("--sweep batch and --batch both give it; keep one");
    for (const std::string &set : w.sets)
      if (llvm::StringRef(set).split('=').first == axis.key)
        return "--sweep " + axis.key + " and --set " + set +
               " both give it; keep one";
  }
  return std::nullopt;
}

DecodeWords lpx::deploy::pointWords(const DecodeWords &base, const Grid &grid,
                                    size_t index) {
  DecodeWords w = base;
  forEachValue(grid, index, [&](const std::string &key, const std::string &v) {
    if (key == "batch")
      w.batch = v;
    else if (key == "prompt")
      w.prompt = v;
    else
      setStudyValue(w, key, v);
  });
  return w;
}

DeploymentPoint lpx::deploy::planDeployment(const DecodeWords &words,
                                           llvm::StringRef dir,
                                           unsigned chipsHint, bool keepPlan,
                                           const DecodePlan *source) {
  DeploymentPoint p;
  p.resimulated = source != nullptr;
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    p.message = "cannot create '" + dir.str() + "': " + ec.message();
    return p;
  }
  try {
    auto m = decodeFromWords(words, dir, {}, chipsHint,
                             keepPlan ? &p.plan : nullptr, source);
    if (m) {
      p.status = "ok";
      p.metrics = std::move(*m);
    } else {
      p.message = llvm::toString(m.takeError());
      if (llvm::StringRef(p.message).contains("does not fit"))
        p.status = "does-not-fit";
    }
  } catch (const std::exception &e) { // e.g. out of memory
    p.message = e.what();
  }
  llvm::sys::fs::remove_directories(dir);
  return p;
}

std::vector<std::optional<size_t>>
lpx::deploy::resimulationSources(const Grid &grid,
                                 const std::vector<size_t> &points) {
  // Points are grouped by the values of the keys the compiler reads; the
  // first of each group is planned, the rest re-simulate its programs.
  std::map<std::vector<size_t>, size_t> firstOf;
  std::vector<std::optional<size_t>> source(points.size());
  for (size_t k = 0; k < points.size(); ++k) {
    std::vector<size_t> at = grid.coords(points[k]);
    for (size_t i = 0; i < at.size(); ++i)
      if (!compilerReadsKey(grid.axes()[i].key))
        at[i] = 0;
    auto [it, first] = firstOf.emplace(std::move(at), k);
    if (!first)
      source[k] = it->second;
  }
  return source;
}

std::vector<DeploymentPoint> lpx::deploy::runDeploymentPoints(
    const DecodeWords &base, const Grid &grid,
    const std::vector<size_t> &points, unsigned jobs,
    llvm::StringRef scratchDir,
    const std::function<void(size_t, size_t)> &progress) {
  // The point each one differs from in the last key alone, with that key's
  // first value: it runs first, and its chip count starts their searches.
  std::map<size_t, size_t> slotOf;
  for (size_t k = 0; k < points.size(); ++k)
    slotOf[points[k]] = k;
  std::vector<std::optional<size_t>> leader(points.size());
  const std::vector<std::optional<size_t>> source =
      resimulationSources(grid, points);
  std::vector<bool> isSource(points.size());
  std::vector<size_t> waves[3];
  for (size_t k = 0; k < points.size(); ++k) {
    const size_t last = grid.axes().empty() ? 0 : grid.coords(points[k]).back();
    auto it = slotOf.find(points[k] - last);
    if (last && it != slotOf.end())
      leader[k] = it->second;
    if (source[k])
      isSource[*source[k]] = true;
    waves[source[k] ? 2 : leader[k] ? 1 : 0].push_back(k);
  }
  std::vector<DeploymentPoint> results(points.size());
  size_t before = 0, failedBefore = 0;
  for (const std::vector<size_t> &wave : waves) {
    runOnThreads(
        wave.size(), jobs,
        [&](size_t i) {
          const size_t k = wave[i];
          unsigned hint = 0;
          if (leader[k] && results[*leader[k]].ok())
            hint = results[*leader[k]].metrics.chips;
          llvm::SmallString<256> dir(scratchDir);
          llvm::sys::path::append(dir, "point-" + std::to_string(points[k]));
          const DecodePlan *from =
              source[k] ? results[*source[k]].plan.get() : nullptr;
          results[k] = planDeployment(pointWords(base, grid, points[k]), dir,
                                      hint, isSource[k], from);
          return results[k].ok();
        },
        [&](size_t done, size_t failed) {
          if (progress)
            progress(before + done, failedBefore + failed);
        });
    before += wave.size();
    failedBefore = size_t(llvm::count_if(
        wave, [&](size_t k) { return !results[k].ok(); })) + failedBefore;
  }
  for (DeploymentPoint &p : results)
    p.plan.reset(); // the programs are large; the figures are kept
  return results;
}
