//===- MetricsTest.cpp - Percentiles, the sketch, SLOs and goodput --------===//

#include "ServeTestUtil.h"

#include "lpx/serve/Random.h"
#include "lpx/serve/Timeline.h"

#include <cmath>

using namespace lpx::serve;
using namespace lpx::serve::test;

namespace {

TEST(Metrics, ExactPercentilesAreNearestRank) {
  QuantileSketch s;
  for (int v = 100; v >= 1; --v)
    s.add(v);
  EXPECT_TRUE(s.exact());
  EXPECT_EQ(s.percentile(50), 50);
  EXPECT_EQ(s.percentile(90), 90);
  EXPECT_EQ(s.percentile(95), 95);
  EXPECT_EQ(s.percentile(99), 99);
  EXPECT_EQ(s.max(), 100);
  EXPECT_DOUBLE_EQ(s.mean(), 50.5);
  QuantileSketch three;
  for (double v : {7.0, 1.0, 4.0})
    three.add(v);
  // ceil(0.5 * 3) = 2nd smallest; ceil(0.99 * 3) = 3rd.
  EXPECT_EQ(three.percentile(50), 4.0);
  EXPECT_EQ(three.percentile(99), 7.0);
}

TEST(Metrics, SketchStaysWithinItsStatedError) {
  QuantileSketch sketch;
  std::vector<double> all;
  Rng rng(11);
  for (int i = 0; i < 300000; ++i) {
    double v = 1000.0 * std::exp(0.8 * rng.standardNormal());
    sketch.add(v);
    all.push_back(v);
  }
  ASSERT_FALSE(sketch.exact());
  std::sort(all.begin(), all.end());
  for (int q : {50, 90, 95, 99}) {
    double exact = all[(size_t(q) * all.size() + 99) / 100 - 1];
    EXPECT_NEAR(sketch.percentile(q) / exact, 1.0,
                QuantileSketch::kRelativeError)
        << "p" << q;
  }
  EXPECT_EQ(sketch.max(), all.back());
}

RequestRecord done(Nanos arrival, Nanos ttft, Nanos e2e, int64_t output) {
  RequestRecord r;
  r.arrival = arrival;
  r.serverArrival = arrival;
  r.admission = arrival;
  r.firstToken = arrival + ttft;
  r.completion = arrival + e2e;
  r.output = output;
  r.completed = true;
  return r;
}

TEST(Metrics, SloAndGoodput) {
  // Four requests; TTFT 100, 200, 300, 2000 ms; TPOT (e2e - ttft) / 9.
  // The SLO ttft_p50=250ms holds (p50 = 200 ms); tpot_p99=20ms: TPOTs are
  // 10, 10, 10, 30 ms -> p99 30 ms, does not hold. Goodput: requests within
  // both limits (ttft <= 250 ms and tpot <= 20 ms): the first two, 2 of 5
  // (the fifth was rejected).
  auto slo = parseSlo("ttft_p50=250ms,tpot_p99=20ms");
  ASSERT_TRUE(bool(slo));
  MetricsCollector m(*slo);
  m.onRequest(done(0, 100 * kNanosPerMs, 190 * kNanosPerMs, 10));
  m.onRequest(done(0, 200 * kNanosPerMs, 290 * kNanosPerMs, 10));
  m.onRequest(done(0, 300 * kNanosPerMs, 390 * kNanosPerMs, 10));
  m.onRequest(done(0, 2000 * kNanosPerMs, 2270 * kNanosPerMs, 10));
  RequestRecord rejected;
  m.onRequest(rejected);
  Results r = m.results();
  ASSERT_TRUE(r.slo.has_value());
  ASSERT_EQ(r.slo->terms.size(), 2u);
  EXPECT_TRUE(r.slo->terms[0].holds);
  EXPECT_DOUBLE_EQ(r.slo->terms[0].valueUs, 200000);
  EXPECT_FALSE(r.slo->terms[1].holds);
  EXPECT_DOUBLE_EQ(r.slo->terms[1].valueUs, 30000);
  EXPECT_FALSE(r.slo->holds);
  EXPECT_EQ(r.slo->good, 2u);
  EXPECT_DOUBLE_EQ(r.slo->goodput, 0.4);
  EXPECT_EQ(r.rejected, 1);
  // 40 tokens over 0 .. 2270 ms.
  EXPECT_NEAR(r.tokensPerSecond, 40 / 2.27, 1e-9);
}

TEST(Metrics, SloErrors) {
  EXPECT_NE(errorOf(parseSlo("p95=1s")).find("names no metric"),
            std::string::npos);
  EXPECT_NE(errorOf(parseSlo("latency_p95=1s")).find("names no metric"),
            std::string::npos);
  EXPECT_NE(errorOf(parseSlo("ttft=1s")).find("names no statistic"),
            std::string::npos);
  EXPECT_NE(errorOf(parseSlo("ttft_p95=1")).find("needs a unit"),
            std::string::npos);
  EXPECT_NE(errorOf(parseSlo("")).find("empty"), std::string::npos);
  auto ok = parseSlo("session_e2e_p99=2s,queue_mean=10ms");
  ASSERT_TRUE(bool(ok));
  EXPECT_EQ(ok->terms[0].metric, Metric::SessionE2e);
  EXPECT_EQ(ok->terms[1].stat, Stat::Mean);
  EXPECT_EQ(ok->terms[1].limit, 10 * kNanosPerMs);
}

TEST(Metrics, CsvRowsPerRequest) {
  std::string out;
  llvm::raw_string_ostream os(out);
  {
    CsvRequestWriter w(os);
    w.onRequest(done(kNanosPerMs, 2 * kNanosPerMs, 5 * kNanosPerMs, 4));
  }
  EXPECT_EQ(out, std::string(CsvRequestWriter::header()) +
                     "\n0,0,0,1000.000,1000.000,0.000,2000.000,1000.000,"
                     "5000.000,0,0,4,0,0.000,0.000,0.000,1\n");
}

} // namespace

namespace {

TEST(Metrics, TimelineStaysBoundedAndKeepsTotals) {
  // The same run into a timeline and a count: every iteration lands in a
  // bucket, the buckets never pass kBuckets, and their totals are the run's.
  struct Count : RecordSink {
    int64_t iterations = 0, decoding = 0, peakWaiting = 0;
    void onRequest(const RequestRecord &) override {}
    void onIteration(Nanos, int, int64_t d, int64_t, int64_t w,
                     Nanos) override {
      ++iterations;
      decoding += d;
      peakWaiting = std::max(peakWaiting, w);
    }
  } count;
  TimelineSink timeline(kNanosPerUs);
  TeeSink both({&count, &timeline});
  ServiceModel m = model(shapedTable());
  auto spec = parseWorkload("poisson:rate=3000,prompt=64..512,output=4..64");
  auto source = makeRequestSource(*spec, 1);
  EngineConfig cfg;
  cfg.maxBatch = 4;
  cfg.requests = 3000;
  ASSERT_TRUE(bool(runServing(m, **source, cfg, both)));
  ASSERT_LE(timeline.buckets().size(), TimelineSink::kBuckets);
  EXPECT_GT(timeline.bucketWidth(), kNanosPerUs); // it had to grow
  int64_t iterations = 0, decoding = 0, peak = 0;
  for (const auto &b : timeline.buckets()) {
    iterations += b.iterations;
    decoding += b.decoding;
    peak = std::max(peak, b.maxWaiting);
  }
  EXPECT_EQ(iterations, count.iterations);
  EXPECT_EQ(decoding, count.decoding);
  EXPECT_EQ(peak, count.peakWaiting);
}

} // namespace
