//===- Slo.h - Service-level objectives -------------------------*- C++ -*-===//
//
// `--slo ttft_p95=1s,tpot_p99=50ms`: each term a metric (ttft, tpot, e2e,
// queue, session_e2e), a statistic (mean, p50, p90, p95, p99, max) and a limit.
// The SLO holds when every term's statistic is within its limit. Goodput is the
// share of all requests that completed with each of their own values (ttft,
// tpot, e2e, queue) within the limits of the terms on that metric.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SERVE_SLO_H
#define LPX_SERVE_SLO_H

#include "lpx/serve/Units.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace lpx::serve {

enum class Metric { Ttft, Tpot, E2e, Queue, SessionE2e };
enum class Stat { Mean, P50, P90, P95, P99, Max };

const char *metricName(Metric m);
const char *statName(Stat s);

struct SloTerm {
  Metric metric = Metric::Ttft;
  Stat stat = Stat::P99;
  Nanos limit = 0;
};

struct Slo {
  std::vector<SloTerm> terms;
  std::string text; ///< as given
};

/// Errors: a term naming no metric or an unknown one, no statistic, a bad
/// duration, an empty SLO.
llvm::Expected<Slo> parseSlo(llvm::StringRef text);

} // namespace lpx::serve

#endif // LPX_SERVE_SLO_H
