//===- ServeStudy.cpp - A study of deployments under load -----------------===//
#include "lpx/deploy/ServeStudy.h"
#include "lpx/deploy/DeployError.h"
#include "lpx/deploy/PointPool.h"

#include <fmt/format.h>

using namespace lpx;
using namespace lpx::deploy;

const StudyKind &lpx::deploy::serveStudyKind() {
  static const char *const text[] = {"status", "deployment", "slo_holds",
                                     "message"};
  static const StudyKind kind{"serving", kServeStudyColumns, text,
                              "ttft_p99_us", false};
  return kind;
}

/// The deployment and serving words of one point, its table built (or
/// read from the cache) and the workload run on it.
static ServePoint servePoint(DeploymentArgs d, ServeWords w, const Grid &grid,
                             size_t index) {
  ServePoint p;
  forEachValue(grid, index, [&](const std::string &key, const std::string &v) {
    if (key == "max_batch")
      w.maxBatch = v;
    else
      setStudyValue(d, key, v);
  });
  DeploymentNumbers n;
  DecodeTarget t;
  ServeSetup setup;
  llvm::Error e = parseDeployment(d, n);
  if (!e)
    e = loadTarget(d, n, t);
  if (!e)
    e = parseServeSetup(w, setup);
  if (e) {
    p.message = llvm::toString(std::move(e));
    return p;
  }
  auto table = serveTable(t, unsigned(n.chips), n.context, setup, w.cacheDir, {});
  if (!table) {
    p.message = llvm::toString(table.takeError());
    if (llvm::StringRef(p.message).contains("does not fit"))
      p.status = "does-not-fit";
    return p;
  }
  p.deployment = table->table.deployment;
  p.stages = table->table.stages;
  p.maxSequences = table->table.maxSequences;
  auto model = serve::ServiceModel::create(table->table);
  if (!model) {
    p.message = llvm::toString(model.takeError());
    return p;
  }
  auto out = runServe(*model, setup);
  if (!out) {
    p.message = llvm::toString(out.takeError());
    return p;
  }
  p.outcome = std::move(*out);
  p.status = "ok";
  return p;
}

std::vector<ServePoint> lpx::deploy::runServePoints(
    const DeploymentArgs &deployment, const ServeWords &serving,
    const Grid &grid, const std::vector<size_t> &points, unsigned jobs,
    const std::function<void(size_t, size_t)> &progress) {
  std::vector<ServePoint> results(points.size());
  runOnThreads(
      points.size(), jobs,
      [&](size_t k) {
        try {
          results[k] = servePoint(deployment, serving, grid, points[k]);
        } catch (const std::exception &e) { // e.g. out of memory
          results[k].message = e.what();
        }
        return results[k].ok();
      },
      progress);
  return results;
}

std::vector<std::string> lpx::deploy::serveRowFields(const Grid &grid,
                                                     size_t index,
                                                     const ServePoint &point) {
  std::vector<std::string> row = studyAxisValues(grid, index);
  std::vector<std::string> cols(std::size(kServeStudyColumns));
  auto set = [&](llvm::StringRef name, std::string v) {
    cols[size_t(llvm::find(kServeStudyColumns, name) -
                std::begin(kServeStudyColumns))] = std::move(v);
  };
  set("status", point.status);
  set("message", point.message);
  if (point.ok()) {
    const serve::Results &r = point.outcome.results;
    auto us = [](double v) { return fmt::format("{:.3f}", v); };
    set("deployment", point.deployment);
    set("stages", std::to_string(point.stages));
    set("max_sequences", std::to_string(point.maxSequences));
    set("ttft_p50_us", us(r.ttft.p50));
    set("ttft_p99_us", us(r.ttft.p99));
    set("tpot_p50_us", us(r.tpot.p50));
    set("tpot_p99_us", us(r.tpot.p99));
    set("e2e_p99_us", us(r.e2e.p99));
    set("tokens_per_s", fmt::format("{:.2f}", r.tokensPerSecond));
    set("completed", std::to_string(r.completed));
    set("rejected", std::to_string(r.rejected));
    if (r.slo) {
      set("slo_holds", r.slo->holds ? "yes" : "no");
      set("goodput", fmt::format("{:.4f}", r.slo->goodput));
    }
    if (point.outcome.curve && point.outcome.curve->highestHolding)
      set("highest_load_within_slo",
          fmt::format("{}", *point.outcome.curve->highestHolding));
  }
  row.insert(row.end(), cols.begin(), cols.end());
  return row;
}

llvm::Error lpx::deploy::checkStudyOutputs(const ServeWords &w) {
  for (auto [name, value] :
       {std::pair{"--curve-csv", &w.curveCsv}, {"--curve-svg", &w.curveSvg},
        {"--trace", &w.trace}})
    if (!value->empty())
      return error(std::string(name) +
                   " is of one run; a --sweep study goes without it");
  return llvm::Error::success();
}

llvm::Expected<ServeWords> lpx::deploy::studyServeWords(const ServeWords &w) {
  ServeWords serving = w;
  serving.output.clear();
  ServeSetup check;
  if (auto e = parseServeSetup(serving, check))
    return std::move(e);
  return serving;
}

std::string lpx::deploy::serveStudyBaseLine(const DeploymentArgs &d,
                                            const ServeWords &w,
                                            llvm::StringRef chipName) {
  std::string line = "--model " + d.model + " --chip " + chipName.str() +
                     " --workload " + w.workload + " --max-batch " +
                     w.maxBatch + " --slo " + w.slo + " --load-sweep " +
                     w.loadSweep + " --seed " + w.seed;
  if (!w.prefillChunk.empty())
    line += " --prefill-chunk " + w.prefillChunk;
  for (const std::string &set : d.sets)
    line += " --set " + set;
  return line;
}

std::optional<std::string> lpx::deploy::servedTwice(const DeploymentArgs &d,
                                                    const ServeWords &w,
                                                    const Grid &grid) {
  DecodeWords words;
  static_cast<DeploymentArgs &>(words) = d;
  if (auto clash = sweptTwice(words, grid))
    return clash;
  for (const Axis &axis : grid.axes())
    if (axis.key == "max_batch" && w.maxBatch != ServeWords{}.maxBatch)
      return std::string("--sweep max_batch and --max-batch both give it; "
                         "keep one");
  return std::nullopt;
}

std::vector<std::vector<std::string>> lpx::deploy::serveStudyRows(
    const DeploymentArgs &deployment, const ServeWords &serving,
    const Grid &grid, const std::vector<size_t> &points, unsigned jobs,
    const std::function<void(size_t, size_t)> &progress) {
  std::vector<ServePoint> results =
      runServePoints(deployment, serving, grid, points, jobs, progress);
  std::vector<std::vector<std::string>> rows;
  for (size_t k = 0; k < points.size(); ++k)
    rows.push_back(serveRowFields(grid, points[k], results[k]));
  return rows;
}
