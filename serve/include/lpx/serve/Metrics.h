//===- Metrics.h - Summaries of a serving run ------------------*- C++ -*-===//
//
// One collector, fed each record as it is made (never a scan of every request
// at the end): counts, exact means and maxima, percentiles through a
// QuantileSketch (exact for small runs, bounded memory for large ones), and
// the SLO's goodput. Latencies are summarised in microseconds.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SERVE_METRICS_H
#define LPX_SERVE_METRICS_H

#include "lpx/serve/QuantileSketch.h"
#include "lpx/serve/Records.h"
#include "lpx/serve/Slo.h"

#include <optional>
#include <vector>

namespace lpx::serve {

struct Summary {
  uint64_t count = 0;
  double mean = 0, p50 = 0, p90 = 0, p95 = 0, p99 = 0, max = 0;
  bool exact = true;
  /// The 1st to the 100th percentile (the CDF a report draws); empty
  /// without values.
  std::vector<double> percentiles;
};
Summary summarize(const QuantileSketch &s);
double statOf(const Summary &s, Stat stat);

struct SloOutcome {
  struct Term {
    SloTerm term;
    double valueUs = 0;
    bool holds = false;
  };
  std::vector<Term> terms;
  bool holds = false;
  uint64_t good = 0;   ///< requests within every per-request limit
  double goodput = 0;  ///< good / requests
};

struct Results {
  int64_t requests = 0, completed = 0, rejected = 0, rejectedTooLong = 0;
  int64_t retries = 0, outputTokens = 0;
  int64_t sessions = 0, sessionsCompleted = 0;
  Summary ttft, tpot, e2e, queue, sessionE2e;
  /// Mean E2E of completed requests split into queueing, network, retry
  /// backoff, host I/O and compute (with batching); the parts sum to the mean.
  struct Split {
    double queue = 0, network = 0, backoff = 0, hostIo = 0, compute = 0;
  } e2eSplitUs;
  /// Mean TTFT split the same way (host I/O and compute up to the first
  /// token).
  Split ttftSplitUs;
  /// Mean TPOT (requests with more than one output token) split into the
  /// host I/O and the compute after the first token, per token: nothing
  /// else falls between a request's first and last token.
  Split tpotSplitUs;
  Nanos firstArrival = 0, lastCompletion = 0;
  /// Output tokens of completed requests over first arrival to last
  /// completion.
  double tokensPerSecond = 0;
  std::optional<SloOutcome> slo;
};

class MetricsCollector : public RecordSink {
public:
  explicit MetricsCollector(std::optional<Slo> slo = std::nullopt)
      : slo(std::move(slo)) {}
  void onRequest(const RequestRecord &r) override;
  void onSession(const SessionRecord &s) override;
  Results results() const;

private:
  std::optional<Slo> slo;
  Results totals;
  QuantileSketch ttft, tpot, e2e, queue, sessionE2e;
  uint64_t good = 0;
  bool any = false;
  Results::Split splitSums; // in ns, summed over completed requests
  Results::Split ttftSums;  // the same, up to the first token
  Results::Split tpotSums;  // per token after the first, of output > 1
};

} // namespace lpx::serve

#endif // LPX_SERVE_METRICS_H
