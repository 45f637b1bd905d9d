//===- ServeRun.cpp - One `lpx serve` run on a service table --------------===//
#include "lpx/deploy/ServeRun.h"

#include "lpx/isa/AtomicFile.h"
#include "lpx/serve/Report.h"
#include "llvm/Support/FormatVariadic.h"

#include <functional>

using namespace lpx;
using namespace lpx::deploy;

namespace {

llvm::Error error(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
}

/// `fn(text)` into `out` unless `text` is empty.
template <typename T, typename F>
llvm::Error parseInto(const std::string &text, T &out, F fn) {
  if (text.empty())
    return llvm::Error::success();
  auto v = fn(text);
  if (!v)
    return v.takeError();
  out = std::move(*v);
  return llvm::Error::success();
}

} // namespace

llvm::Error lpx::deploy::parseServeSetup(const ServeWords &a, ServeSetup &s) {
  if (a.workload.empty())
    return error("--workload is required (poisson:, closed:, agent: or "
                 "trace:FILE; docs/serving.md)");
  serve::EngineConfig &e = s.engine;
  auto count = [](const char *what) {
    return [what](llvm::StringRef t) { return serve::parseCount(t, what); };
  };
  int64_t seed = 1;
  if (auto err = parseInto(a.workload, s.workload, serve::parseWorkload))
    return err;
  if (auto err = parseInto(a.maxBatch, e.maxBatch, count("--max-batch")))
    return err;
  if (e.maxBatch < 1)
    return error("--max-batch " + a.maxBatch + " is not a positive integer");
  auto duration = [](llvm::StringRef t) {
    return serve::parseDuration(t, "--duration");
  };
  llvm::Error err = llvm::Error::success();
  (void)!err; // each step runs only while the ones before it succeeded
  for (auto step : std::initializer_list<std::function<llvm::Error()>>{
           [&] { return parseInto(a.policy, e.policy, serve::parsePolicy); },
           [&] { return parseInto(a.queue, e.queueCapacity, count("--queue")); },
           [&] { return parseInto(a.retry, e.retry, serve::parseRetry); },
           [&] { return parseInto(a.network, e.network, serve::parseNetwork); },
           [&] { return parseInto(a.duration, e.duration, duration); },
           [&] { return parseInto(a.requests, e.requests, count("--requests")); },
           [&] { return parseInto(a.seed, seed, count("--seed")); }})
    if ((err = step()))
      return err;
  e.seed = uint64_t(seed);
  e.keepSessionCache = a.keepSessionCache;
  if (!a.slo.empty()) {
    auto slo = serve::parseSlo(a.slo);
    if (!slo)
      return slo.takeError();
    s.slo = std::move(*slo);
  }
  if (!a.duration.empty() && !a.requests.empty())
    return error("--duration and --requests: give one");
  if (e.requests == 0 || e.duration == 0)
    return error("--duration and --requests must be positive");
  if (a.duration.empty() && a.requests.empty() &&
      s.workload.kind != serve::WorkloadKind::Trace)
    e.duration = 10 * serve::kNanosPerS; // documented default
  s.csvPath = a.output;
  return llvm::Error::success();
}


llvm::Expected<ServeOutcome>
lpx::deploy::runServe(const serve::ServiceModel &model, const ServeSetup &s) {
  ServeOutcome out;
  serve::MetricsCollector metrics(s.slo);
  auto run = [&](serve::RecordSink &sink) -> llvm::Error {
    auto source = serve::makeRequestSource(s.workload, s.engine.seed);
    if (!source)
      return source.takeError();
    auto stats = serve::runServing(model, **source, s.engine, sink);
    if (!stats)
      return stats.takeError();
    out.stats = *stats;
    return llvm::Error::success();
  };
  if (s.csvPath.empty()) {
    if (auto e = run(metrics))
      return std::move(e);
  } else if (auto e = isa::writeFileAtomicallyChecked(
                 s.csvPath, [&](llvm::raw_ostream &os) -> llvm::Error {
                   serve::CsvRequestWriter csv(os);
                   serve::TeeSink tee({&metrics, &csv});
                   return run(tee);
                 })) {
    return std::move(e);
  }
  out.results = metrics.results();
  return out;
}

static void line(llvm::raw_ostream &os, llvm::StringRef name,
                 const serve::Summary &s) {
  if (s.count == 0) {
    os << llvm::formatv("  {0,-11} -\n", name);
    return;
  }
  os << llvm::formatv("  {0,-11} mean {1:f1}  p50 {2:f1}  p90 {3:f1}  p95 "
                      "{4:f1}  p99 {5:f1}  max {6:f1}{7}\n",
                      name, s.mean, s.p50, s.p90, s.p95, s.p99, s.max,
                      s.exact ? "" : " (sketch)");
}

void lpx::deploy::printServeText(const ServeOutcome &out, const ServeSetup &s,
                                 const CachedTable &c, llvm::raw_ostream &os) {
  const serve::Results &r = out.results;
  const serve::ServiceTable &t = c.table;
  os << "lpx serve: " << t.deployment << "\n";
  os << llvm::formatv("  max batch {0}, {1} stage(s), max sequences {2} (KV "
                      "caches the free SRAM holds), policy {3}, network {4}\n",
                      s.engine.maxBatch, t.stages, t.maxSequences,
                      serve::policyName(s.engine.policy), s.engine.network.text);
  os << llvm::formatv("  service table: {0} decode and {1} prefill points, "
                      "compiled and simulated; {2} ({3})\n",
                      t.decode.size(), t.prefill.size(),
                      c.fromCache ? "read from cache" : "built", c.path);
  if (!c.rebuiltBecause.empty())
    os << "  cache entry rebuilt: " << c.rebuiltBecause << "\n";
  os << "  interpolation: " << serve::kInterpolation << "\n";
  os << llvm::formatv("requests {0}: completed {1}, rejected {2} ({3} too "
                      "long), retries {4}; sessions {5}\n",
                      r.requests, r.completed, r.rejected, r.rejectedTooLong,
                      r.retries, r.sessions);
  os << "latency (us):\n";
  line(os, "TTFT", r.ttft);
  line(os, "TPOT", r.tpot);
  line(os, "E2E", r.e2e);
  line(os, "queue wait", r.queue);
  if (r.sessions)
    line(os, "session E2E", r.sessionE2e);
  const auto &p = r.e2eSplitUs;
  os << llvm::formatv("  mean E2E = queue {0:f1} + network {1:f1} + backoff "
                      "{2:f1} + host I/O {3:f1} + compute {4:f1}\n",
                      p.queue, p.network, p.backoff, p.hostIo, p.compute);
  os << llvm::formatv("tokens/s {0:f1} (simulated span {1:f3} s)\n",
                      r.tokensPerSecond,
                      serve::toSeconds(out.stats.end - r.firstArrival));
  if (r.slo) {
    os << llvm::formatv("SLO {0}: {1}; goodput {2:f1}% of requests\n",
                        s.slo->text, r.slo->holds ? "holds" : "does not hold",
                        100 * r.slo->goodput);
    for (const auto &term : r.slo->terms)
      os << llvm::formatv("  {0} {1} {2:f1} us (limit {3:f1}) {4}\n",
                          serve::metricName(term.term.metric),
                          serve::statName(term.term.stat), term.valueUs,
                          serve::toUs(term.term.limit),
                          term.holds ? "ok" : "exceeded");
  }
}
