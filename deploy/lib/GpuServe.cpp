//===- GpuServe.cpp - A GPU deployment under the same load ----------------===//
#include "lpx/deploy/GpuServe.h"

#include "lpx/serve/Report.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace lpx;
using namespace lpx::deploy;
using llvm::formatv;

serve::ServiceTable lpx::deploy::analyticServiceTable(
    const serve::ServiceTable &lpx, const gpu::GpuDeployment &d,
    const gpu::ModelShape &shape, int64_t context) {
  serve::ServiceTable t;
  t.deployment = formatv("{0} x {1} (analytic), weights {2}, KV cache {3}",
                         d.tp, d.gpu.name, gpu::formatName(d.weights),
                         gpu::formatName(d.kvCache));
  t.source = "analytic";
  for (const serve::DecodePoint &p : lpx.decode)
    t.decode.push_back(
        {p.batch, p.context,
         gpu::stepTime(d, shape, gpu::Step{p.batch, 1, p.context}).totalUs()});
  for (const serve::PrefillPoint &p : lpx.prefill) {
    const int64_t query = p.chunk ? p.chunk : p.prompt;
    t.prefill.push_back(
        {p.prompt, p.batch, p.chunk,
         gpu::stepTime(d, shape, gpu::Step{p.batch, query, p.prompt})
             .totalUs()});
  }
  t.prefillChunk = lpx.prefillChunk;
  const gpu::GpuMemory one = gpu::memoryPerGpu(d, shape, 1, context);
  const double free = d.gpu.hbmBytes * gpu::kUsableHbm - one.weights;
  t.maxSequences = std::max<int64_t>(1, int64_t(std::floor(free / one.kvCache)));
  return t;
}

namespace {

/// What the side-by-side prints of one run.
void printRow(const char *what, double lpx, double gpu, llvm::raw_ostream &os) {
  os << formatv("  {0,-26} {1,16:f1} {2,16:f1}\n", what, lpx, gpu);
}

} // namespace

llvm::Error lpx::deploy::serveWithComparison(
    const CachedTable &table, const DeploymentArgs &deployment,
    llvm::StringRef compare, int64_t context, const ServeSetup &setup,
    bool json, llvm::raw_ostream &os) {
  auto target = parseGpuTarget(compare);
  if (!target)
    return llvm::createStringError("--compare '" + compare.str() +
                                   "': " + llvm::toString(target.takeError()));
  const models::DecoderConfig *preset = models::findPreset(deployment.model);
  if (!preset)
    return llvm::createStringError("--compare takes a model preset (the GPU "
                                   "model reads its shapes)");
  const gpu::ModelShape shape = gpu::ModelShape::of(*preset);
  int64_t batch = 0, longest = 0;
  for (const serve::DecodePoint &p : table.table.decode) {
    batch = std::max(batch, p.batch);
    longest = std::max(longest, p.context);
  }
  // The formats of the LPX deployment, as `lpx decode --compare` takes them.
  DecodeMetrics m;
  m.model = preset->name;
  m.batch = batch;
  m.context = context ? context : longest;
  DeploymentNumbers n;
  DecodeTarget t;
  if (auto e = parseDeployment(deployment, n))
    return e;
  if (auto e = loadTarget(deployment, n, t))
    return e;
  m.weights = t.weights;
  m.activations = t.activations;
  auto side = gpuDeploymentFor(*target, m, shape);
  if (!side)
    return side.takeError();
  serve::ServiceTable gpuTable =
      analyticServiceTable(table.table, *side, shape, m.context);
  auto model = serve::ServiceModel::create(gpuTable);
  if (!model)
    return model.takeError();
  ServeSetup quiet = setup; // the GPU run writes no files
  quiet.csvPath.clear();
  quiet.curveCsv.clear();
  quiet.curveSvg.clear();
  quiet.reportPath.clear();
  quiet.tracePath.clear();
  quiet.loads.clear();
  auto gpuRun = runServe(*model, quiet);
  if (!gpuRun)
    return gpuRun.takeError();
  if (json) {
    std::string text;
    llvm::raw_string_ostream ts(text);
    if (auto e = serveAndReport(table, setup, true, ts))
      return e;
    auto v = llvm::json::parse(ts.str());
    if (!v)
      return v.takeError();
    llvm::json::Value g = serve::reportJson(gpuRun->results, gpuRun->stats,
                                            quiet.engine, gpuTable);
    (*g.getAsObject())["gpu"] = side->gpu.name;
    (*g.getAsObject())["gpus"] = side->tp;
    (*v->getAsObject())["compare"] = std::move(g);
    os << formatv("{0:2}", *v) << "\n";
    return llvm::Error::success();
  }
  if (auto e = serveAndReport(table, setup, false, os))
    return e;
  auto lpxModel = serve::ServiceModel::create(table.table);
  if (!lpxModel)
    return lpxModel.takeError();
  auto lpxRun = runServe(*lpxModel, quiet); // the same run, seed and all
  if (!lpxRun)
    return lpxRun.takeError();
  const serve::Results &l = lpxRun->results, &g = gpuRun->results;
  os << formatv("beside it, {0} under the same load (analytic times at the "
                "table's points, docs/compare.md):\n",
                gpuTable.deployment);
  os << formatv("  {0,-26} {1,16} {2,16}\n", "latency (us)", "LPX (simulated)",
                "GPU (analytic)");
  for (auto [name, ls, gs] :
       {std::tuple{"TTFT p50", &l.ttft, &g.ttft}, {"TTFT p99", &l.ttft, &g.ttft},
        {"TPOT p50", &l.tpot, &g.tpot}, {"TPOT p99", &l.tpot, &g.tpot},
        {"E2E p99", &l.e2e, &g.e2e}, {"queue p99", &l.queue, &g.queue}}) {
    const bool p50 = llvm::StringRef(name).ends_with("p50");
    printRow(name, p50 ? ls->p50 : ls->p99, p50 ? gs->p50 : gs->p99, os);
  }
  printRow("tokens/s", l.tokensPerSecond, g.tokensPerSecond, os);
  printRow("completed", double(l.completed), double(g.completed), os);
  return llvm::Error::success();
}
