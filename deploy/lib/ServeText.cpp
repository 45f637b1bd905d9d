//===- ServeText.cpp - `lpx serve`'s text summary -------------------------===//
#include "lpx/deploy/ServeRun.h"

#include "lpx/serve/Report.h"
#include "fmt/format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace lpx;
using namespace lpx::deploy;

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

std::vector<std::pair<const char *, const serve::Summary *>>
lpx::deploy::namedLatencies(const serve::Results &r) {
  std::vector<std::pair<const char *, const serve::Summary *>> v{
      {"TTFT", &r.ttft}, {"TPOT", &r.tpot}, {"E2E", &r.e2e},
      {"queue wait", &r.queue}};
  if (r.sessions)
    v.push_back({"session E2E", &r.sessionE2e});
  return v;
}

std::vector<std::pair<const char *, const serve::Results::Split *>>
lpx::deploy::namedSplits(const serve::Results &r) {
  return {{"TTFT", &r.ttftSplitUs}, {"TPOT", &r.tpotSplitUs},
          {"E2E", &r.e2eSplitUs}};
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
  if (t.prefillChunk)
    os << llvm::formatv("  prefill in chunks of {0} tokens (each timed by the "
                        "chunk point at its end)\n",
                        t.prefillChunk);
  if (!c.fromCache) {
    const TableBuildStats &b = c.built;
    os << llvm::formatv("  built in {0:f1} s: plan {1:f1} s, then {2} of "
                        "{3} points compiled in {4:f1} s on {5} thread(s)",
                        b.planSeconds + b.pointSeconds, b.planSeconds,
                        b.compiled, b.points, b.pointSeconds, b.workers);
    if (!b.slowest.empty())
      os << llvm::formatv(" (slowest {0}, {1:f1} s)", b.slowest,
                          b.slowestSeconds);
    os << "\n";
  }
  if (!c.rebuiltBecause.empty())
    os << "  cache entry rebuilt: " << c.rebuiltBecause << "\n";
  os << "  interpolation: " << serve::kInterpolation << "\n";
  os << llvm::formatv("requests {0}: completed {1}, rejected {2} ({3} too "
                      "long), retries {4}; sessions {5}\n",
                      r.requests, r.completed, r.rejected, r.rejectedTooLong,
                      r.retries, r.sessions);
  os << "latency (us):\n";
  for (auto [name, summary] : namedLatencies(r))
    line(os, name, *summary);
  for (auto [name, p] : namedSplits(r))
    os << llvm::formatv("  mean {0} = queue {1:f1} + network {2:f1} + "
                        "backoff {3:f1} + host I/O {4:f1} + compute {5:f1}\n",
                        name, p->queue, p->network, p->backoff, p->hostIo,
                        p->compute);
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

void lpx::deploy::printSweepText(const serve::SweepCurve &curve,
                                 const ServeSetup &s, llvm::raw_ostream &os) {
  const bool users = s.workload.kind == serve::WorkloadKind::Closed;
  os << llvm::formatv("load sweep ({0}; each load a run of the same seed, "
                      "latencies in us):\n",
                      users ? "users" : "requests or sessions per second");
  os << llvm::formatv("  {0,10} {1,11} {2,11} {3,10} {4,10} {5,11} {6,8}  {7}\n",
                      users ? "users" : "rate", "TTFT p50", "TTFT p99",
                      "TPOT p50", "TPOT p99", "tokens/s", "goodput", "SLO");
  for (const serve::SweepPoint &p : curve.points) {
    const serve::Results &r = p.results;
    os << llvm::formatv(
        "  {0,10} {1,11:f1} {2,11:f1} {3,10:f1} {4,10:f1} {5,11:f1} {6,8} "
        " {7}\n",
        fmt::format("{}", p.load), r.ttft.p50, r.ttft.p99, r.tpot.p50,
        r.tpot.p99, r.tokensPerSecond,
        r.slo ? llvm::formatv("{0:f1}%", 100 * r.slo->goodput).str() : "-",
        r.slo ? (r.slo->holds ? "holds" : "fails") : "-");
  }
  if (!s.slo)
    os << "  (no --slo: no highest load within it)\n";
  else if (curve.highestHolding)
    os << fmt::format("  highest load within the SLO: {}\n",
                      *curve.highestHolding);
  else
    os << "  highest load within the SLO: none of these\n";
}
