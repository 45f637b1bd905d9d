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

TEST(Timing, TopKAndScattersByHand) {
  auto chip = loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(chip));
  // 1x1000 f32 = 13 vectors. Top 3 along 1000: a bitonic sort of 1024 needs
  // 10 * 11 / 2 = 55 stages, 3 selection passes are fewer: ceil(13 * 3 / 4)
  // = 10 cycles on the VXM (4 vectors/cycle).
  TensorDesc x = t(DType::F32, {1, 1000});
  EXPECT_EQ(instructionCost(*chip, Opcode::TopK, {x}, t(DType::I64, {1, 3}),
                            {1, 3, 1, 1})
                .busy,
            10u);
  // Top 8 of 4: s = 2, 3 stages < 8 passes; 1x4 f32 is 1 vector ->
  // ceil(3 / 4) = 1 cycle.
  EXPECT_EQ(instructionCost(*chip, Opcode::TopK, {t(DType::F32, {1, 4})},
                            t(DType::I64, {1, 4}), {1, 8, 1, 1})
                .busy,
            1u);
  // Scatter of 1x1000 f32 data (13 vectors) with 1x100 i64 indices (800 B,
  // 3 vectors) and 1x100 f32 updates (400 B, 2 vectors): 18 vectors at 2
  // per cycle on the SXM = 9; an add reduction reads the 2 update-sized
  // vectors again: 20 / 2 = 10.
  TensorDesc i = t(DType::I64, {1, 100}), u = t(DType::F32, {1, 100});
  EXPECT_EQ(instructionCost(*chip, Opcode::ScatterElements, {x, i, u}, x,
                            {1, 0})
                .busy,
            9u);
  EXPECT_EQ(instructionCost(*chip, Opcode::ScatterElements, {x, i, u}, x,
                            {1, 1})
                .busy,
            10u);
  EXPECT_EQ(instructionCost(*chip, Opcode::ScatterND, {x, i, u}, x, {1}).busy,
            10u);
}

} // namespace
