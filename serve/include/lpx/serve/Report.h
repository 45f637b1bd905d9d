//===- Report.h - A run's JSON summary and per-request CSV ------*- C++ -*-===//
//
// The JSON keys are stable (issue 24): requests, completed, rejected, retries,
// ttft_us, tpot_us, e2e_us, queue_us, session_e2e_us (each with mean, p50,
// p90, p95, p99, max), tokens_per_second, slo, goodput, max_batch,
// service_table (every simulated point and the interpolation), wall_s. The
// JSON holds nothing of the host (wall_s is the simulated span from the first
// arrival to the last event), so one seed gives the same bytes.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SERVE_REPORT_H
#define LPX_SERVE_REPORT_H

#include "lpx/serve/Engine.h"
#include "lpx/serve/Metrics.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace lpx::serve {

llvm::json::Value reportJson(const Results &results, const RunStats &stats,
                             const EngineConfig &config,
                             const ServiceTable &table);
/// Pretty-printed, keys sorted, newline-terminated.
std::string reportJsonText(const Results &results, const RunStats &stats,
                           const EngineConfig &config,
                           const ServiceTable &table);

/// Writes one CSV row per request as the run makes it (streamed: bounded
/// memory). Times in microseconds; -1 where a phase never happened.
class CsvRequestWriter : public RecordSink {
public:
  explicit CsvRequestWriter(llvm::raw_ostream &os);
  void onRequest(const RequestRecord &r) override;
  static const char *header();

private:
  llvm::raw_ostream &os;
};

/// Passes every record to several sinks, in order.
class TeeSink : public RecordSink {
public:
  explicit TeeSink(std::vector<RecordSink *> sinks) : sinks(std::move(sinks)) {}
  void onRequest(const RequestRecord &r) override;
  void onSession(const SessionRecord &s) override;
  void onEvent(Nanos t, EngineEvent e, int64_t id) override;
  void onIteration(Nanos t, int g, int64_t d, int64_t p, int64_t w,
                   Nanos c) override;

private:
  std::vector<RecordSink *> sinks;
};

} // namespace lpx::serve

#endif // LPX_SERVE_REPORT_H
