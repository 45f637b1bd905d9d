//===- TimingTest.cpp - The cost model against hand derivations -----------===//
#include "lpx/isa/Timing.h"

#include <gtest/gtest.h>

using namespace lpx::isa;

namespace {

TensorDesc t(DType d, std::vector<int64_t> shape) { return {d, shape}; }

TEST(Timing, MatMulOnTspV1ByHand) {
  auto chip = loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(chip));
  // int8 [1,640] x [640,960]: 2 x 3 = 6 tiles of 320x320 over 4 planes ->
  // 2 rounds. Loading an int8 tile takes weight_load_cycles = 40; streaming
  // one activation row takes 1 cycle; busy = 40 + 2 * max(40, 1) = 120.
  Cost c = instructionCost(*chip, Opcode::MatMul,
                           {t(DType::I8, {1, 640}), t(DType::I8, {640, 960})},
                           t(DType::I32, {1, 960}));
  EXPECT_EQ(c.busy, 120u);
  // The result is complete after the MXM pipeline and the trip across the
  // chip's superlanes: 4 + 20 on tsp-v1.
  EXPECT_EQ(c.latency, chip->mxm.latency + chip->stream.transportCycles);
  EXPECT_EQ(c.latency, 24u);
  // fp16 [512,320] x [320,320]: one tile, 2-byte weights load in 80 cycles,
  // 512 rows at 4 cycles each stream in 2048: busy = 80 + 2048.
  c = instructionCost(*chip, Opcode::MatMul,
                      {t(DType::F16, {512, 320}), t(DType::F16, {320, 320})},
                      t(DType::F16, {512, 320}));
  EXPECT_EQ(c.busy, 80u + 2048u);
}

TEST(Timing, IntegerMatrixRateFollowsOperandWidth) {
  auto chip = loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(chip));
  // int8 [320,320] x [320,320] into int32: one tile, loaded in 40 cycles,
  // 320 rows at the int8 rate of 1 cycle: busy = 40 + max(40, 320) = 360.
  Cost c = instructionCost(*chip, Opcode::MatMul,
                           {t(DType::I8, {320, 320}), t(DType::I8, {320, 320})},
                           t(DType::I32, {320, 320}));
  EXPECT_EQ(c.busy, 360u);
  // The same product on operands widened to int32: 4-byte weights load in
  // 4 * 40 = 160 cycles and rows stream at the 32-bit rate of 16 cycles:
  // busy = 160 + max(160, 320 * 16) = 5280.
  c = instructionCost(*chip, Opcode::MatMul,
                      {t(DType::I32, {320, 320}), t(DType::I32, {320, 320})},
                      t(DType::I32, {320, 320}));
  EXPECT_EQ(c.busy, 5280u);
  // Conv [1,1,3,3] by [1,1,2,2] is a [4,4] x [4,1] matmul: int8 operands
  // give 40 + max(40, 4 * 1) = 80; int32 operands 160 + max(160, 4 * 16) =
  // 320.
  std::vector<int64_t> noAttrs;
  c = instructionCost(*chip, Opcode::Conv,
                      {t(DType::I8, {1, 1, 3, 3}), t(DType::I8, {1, 1, 2, 2})},
                      t(DType::I32, {1, 1, 2, 2}), noAttrs);
  EXPECT_EQ(c.busy, 80u);
  c = instructionCost(*chip, Opcode::Conv,
                      {t(DType::I32, {1, 1, 3, 3}), t(DType::I32, {1, 1, 2, 2})},
                      t(DType::I32, {1, 1, 2, 2}), noAttrs);
  EXPECT_EQ(c.busy, 320u);
}

TEST(Timing, VectorAndLinkOpsByHand) {
  auto chip = loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(chip));
  // 1x1000 f32 = 4000 bytes = 13 vectors (320 B); VXM 4 vectors/cycle ->
  // ceil(13/4) = 4 cycles; tanh takes 4 passes -> ceil(52/4) = 13.
  TensorDesc v = t(DType::F32, {1, 1000});
  EXPECT_EQ(instructionCost(*chip, Opcode::Add, {v, v}, v).busy, 4u);
  EXPECT_EQ(instructionCost(*chip, Opcode::Add, {v, v}, v).latency, 4u + 20u);
  EXPECT_EQ(instructionCost(*chip, Opcode::Tanh, {v}, v).busy, 13u);
  // Send of 4000 bytes: 13 flits of 328 bytes = 4264 wire bytes at 16.67
  // bytes/cycle = 255.8 -> 256 cycles on the link, then 216 of flight.
  Cost s = instructionCost(*chip, Opcode::Send, {v}, v);
  EXPECT_EQ(s.busy, 256u);
  EXPECT_EQ(s.latency, 216u);
}

} // namespace
