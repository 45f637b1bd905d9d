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

TEST(Timing, ConvTransposeByHand) {
  auto chip = loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(chip));
  // f32 x [1,320,10,10] by w [320,2,3,3] (group 1, stride 1): every input
  // position times W^T, [100, 320] x [320, 2*9 = 18]: one 320x320 tile of
  // 4-byte weights, loaded in 40 * 4 = 160 cycles, then 100 rows at 16
  // cycles each = 1600: busy = 160 + max(160, 1600) = 1760.
  std::vector<int64_t> attrs = {1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0};
  Cost c = instructionCost(
      *chip, Opcode::ConvTranspose,
      {t(DType::F32, {1, 320, 10, 10}), t(DType::F32, {320, 2, 3, 3})},
      t(DType::F32, {1, 2, 12, 12}), attrs);
  EXPECT_EQ(c.busy, 1760u);
  EXPECT_EQ(c.latency, 4u + 20u);
  // Group 2 over 640 channels: two such matmuls ([100,320] x [320, 9]).
  attrs[0] = 2;
  c = instructionCost(
      *chip, Opcode::ConvTranspose,
      {t(DType::F32, {1, 640, 10, 10}), t(DType::F32, {640, 1, 3, 3})},
      t(DType::F32, {1, 2, 12, 12}), attrs);
  EXPECT_EQ(c.busy, 2u * 1760u);
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
