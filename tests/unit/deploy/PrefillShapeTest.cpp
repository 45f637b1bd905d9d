//===- PrefillShapeTest.cpp - The chunks a prefill is cut into ------------===//
//
// prefillShape by hand: the chunk chosen or asked for, the chunks, the
// chunk step's shape (C tokens into the whole cache, or the prompt without
// a past when it is one pass) and where the last prompt position falls in
// the last chunk.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/DecodePlan.h"

#include <gtest/gtest.h>

using namespace lpx::deploy;

namespace {
struct Case {
  const char *what;
  int64_t prompt, batch, context, asked; // prefillShape's arguments
  PhaseShape want;                       // context, query, batch, cache
  int64_t chunks, logitsAt;
  const char *why; // a piece of the reason given
};
} // namespace

TEST(PrefillShape, ChunksByHand) {
  const Case cases[] = {
      // 2048 / 8 = 256 a chunk, each written into the 4096 positions;
      // position 2047 = 7 * 256 + 255.
      {"long prompt", 2048, 1, 4096, 0, {4096, 256, 1, 4096}, 8, 255, "chosen"},
      // 128 <= 256: the prompt without a past, written into the cache.
      {"short prompt", 128, 2, 2048, 0, {128, 128, 2, 2048}, 1, 127,
       "one chunk"},
      // ceil(11 / 4) = 3 chunks, positions 0..11; the prompt's last, 10, is
      // row 10 - 2 * 4 = 2 of the last chunk.
      {"padded", 11, 1, 64, 4, {64, 4, 1, 64}, 3, 2, "--prefill-chunk"},
  };
  for (const Case &c : cases) {
    std::string why;
    auto s = prefillShape(c.prompt, c.batch, c.context, c.asked, why);
    ASSERT_TRUE(bool(s)) << c.what;
    EXPECT_EQ(s->context, c.want.context) << c.what;
    EXPECT_EQ(s->query, c.want.query) << c.what;
    EXPECT_EQ(s->batch, c.want.batch) << c.what;
    EXPECT_EQ(s->cache, c.want.cache) << c.what;
    EXPECT_EQ(s->chunks, c.chunks) << c.what;
    EXPECT_EQ(s->logitsAt, c.logitsAt) << c.what;
    EXPECT_NE(why.find(c.why), std::string::npos) << c.what << ": " << why;
  }
}

TEST(PrefillShape, PaddingPastTheContextIsAnError) {
  std::string why;
  // 2 chunks of 64 need 128 positions; the context holds 100.
  auto s = prefillShape(100, 1, 100, 64, why);
  ASSERT_FALSE(bool(s));
  EXPECT_NE(llvm::toString(s.takeError()).find("need 128 cache positions"),
            std::string::npos);
}
