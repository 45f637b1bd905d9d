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
  // one activation row takes 1 cycle; the second tile installs while the
  // first streams, and the last streams alone: busy = 40 + max(40, 1) + 1
  // = 81.
  Cost c = instructionCost(*chip, Opcode::MatMul,
                           {t(DType::I8, {1, 640}), t(DType::I8, {640, 960})},
                           t(DType::I32, {1, 960}));
  EXPECT_EQ(c.busy, 81u);
  // The result is complete after the MXM pipeline and the trip across the
  // chip's superlanes: 4 + 20 on tsp-v1.
  EXPECT_EQ(c.latency, chip->mxm.latency + chip->stream.transportCycles);
  EXPECT_EQ(c.latency, 24u);
  // fp16 [512,320] x [320,320]: one weight tile, 2-byte weights install in
  // 80 cycles. One tile on 4 planes: each plane holds a copy and streams a
  // quarter of the 512 rows at 4 cycles each, 128 x 4 = 512: busy = 80 +
  // max(80, 512) = 592. (A^T as the stationary operand: 2 tiles of 320
  // columns, 2 planes each, 320 weight columns / 2 x 4 = 640: 720.)
  c = instructionCost(*chip, Opcode::MatMul,
                      {t(DType::F16, {512, 320}), t(DType::F16, {320, 320})},
                      t(DType::F16, {512, 320}));
  EXPECT_EQ(c.busy, 592u);
}

TEST(Timing, ConvTransposeByHand) {
  auto chip = loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(chip));
  // f32 x [1,320,10,10] by w [320,2,3,3] (group 1, stride 1): every input
  // position times W^T, [100, 320] x [320, 2*9 = 18]. Weights stationary:
  // one tile of 4-byte weights installed in 40 * 4 = 160 cycles on all 4
  // planes, 100 rows at 16 cycles split 4 ways = 400: 160 + 400 = 560.
  // Activations stationary (cheaper): x^T [320 x 100] is one tile, the 18
  // weight columns are split over 4 planes, ceil(18 / 4) = 5 vectors each
  // at 16 cycles: busy = 160 + 80 = 240 (no next tile to install).
  std::vector<int64_t> attrs = {1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0};
  Cost c = instructionCost(
      *chip, Opcode::ConvTranspose,
      {t(DType::F32, {1, 320, 10, 10}), t(DType::F32, {320, 2, 3, 3})},
      t(DType::F32, {1, 2, 12, 12}), attrs);
  EXPECT_EQ(c.busy, 240u);
  EXPECT_EQ(c.latency, 4u + 20u);
  // Group 2 over 640 channels: two independent products [100,320] x
  // [320, 9], each group's x^T one tile on 2 planes: ceil(9 / 2) = 5
  // columns x 16 cycles: busy = 160 + 80 = 240.
  attrs[0] = 2;
  c = instructionCost(
      *chip, Opcode::ConvTranspose,
      {t(DType::F32, {1, 640, 10, 10}), t(DType::F32, {640, 1, 3, 3})},
      t(DType::F32, {1, 2, 12, 12}), attrs);
  EXPECT_EQ(c.busy, 240u);
}

TEST(Timing, IntegerMatrixRateFollowsOperandWidth) {
  auto chip = loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(chip));
  // int8 [320,320] x [320,320] into int32: one tile, installed in 40
  // cycles on each of the 4 planes, which stream 320 / 4 = 80 rows each at
  // the int8 rate of 1 cycle: busy = 40 + 80 = 120.
  Cost c = instructionCost(*chip, Opcode::MatMul,
                           {t(DType::I8, {320, 320}), t(DType::I8, {320, 320})},
                           t(DType::I32, {320, 320}));
  EXPECT_EQ(c.busy, 120u);
  // The same product on operands widened to int32: 4-byte weights load in
  // 4 * 40 = 160 cycles and rows stream at the 32-bit rate of 16 cycles:
  // busy = 160 + 80 * 16 = 1440.
  c = instructionCost(*chip, Opcode::MatMul,
                      {t(DType::I32, {320, 320}), t(DType::I32, {320, 320})},
                      t(DType::I32, {320, 320}));
  EXPECT_EQ(c.busy, 1440u);
  // Conv [1,1,3,3] by [1,1,2,2] is a [4,4] x [4,1] matmul, a 4x1 tile
  // packed 80 times on the diagonal: the 4 rows fit one vector, which one
  // plane streams. int8 operands give 40 + 1 = 41; int32 operands 160 + 16
  // = 176.
  std::vector<int64_t> noAttrs;
  c = instructionCost(*chip, Opcode::Conv,
                      {t(DType::I8, {1, 1, 3, 3}), t(DType::I8, {1, 1, 2, 2})},
                      t(DType::I32, {1, 1, 2, 2}), noAttrs);
  EXPECT_EQ(c.busy, 41u);
  c = instructionCost(*chip, Opcode::Conv,
                      {t(DType::I32, {1, 1, 3, 3}), t(DType::I32, {1, 1, 2, 2})},
                      t(DType::I32, {1, 1, 2, 2}), noAttrs);
  EXPECT_EQ(c.busy, 176u);
}

TEST(Timing, MixedFp8ProductStreamsAtTheWiderRate) {
  auto chip = loadChipSpec("lpx3");
  ASSERT_TRUE(bool(chip));
  // fp8 x fp16 [320,320] x [320,320] on lpx3's 6 planes: the fp16 operand
  // sets the rate, 4 cycles a vector, in either order. One tile, copied
  // into the 6 planes, which stream ceil(320 / 6) = 54 vectors each: 216
  // cycles. Installing the fp8 operand takes 40 cycles, the fp16 one 80:
  // the fp8 operand is the stationary one, 40 + 216 = 256.
  for (auto [a, b] : {std::pair(DType::F8E4M3, DType::F16),
                      std::pair(DType::F16, DType::F8E4M3)}) {
    Cost c = instructionCost(*chip, Opcode::MatMul,
                             {t(a, {320, 320}), t(b, {320, 320})},
                             t(DType::F16, {320, 320}));
    EXPECT_EQ(c.busy, 256u);
  }
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
  // tsp-v1's 16 links less 4 global leave 12 for the 7 other chips of a
  // group: one link per pair.
  EXPECT_EQ(localLinksPerPeer(*chip), 1u);
}

// lpx3: 96 links per chip, 32 of them global; the other 64 join the 7
// other chips of a tray, 9 per pair (one spare). A send inside a group
// deals its flits out over the pair's 9 links of 14 bytes per cycle (one
// 112 Gb/s lane each); a global send has one link.
TEST(Timing, SendInsideAGroupUsesThePairsLinks) {
  auto chip = loadChipSpec("lpx3");
  ASSERT_TRUE(bool(chip));
  EXPECT_EQ(localLinksPerPeer(*chip), 9u);
  // 4096 fp16 values (a Llama-2-7B hidden state) = 8192 bytes = 26 flits:
  // ceil(26 / 9) = 3 per link, 3 x 328 / 14 = 70.3 -> 71 cycles, then 350
  // of flight. Over one link it would be 26 x 328 / 14 = 609.1 -> 610.
  TensorDesc h = t(DType::F16, {1, 1, 4096});
  Cost s = instructionCost(*chip, Opcode::Send, {h}, h);
  EXPECT_EQ(s.busy, 71u);
  EXPECT_EQ(s.latency, 350u);
  EXPECT_EQ(sendCost(*chip, 8192, {14.0, 350, 1}).busy, 610u);
  // One flit (a norm's scalar) takes one link: 328 / 14 = 23.4 -> 24.
  TensorDesc one = t(DType::F16, {1, 1, 1});
  EXPECT_EQ(instructionCost(*chip, Opcode::Send, {one}, one).busy, 24u);
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
  // [640,960] matmul's 6 tiles take 3 rounds: 40 + 2 * max(40, 1) + 1 =
  // 121.
  EXPECT_EQ(instructionCost(tspWith({{"mxm.queues", "2"}}), Opcode::MatMul,
                            {t(DType::I8, {1, 640}), t(DType::I8, {640, 960})},
                            t(DType::I32, {1, 960}))
                .busy,
            121u);
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

// A gather reads the slices its indices pick, not its table. lpx3: 320-byte
// vectors, the SXM takes 4 vectors per cycle, SRAM moves 176 x 2 x 426 =
// 149,952 bytes per cycle, latency 4 (sxm.latencies.gather) + 20 transport.
TEST(Timing, GatherReadsTheRowsItPicks) {
  auto chip = loadChipSpec("lpx3");
  ASSERT_TRUE(bool(chip));
  auto gatherBusy = [&](TensorDesc data, TensorDesc indices,
                        TensorDesc result, int64_t axis) {
    return instructionCost(*chip, Opcode::Gather, {data, indices}, result,
                           std::vector<int64_t>{axis})
        .busy;
  };
  // Llama-2-7B's embedding, one of 8 column blocks: [32000, 512] fp16
  // (32,768,000 bytes), one token. The index picks one 1024-byte row: 4
  // vectors (1280 bytes read), the result is 4 vectors, the index 1:
  // ceil(4 / 4) = 1 cycle; SRAM (1280 + 8 + 1024) / 149,952 -> 1.
  // Streaming the table would be 102,400 vectors: 25,600 cycles.
  TensorDesc table = t(DType::F16, {32000, 512});
  TensorDesc token = t(DType::I64, {1, 1});
  EXPECT_EQ(gatherReadBytes(*chip, table, token, 0), 1280u);
  EXPECT_EQ(gatherBusy(table, token, t(DType::F16, {1, 1, 512}), 0), 1u);
  EXPECT_EQ(instructionCost(*chip, Opcode::Gather, {table, token},
                            t(DType::F16, {1, 1, 512}), std::vector<int64_t>{0})
                .latency,
            24u);
  // 128 prompt tokens: 128 rows of 4 vectors = 512 vectors, / 4 = 128.
  EXPECT_EQ(gatherBusy(table, t(DType::I64, {1, 128}),
                       t(DType::F16, {1, 128, 512}), 0),
            128u);
  // More rows than the table holds vectors: [64, 8] f32 is 2048 bytes
  // (7 vectors); 100 indices would read 100 vectors, so the table streams
  // once. The result [100, 8] f32 (3200 bytes) is the largest stream, 10
  // vectors: ceil(10 / 4) = 3.
  TensorDesc small = t(DType::F32, {64, 8});
  EXPECT_EQ(gatherReadBytes(*chip, small, t(DType::I64, {100}), 0), 2048u);
  EXPECT_EQ(gatherBusy(small, t(DType::I64, {100}), t(DType::F32, {100, 8}), 0),
            3u);
  // Along an inner axis each outer row gives its own slices: [4, 1000]
  // f16, 2 indices along axis 1: 4 x 2 slices of one element, a vector
  // each: 8 vectors (2560 bytes, against the table's 8000), 2 cycles.
  TensorDesc wide = t(DType::F16, {4, 1000});
  EXPECT_EQ(gatherReadBytes(*chip, wide, t(DType::I64, {2}), 1), 2560u);
  EXPECT_EQ(gatherBusy(wide, t(DType::I64, {2}), t(DType::F16, {4, 2}), 1),
            2u);
}

// A slice reads the vectors that hold its selection, not its source. lpx3:
// 320-byte vectors, the SXM takes 4 vectors per cycle, SRAM moves 149,952
// bytes per cycle (above).
TEST(Timing, SliceReadsTheVectorsOfItsSelection) {
  auto chip = loadChipSpec("lpx3");
  ASSERT_TRUE(bool(chip));
  auto slice = [&](TensorDesc data, TensorDesc result,
                   std::vector<int64_t> starts, std::vector<int64_t> steps) {
    pb::Attributes a;
    for (int64_t x : starts)
      a.mutable_slice()->add_starts(x);
    for (int64_t x : steps)
      a.mutable_slice()->add_steps(x);
    return std::make_pair(
        sliceReadBytes(*chip, data, result, starts, steps),
        instructionCost(*chip, Opcode::Slice, {data}, result, a).busy);
  };
  // A resident key cache [1, 4, 128, 2048] f16 (2,097,152 bytes, 6,554
  // vectors), a 32-token chunk's positions 0..32 of each of its 512 rows:
  // a run of 64 bytes per row, the rows 4096 bytes apart (not whole
  // vectors), so up to 2 vectors a run: 1,024 vectors (327,680 bytes), /
  // 4 = 256 cycles; the result is 103 vectors. Streaming the cache: 1,639.
  auto [keyRead, keyBusy] = slice(t(DType::F16, {1, 4, 128, 2048}),
                                  t(DType::F16, {1, 4, 128, 32}),
                                  {0, 0, 0, 0}, {1, 1, 1, 1});
  EXPECT_EQ(keyRead, 327680u);
  EXPECT_EQ(keyBusy, 256u);
  // The value cache [1, 4, 2048, 128] f16, positions 0..64: per head one
  // run of 64 x 128 x 2 = 16,384 bytes (51.2 vectors), heads 524,288
  // bytes apart (not whole vectors): 53 vectors each, 212 (67,840 bytes),
  // / 4 = 53 cycles.
  auto [valueRead, valueBusy] = slice(t(DType::F16, {1, 4, 2048, 128}),
                                      t(DType::F16, {1, 4, 64, 128}),
                                      {0, 0, 0, 0}, {1, 1, 1, 1});
  EXPECT_EQ(valueRead, 67840u);
  EXPECT_EQ(valueBusy, 53u);
  // Aligned runs touch no extra vector: [4, 640] f32 rows are 2,560 bytes
  // (8 vectors); columns 160..320 are 640 bytes at offset 640, 2 vectors a
  // row: 8 vectors (2,560 bytes), 2 cycles.
  auto [alignedRead, alignedBusy] = slice(
      t(DType::F32, {4, 640}), t(DType::F32, {4, 160}), {0, 160}, {1, 1});
  EXPECT_EQ(alignedRead, 2560u);
  EXPECT_EQ(alignedBusy, 2u);
  // Every other row of [8, 640] f32: 4 runs of a whole row (8 vectors,
  // 5,120 bytes apart): 32 vectors, 8 cycles.
  auto [stridedRead, stridedBusy] = slice(
      t(DType::F32, {8, 640}), t(DType::F32, {4, 640}), {0, 0}, {2, 1});
  EXPECT_EQ(stridedRead, 10240u);
  EXPECT_EQ(stridedBusy, 8u);
  // Taking everything streams the source: [10, 10] f32, 400 bytes (2
  // vectors), 1 cycle.
  auto [wholeRead, wholeBusy] = slice(t(DType::F32, {10, 10}),
                                      t(DType::F32, {10, 10}), {0, 0}, {1, 1});
  EXPECT_EQ(wholeRead, 400u);
  EXPECT_EQ(wholeBusy, 1u);
}

// The matrix-unit mapping (MxmCost.cpp) on tsp-v1, from the description: 4
// planes of 320x320, an int8 tile installs in 40 cycles (x2 for 16-bit), a
// plane streams one int8 vector per cycle (16-bit: one per 4 cycles), SRAM
// moves 88 x 2 x 320 = 56,320 bytes per cycle, latency 4 + 20 transport.
TEST(Timing, MatrixUnitMappingByHand) {
  auto chip = loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(chip));
  std::vector<int64_t> noAttrs;
  // 3x3 conv, 64 -> 64 channels, 56x56 (pad 1): im2col [3136, 576] x
  // [576, 64]. Weights stationary: 2 tiles (K 576 = 320 + 256, 64 columns),
  // each on 2 planes streaming 3136 / 2 = 1568 rows: 40 + 1568 = 1608.
  // Activations stationary: x^T [576 x 3136] is 2 x 10 = 20 tiles, 5 rounds
  // on 4 planes, each streaming the 64 weight columns (more than the 40 of
  // an install): 40 + 5 * 64 = 360. SRAM: (200,704 + 36,864 + 802,816
  // int32) / 56,320 = 19 cycles, below. 115.6 M MACs / 409,600 = 282
  // cycles at peak: 78% of the array.
  TensorDesc x64 = t(DType::I8, {1, 64, 56, 56}),
             w64 = t(DType::I8, {64, 64, 3, 3}),
             y64 = t(DType::I32, {1, 64, 56, 56});
  Cost c = instructionCost(*chip, Opcode::Conv, {x64, w64}, y64, noAttrs);
  EXPECT_EQ(c.busy, 360u);
  EXPECT_EQ(c.latency, 24u);
  // The same with only the weights stationary (a study's switch).
  EXPECT_EQ(instructionCost(tspWith({{"mxm.either_operand_stationary",
                                      "false"}}),
                            Opcode::Conv, {x64, w64}, y64, noAttrs)
                .busy,
            1608u);
  // 3x3 conv, 512 -> 512 channels, 7x7: [49, 4608] x [4608, 512]. Weights
  // stationary: 15 x 2 = 30 tiles, 8 rounds on 4 planes of max(40, 49
  // rows): 40 + 8 * 49 = 432. (Activations stationary: 15 tiles, 4 rounds
  // of 512 weight columns: 2088.) SRAM: 2,484,736 / 56,320 = 45.
  Cost c512 = instructionCost(
      *chip, Opcode::Conv,
      {t(DType::I8, {1, 512, 7, 7}), t(DType::I8, {512, 512, 3, 3})},
      t(DType::I32, {1, 512, 7, 7}), noAttrs);
  EXPECT_EQ(c512.busy, 432u);
  // 1x1 conv, 64 -> 64, 56x56: a 64x64 weight tile is packed 5 times on
  // the diagonal (320 / 64), each vector carries 5 rows: 3136 / 5 = 628
  // vectors, one tile on 4 planes: 40 + max(40, 157) = 197. (Activations
  // stationary: 10 tiles of 64 x 320 positions, 3 rounds of 64 columns:
  // 232.)
  EXPECT_EQ(instructionCost(*chip, Opcode::Conv,
                            {x64, t(DType::I8, {64, 64, 1, 1})}, y64, noAttrs)
                .busy,
            197u);
  // [1, 4096] x [4096, 4096] int8: 13 x 13 = 169 weight tiles, 43 rounds
  // on 4 planes, each bound by the 40-cycle install of the next tile (one
  // row streams in 1) but the last, which streams alone: 40 + 42 * 40 + 1
  // = 1721. (Activations stationary: 13 tiles of one column, 4 rounds of
  // 4096 weight columns: 40 + 3 * 4096 + 4096 = 16,424.) SRAM: 16,797,696
  // / 56,320 = 299.
  TensorDesc w = t(DType::I8, {4096, 4096});
  EXPECT_EQ(instructionCost(*chip, Opcode::MatMul, {t(DType::I8, {1, 4096}), w},
                            t(DType::I32, {1, 4096}))
                .busy,
            1721u);
  // The same at 128 rows: 42 rounds of max(40, 128) and the last one's
  // 128: 40 + 43 * 128 = 5544
  // (peak: 128 x 4096 x 4096 / 409,600 = 5243 cycles).
  EXPECT_EQ(instructionCost(*chip, Opcode::MatMul,
                            {t(DType::I8, {128, 4096}), w},
                            t(DType::I32, {128, 4096}))
                .busy,
            5544u);
  // And in fp16: installs take 80 cycles, a row 4: 80 + 43 * 512 = 22,096.
  EXPECT_EQ(instructionCost(*chip, Opcode::MatMul,
                            {t(DType::F16, {128, 4096}),
                             t(DType::F16, {4096, 4096})},
                            t(DType::F16, {128, 4096}))
                .busy,
            22096u);
  // Fewer tiles than planes: [1283, 320] x [320, 320] fp16 is one tile,
  // installed (80 cycles) in all 4 planes, which split the 1283 vectors
  // whole: 321 each at 4 cycles, 80 + 1284 = 1364 (a vector goes through
  // one plane; splitting cycles instead would give 80 + 1283). Activations
  // stationary: 5 tiles, 2 rounds: 80 + 1280 + 1280 = 2640.
  EXPECT_EQ(instructionCost(*chip, Opcode::MatMul,
                            {t(DType::F16, {1283, 320}),
                             t(DType::F16, {320, 320})},
                            t(DType::F16, {1283, 320}))
                .busy,
            1364u);
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
