//===- DirectionsTest.cpp - What must move which way, and determinism -----===//

#include "ServeTestUtil.h"

#include "lpx/serve/LoadSweep.h"

using namespace lpx::serve;
using namespace lpx::serve::test;

namespace {

TEST(Directions, MoreLoadGivesHigherP99Ttft) {
  double last = 0;
  for (const char *rate : {"200", "1500", "3000"}) {
    Recorder rec;
    EngineConfig cfg;
    cfg.maxBatch = 4;
    cfg.requests = 3000;
    RunResult r = run(shapedTable(),
                std::string("poisson:rate=") + rate +
                    ",prompt=64..1024,output=8..64",
                cfg, rec);
    EXPECT_GT(r.results.ttft.p99, last) << "rate " << rate;
    last = r.results.ttft.p99;
  }
}

TEST(Directions, LargerBatchGivesMoreTokensPerSecondAndTpotNoLower) {
  Results small, large;
  for (int64_t batch : {2, 8}) {
    Recorder rec;
    EngineConfig cfg;
    cfg.maxBatch = batch;
    cfg.requests = 2000;
    RunResult r = run(shapedTable(),
                "closed:users=32,think=0,prompt=64..512,output=32..128", cfg,
                rec);
    (batch == 2 ? small : large) = r.results;
  }
  EXPECT_GT(large.tokensPerSecond, small.tokensPerSecond);
  EXPECT_GE(large.tpot.p50, small.tpot.p50);
  EXPECT_GE(large.tpot.mean, small.tpot.mean);
}

TEST(Directions, KeepingSessionCachesLowersAgentE2E) {
  Results plain, kept;
  for (bool keep : {false, true}) {
    Recorder rec;
    EngineConfig cfg;
    cfg.maxBatch = 4;
    cfg.keepSessionCache = keep;
    cfg.requests = 3000;
    RunResult r = run(shapedTable(),
                "agent:rate=150,calls=3..5,tool=1ms..5ms,prompt=256..1024,"
                "result=32..128,output=8..32",
                cfg, rec);
    (keep ? kept : plain) = r.results;
  }
  ASSERT_GT(plain.sessionsCompleted, 100);
  EXPECT_LT(kept.sessionE2e.mean, plain.sessionE2e.mean);
  EXPECT_LT(kept.sessionE2e.p50, plain.sessionE2e.p50);
}

TEST(Directions, NoNetworkAndOneUserHasNoTail) {
  // The chip is deterministic: one user alone, fixed lengths, no network:
  // every request takes the same time, so P50 = P99.
  Recorder rec;
  EngineConfig cfg;
  cfg.maxBatch = 4;
  cfg.requests = 200;
  RunResult r = run(shapedTable(2), "closed:users=1,think=0,prompt=512,output=64",
              cfg, rec);
  EXPECT_EQ(r.results.ttft.p50, r.results.ttft.p99);
  EXPECT_EQ(r.results.tpot.p50, r.results.tpot.p99);
  // With a network that varies, a tail appears.
  Recorder net;
  cfg.network = *parseNetwork("lognormal:median=1ms,p99=5ms");
  RunResult n = run(shapedTable(2), "closed:users=1,think=0,prompt=512,output=64",
              cfg, net);
  EXPECT_GT(n.results.ttft.p99, n.results.ttft.p50);
}

TEST(Directions, SameSeedSameBytes) {
  auto once = [](uint64_t seed) {
    Recorder rec;
    EngineConfig cfg =
        busyConfig(6, "3,base=1ms", "lognormal:median=500us,p99=3ms", 1500);
    cfg.seed = seed;
    return run(shapedTable(3),
               "agent:rate=400,calls=2..4,tool=100us..1ms,prompt=64..512,"
               "result=8..64,output=4..32",
               cfg, rec, seed)
        .json;
  };
  std::string a = once(5), b = once(5), c = once(6);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (const char *key :
       {"\"requests\"", "\"completed\"", "\"rejected\"", "\"retries\"",
        "\"ttft_us\"", "\"tpot_us\"", "\"e2e_us\"", "\"queue_us\"",
        "\"session_e2e_us\"", "\"tokens_per_second\"", "\"slo\"",
        "\"goodput\"", "\"max_batch\"", "\"service_table\"", "\"wall_s\""})
    EXPECT_NE(a.find(key), std::string::npos) << key;
}

} // namespace

namespace {

TEST(Directions, LoadSweepCurveAndHighestLoadWithinTheSlo) {
  SweepCurve c = sweep(shapedTable(), "closed:users=1,think=0,prompt=256,output=32",
                       {1, 4, 16, 64}, 400, "ttft_p99=20ms");
  auto *curve = &c;
  ASSERT_EQ(curve->points.size(), 4u);
  for (size_t i = 1; i < curve->points.size(); ++i)
    EXPECT_GT(curve->points[i].results.ttft.p99,
              curve->points[i - 1].results.ttft.p99);
  // The highest load meeting the SLO is one whose run met it, and every
  // higher load's run did not.
  ASSERT_TRUE(curve->highestHolding.has_value());
  for (const SweepPoint &p : curve->points)
    EXPECT_EQ(p.results.slo->holds, p.load <= *curve->highestHolding)
        << "load " << p.load;
  std::string csv;
  llvm::raw_string_ostream os(csv);
  writeSweepCsv(*curve, os);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);
  auto loads = parseLoads("1, 4,16,64", WorkloadKind::Closed);
  ASSERT_TRUE(bool(loads));
  EXPECT_EQ(*loads, (std::vector<double>{1, 4, 16, 64}));
  EXPECT_NE(errorOf(parseLoads("1,2.5", WorkloadKind::Closed))
                .find("not a whole number"),
            std::string::npos);
  EXPECT_NE(errorOf(parseLoads("0", WorkloadKind::Poisson)).find("above 0"),
            std::string::npos);
}

} // namespace
