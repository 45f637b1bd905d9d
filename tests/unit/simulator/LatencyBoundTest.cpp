//===- LatencyBoundTest.cpp - The bound one request meets on its stages ---===//
//
// Figures derived by hand from the test chip (lpx/test/TestChip.h): with
// 16-bit operands the MXM does 2 * 64 * 64 / 2 = 4096 MACs per cycle, and
// operand elements enter it at 2 * 64 * 64 / 10 = 819.2 per cycle installed
// plus 2 * 64 / 2 = 64 per cycle streamed (883.2 in all); SRAM delivers
// 256 * 2 * 320 = 163840 bytes per cycle; one hop flies 50 cycles. A chip
// may hold one MXM load before the request: its entry takes
// weight_load_cycles = 10 cycles and its 8192 elements * 4 bytes take
// 0.2 cycles of SRAM, taken off each chip's terms.
//
//===----------------------------------------------------------------------===//
#include "ProgramBuilder.h"

#include "lpx/sim/LatencyBound.h"

#include <cmath>

namespace {

using namespace lpx;
using namespace lpx::sim;
using namespace lpx::sim::test;
using isa::DType;
using isa::Opcode;

constexpr double kMacs16 = 4096;
constexpr double kEntry16 = 2.0 * 64 * 64 / 10 + 2.0 * 64 / 2; // 883.2
constexpr double kSram = 163840;
constexpr double kPreloadEntry = chip::kMxmWeightLoad;
constexpr double kPreloadSram = 2.0 * 64 * 64 * 4 / kSram;

/// One product's cycles at the peaks: MACs or operand entry, the larger.
double product(double rows, double k, double n) {
  return std::max(rows * k * n / kMacs16, (rows * k + k * n) / kEntry16);
}

/// Two stages of one chip each (tp 1 x pp 2): node 0 multiplies x [rows,
/// 512] by its weight [512, 256], sends the result to node 1, which
/// multiplies it by its weight [256, 512] into the output. fp16 throughout.
isa::pb::Program &twoStages(ProgramBuilder &b, int64_t rows) {
  uint32_t x = b.input("x", DType::F16, {rows, 512});
  uint32_t w0 = b.buffer("w0", DType::F16, {512, 256}, isa::pb::CONSTANT);
  uint32_t h = b.buffer("h", DType::F16, {rows, 256});
  uint32_t h1 = b.buffer("h@1", DType::F16, {rows, 256}, isa::pb::TEMP, 1);
  uint32_t w1 =
      b.buffer("w1", DType::F16, {256, 512}, isa::pb::CONSTANT, 1);
  uint32_t y = b.output("y", DType::F16, {rows, 512}, 1);
  b.inst(Opcode::MatMul, {x, w0}, h);
  b.send(h, h1, 0, 1);
  b.inst(Opcode::MatMul, {h1, w1}, y, {}, 1);
  b.proto().set_tp(1);
  b.proto().set_pp(2);
  return b.proto();
}

// One token: each stage does all its work for it, one after the other.
// Stage 0: max(131072 MACs / 4096, (512 + 131072) / 883.2) = 148.99 cycles
// of entry, less the preloaded 10; its SRAM (x 1024 + w0 262144 bytes) is
// 1.6 cycles. Its weights alone enter in 131072 / 883.2 - 10. Stage 1 alike
// with 256 + 131072 elements. The bound is the larger of stage 0's work
// plus stage 1's weights and the other way round, plus one 50-cycle hop.
TEST(LatencyBoundTest, OneTokenCrossesTheStagesOneAfterTheOther) {
  ProgramBuilder b(2);
  twoStages(b, 1);
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(loadAndSimulate(b, prog, r));
  const LatencyBound &l = r.latency;
  ASSERT_EQ(l.stages.size(), 2u);
  const double work0 = product(1, 512, 256) - kPreloadEntry;
  const double work1 = product(1, 256, 512) - kPreloadEntry;
  const double weights = 512.0 * 256 / kEntry16 - kPreloadEntry;
  EXPECT_DOUBLE_EQ(l.stages[0].workCycles, work0);
  EXPECT_DOUBLE_EQ(l.stages[1].workCycles, work1);
  EXPECT_DOUBLE_EQ(l.stages[0].passCycles, weights);
  EXPECT_DOUBLE_EQ(l.stages[1].passCycles, weights);
  EXPECT_DOUBLE_EQ(l.stages[0].sramCycles,
                   (1024.0 + 262144) / kSram - kPreloadSram);
  EXPECT_EQ(l.hopCycles, uint64_t(chip::kLinkLatency));
  EXPECT_EQ(l.busiestStage, 0u); // stage 0 streams 512 more elements
  EXPECT_EQ(l.cycles,
            uint64_t(std::ceil(work0 + weights)) + chip::kLinkLatency);
  // No schedule of one token beats it, and the simulated one does not.
  EXPECT_GE(r.totalCycles, l.cycles);
  EXPECT_DOUBLE_EQ(r.latencyEfficiency,
                   double(l.cycles) / double(r.totalCycles));
  EXPECT_EQ(r.latencyGap.serialLatency + r.latencyGap.linkTime +
                r.latencyGap.idleUnits,
            r.totalCycles - l.cycles);
}

// 256 rows (a prompt): 256 * 512 * 256 MACs take 8192 cycles per stage.
// Rows may flow through the stages as chunks, so the bound is not the sum
// of both stages' work: the first chunk crosses stage 0 with at least its
// weights entering once, stage 1 then does all its work (or the other way
// round), one hop between.
TEST(LatencyBoundTest, APromptsRowsMayFlowThroughTheStages) {
  ProgramBuilder b(2);
  twoStages(b, 256);
  auto loaded = b.load();
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  const LatencyBound l = computeLatencyBound(*loaded);
  const double work = 256.0 * 512 * 256 / kMacs16 - kPreloadEntry;
  const double weights = 512.0 * 256 / kEntry16 - kPreloadEntry;
  EXPECT_DOUBLE_EQ(l.stages[0].workCycles, work);
  EXPECT_DOUBLE_EQ(l.stages[1].workCycles, work);
  EXPECT_EQ(l.cycles, uint64_t(std::ceil(work + weights)) + chip::kLinkLatency);
  EXPECT_LT(l.cycles, uint64_t(2 * work)); // not the sum of the stages
}

// A weight cast before its product still has to enter the MXM once: the
// weights a pass needs are the constants that reach a product through any
// chain of instructions, here fp32 [512, 256] cast to fp16.
TEST(LatencyBoundTest, AWeightCastBeforeItsProductStillEntersOnce) {
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::F16, {1, 512});
  uint32_t w = b.buffer("w", DType::F32, {512, 256}, isa::pb::CONSTANT);
  uint32_t w16 = b.buffer("w16", DType::F16, {512, 256});
  uint32_t y = b.output("y", DType::F16, {1, 256});
  b.inst(Opcode::Cast, {w}, w16);
  b.inst(Opcode::MatMul, {x, w16}, y);
  auto loaded = b.load();
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  const LatencyBound l = computeLatencyBound(*loaded);
  ASSERT_EQ(l.stages.size(), 1u);
  // Entry: 131072 fp32 elements at the fp32 entry rate (installed 819.2
  // plus 2 * 64 / 4 = 32 streamed); SRAM: its 524288 bytes. The entry is
  // larger.
  const double entry32 = 2.0 * 64 * 64 / 10 + 2.0 * 64 / 4;
  EXPECT_DOUBLE_EQ(l.stages[0].passCycles,
                   512.0 * 256 / entry32 - kPreloadEntry);
  EXPECT_EQ(l.hopCycles, 0u);
}

// Without a mesh every chip of the program is one stage, and the stage's
// terms are those of its busiest chip: here node 1, whose product is twice
// node 0's.
TEST(LatencyBoundTest, WithoutAMeshTheProgramIsOneStageOfItsBusiestChip) {
  ProgramBuilder b(2);
  uint32_t x = b.input("x", DType::F16, {1, 512});
  uint32_t w0 = b.buffer("w0", DType::F16, {512, 256}, isa::pb::CONSTANT);
  uint32_t y0 = b.output("y0", DType::F16, {1, 256});
  uint32_t x1 = b.buffer("x@1", DType::F16, {1, 512}, isa::pb::TEMP, 1);
  uint32_t w1 = b.buffer("w1", DType::F16, {512, 512}, isa::pb::CONSTANT, 1);
  uint32_t y1 = b.output("y1", DType::F16, {1, 512}, 1);
  b.inst(Opcode::MatMul, {x, w0}, y0);
  b.send(x, x1, 0, 1);
  b.inst(Opcode::MatMul, {x1, w1}, y1, {}, 1);
  auto loaded = b.load();
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  const LatencyBound l = computeLatencyBound(*loaded);
  ASSERT_EQ(l.stages.size(), 1u);
  EXPECT_EQ(l.stages[0].nodes, 2u);
  EXPECT_DOUBLE_EQ(l.stages[0].workCycles,
                   product(1, 512, 512) - kPreloadEntry);
  EXPECT_EQ(l.hopCycles, 0u);
}

TEST(LatencyBoundTest, AnEmptyProgramHasNoBound) {
  ProgramBuilder b;
  b.input("x", DType::F16, {1, 8});
  auto loaded = b.load();
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  EXPECT_EQ(computeLatencyBound(*loaded).cycles, 0u);
}

} // namespace
