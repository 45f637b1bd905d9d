//===- Report.cpp - A run's JSON summary and per-request CSV --------------===//

#include "lpx/serve/Report.h"

#include "fmt/format.h"
#include "llvm/Support/FormatVariadic.h"

namespace json = llvm::json;

namespace lpx::serve {

static json::Value summaryJson(const Summary &s) {
  return json::Object{
      {"count", int64_t(s.count)}, {"mean", s.mean},
      {"p50", s.p50},              {"p90", s.p90},
      {"p95", s.p95},              {"p99", s.p99},
      {"max", s.max},
      {"quantiles", s.exact ? "exact (nearest rank)"
                            : "sketch (relative error 0.5%)"}};
}

/// A mean latency's parts (Results::Split), in microseconds.
static json::Value splitJson(const Results::Split &p) {
  return json::Object{{"queue", p.queue},     {"network", p.network},
                      {"backoff", p.backoff}, {"host_io", p.hostIo},
                      {"compute", p.compute}};
}

json::Value reportJson(const Results &r, const RunStats &stats,
                       const EngineConfig &cfg, const ServiceTable &table) {
  json::Value slo = nullptr, goodput = nullptr;
  if (r.slo) {
    json::Array terms;
    for (const SloOutcome::Term &t : r.slo->terms)
      terms.push_back(json::Object{
          {"metric", metricName(t.term.metric)},
          {"stat", statName(t.term.stat)},
          {"limit_us", toUs(t.term.limit)},
          {"value_us", t.valueUs},
          {"holds", t.holds}});
    slo = json::Object{{"holds", r.slo->holds},
                       {"terms", std::move(terms)},
                       {"good", int64_t(r.slo->good)}};
    goodput = r.slo->goodput;
  }
  return json::Object{
      {"requests", r.requests},
      {"completed", r.completed},
      {"rejected", r.rejected},
      {"rejected_too_long", r.rejectedTooLong},
      {"retries", r.retries},
      {"sessions", r.sessions},
      {"sessions_completed", r.sessionsCompleted},
      {"output_tokens", r.outputTokens},
      {"ttft_us", summaryJson(r.ttft)},
      {"tpot_us", summaryJson(r.tpot)},
      {"e2e_us", summaryJson(r.e2e)},
      {"e2e_split_us", splitJson(r.e2eSplitUs)},
      {"ttft_split_us", splitJson(r.ttftSplitUs)},
      {"tpot_split_us", splitJson(r.tpotSplitUs)},
      {"queue_us", summaryJson(r.queue)},
      {"session_e2e_us", summaryJson(r.sessionE2e)},
      {"tokens_per_second", r.tokensPerSecond},
      {"slo", std::move(slo)},
      {"goodput", std::move(goodput)},
      {"max_batch", cfg.maxBatch},
      {"groups_in_flight", stats.groups},
      {"cache_limit", table.maxSequences},
      {"policy", policyName(cfg.policy)},
      {"queue_capacity", cfg.queueCapacity},
      {"network", cfg.network.text},
      {"keep_session_cache", cfg.keepSessionCache},
      {"seed", int64_t(cfg.seed)},
      {"peak_waiting", stats.peakWaiting},
      {"peak_running", stats.peakRunning},
      {"iterations", stats.iterations},
      {"cache_evictions", stats.evictions},
      {"service_table", toJson(table)},
      {"wall_s", toSeconds(stats.end - r.firstArrival)}};
}

std::string reportJsonText(const Results &r, const RunStats &stats,
                           const EngineConfig &cfg,
                           const ServiceTable &table) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", reportJson(r, stats, cfg, table)) << "\n";
  return out;
}

CsvRequestWriter::CsvRequestWriter(llvm::raw_ostream &os) : os(os) {
  os << header() << "\n";
}

const char *CsvRequestWriter::header() {
  return "id,session,call,arrival_us,admission_us,queue_us,ttft_us,tpot_us,"
         "e2e_us,prompt_tokens,prefilled_tokens,output_tokens,retries,"
         "network_us,backoff_us,host_io_us,completed";
}

void CsvRequestWriter::onRequest(const RequestRecord &r) {
  auto us = [](Nanos t) { return fmt::format("{:.3f}", toUs(t)); };
  bool admitted = r.admission >= 0;
  bool first = r.firstToken >= 0;
  os << fmt::format(
      "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", r.id, r.session,
      r.call, us(r.arrival), admitted ? us(r.admission) : "-1",
      admitted ? us(r.queue()) : "-1", first ? us(r.ttft()) : "-1",
      r.completed && r.output > 1
          ? fmt::format("{:.3f}", r.tpotNs() / double(kNanosPerUs))
          : "-1",
      us(r.e2e()), r.prompt, r.prefilled, r.output, r.retries,
      us(r.network), us(r.backoff), us(r.hostIo), r.completed ? 1 : 0);
}

void TeeSink::onRequest(const RequestRecord &r) {
  for (RecordSink *s : sinks)
    s->onRequest(r);
}
void TeeSink::onSession(const SessionRecord &x) {
  for (RecordSink *s : sinks)
    s->onSession(x);
}
void TeeSink::onEvent(Nanos t, EngineEvent e, int64_t id) {
  for (RecordSink *s : sinks)
    s->onEvent(t, e, id);
}
void TeeSink::onIteration(Nanos t, int g, int64_t d, int64_t p, int64_t w,
                          Nanos c) {
  for (RecordSink *s : sinks)
    s->onIteration(t, g, d, p, w, c);
}

} // namespace lpx::serve
