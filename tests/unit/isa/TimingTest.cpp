//===- TimingTest.cpp - The cost model against hand derivations -----------===//
#include "lpx/isa/Timing.h"
#include "lpx/isa/ChipOverrides.h"
#include "lpx/isa/ElementwiseFunctions.h"

#include "lpx/test/Attributes.h"
#include <gtest/gtest.h>

using namespace lpx::isa;

namespace {

TensorDesc t(DType d, std::vector<int64_t> shape) { return {d, shape}; }

/// The cost with the attributes as a flat list (test::attributesFromList).
using lpx::isa::instructionCost;
Cost instructionCost(const ChipSpec &chip, Opcode op,
                     const std::vector<TensorDesc> &operands,
                     const TensorDesc &result,
                     const std::vector<int64_t> &attrs) {
  return lpx::isa::instructionCost(
      chip, op, operands, result, lpx::test::attributesFromList(op, attrs));
}

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
  // 1x1000 f32 = 4000 bytes = 13 vectors (320 B, 1-byte lanes); VXM 4
  // vectors/cycle -> ceil(13/4) = 4 cycles. Tanh takes 4 passes: 16 ALUs
  // per lane carry 16/4 = 4 vectors per cycle, no fewer than the streams
  // bring, so also 4.
  TensorDesc v = t(DType::F32, {1, 1000});
  EXPECT_EQ(instructionCost(*chip, Opcode::Add, {v, v}, v).busy, 4u);
  EXPECT_EQ(instructionCost(*chip, Opcode::Add, {v, v}, v).latency, 4u + 20u);
  EXPECT_EQ(instructionCost(*chip, Opcode::Tanh, {v}, v).busy, 4u);
  // Send of 4000 bytes: 13 flits of 328 bytes = 4264 wire bytes over 4
  // lanes of 4.1667 bytes/cycle = 16.6668: 255.8 -> 256 cycles on the link,
  // then 216 of flight.
  Cost s = instructionCost(*chip, Opcode::Send, {v}, v);
  EXPECT_EQ(s.busy, 256u);
  EXPECT_EQ(s.latency, 216u);
}

/// tsp-v1 with `key=value` applied.
ChipSpec tspWith(std::initializer_list<std::pair<std::string, std::string>> kv) {
  auto chip = loadChipSpec("tsp-v1");
  EXPECT_TRUE(bool(chip));
  std::vector<std::pair<std::string, std::string>> settings(kv);
  if (auto err = applyOverrides(*chip, settings))
    ADD_FAILURE() << llvm::toString(std::move(err));
  return *chip;
}

TEST(Timing, DescriptionKnobsByHand) {
  TensorDesc v = t(DType::F32, {1, 1000});
  // ALUs: with 8 ALUs per lane a 4-pass tanh runs 8/4 = 2 vectors per
  // cycle: ceil(13 * 4 / 8) = 7 cycles (the streams alone would allow 4).
  EXPECT_EQ(instructionCost(tspWith({{"vxm.alus_per_lane", "8"}}),
                            Opcode::Tanh, {v}, v)
                .busy,
            7u);
  // Per-operation latency: exp is listed, erf is not (it takes
  // vxm.latency); both are streamed across the chip (20 cycles).
  ChipSpec perOp = tspWith({{"vxm.latencies.exp", "9"}, {"vxm.latency", "3"},
                            {"sxm.latencies.transpose", "11"}});
  const int64_t exp = int64_t(*unaryFnFromMnemonic("exp"));
  const int64_t erf = int64_t(*unaryFnFromMnemonic("erf"));
  EXPECT_EQ(instructionCost(perOp, Opcode::Unary, {v}, v, {exp}).latency,
            9u + 20u);
  EXPECT_EQ(instructionCost(perOp, Opcode::Unary, {v}, v, {erf}).latency,
            3u + 20u);
  EXPECT_EQ(instructionCost(perOp, Opcode::Transpose, {v}, v, {1, 0}).latency,
            11u + 20u);
  // An operation the preset does not list gets its own line, and a unit
  // without a table (mem) gets the table too.
  EXPECT_EQ(instructionCost(tspWith({{"vxm.latencies.erf", "5"}}),
                            Opcode::Unary, {v}, v, {erf})
                .latency,
            5u + 20u);
  EXPECT_EQ(instructionCost(tspWith({{"mem.latencies.copy", "2"}}),
                            Opcode::Copy, {v}, v)
                .latency,
            2u + 20u);
  // Lanes: 80 lanes of 4 bytes. A 1x1000 f16 tensor is 2000 bytes (7
  // vectors), but each 2-byte element takes a whole 4-byte lane: 1000 / 80
  // = 12.5 -> 13 lane-vectors at 4 per cycle = 4 cycles. With 320 one-byte
  // lanes the same add takes ceil(7 / 4) = 2.
  TensorDesc h = t(DType::F16, {1, 1000});
  EXPECT_EQ(instructionCost(tspWith({{"vector.lanes", "80"}}), Opcode::Add,
                            {h, h}, h)
                .busy,
            4u);
  EXPECT_EQ(instructionCost(tspWith({}), Opcode::Add, {h, h}, h).busy, 2u);
  // SRAM ports: 1 byte per bank per cycle x 176 banks = 176 bytes/cycle;
  // an f32 add reads 2 x 4000 and writes 4000 bytes: ceil(12000 / 176) = 69.
  EXPECT_EQ(instructionCost(tspWith({{"sram.bytes_per_cycle_per_bank", "1"}}),
                            Opcode::Add, {v, v}, v)
                .busy,
            69u);
  // MXM queues: 2 queues share the 4 planes, 2 each. The int8 [1,640] x
  // [640,960] matmul's 6 tiles take 3 rounds: 40 + 3 * max(40, 1) = 160.
  EXPECT_EQ(instructionCost(tspWith({{"mxm.queues", "2"}}), Opcode::MatMul,
                            {t(DType::I8, {1, 640}), t(DType::I8, {640, 960})},
                            t(DType::I32, {1, 960}))
                .busy,
            160u);
  // Link lanes: 2 lanes of 4.1667 = 8.3334 bytes/cycle; 4264 wire bytes
  // take 511.7 -> 512 cycles.
  EXPECT_EQ(instructionCost(tspWith({{"link.lanes", "2"}}), Opcode::Send, {v},
                            v)
                .busy,
            512u);
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

TEST(Timing, GridSampleGathersItsTapsPerResultVector) {
  auto chip = loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(chip));
  // X 1x1x40x40 f32 (only read through the taps), grid 1x20x20x2 f32 =
  // 3200 B = 10 vectors, result 1x1x20x20 f32 = 1600 B = 5 vectors. The SXM
  // streams the grid once and, per result vector, gathers the taps and
  // writes it: bilinear 5 * (4 + 1) + 10 = 35 vectors at 2 per cycle ->
  // 18; nearest 5 * 2 + 10 = 20 -> 10; bicubic 5 * 17 + 10 = 95 -> 48.
  TensorDesc x = t(DType::F32, {1, 1, 40, 40}), g = t(DType::F32, {1, 20, 20, 2}),
             r = t(DType::F32, {1, 1, 20, 20});
  EXPECT_EQ(instructionCost(*chip, Opcode::GridSample, {x, g}, r, {0, 0, 0}).busy,
            18u);
  EXPECT_EQ(instructionCost(*chip, Opcode::GridSample, {x, g}, r, {1, 0, 0}).busy,
            10u);
  EXPECT_EQ(instructionCost(*chip, Opcode::GridSample, {x, g}, r, {2, 0, 0}).busy,
            48u);
}

} // namespace

TEST(Timing, StateWriteMovesOnlyTheUpdate) {
  auto chip = loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(chip));
  // A Llama-7B layer's K cache on one chip: f32 [1, 8, 2048, 128] = 8 MiB.
  // The new position's entry [1, 8, 1, 128] is 4096 bytes = 13 vectors of
  // 320 bytes; MEM streams 8 per cycle: ceil(13 / 8) = 2 cycles. The SRAM
  // floor (4096 read + 4096 written + 8 bytes of position over 88 x 2 x 320
  // bytes per cycle) is 1. Latency: MEM's 5 plus 20 of transport.
  TensorDesc state = t(DType::F32, {1, 8, 2048, 128});
  TensorDesc update = t(DType::F32, {1, 8, 1, 128});
  Cost c = instructionCost(*chip, Opcode::StateWrite,
                           {update, t(DType::I64, {1, 1})}, state, {2});
  EXPECT_EQ(c.busy, 2u);
  EXPECT_EQ(c.latency, 5u + 20u);
}
