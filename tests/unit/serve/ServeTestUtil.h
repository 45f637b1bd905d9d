//===- ServeTestUtil.h - Tables, sinks and runs for the serve tests -------===//
#ifndef LPX_TESTS_UNIT_SERVE_SERVETESTUTIL_H
#define LPX_TESTS_UNIT_SERVE_SERVETESTUTIL_H

#include "lpx/serve/Engine.h"
#include "lpx/serve/LoadSweep.h"
#include "lpx/serve/Metrics.h"
#include "lpx/serve/Report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace lpx::serve::test {

/// The small table of the hand-derived cases: a decode step of 10 us at
/// batch 1 and 16 us at batch 2 (any context up to 1000), a prefill of 50 us
/// for up to 100 tokens and 90 us for 200 (batch 1), 80 us and 140 us for a
/// batch of 2; no host I/O; one stage.
inline ServiceTable handTable() {
  ServiceTable t;
  t.deployment = "hand-derived";
  t.source = "synthetic";
  t.decode = {{1, 1000, 10.0}, {2, 1000, 16.0}};
  t.prefill = {{100, 1, 0, 50.0}, {200, 1, 0, 90.0},
               {100, 2, 0, 80.0}, {200, 2, 0, 140.0}};
  t.maxSequences = 8;
  return t;
}

/// A table shaped like a small deployment: steps growing with batch and
/// context, prefill growing with prompt and batch; one or more stages.
inline ServiceTable shapedTable(int64_t stages = 1) {
  ServiceTable t;
  t.deployment = "shaped";
  t.source = "synthetic";
  for (int64_t b : {1, 2, 4, 8, 16})
    for (int64_t c : {128, 512, 2048, 4096})
      t.decode.push_back(
          {b, c, 200.0 * (1 + 0.15 * double(b - 1)) * (1 + 0.2 * c / 4096.0)});
  for (int64_t p : {64, 256, 1024, 2048})
    for (int64_t b : {1, 2, 4, 8})
      t.prefill.push_back({p, b, 0, 20.0 * double(p) * (1 + 0.6 * (b - 1))});
  t.prefillHostIoUs = 30;
  t.stepHostIoUs = 2;
  t.stages = stages;
  t.stageShare.assign(size_t(stages), 1.0 / double(stages));
  t.maxSequences = 64;
  return t;
}

inline ServiceModel model(ServiceTable t) {
  auto m = ServiceModel::create(std::move(t));
  if (!m) {
    ADD_FAILURE() << llvm::toString(m.takeError());
    std::abort();
  }
  return std::move(*m);
}

/// Keeps everything a run makes.
struct Recorder : public MetricsCollector {
  using MetricsCollector::MetricsCollector;
  struct Ev {
    Nanos t;
    EngineEvent kind;
    int64_t id;
  };
  std::vector<RequestRecord> requests;
  std::vector<SessionRecord> sessions;
  std::vector<Ev> events;
  void onRequest(const RequestRecord &r) override {
    MetricsCollector::onRequest(r);
    requests.push_back(r);
  }
  void onSession(const SessionRecord &s) override {
    MetricsCollector::onSession(s);
    sessions.push_back(s);
  }
  void onEvent(Nanos t, EngineEvent k, int64_t id) override {
    events.push_back({t, k, id});
  }
  const RequestRecord &byId(int64_t id) const {
    for (const RequestRecord &r : requests)
      if (r.id == id)
        return r;
    ADD_FAILURE() << "no request " << id;
    return requests.front();
  }
};

/// L = lambda W over a run, each side from its own data: the time-average
/// number in the system from the event log (+1 at each Arrival, -1 at each
/// Departure), the arrival rate from the log's arrivals, W from the records.
inline void expectLittle(const Recorder &rec) {
  ASSERT_FALSE(rec.events.empty());
  std::vector<std::pair<Nanos, int>> steps;
  for (const auto &e : rec.events) {
    if (e.kind == EngineEvent::Arrival)
      steps.push_back({e.t, +1});
    else if (e.kind == EngineEvent::Departure)
      steps.push_back({e.t, -1});
  }
  std::stable_sort(steps.begin(), steps.end(),
                   [](auto &a, auto &b) { return a.first < b.first; });
  Nanos t0 = steps.front().first, t1 = steps.back().first;
  long double area = 0;
  int64_t inSystem = 0, arrivals = 0;
  Nanos last = t0;
  for (auto [t, d] : steps) {
    area += (long double)inSystem * (t - last);
    last = t;
    inSystem += d;
    arrivals += d > 0;
    ASSERT_GE(inSystem, 0);
  }
  EXPECT_EQ(inSystem, 0);
  ASSERT_EQ(size_t(arrivals), rec.requests.size());
  long double span = t1 - t0;
  if (span == 0) { // every request left as it came (rejected at once)
    for (const RequestRecord &r : rec.requests)
      EXPECT_EQ(r.e2e(), 0);
    return;
  }
  long double L = area / span;
  long double lambda = arrivals / span;
  long double W = 0;
  for (const RequestRecord &r : rec.requests)
    W += r.e2e();
  W /= rec.requests.size();
  EXPECT_NEAR(double(L / (lambda * W)), 1.0, 1e-9);
}

/// A file in the test's temporary folder with the given text.
inline std::string writeFile(const std::string &name, const std::string &text) {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

struct RunResult {
  RunStats stats;
  Results results;
  std::string json;
};

/// Runs `workload` on `table`; fails the test on an error.
inline RunResult run(const ServiceTable &table, const std::string &workload,
               const EngineConfig &cfg, Recorder &rec,
               uint64_t workloadSeed = 1) {
  ServiceModel m = model(table);
  auto spec = parseWorkload(workload);
  EXPECT_TRUE(bool(spec)) << (spec ? "" : llvm::toString(spec.takeError()));
  auto source = makeRequestSource(*spec, workloadSeed);
  EXPECT_TRUE(bool(source))
      << (source ? "" : llvm::toString(source.takeError()));
  auto stats = runServing(m, **source, cfg, rec);
  EXPECT_TRUE(bool(stats)) << (stats ? "" : llvm::toString(stats.takeError()));
  // Little's law holds on every run the tests make.
  if (!rec.events.empty())
    expectLittle(rec);
  RunResult r;
  r.stats = *stats;
  r.results = rec.results();
  r.json = reportJsonText(r.results, r.stats, cfg, table);
  return r;
}

/// Batches of 4, a queue of `queue` places, retries and a network as the
/// specs say, `requests` calls: every part of the engine at work at once.
inline EngineConfig busyConfig(int64_t queue, const char *retry,
                               const char *network, int64_t requests) {
  EngineConfig cfg;
  cfg.maxBatch = 4;
  cfg.queueCapacity = queue;
  cfg.retry = *parseRetry(retry);
  cfg.network = *parseNetwork(network);
  cfg.requests = requests;
  return cfg;
}

/// `workload` swept over `loads` on `table` (max batch 4, `requests` calls
/// each) under `slo`; fails the test on an error.
inline SweepCurve sweep(const ServiceTable &table, const std::string &workload,
                        const std::vector<double> &loads, int64_t requests,
                        const std::string &slo) {
  ServiceModel m = model(table);
  auto spec = parseWorkload(workload);
  EXPECT_TRUE(bool(spec));
  EngineConfig cfg;
  cfg.maxBatch = 4;
  cfg.requests = requests;
  auto s = parseSlo(slo);
  EXPECT_TRUE(bool(s));
  auto curve = sweepLoad(m, *spec, loads, cfg, *s);
  if (!curve) {
    ADD_FAILURE() << llvm::toString(curve.takeError());
    return {};
  }
  return std::move(*curve);
}

inline std::string errorOf(llvm::Error e) { return llvm::toString(std::move(e)); }
template <typename T> std::string errorOf(llvm::Expected<T> v) {
  if (v) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  return llvm::toString(v.takeError());
}

} // namespace lpx::serve::test

#endif
