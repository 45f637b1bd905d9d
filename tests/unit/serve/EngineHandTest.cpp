//===- EngineHandTest.cpp - Small runs with every number derived by hand --===//
//
// The table is handTable() (ServeTestUtil.h): step 10 us at batch 1, 16 us at
// batch 2; prefill 50 us (<= 100 tokens, batch 1). Times below in us.

#include "ServeTestUtil.h"

using namespace lpx::serve;
using namespace lpx::serve::test;

namespace {

const char *kTwoRequests = "arrival_us,prompt_tokens,output_tokens\n"
                           "0,100,3\n"
                           "20,100,2\n";

Nanos us(double v) { return fromUs(v); }

/// A hand-derived request's times, in us (-1: not checked).
struct Times {
  double queue = -1, ttft = -1, e2e = -1, tpot = -1;
};
void expectTimes(const RequestRecord &r, const Times &t) {
  SCOPED_TRACE("request " + std::to_string(r.id));
  // Braces: an EXPECT is an if-else of its own.
  if (t.queue >= 0) {
    EXPECT_EQ(r.queue(), us(t.queue));
  }
  if (t.ttft >= 0) {
    EXPECT_EQ(r.ttft(), us(t.ttft));
  }
  if (t.e2e >= 0) {
    EXPECT_EQ(r.e2e(), us(t.e2e));
  }
  if (t.tpot >= 0) {
    EXPECT_DOUBLE_EQ(r.tpotNs(), double(us(t.tpot)));
  }
}

/// kTwoRequests on handTable() at `maxBatch` under `policy`.
void runTwo(Recorder &rec, int64_t maxBatch, Policy policy) {
  EngineConfig cfg;
  cfg.maxBatch = maxBatch;
  cfg.policy = policy;
  run(handTable(), "trace:" + writeFile("two.csv", kTwoRequests), cfg, rec);
  ASSERT_EQ(rec.requests.size(), 2u);
}

TEST(EngineHand, OneSlotTwoRequests) {
  // r0 arrives at 0 and is admitted at once: prefill 0..50 (first token at
  // 50), steps 50..60 and 60..70 (3 tokens): E2E 70, TPOT (70-50)/2 = 10.
  // r1 arrives at 20 and waits for the slot: admitted at 70 (queue 50),
  // prefill 70..120 (TTFT 120-20 = 100), one step 120..130: E2E 110, TPOT 10.
  Recorder rec;
  runTwo(rec, 1, Policy::Chunked);
  EXPECT_EQ(rec.byId(0).admission, 0);
  expectTimes(rec.byId(0), {0, 50, 70, 10});
  expectTimes(rec.byId(1), {50, 100, 110, 10});
}

TEST(EngineHand, ChunkedInterleavesPrefillWithDecode) {
  // Batch 2, policy chunked (whole prompts: the table has no chunk). r0:
  // prefill 0..50. r1 arrives at 20, joins at 50 (queue 30); the iteration
  // 50..110 is r0's step (10) and r1's prefill (50): r0's 2nd token and r1's
  // first at 110 (TTFT 90). Then both step at batch 2: 110..126, r0's 3rd
  // token and r1's 2nd. r0: E2E 126, TPOT (126-50)/2 = 38; r1: E2E 106,
  // TPOT 16.
  Recorder rec;
  runTwo(rec, 2, Policy::Chunked);
  expectTimes(rec.byId(0), {0, 50, 126, 38});
  expectTimes(rec.byId(1), {30, 90, 106, 16});
}

TEST(EngineHand, PrefillFirstPausesDecode) {
  // Batch 2, prefill-first. r0: prefill 0..50. r1 joins at 50 (queue 30);
  // the iteration 50..100 is r1's prefill alone (r0 waits): r1's TTFT 80.
  // Both step at batch 2 100..116: r1 done (E2E 96, TPOT 16); r0 steps
  // alone 116..126: E2E 126, TPOT (126-50)/2 = 38.
  Recorder rec;
  runTwo(rec, 2, Policy::PrefillFirst);
  expectTimes(rec.byId(0), {0, 50, 126, 38});
  expectTimes(rec.byId(1), {30, 80, 96, 16});
}

TEST(EngineHand, NetworkAndHostIo) {
  // Round trip 10 (5 each way), prefill host I/O 4, step host I/O 1. r0 at
  // 0: at the server at 5; prefill 5..55 plus host I/O to 59; first token at
  // the client at 64 (TTFT 64); steps 59..70 and 70..81; the last token at
  // the client at 86: E2E 86, TPOT (86-64)/2 = 11.
  ServiceTable t = handTable();
  t.prefillHostIoUs = 4;
  t.stepHostIoUs = 1;
  Recorder rec;
  EngineConfig cfg;
  cfg.network = *parseNetwork("fixed:10us");
  run(t, "trace:" + writeFile("one.csv", "arrival_us,prompt_tokens,"
                                         "output_tokens\n0,100,3\n"),
      cfg, rec);
  const RequestRecord &r0 = rec.byId(0);
  EXPECT_EQ(r0.serverArrival, us(5));
  EXPECT_EQ(r0.ttft(), us(64));
  EXPECT_EQ(r0.e2e(), us(86));
  EXPECT_DOUBLE_EQ(r0.tpotNs(), double(us(11)));
  EXPECT_EQ(r0.network, us(10));
  // E2E 86 = queue 0 + network 10 + host I/O 4 + 1 + 1 + compute 70.
  EXPECT_EQ(r0.hostIo, us(6));
  EXPECT_EQ(r0.compute(), us(70));
  // TTFT 64 = queue 0 + network 10 (both ways) + the prefill's host I/O 4
  // + its compute 50.
  EXPECT_EQ(r0.hostIoFirst, us(4));
  EXPECT_EQ(r0.ttftCompute(), us(50));
  // TPOT 11 = host I/O (1 + 1) / 2 + compute 10 (the steps at batch 1).
  MetricsCollector m;
  m.onRequest(r0);
  const Results::Split tpot = m.results().tpotSplitUs;
  EXPECT_DOUBLE_EQ(tpot.hostIo, 1.0);
  EXPECT_DOUBLE_EQ(tpot.compute, 10.0);
  EXPECT_EQ(tpot.queue + tpot.network + tpot.backoff, 0.0);
}

TEST(EngineHand, StagesWorkOnOneGroupAtATime) {
  // Two stages sharing a prefill half and half (25 + 25), two groups, batch
  // 1, two requests of one token at 0. r0: stage 0 0..25, stage 1 25..50
  // (TTFT 50). r1, in the second group: stage 0 is free at 25, so 25..50,
  // stage 1 50..75 (TTFT 75). With one group r1 would wait for r0: 100.
  ServiceTable t = handTable();
  t.stages = 2;
  t.stageShare = {0.5, 0.5};
  std::string trace = writeFile(
      "pair.csv", "arrival_us,prompt_tokens,output_tokens\n0,100,1\n0,100,1\n");
  Recorder two, one;
  EngineConfig cfg;
  run(t, "trace:" + trace, cfg, two);
  EXPECT_EQ(two.byId(0).ttft(), us(50));
  EXPECT_EQ(two.byId(1).ttft(), us(75));
  cfg.groups = 1;
  run(t, "trace:" + trace, cfg, one);
  EXPECT_EQ(one.byId(1).ttft(), us(100));
}

TEST(EngineHand, APrefillTakesTheStagesByItsOwnShares) {
  // As above, but the prefill's own shares are a quarter and three quarters
  // (12.5 + 37.5 us): r0 stage 0 0..12.5, stage 1 12.5..50 (TTFT 50); r1
  // stage 0 12.5..25, stage 1 50..87.5 (TTFT 87.5). Each then steps once
  // (output 2) by the step's shares, half and half (5 + 5): r0 50..55 on
  // stage 0, 87.5..92.5 on stage 1 (E2E 92.5); r1 87.5..92.5, 92.5..97.5.
  ServiceTable t = handTable();
  t.stages = 2;
  t.stageShare = {0.5, 0.5};
  t.prefillStageShare = {0.25, 0.75};
  Recorder rec;
  run(t,
      "trace:" + writeFile("shares.csv", "arrival_us,prompt_tokens,"
                                         "output_tokens\n0,100,2\n0,100,2\n"),
      EngineConfig(), rec);
  expectTimes(rec.byId(0), {0, 50, 92.5, 42.5});
  expectTimes(rec.byId(1), {0, 87.5, 97.5, 10});
}

TEST(EngineHand, FullQueueRejectsAndRetriesAreCounted) {
  // No queue places: r1 arrives at 20 while r0 holds the one slot; it is
  // rejected, retried 3 times at once (base 0) and rejected each time.
  Recorder rec;
  EngineConfig cfg;
  cfg.queueCapacity = 0;
  cfg.retry = *parseRetry("3,base=0");
  RunResult r = run(handTable(), "trace:" + writeFile("two.csv", kTwoRequests), cfg,
              rec);
  EXPECT_TRUE(rec.byId(0).completed);
  EXPECT_FALSE(rec.byId(1).completed);
  EXPECT_EQ(rec.byId(1).retries, 3);
  EXPECT_EQ(r.results.rejected, 1);
  EXPECT_EQ(r.results.retries, 3);
  EXPECT_EQ(r.results.completed, 1);
}

TEST(EngineHand, AgentSessionAndKeptCache) {
  // One session of two calls: prompt 100, output 2, tool 100 us, result 20.
  // Call 1: prefill 50 + step 10: E2E 60. Call 2 is sent 100 later with a
  // prompt of 100 + 2 + 20 = 122 tokens: prefill 50 + 22/100 * 40 = 58.8,
  // step 10: E2E 68.8. Session E2E = 60 + 100 + 68.8 = 228.8.
  // Keeping the cache, call 2 prefills its 20 new tokens: 50 (the smallest
  // simulated prompt, padded), E2E 60, session 220.
  const char *agent = "agent:rate=1,calls=2,tool=100us,prompt=100,result=20,"
                      "output=2";
  Recorder plain, cached;
  EngineConfig cfg;
  cfg.requests = 2;
  run(handTable(), agent, cfg, plain);
  cfg.keepSessionCache = true;
  run(handTable(), agent, cfg, cached);
  ASSERT_EQ(plain.sessions.size(), 1u);
  ASSERT_EQ(plain.requests.size(), 2u);
  EXPECT_EQ(plain.requests[1].prompt, 122);
  EXPECT_EQ(plain.requests[1].e2e(), us(68.8));
  EXPECT_EQ(plain.sessions[0].e2e(), us(228.8));
  EXPECT_TRUE(plain.sessions[0].completed);
  ASSERT_EQ(cached.sessions.size(), 1u);
  EXPECT_EQ(cached.requests[1].prefilled, 20);
  EXPECT_EQ(cached.sessions[0].e2e(), us(220));
}

TEST(EngineHand, ChunkedPrefillInChunksOfTheTable) {
  // Chunks of 64 tokens: 20 us for the chunk ending at 64, 24 us for the one
  // ending at 128; one stage. Two requests of 128 tokens at 0, batch 2, both
  // admitted: r0's first chunk 0..20; its second need not wait for the
  // group, only for the stage: 20..44 (first token at 44). The group's next
  // prompt starts when r0's last chunk is sent: r1's first chunk 44..64.
  // Then r0's step 64..74 (r0 done, E2E 74): the group's iteration goes
  // before r1's waiting chunk, which follows: 74..98 (TTFT 98); r1's step
  // 98..108 (E2E 108).
  ServiceTable t = handTable();
  t.prefillChunk = 64;
  t.prefill.push_back({64, 1, 64, 20});
  t.prefill.push_back({128, 1, 64, 24});
  Recorder rec;
  EngineConfig cfg;
  cfg.maxBatch = 2;
  run(t,
      "trace:" + writeFile("chunks.csv", "arrival_us,prompt_tokens,"
                                         "output_tokens\n0,128,2\n0,128,2\n"),
      cfg, rec);
  EXPECT_EQ(rec.byId(0).ttft(), us(44));
  EXPECT_EQ(rec.byId(0).e2e(), us(74));
  EXPECT_EQ(rec.byId(1).ttft(), us(98));
  EXPECT_EQ(rec.byId(1).e2e(), us(108));
}

/// Chunks of 64 ending at 64, 128, 192: 20, 24, 28 us; three stages sharing
/// every item a quarter, a half, a quarter (so the chunks' parts are 5 10 5,
/// 6 12 6 and 7 14 7 us, the step's at batch 1 2.5 5 2.5).
ServiceTable threeStageChunks() {
  ServiceTable t = handTable();
  t.prefillChunk = 64;
  t.prefill.push_back({64, 1, 64, 20});
  t.prefill.push_back({128, 1, 64, 24});
  t.prefill.push_back({192, 1, 64, 28});
  t.stages = 3;
  t.stageShare = {0.25, 0.5, 0.25};
  return t;
}

TEST(EngineHand, ChunksOfAPromptFollowEachOtherThroughTheStages) {
  // One prompt of 192 tokens (3 chunks), output 2; prefill host I/O 4 us,
  // step host I/O 1 us. Chunk k + 1 enters stage s when chunk k has left it
  // (exit[s] = max(exit[s-1], exit of chunk k at s) + its part):
  //   chunk 1:  0..5,  5..15, 15..20
  //   chunk 2:  5..11, 15..27, 27..33
  //   chunk 3: 11..18, 27..41, 41..48
  // First token at 48 + 4 = 52 (one after another they would take 72 + 4).
  // The step enters at 52: 52..54.5, 54.5..59.5, 59.5..62, plus 1: E2E 63,
  // TPOT 11; host I/O 4 + 1.
  ServiceTable t = threeStageChunks();
  t.prefillHostIoUs = 4;
  t.stepHostIoUs = 1;
  Recorder rec;
  run(t,
      "trace:" + writeFile("three.csv", "arrival_us,prompt_tokens,"
                                        "output_tokens\n0,192,2\n"),
      EngineConfig(), rec);
  expectTimes(rec.byId(0), {0, 52, 63, 11});
  EXPECT_EQ(rec.byId(0).hostIo, us(5));
}

TEST(EngineHand, WaitingChunksEnterTheFirstStageInTheOrderTheyWereReady) {
  // Two prompts of 192 at 0 in two groups (3 stages: 3 groups), no host
  // I/O. r1's first chunk rides group 1's iteration, behind r0's:
  //   r0 chunk 1:  0..5,   5..15, 15..20    (r0's chunk 2 ready at 5)
  //   r1 chunk 1:  5..10, 15..25, 25..30    (r1's chunk 2 ready at 10)
  //   r0 chunk 2: 10..16, 25..37, 37..43    (ready first, goes first)
  //   r1 chunk 2: 16..22, 37..49, 49..55
  //   r0 chunk 3: 22..29, 49..63, 63..70    (r0's first token at 70)
  //   r1 chunk 3: 29..36, 63..77, 77..84    (r1's at 84)
  //   r0's step: 70..72.5, 77..82, 84..86.5 (E2E 86.5)
  //   r1's step: 84..86.5, 86.5..91.5, 91.5..94 (E2E 94)
  Recorder rec;
  run(threeStageChunks(),
      "trace:" + writeFile("three2.csv", "arrival_us,prompt_tokens,"
                                         "output_tokens\n0,192,2\n0,192,2\n"),
      EngineConfig(), rec);
  expectTimes(rec.byId(0), {0, 70, 86.5, 16.5});
  expectTimes(rec.byId(1), {0, 84, 94, 10});
  EXPECT_EQ(rec.byId(1).group, 1);
}

TEST(EngineHand, PrefillFirstChunksAPromptLongerThanAnyWhole) {
  // Whole prompts to 200 tokens; chunks of 64 ending at 64 (20 us), 128 (24)
  // and 256 (32): the table times prompts to 256. Prefill-first, one prompt
  // of 256: its chunks one after another, ending at 64, 128, 192 (28, between
  // 24 and 32) and 256: 20 + 24 + 28 + 32 = 104 (TTFT); one step, E2E 114.
  // A prompt of 150 is still prefilled whole: 70 (between 50 and 90).
  ServiceTable t = handTable();
  t.prefillChunk = 64;
  t.prefill.push_back({64, 1, 64, 20});
  t.prefill.push_back({128, 1, 64, 24});
  t.prefill.push_back({256, 1, 64, 32});
  Recorder rec;
  EngineConfig cfg;
  cfg.policy = Policy::PrefillFirst;
  run(t,
      "trace:" + writeFile("long-first.csv", "arrival_us,prompt_tokens,"
                                             "output_tokens\n0,256,2\n"
                                             "1000,150,2\n"),
      cfg, rec);
  EXPECT_EQ(rec.byId(0).ttft(), us(104));
  EXPECT_EQ(rec.byId(0).e2e(), us(114));
  EXPECT_EQ(rec.byId(1).ttft(), us(70));
  EXPECT_EQ(model(t).maxPrompt(), 256);
  EXPECT_EQ(model(t).maxWholePrompt(), 200);
}

TEST(EngineHand, NoCallAfterTheDuration) {
  Recorder rec;
  EngineConfig cfg;
  cfg.maxBatch = 2;
  cfg.duration = 100 * kNanosPerMs;
  RunResult r = run(handTable(), "poisson:rate=1000,prompt=50,output=2", cfg,
                    rec);
  // About 100 calls in 100 ms; none sent later, all finished.
  EXPECT_GT(r.results.requests, 60);
  EXPECT_LT(r.results.requests, 140);
  for (const RequestRecord &q : rec.requests)
    EXPECT_LE(q.arrival, cfg.duration);
  EXPECT_EQ(r.results.completed, r.results.requests);
}

TEST(EngineHand, TooLongIsRejectedNotRetried) {
  // A prompt past the table's largest (200) cannot be served.
  Recorder rec;
  EngineConfig cfg;
  cfg.retry = *parseRetry("2,base=1ms");
  RunResult r = run(handTable(),
              "trace:" + writeFile("long.csv", "arrival_us,prompt_tokens,"
                                               "output_tokens\n0,300,2\n"),
              cfg, rec);
  EXPECT_EQ(r.results.rejected, 1);
  EXPECT_EQ(r.results.rejectedTooLong, 1);
  EXPECT_EQ(rec.byId(0).retries, 0);
}

TEST(EngineHand, ConfigurationErrors) {
  ServiceModel m = model(handTable());
  auto spec = parseWorkload("poisson:rate=10,prompt=10,output=2");
  auto source = makeRequestSource(*spec, 1);
  Recorder rec;
  EngineConfig cfg;
  cfg.maxBatch = 4; // the table's steps go to batch 2
  EXPECT_NE(errorOf(runServing(m, **source, cfg, rec)).find("largest decode"),
            std::string::npos);
  cfg.maxBatch = 1;
  cfg.groups = 2; // one stage
  EXPECT_NE(errorOf(runServing(m, **source, cfg, rec)).find("stages"),
            std::string::npos);
  cfg.groups = 0;
  EXPECT_NE(errorOf(runServing(m, **source, cfg, rec)).find("never ends"),
            std::string::npos);
}

} // namespace
