//===- FitFailureTest.cpp - The one reader of the compiler's fit prose ----===//
//
// The messages are the partitioner's and the allocator's formats
// (compiler/lib/Transforms/Partition.cpp, AllocateSram.cpp) with numbers
// filled in; EvaluateTest checks the classifier on a real compile's.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/FitFailure.h"

#include <gtest/gtest.h>

using namespace lpx::deploy;

TEST(FitFailure, ThePartitionersCountIsTheHint) {
  FitFailure f = classifyCompileFailure(
      "model does not fit on 1 node of 'tsp-v1': node 0 would hold 148064 "
      "bytes of weights and 1024 bytes of program inputs and outputs in "
      "65536 bytes of SRAM (in all 148064 bytes of weights, 1024 of inputs "
      "and outputs); 4 nodes would hold them");
  EXPECT_TRUE(f.doesNotFit);
  EXPECT_TRUE(f.outOfSram); // the message names SRAM too
  EXPECT_TRUE(f.moreChipsMayHelp());
  EXPECT_EQ(f.chipsHint, 4u);
}

TEST(FitFailure, AMeshsCountNamesItsStages) {
  FitFailure f = classifyCompileFailure(
      "model does not fit on 16 nodes of 'lpx3' as tp 8 x pp 2: node 3 "
      "would hold 9 bytes of weights and 1 bytes of program inputs and "
      "outputs in 8 bytes of SRAM (in all 90 bytes); 48 nodes would hold "
      "them (tp 8 x pp 6)");
  EXPECT_TRUE(f.doesNotFit);
  EXPECT_EQ(f.chipsHint, 48u);
}

TEST(FitFailure, NoCountNamedIsNoHint) {
  FitFailure f = classifyCompileFailure(
      "model does not fit on 8 nodes of 'lpx3' as tp 8 x pp 1: node 0 would "
      "hold 9 bytes ...; no count of stages of 8 chips up to the topology's "
      "maximum of 264 chips holds them");
  EXPECT_TRUE(f.doesNotFit);
  EXPECT_EQ(f.chipsHint, 0u);
}

TEST(FitFailure, TheAllocatorRunningOutIsSramNotTheWeights) {
  FitFailure f = classifyCompileFailure(
      "node 2 is out of SRAM: 4096 more bytes needed with 60000 of 65536 in "
      "use");
  EXPECT_FALSE(f.doesNotFit); // coverage stops here
  EXPECT_TRUE(f.outOfSram);   // decode tries more chips
  EXPECT_TRUE(f.moreChipsMayHelp());
  EXPECT_EQ(f.chipsHint, 0u);
}

TEST(FitFailure, OtherFailuresAreNotAboutFit) {
  FitFailure f = classifyCompileFailure(
      "node 'Foo_0' (Foo): unsupported operator Foo (domain '', opset 13)");
  EXPECT_FALSE(f.moreChipsMayHelp());
  EXPECT_EQ(f.chipsHint, 0u);
  EXPECT_EQ(f.message,
            "node 'Foo_0' (Foo): unsupported operator Foo (domain '', opset 13)");
}

TEST(FitFailure, AnOverflowingCountIsNoHint) {
  FitFailure f = classifyCompileFailure(
      "model does not fit on 1 node: ...; 99999999999 nodes would hold them");
  EXPECT_EQ(f.chipsHint, 0u);
}
