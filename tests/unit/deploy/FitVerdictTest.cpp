//===- FitVerdictTest.cpp - What the chip search reads of a failed compile ===//
//
// The verdict is read from the compiler's typed FitReport: each kind of
// misfit, and a failure that is not about fit, with the report as the
// partitioner or allocator fills it.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/FitVerdict.h"

#include <gtest/gtest.h>

using namespace lpx;
using namespace lpx::deploy;

namespace {
FitReport reportOf(lpx::FitFailure failure, unsigned chipsNeeded) {
  FitReport r;
  r.failure = failure;
  r.chipsNeeded = chipsNeeded;
  return r;
}
} // namespace

TEST(FitVerdict, ResidentDataThatDoNotFitNameTheirChips) {
  FitVerdict v = fitVerdict(reportOf(lpx::FitFailure::ResidentData, 48),
                            "model does not fit on 16 nodes");
  EXPECT_TRUE(v.doesNotFit);
  EXPECT_TRUE(v.outOfSram);
  EXPECT_TRUE(v.moreChipsMayHelp());
  EXPECT_EQ(v.chipsHint, 48u);
  EXPECT_EQ(v.message, "model does not fit on 16 nodes");
}

TEST(FitVerdict, NoChipCountHoldingThemIsNoHint) {
  FitVerdict v =
      fitVerdict(reportOf(lpx::FitFailure::NoChipCountHolds, 0), "");
  EXPECT_TRUE(v.doesNotFit);
  EXPECT_EQ(v.chipsHint, 0u);
}

TEST(FitVerdict, TheAllocatorRunningOutIsSramNotTheWeights) {
  FitVerdict v =
      fitVerdict(reportOf(lpx::FitFailure::ScheduleOutOfSram, 0), "");
  EXPECT_FALSE(v.doesNotFit); // coverage stops, decode tries more chips
  EXPECT_TRUE(v.outOfSram);
  EXPECT_TRUE(v.moreChipsMayHelp());
}

TEST(FitVerdict, OtherFailuresAreNotAboutFit) {
  // A message that says "SRAM" is not a misfit unless the report says so.
  FitVerdict v = fitVerdict(FitReport(), "argument 0 has no SRAM address");
  EXPECT_FALSE(v.doesNotFit);
  EXPECT_FALSE(v.outOfSram);
  EXPECT_FALSE(v.moreChipsMayHelp());
  EXPECT_EQ(v.chipsHint, 0u);
}
