//===- ChainingTest.cpp - The per-vector chaining rule by hand ------------===//
//
// isa::chainEarliest and isa::firstVectorReadEarly against the contract of
// docs/simulator.md ("Chaining"), and which opcodes stream on tsp-v1.
//
//===----------------------------------------------------------------------===//
#include "lpx/isa/Chaining.h"
#include "lpx/isa/ChipOverrides.h"

#include <gtest/gtest.h>

using namespace lpx::isa;

namespace {

ChipSpec tspV1(bool chaining) {
  auto chip = loadChipSpec("tsp-v1");
  EXPECT_TRUE(bool(chip));
  chip->stream.chaining = chaining;
  return *chip;
}

TEST(Chaining, WhichOpcodesStream) {
  const ChipSpec on = tspV1(true), off = tspV1(false);
  EXPECT_TRUE(streamsResult(on, Opcode::Relu));
  EXPECT_TRUE(streamsResult(on, Opcode::Conv));
  EXPECT_FALSE(streamsResult(on, Opcode::Softmax));
  EXPECT_FALSE(streamsResult(on, Opcode::Pool));
  EXPECT_FALSE(streamsResult(off, Opcode::Relu));
  // An add streams its same-size operands, not a broadcast bias; the MXM
  // takes its operands whole.
  EXPECT_TRUE(streamsOperand(on, Opcode::Add, 1000, 1000));
  EXPECT_FALSE(streamsOperand(on, Opcode::Add, 10, 1000));
  EXPECT_FALSE(streamsOperand(on, Opcode::MatMul, 1000, 1000));
  EXPECT_FALSE(streamsOperand(off, Opcode::Add, 1000, 1000));
}

// Producer issued at 100, busy 50 of which fill 10 (S_p = 40), latency 24,
// result of 8 vectors: vector i is available at 134 + 5 (i + 1).
const Emission kProducer{100, Cost{50, 24, 10}, true};

TEST(Chaining, SlowConsumerIsHeldByTheFirstVector) {
  // S_c = 80 >= 40: vector 0 is available at 139, read at issue.
  const Cost consumer{80, 4, 0};
  EXPECT_EQ(chainEarliest(8, kProducer, consumer, true), 139u);
  EXPECT_FALSE(firstVectorReadEarly(8, kProducer, 139, consumer, true));
  EXPECT_EQ(firstVectorReadEarly(8, kProducer, 138, consumer, true), 0u);
}

TEST(Chaining, FastConsumerIsHeldByTheLastVector) {
  // S_c = 8: vector j read at issue + j. Vector 7 is available at 174, so
  // issue >= 167; at 166 vector 7 is the first read too early (j = 6:
  // 172 >= 169).
  const Cost consumer{8, 4, 0};
  EXPECT_EQ(chainEarliest(8, kProducer, consumer, true), 167u);
  EXPECT_FALSE(firstVectorReadEarly(8, kProducer, 167, consumer, true));
  EXPECT_EQ(firstVectorReadEarly(8, kProducer, 166, consumer, true), 7u);
}

TEST(Chaining, UnlessBothStreamTheWholeResultIsWaitedFor) {
  const Cost consumer{8, 4, 0};
  const Emission whole{100, Cost{50, 24, 10}, false};
  EXPECT_EQ(chainEarliest(8, whole, consumer, true), 174u);
  EXPECT_EQ(chainEarliest(8, kProducer, consumer, false), 174u);
  EXPECT_EQ(firstVectorReadEarly(8, kProducer, 173, consumer, false), 0u);
  EXPECT_FALSE(firstVectorReadEarly(8, kProducer, 174, consumer, false));
}

} // namespace
