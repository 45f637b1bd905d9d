//===- OutputsTest.cpp - The Perfetto trace, the sweep's JSON, CDFs -------===//
//
// The trace's slices are checked against the run's own records (an
// independent view of the same run): every batch slot holds one request at a
// time, a group never has more slots than the max batch, each request's
// phases are nested in its slice and add up to its E2E; the file is valid
// JSON and bounded.
//
//===----------------------------------------------------------------------===//
#include "ServeTestUtil.h"

#include "lpx/serve/LoadSweep.h"
#include "lpx/serve/ServeTrace.h"

#include "llvm/Support/JSON.h"

#include <map>

using namespace lpx::serve;
using namespace lpx::serve::test;

namespace {

struct TracedRun {
  Recorder rec;
  PerfettoTraceSink trace;
};

/// Records and traces one run of `workload` on a two-stage shaped table.
void tracedRun(TracedRun &out, const std::string &workload, int64_t maxBatch,
               int64_t requests) {
  struct Both : RecordSink {
    Recorder &a;
    PerfettoTraceSink &b;
    Both(Recorder &a, PerfettoTraceSink &b) : a(a), b(b) {}
    void onRequest(const RequestRecord &r) override {
      a.onRequest(r);
      b.onRequest(r);
    }
    void onSession(const SessionRecord &s) override { a.onSession(s); }
    void onEvent(Nanos t, EngineEvent e, int64_t id) override {
      a.onEvent(t, e, id);
    }
    void onIteration(Nanos t, int g, int64_t d, int64_t p, int64_t w,
                     Nanos c) override {
      b.onIteration(t, g, d, p, w, c);
    }
  };
  ServiceModel m = model(shapedTable(2));
  auto spec = parseWorkload(workload);
  ASSERT_TRUE(bool(spec));
  auto source = makeRequestSource(*spec, 3);
  ASSERT_TRUE(bool(source));
  EngineConfig cfg;
  cfg.maxBatch = maxBatch;
  cfg.requests = requests;
  cfg.queueCapacity = 40;
  Both both(out.rec, out.trace);
  auto stats = runServing(m, **source, cfg, both);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
}

TEST(Outputs, TraceSlotsHoldOneRequestAtATime) {
  TracedRun run;
  tracedRun(run, "poisson:rate=2000,prompt=64..1024,output=4..64", 4, 3000);
  const auto &kept = run.trace.requests();
  ASSERT_EQ(kept.size(), run.rec.requests.size());
  const std::vector<int> slots = run.trace.slots();
  // (group, slot) -> the intervals it held, from admission to the last
  // token leaving the server.
  std::map<std::pair<int, int>, std::vector<std::pair<Nanos, Nanos>>> held;
  int64_t ran = 0, rejected = 0;
  for (size_t i = 0; i < kept.size(); ++i) {
    const RequestRecord &r = kept[i];
    if (!r.completed) {
      EXPECT_EQ(slots[i], -1);
      ++rejected;
      continue;
    }
    ++ran;
    ASSERT_GE(slots[i], 0);
    EXPECT_LT(slots[i], 4) << "a slot beyond the max batch";
    ASSERT_GE(r.group, 0);
    EXPECT_LT(r.group, 2);
    // The phases, nested and in order, add up to the E2E.
    EXPECT_LE(r.arrival, r.serverArrival);
    EXPECT_LE(r.serverArrival, r.admission);
    EXPECT_LT(r.admission, r.serverFirstToken);
    EXPECT_LE(r.serverFirstToken, r.serverDone);
    EXPECT_LE(r.serverDone, r.completion);
    EXPECT_EQ(r.firstToken - r.serverFirstToken, r.completion - r.serverDone);
    held[{r.group, slots[i]}].push_back({r.admission, r.serverDone});
  }
  EXPECT_GT(ran, 0);
  EXPECT_GT(rejected, 0) << "the queue of 40 places should overflow";
  for (auto &[where, intervals] : held) {
    std::sort(intervals.begin(), intervals.end());
    for (size_t i = 1; i < intervals.size(); ++i)
      EXPECT_LE(intervals[i - 1].second, intervals[i].first)
          << "group " << where.first << " slot " << where.second;
  }
}

TEST(Outputs, TraceIsJsonWithATrackPerSlotAndGroup) {
  TracedRun run;
  tracedRun(run, "closed:users=6,think=1ms,prompt=128,output=8", 4, 60);
  std::string text;
  llvm::raw_string_ostream os(text);
  run.trace.write(os);
  auto v = llvm::json::parse(text);
  ASSERT_TRUE(bool(v)) << llvm::toString(v.takeError());
  const llvm::json::Array *events = v->getAsObject()->getArray("traceEvents");
  ASSERT_TRUE(events);
  std::map<std::string, int> names, phases;
  int begins = 0, ends = 0;
  for (const llvm::json::Value &e : *events) {
    const llvm::json::Object &o = *e.getAsObject();
    llvm::StringRef ph = *o.getString("ph");
    if (ph == "M")
      ++names[o.getObject("args")->getString("name")->str()];
    if (ph == "b")
      ++begins, ++phases[o.getString("name")->str()];
    if (ph == "e")
      ++ends;
  }
  EXPECT_EQ(names["pipeline group 0"], 1);
  EXPECT_EQ(names["pipeline group 1"], 1);
  EXPECT_EQ(names["batch slot 0"], 2); // one per group
  EXPECT_EQ(names["batch slot 4"], 0);
  EXPECT_EQ(begins, ends);
  EXPECT_EQ(phases["queue"], 60);
  EXPECT_EQ(phases["decode"], 60);
}

TEST(Outputs, TraceKeepsABoundedPart) {
  PerfettoTraceSink t;
  RequestRecord r;
  for (size_t i = 0; i < PerfettoTraceSink::kMaxRequests + 5; ++i)
    t.onRequest(r);
  EXPECT_EQ(t.requests().size(), PerfettoTraceSink::kMaxRequests);
  std::string text;
  llvm::raw_string_ostream os(text);
  t.write(os);
  EXPECT_NE(text.find("\"requests_left_out\":5"), std::string::npos);
}

TEST(Outputs, SweepJsonAndSummaryPercentiles) {
  SweepCurve c = sweep(shapedTable(), "poisson:rate=1,prompt=256,output=16",
                       {50, 500, 5000}, 200, "ttft_p99=6ms");
  auto *curve = &c;
  llvm::json::Value v = sweepJson(*curve, WorkloadKind::Poisson);
  const llvm::json::Object &o = *v.getAsObject();
  EXPECT_EQ(*o.getString("load_of"), "rate");
  const llvm::json::Array &loads = *o.getArray("loads");
  ASSERT_EQ(loads.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    const llvm::json::Object &p = *loads[i].getAsObject();
    const Results &r = curve->points[i].results;
    EXPECT_EQ(*p.getNumber("load"), curve->points[i].load);
    EXPECT_EQ(*p.getObject("ttft_us")->getNumber("p99"), r.ttft.p99);
    EXPECT_EQ(*p.getBoolean("slo_holds"), r.slo->holds);
    // The CDF: 100 percentiles, rising, the 50th and 99th the summary's.
    ASSERT_EQ(r.ttft.percentiles.size(), 100u);
    EXPECT_TRUE(std::is_sorted(r.ttft.percentiles.begin(),
                               r.ttft.percentiles.end()));
    EXPECT_EQ(r.ttft.percentiles[49], r.ttft.p50);
    EXPECT_EQ(r.ttft.percentiles[98], r.ttft.p99);
    EXPECT_EQ(r.ttft.percentiles[99], r.ttft.max);
  }
  if (curve->highestHolding)
    EXPECT_EQ(*o.getNumber("highest_load_within_slo"), *curve->highestHolding);
  else
    EXPECT_EQ(o.get("highest_load_within_slo")->kind(),
              llvm::json::Value::Null);
}

} // namespace
