//===- ServeBench.cpp - Speed and queueing checks of the serving model ----===//
//
//   lpx-serve-bench hour      one hour at 50 requests/s (180,000 requests,
//                             prompts 128..2048, outputs 256) on a SYNTHETIC
//                             table shaped like llama2-70b on tsp-v1 (552
//                             chips, 69 stages; docs/decode.md's batch-1 TTFT
//                             and TPOT); prints the summary JSON's key figures
//   lpx-serve-bench hour RATE the same at RATE requests/s
//   lpx-serve-bench trace FILE   a trace through a fast synthetic table (batch
//                             8, 4 stages), to show a long trace streams in
//                             bounded memory
//   lpx-serve-bench table     prints the synthetic table of `hour` as JSON
//   lpx-serve-bench md1 RHO [N [SEED]]  one slot, deterministic service, Poisson
//                             arrivals at utilisation RHO over N requests
//                             (default 1,000,000): the mean queue wait against
//                             Pollaczek-Khinchine's rho D / (2 (1 - rho))
// The synthetic table is not a simulation: the deploy layer builds the real
// one by compiling and simulating each point.
//
//===----------------------------------------------------------------------===//

#include "lpx/serve/Engine.h"
#include "lpx/serve/Metrics.h"
#include "lpx/serve/Report.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <cmath>

using namespace lpx::serve;

/// Shaped like llama2-70b on tsp-v1 (docs/decode.md: 552 chips as 8 x 69,
/// prefill of 128 tokens 52.9 ms, step 1.66 ms at batch 1, host I/O 702.8 and
/// 26.0 us), with made-up growth in batch, context and prompt.
static ServiceTable llamaLikeTable() {
  ServiceTable t;
  t.deployment = "llama2-70b on tsp-v1, 552 chips (8 x 69), SYNTHETIC";
  t.source = "synthetic";
  for (int64_t b : {1, 2, 4, 8})
    for (int64_t c : {256, 1024, 2048, 2560})
      t.decode.push_back(
          {b, c, 1663.2 * (1 + 0.1 * double(b - 1)) * (1 + 0.05 * c / 2048.0)});
  for (int64_t p : {128, 256, 512, 1024, 2048})
    for (int64_t b : {1, 2, 4, 8})
      t.prefill.push_back(
          {p, b, 0, 52879.2 * (0.8 + 0.2 * double(p) / 128) * (1 + 0.5 * (b - 1))});
  t.prefillHostIoUs = 702.8;
  t.stepHostIoUs = 26.0;
  t.stages = 69;
  t.stageShare.assign(69, 1.0 / 69);
  t.maxSequences = 552;
  return t;
}

static ServiceTable oneSlotTable(double serviceUs) {
  ServiceTable t;
  t.deployment = "one slot, deterministic service";
  t.source = "synthetic";
  t.decode.push_back({1, 4096, 1.0});
  t.prefill.push_back({4096, 1, 0, serviceUs});
  t.maxSequences = 1;
  return t;
}

static int hour(const char *rate) {
  auto model = ServiceModel::create(llamaLikeTable());
  auto spec = parseWorkload(std::string("poisson:rate=") + rate +
                            ",prompt=128..2048,output=256");
  if (!model || !spec) {
    llvm::errs() << "bench: bad setup\n";
    return 1;
  }
  auto source = makeRequestSource(*spec, 1);
  EngineConfig cfg;
  cfg.maxBatch = 8;
  cfg.requests = int64_t(std::atof(rate) * 3600);
  MetricsCollector metrics;
  auto t0 = std::chrono::steady_clock::now();
  auto stats = runServing(*model, **source, cfg, metrics);
  auto t1 = std::chrono::steady_clock::now();
  if (!stats) {
    llvm::errs() << "bench: " << llvm::toString(stats.takeError()) << "\n";
    return 1;
  }
  Results r = metrics.results();
  std::printf("hour: %lld requests, %lld completed, %lld iterations, "
              "simulated %.1f s in %.2f s of host time\n",
              (long long)r.requests, (long long)r.completed,
              (long long)stats->iterations, toSeconds(stats->end),
              std::chrono::duration<double>(t1 - t0).count());
  std::printf("ttft p50 %.1f p99 %.1f us; tpot p50 %.1f p99 %.1f us; "
              "tokens/s %.1f; peak running %lld, peak waiting %lld\n",
              r.ttft.p50, r.ttft.p99, r.tpot.p50, r.tpot.p99,
              r.tokensPerSecond, (long long)stats->peakRunning,
              (long long)stats->peakWaiting);
  return 0;
}

static int trace(const char *file) {
  ServiceTable t;
  t.deployment = "fast synthetic table";
  t.source = "synthetic";
  for (int64_t b : {1, 8})
    for (int64_t c : {128, 4096})
      t.decode.push_back({b, c, 5.0 * double(b + 1) * (1 + c / 4096.0)});
  for (int64_t p : {128, 4096})
    t.prefill.push_back({p, 1, 0, 0.05 * double(p)});
  t.stages = 4;
  t.stageShare.assign(4, 0.25);
  t.maxSequences = 32;
  auto model = ServiceModel::create(t);
  auto spec = parseWorkload(std::string("trace:") + file);
  if (!model || !spec) {
    llvm::errs() << "bench: bad setup\n";
    return 1;
  }
  auto source = makeRequestSource(*spec, 1);
  if (!source) {
    llvm::errs() << "bench: " << llvm::toString(source.takeError()) << "\n";
    return 1;
  }
  EngineConfig cfg;
  cfg.maxBatch = 8;
  MetricsCollector metrics;
  auto stats = runServing(*model, **source, cfg, metrics);
  if (!stats) {
    llvm::errs() << "bench: " << llvm::toString(stats.takeError()) << "\n";
    return 1;
  }
  Results r = metrics.results();
  std::printf("trace: %lld requests, %lld completed, ttft p99 %.1f us, "
              "peak waiting %lld\n",
              (long long)r.requests, (long long)r.completed, r.ttft.p99,
              (long long)stats->peakWaiting);
  return 0;
}

static int md1(double rho, int64_t n, uint64_t seed) {
  const double serviceUs = 1000.0;
  auto model = ServiceModel::create(oneSlotTable(serviceUs));
  char spec[128];
  std::snprintf(spec, sizeof spec, "poisson:rate=%.17g,prompt=4096,output=1",
                rho * 1e6 / serviceUs);
  auto w = parseWorkload(spec);
  if (!model || !w) {
    llvm::errs() << "bench: bad setup\n";
    return 1;
  }
  auto source = makeRequestSource(*w, seed);
  EngineConfig cfg;
  cfg.requests = n;
  cfg.policy = Policy::PrefillFirst;
  MetricsCollector metrics;
  auto stats = runServing(*model, **source, cfg, metrics);
  if (!stats) {
    llvm::errs() << "bench: " << llvm::toString(stats.takeError()) << "\n";
    return 1;
  }
  double expected = rho * serviceUs / (2 * (1 - rho));
  double got = metrics.results().queue.mean;
  std::printf("md1 rho %.2f over %lld requests: mean wait %.3f us, "
              "Pollaczek-Khinchine %.3f us, off by %+.2f%%\n",
              rho, (long long)n, got, expected, 100 * (got / expected - 1));
  return std::fabs(got / expected - 1) <= 0.02 ? 0 : 3;
}

int main(int argc, char **argv) {
  if (argc >= 2 && !std::strcmp(argv[1], "hour"))
    return hour(argc >= 3 ? argv[2] : "50");
  if (argc >= 2 && !std::strcmp(argv[1], "table")) {
    llvm::outs() << llvm::formatv("{0:2}", toJson(llamaLikeTable())) << "\n";
    return 0;
  }
  if (argc >= 3 && !std::strcmp(argv[1], "trace"))
    return trace(argv[2]);
  if (argc >= 3 && !std::strcmp(argv[1], "md1"))
    return md1(std::atof(argv[2]), argc >= 4 ? std::atoll(argv[3]) : 1000000,
               argc >= 5 ? std::strtoull(argv[4], nullptr, 10) : 7);
  std::fprintf(stderr, "usage: lpx-serve-bench hour [RATE] | trace FILE | table | md1 RHO [N [SEED]]\n");
  return 2;
}
