//===- ServiceTableTest.cpp - Validation, JSON, interpolation -------------===//

#include "ServeTestUtil.h"

using namespace lpx::serve;
using namespace lpx::serve::test;

namespace {

ServiceTable corner() {
  ServiceTable t = handTable();
  t.decode = {{1, 100, 10}, {1, 300, 20}, {4, 100, 40}, {4, 300, 60}};
  return t;
}

TEST(ServiceTable, BilinearBetweenPointsAndClampedUp) {
  ServiceModel m = model(corner());
  // Corners exactly.
  EXPECT_DOUBLE_EQ(m.decodeUs(1, 100), 10);
  EXPECT_DOUBLE_EQ(m.decodeUs(4, 300), 60);
  // Along context at batch 1: 10 + (200-100)/(300-100) * (20-10) = 15.
  EXPECT_DOUBLE_EQ(m.decodeUs(1, 200), 15);
  // Inside: at context 200, 15 (batch 1) and 50 (batch 4); batch 2 is a
  // third of the way: 15 + (50-15)/3.
  EXPECT_DOUBLE_EQ(m.decodeUs(2, 200), 15 + 35.0 / 3);
  // Below the smallest context: the smallest point (a larger program padded).
  EXPECT_DOUBLE_EQ(m.decodeUs(1, 10), 10);
  // Prefill: prompt 150 between 100 and 200 at batch 2: (80 + 140) / 2.
  EXPECT_DOUBLE_EQ(m.prefillUs(150, 2), 110);
  EXPECT_EQ(m.maxDecodeBatch(), 4);
  EXPECT_EQ(m.maxContext(), 300);
  EXPECT_EQ(m.maxPrompt(), 200);
  EXPECT_NE(std::string(kInterpolation).find("piecewise-linear"),
            std::string::npos);
}

TEST(ServiceTable, HeldOutPoints) {
  ServiceTable t = handTable();
  t.decode = {{1, 100, 10}, {1, 200, 16}, {1, 300, 20},
              {2, 100, 12}, {2, 200, 19}, {2, 300, 24}};
  ServiceModel m = model(t);
  // (1, 200) from its context neighbours: (10 + 20) / 2 = 15, not its 16.
  auto v = m.heldOutDecodeUs(1, 200);
  ASSERT_TRUE(bool(v));
  EXPECT_DOUBLE_EQ(*v, 15);
  EXPECT_NE(errorOf(m.heldOutDecodeUs(1, 100)).find("edge"),
            std::string::npos);
  EXPECT_NE(errorOf(m.heldOutDecodeUs(3, 200)).find("not a simulated"),
            std::string::npos);
}

TEST(ServiceTable, DamagedTablesAreErrors) {
  auto expectError = [](ServiceTable t, const char *what) {
    std::string e = errorOf(validate(t));
    EXPECT_NE(e.find(what), std::string::npos) << e;
  };
  ServiceTable t = corner();
  t.decode.pop_back();
  expectError(t, "not a complete grid");
  t = corner();
  t.decode[0].us = -1;
  expectError(t, "must be finite and above 0");
  t = corner();
  t.decode.push_back(t.decode[0]);
  expectError(t, "appears twice");
  t = corner();
  t.stageShare = {0.5, 0.4};
  t.stages = 2;
  expectError(t, "sums to");
  t = corner();
  t.stages = 3;
  expectError(t, "entries for 3 stages");
  t = corner();
  t.prefillStageShare = {0.5, 0.5};
  expectError(t, "prefill_stage_share has 2 entries for 1 stages");
  t = corner();
  t.decode.clear();
  expectError(t, "no decode points");
  t = corner();
  t.prefill.push_back({256, 1, 64, 30});
  expectError(t, "prefill_chunk is 0");
  t = corner();
  t.maxSequences = 0;
  expectError(t, "max_sequences");
  EXPECT_FALSE(bool(validate(corner())));
}

TEST(ServiceTable, JsonRoundTripAndDamage) {
  ServiceTable t = shapedTable(3);
  t.cacheKey = "lpx 0.1.0 llama2-70b tsp-v1 ...";
  t.prefillChunk = 64;
  t.prefill.push_back({64, 1, 64, 900});
  t.prefill.push_back({512, 1, 64, 1100});
  t.prefillStageShare = {0.25, 0.25, 0.5};
  std::string text;
  llvm::raw_string_ostream(text) << toJson(t);
  auto back = parseServiceTable(text);
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  std::string again;
  llvm::raw_string_ostream(again) << toJson(*back);
  EXPECT_EQ(text, again);
  EXPECT_EQ(back->cacheKey, t.cacheKey);
  EXPECT_EQ(back->prefillStageShare, t.prefillStageShare);
  ServiceModel m = model(*back);
  EXPECT_TRUE(m.hasChunkedPrefill());
  EXPECT_DOUBLE_EQ(m.prefillChunkUs(288, 1), 1000);

  auto damaged = [&](auto edit, const char *what) {
    llvm::json::Value v = toJson(t);
    edit(*v.getAsObject());
    std::string e = errorOf(serviceTableFromJson(v));
    EXPECT_NE(e.find(what), std::string::npos) << e;
  };
  damaged([](llvm::json::Object &o) { o.erase("max_sequences"); },
          "'max_sequences' is missing");
  damaged([](llvm::json::Object &o) { o["extra"] = 1; }, "unknown key 'extra'");
  damaged([](llvm::json::Object &o) { o["stages"] = "three"; },
          "'stages' is not an integer");
  damaged([](llvm::json::Object &o) { o["interpolation"] = "cubic"; },
          "interpolation 'cubic'");
  damaged([](llvm::json::Object &o) { o["version"] = 2; }, "version 2");
  damaged([](llvm::json::Object &o) { o["prefill_stage_share"] = "half"; },
          "'prefill_stage_share' is not an array");
  damaged(
      [](llvm::json::Object &o) {
        o["prefill_stage_share"] = llvm::json::Array{0.5, 0.6, 0.1};
      },
      "prefill_stage_share sums to");
  damaged(
      [](llvm::json::Object &o) {
        (*o.getArray("decode"))[0].getAsObject()->erase("us");
      },
      "decode[0]: 'us' is missing");
  EXPECT_NE(errorOf(parseServiceTable(text.substr(0, text.size() / 2)))
                .find("not valid JSON"),
            std::string::npos);
}

} // namespace
