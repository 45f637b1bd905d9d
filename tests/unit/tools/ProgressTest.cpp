//===- ProgressTest.cpp - The time-left estimate of long commands ---------===//
//
// `lpx sweep` and `lpx compile` show "about N s left" from the pace of the
// work done so far; the figures below are worked by hand.
//
//===----------------------------------------------------------------------===//
#include "Progress.h"

#include <gtest/gtest.h>

using lpx::cli::estimateSecondsLeft;

TEST(TimeLeft, RemainingWorkAtThePaceSoFar) {
  // 25 of 100 units in 10 s: 0.4 s each, 75 left = 30 s.
  EXPECT_DOUBLE_EQ(*estimateSecondsLeft(10.0, 25, 100), 30.0);
  // 1 of 4 in 3 s: 3 more units at 3 s = 9 s.
  EXPECT_DOUBLE_EQ(*estimateSecondsLeft(3.0, 1, 4), 9.0);
  // 999 of 1000 in 999 s: one unit left, 1 s.
  EXPECT_DOUBLE_EQ(*estimateSecondsLeft(999.0, 999, 1000), 1.0);
}

TEST(TimeLeft, LargeCountsDoNotOverflow) {
  // A 70B compile emits millions of instructions: 2^32 of 2^33 in 60 s.
  uint64_t half = uint64_t(1) << 32;
  EXPECT_DOUBLE_EQ(*estimateSecondsLeft(60.0, half, 2 * half), 60.0);
}

TEST(TimeLeft, NoneWithoutAPaceOrWithNothingLeft) {
  EXPECT_FALSE(estimateSecondsLeft(5.0, 0, 100)); // nothing done yet
  EXPECT_FALSE(estimateSecondsLeft(5.0, 100, 100)); // all done
  EXPECT_FALSE(estimateSecondsLeft(5.0, 7, 3)); // a stale total
  EXPECT_FALSE(estimateSecondsLeft(0.0, 0, 0)); // a stage that counts none
}
