//===- PrefillShapeTest.cpp - The chunks a prefill is cut into ------------===//
//
// prefillShape by hand: the chunk chosen or asked for, the chunks, the
// chunk step's shape (C tokens into the whole cache) and where the last
// prompt position falls in the last chunk.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/DecodePlan.h"

#include <gtest/gtest.h>

using namespace lpx::deploy;

TEST(PrefillShape, ALongPromptIsEightChunksOfAnEighth) {
  std::string why;
  auto s = prefillShape(2048, 1, 4096, 0, why);
  ASSERT_TRUE(bool(s));
  // 2048 / 8 = 256 tokens a chunk, each written into the 4096 positions.
  EXPECT_EQ(s->chunks, 8);
  EXPECT_EQ(s->query, 256);
  EXPECT_EQ(s->context, 4096);
  EXPECT_EQ(s->cache, 4096);
  EXPECT_EQ(s->logitsAt, 255); // position 2047 = 7 * 256 + 255
  EXPECT_NE(why.find("chosen"), std::string::npos);
}

TEST(PrefillShape, AShortPromptIsOnePass) {
  std::string why;
  auto s = prefillShape(128, 2, 2048, 0, why);
  ASSERT_TRUE(bool(s));
  // 128 <= 256: the prompt without a past, written into the cache.
  EXPECT_EQ(s->chunks, 1);
  EXPECT_EQ(s->query, 128);
  EXPECT_EQ(s->context, 128);
  EXPECT_EQ(s->cache, 2048);
  EXPECT_EQ(s->batch, 2);
  EXPECT_EQ(s->logitsAt, 127);
}

TEST(PrefillShape, AskedChunkPadsTheLastOne) {
  std::string why;
  auto s = prefillShape(11, 1, 64, 4, why);
  ASSERT_TRUE(bool(s));
  // ceil(11 / 4) = 3 chunks, positions 0..11; the prompt's last, 10, is
  // row 10 - 2 * 4 = 2 of the last chunk.
  EXPECT_EQ(s->chunks, 3);
  EXPECT_EQ(s->query, 4);
  EXPECT_EQ(s->tokens(), 12);
  EXPECT_EQ(s->logitsAt, 2);
  EXPECT_EQ(why, "--prefill-chunk");
}

TEST(PrefillShape, PaddingPastTheContextIsAnError) {
  std::string why;
  // 2 chunks of 64 need 128 positions; the context holds 100.
  auto s = prefillShape(100, 1, 100, 64, why);
  ASSERT_FALSE(bool(s));
  EXPECT_NE(llvm::toString(s.takeError()).find("need 128 cache positions"),
            std::string::npos);
}
