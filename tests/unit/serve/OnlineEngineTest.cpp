//===- OnlineEngineTest.cpp - The engine stepped from outside -------------===//
//
// OnlineEngine must be the serving model itself, not a second one: the
// hand-derived two-request case of EngineHandTest gives the same token times,
// and a busy run admitted call by call gives each request the first token
// and completion runServing gives it.

#include "ServeTestUtil.h"

#include "lpx/serve/OnlineEngine.h"

using namespace lpx::serve;
using namespace lpx::serve::test;

namespace {

Nanos us(double v) { return fromUs(v); }

/// An engine on `table` and the events it has given so far.
struct Online {
  Online(ServiceTable table, const EngineConfig &cfg) : m(model(table)) {
    auto made = OnlineEngine::create(m, cfg);
    EXPECT_TRUE(bool(made)) << (made ? "" : llvm::toString(made.takeError()));
    e = std::move(*made);
  }
  ServiceModel m;
  std::unique_ptr<OnlineEngine> e;
  std::vector<TokenEvent> out;
};

EngineConfig config(int64_t maxBatch, int64_t queue) {
  EngineConfig cfg;
  cfg.maxBatch = maxBatch;
  cfg.queueCapacity = queue;
  return cfg;
}

TEST(OnlineEngine, TwoRequestsAsByHand) {
  // EngineHand.ChunkedInterleavesPrefillWithDecode: r0 (prompt 100, 3
  // tokens) at 0, r1 (100, 2) at 20, batch 2. r0's tokens at 50, 110, 126;
  // r1's at 110 and 126.
  Online run(handTable(), config(2, -1));
  EXPECT_EQ(run.e->admit(100, 3, 0), 0);
  run.e->advanceTo(us(20), run.out);
  EXPECT_TRUE(run.out.empty());
  EXPECT_EQ(run.e->admit(100, 2, us(20)), 1);
  EXPECT_EQ(run.e->nextEventTime(), std::optional<Nanos>(us(20)));
  run.e->advanceTo(us(50), run.out);
  ASSERT_EQ(run.out.size(), 1u);
  EXPECT_EQ(run.out[0].kind, TokenEvent::Token);
  EXPECT_EQ(run.out[0].at, us(50));
  EXPECT_EQ(run.out[0].request, 0);
  EXPECT_EQ(run.out[0].tokens, 1);
  run.e->advanceTo(us(1000), run.out);
  struct Want {
    TokenEvent::Kind kind;
    double at;
    int64_t request, tokens;
  };
  std::vector<Want> want = {{TokenEvent::Token, 50, 0, 1},
                            {TokenEvent::Token, 110, 0, 2},
                            {TokenEvent::Token, 110, 1, 1},
                            {TokenEvent::Token, 126, 0, 3},
                            {TokenEvent::Token, 126, 1, 2},
                            {TokenEvent::Done, 126, 0, 3},
                            {TokenEvent::Done, 126, 1, 2}};
  ASSERT_EQ(run.out.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE("event " + std::to_string(i));
    EXPECT_EQ(run.out[i].kind, want[i].kind);
    EXPECT_EQ(run.out[i].at, us(want[i].at));
    EXPECT_EQ(run.out[i].request, want[i].request);
    EXPECT_EQ(run.out[i].tokens, want[i].tokens);
  }
  EXPECT_EQ(run.e->inFlight(), 0);
  EXPECT_FALSE(run.e->nextEventTime());
}

TEST(OnlineEngine, FullQueueRejects) {
  // Batch 1, no queue places: r1 at 10 finds r0 running and is rejected
  // there (no network); r2 at 80 finds the slot free (r0 done at 70).
  Online run(handTable(), config(1, 0));
  run.e->admit(100, 3, 0);
  run.e->advanceTo(us(10), run.out);
  run.e->admit(100, 2, us(10));
  run.e->advanceTo(us(10), run.out);
  ASSERT_EQ(run.out.size(), 1u);
  EXPECT_EQ(run.out[0].kind, TokenEvent::Rejected);
  EXPECT_FALSE(run.out[0].tooLong);
  EXPECT_EQ(run.out[0].request, 1);
  run.e->advanceTo(us(80), run.out);
  run.e->admit(100, 1, us(80));
  run.e->advanceTo(us(1000), run.out);
  ASSERT_FALSE(run.out.empty());
  EXPECT_EQ(run.out.back().kind, TokenEvent::Done);
  EXPECT_EQ(run.out.back().request, 2);
  EXPECT_EQ(run.out.back().at, us(130)); // its prefill, 80..130
}

TEST(OnlineEngine, SameTimesAsRunServing) {
  // 300 Poisson calls on a shaped table with 2 stages, batches of 4 and a
  // queue of 2 places: batching, stages, host I/O and 429s all at work.
  ServiceTable table = shapedTable(2);
  EngineConfig cfg = busyConfig(2, "0", "0", 300);
  Recorder rec;
  run(table, "poisson:rate=2000,prompt=64..1024,output=4..32", cfg, rec);
  ASSERT_EQ(rec.requests.size(), 300u);
  std::vector<RequestRecord> byId(300);
  for (const RequestRecord &r : rec.requests)
    byId[size_t(r.id)] = r;

  Online run(table, cfg);
  for (const RequestRecord &r : byId) {
    run.e->advanceTo(r.arrival, run.out);
    EXPECT_EQ(run.e->admit(r.prompt, r.output, r.arrival), r.id);
  }
  run.e->advanceTo(std::numeric_limits<Nanos>::max() / 2, run.out);
  EXPECT_EQ(run.e->inFlight(), 0);
  std::vector<Nanos> first(300, -1), end(300, -1);
  std::vector<int64_t> tokens(300, 0);
  int64_t rejected = 0;
  for (const TokenEvent &ev : run.out) {
    if (ev.kind == TokenEvent::Token) {
      if (ev.tokens == 1)
        first[size_t(ev.request)] = ev.at;
      EXPECT_EQ(ev.tokens, ++tokens[size_t(ev.request)]);
    } else {
      end[size_t(ev.request)] = ev.at;
      rejected += ev.kind == TokenEvent::Rejected;
    }
  }
  EXPECT_GT(rejected, 0);
  for (const RequestRecord &r : byId) {
    SCOPED_TRACE("request " + std::to_string(r.id));
    EXPECT_EQ(end[size_t(r.id)], r.completion);
    EXPECT_EQ(first[size_t(r.id)], r.firstToken);
    EXPECT_EQ(tokens[size_t(r.id)], r.completed ? r.output : 0);
  }
}

} // namespace
