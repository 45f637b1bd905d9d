//===- Slo.cpp - Service-level objectives ---------------------------------===//

#include "lpx/serve/Slo.h"
#include "KeyValueSpec.h"

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace lpx::serve {

const char *metricName(Metric m) {
  switch (m) {
  case Metric::Ttft:
    return "ttft";
  case Metric::Tpot:
    return "tpot";
  case Metric::E2e:
    return "e2e";
  case Metric::Queue:
    return "queue";
  case Metric::SessionE2e:
    return "session_e2e";
  }
  return "?";
}

const char *statName(Stat s) {
  switch (s) {
  case Stat::Mean:
    return "mean";
  case Stat::P50:
    return "p50";
  case Stat::P90:
    return "p90";
  case Stat::P95:
    return "p95";
  case Stat::P99:
    return "p99";
  case Stat::Max:
    return "max";
  }
  return "?";
}

Expected<Slo> parseSlo(StringRef text) {
  Slo slo;
  slo.text = text.str();
  const KeyValueSpec spec("slo", text, "metric_stat=limit");
  const Metric metrics[] = {Metric::SessionE2e, Metric::Ttft, Metric::Tpot,
                            Metric::E2e, Metric::Queue};
  const Stat stats[] = {Stat::Mean, Stat::P50, Stat::P90,
                        Stat::P95,  Stat::P99, Stat::Max};
  auto term = [&](StringRef item, StringRef name, StringRef value) -> Error {
    std::optional<Metric> metric;
    StringRef rest;
    for (Metric m : metrics) {
      StringRef mn = metricName(m);
      if (name.starts_with(mn) &&
          (name.size() == mn.size() || name[mn.size()] == '_')) {
        metric = m;
        rest = name.size() > mn.size() ? name.drop_front(mn.size() + 1)
                                       : StringRef();
        break;
      }
    }
    if (!metric)
      return spec.fail("'" + item.str() +
                       "' names no metric (ttft, tpot, e2e, queue, "
                       "session_e2e)");
    std::optional<Stat> stat;
    for (Stat s : stats)
      if (rest == statName(s))
        stat = s;
    if (!stat)
      return spec.fail("'" + item.str() +
                       "' names no statistic (mean, p50, p90, p95, p99, max)");
    auto limit = parseDuration(value, name);
    if (!limit)
      return spec.fail(llvm::toString(limit.takeError()));
    slo.terms.push_back(SloTerm{*metric, *stat, *limit});
    return Error::success();
  };
  if (Error e = spec.forEach(term))
    return std::move(e);
  if (slo.terms.empty())
    return spec.fail("empty (e.g. ttft_p95=1s,tpot_p99=50ms)");
  return slo;
}

} // namespace lpx::serve
