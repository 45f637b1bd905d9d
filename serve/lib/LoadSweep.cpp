//===- LoadSweep.cpp - The same workload at several loads -----------------===//

#include "lpx/serve/LoadSweep.h"
#include "Fail.h"

#include "llvm/ADT/SmallVector.h"

#include "fmt/format.h"

#include <cmath>

using llvm::Error;
using llvm::Expected;

namespace lpx::serve {

static Error fail(const std::string &msg) {
  return failAbout("load sweep", msg);
}

Expected<std::vector<double>> parseLoads(llvm::StringRef text,
                                         WorkloadKind kind) {
  if (kind == WorkloadKind::Trace)
    return fail("a trace's load is the trace's own");
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',', -1, false);
  if (items.empty())
    return fail("no loads (e.g. 1,5,10,20,50)");
  std::vector<double> loads;
  for (llvm::StringRef item : items) {
    auto v = parsePositive(item, "load");
    if (!v)
      return fail(llvm::toString(v.takeError()));
    if (kind == WorkloadKind::Closed && *v != std::floor(*v))
      return fail("'" + item.trim().str() + "' users is not a whole number");
    loads.push_back(*v);
  }
  return loads;
}

Expected<SweepCurve> sweepLoad(const ServiceModel &model,
                               const WorkloadSpec &spec,
                               const std::vector<double> &loads,
                               const EngineConfig &config,
                               const std::optional<Slo> &slo) {
  if (spec.kind == WorkloadKind::Trace)
    return fail("a trace's load is the trace's own");
  SweepCurve curve;
  for (double load : loads) {
    WorkloadSpec w = spec;
    if (w.kind == WorkloadKind::Closed)
      w.users = int64_t(load);
    else
      w.rate = load;
    auto source = makeRequestSource(w, config.seed);
    if (!source)
      return source.takeError();
    MetricsCollector metrics(slo);
    auto stats = runServing(model, **source, config, metrics);
    if (!stats)
      return stats.takeError();
    SweepPoint p{load, metrics.results()};
    if (p.results.slo && p.results.slo->holds &&
        (!curve.highestHolding || load > *curve.highestHolding))
      curve.highestHolding = load;
    curve.points.push_back(std::move(p));
  }
  return curve;
}

void writeSweepCsv(const SweepCurve &curve, llvm::raw_ostream &os) {
  os << "load,ttft_p50_us,ttft_p99_us,tpot_p50_us,tpot_p99_us,"
        "tokens_per_second,completed,rejected,slo_holds,goodput\n";
  for (const SweepPoint &p : curve.points) {
    const Results &r = p.results;
    os << fmt::format("{},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{},{},{},{}\n",
                      p.load, r.ttft.p50, r.ttft.p99, r.tpot.p50, r.tpot.p99,
                      r.tokensPerSecond, r.completed, r.rejected,
                      r.slo ? (r.slo->holds ? "1" : "0") : "",
                      r.slo ? fmt::format("{:.4f}", r.slo->goodput) : "");
  }
}

llvm::json::Value sweepJson(const SweepCurve &curve, WorkloadKind kind) {
  llvm::json::Array loads;
  for (const SweepPoint &p : curve.points) {
    const Results &r = p.results;
    auto pair = [](const Summary &s) {
      return llvm::json::Object{{"p50", s.p50}, {"p99", s.p99}};
    };
    llvm::json::Value holds = nullptr, goodput = nullptr;
    if (r.slo) {
      holds = r.slo->holds;
      goodput = r.slo->goodput;
    }
    loads.push_back(llvm::json::Object{{"load", p.load},
                                       {"ttft_us", pair(r.ttft)},
                                       {"tpot_us", pair(r.tpot)},
                                       {"tokens_per_second", r.tokensPerSecond},
                                       {"completed", r.completed},
                                       {"rejected", r.rejected},
                                       {"slo_holds", std::move(holds)},
                                       {"goodput", std::move(goodput)}});
  }
  llvm::json::Value highest = nullptr;
  if (curve.highestHolding)
    highest = *curve.highestHolding;
  return llvm::json::Object{
      {"loads", std::move(loads)},
      {"highest_load_within_slo", std::move(highest)},
      {"load_of", kind == WorkloadKind::Closed ? "users" : "rate"}};
}

} // namespace lpx::serve
