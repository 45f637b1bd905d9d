//===- PhysicalBoundTest.cpp - The bounds from the work and the peaks -----===//
//
// Figures derived by hand from the test chip (lpx/test/TestChip.h): the MXM
// does planes * rows * cols = 2 * 64 * 64 = 8192 MACs per cycle at the int8
// rate and half that (cycles_per_vector_16bit = 2) with 16-bit operands;
// SRAM delivers 256 slices * 2 banks * one 320-byte vector = 163840 bytes
// per cycle; each chip has 4 links of 8 bytes per cycle and 50 cycles of
// flight per hop.
//
// The latency bound's tests (LatencyBound.h) use the same chip: with 16-bit
// operands elements enter the MXM at 2 * 64 * 64 / 10 = 819.2 per cycle
// installed plus 2 * 64 / 2 = 64 per cycle streamed (883.2 in all). A chip
// may hold one MXM load before the request: its entry takes
// weight_load_cycles = 10 cycles and its 8192 elements * 4 bytes take
// 0.2 cycles of SRAM, taken off each chip's terms.
//
//===----------------------------------------------------------------------===//
#include "ProgramBuilder.h"

#include "lpx/sim/LatencyBound.h"
#include "lpx/sim/PhysicalBound.h"

#include <cmath>

namespace {

using namespace lpx;
using namespace lpx::sim;
using namespace lpx::sim::test;
using isa::DType;
using isa::Opcode;

constexpr double kPeakInt8 =
    double(chip::kMxmPlanes) * chip::kMxmRows * chip::kMxmCols;
constexpr uint64_t kSramBytesPerCycle =
    uint64_t(chip::kSramSlices) * chip::kBanksPerSlice * chip::kVectorBytes;
constexpr double kLinkBytesPerCyclePerChip =
    double(chip::kLinksPerChip) * chip::kLinkBytesPerCycle;

TEST(PhysicalBoundTest, PeakFollowsTheOperandsWidth) {
  auto chipSpec = isa::parseChipSpec(testChipYaml(), "test chip");
  ASSERT_TRUE(bool(chipSpec)) << llvm::toString(chipSpec.takeError());
  EXPECT_EQ(mxmPeakMacsPerCycle(*chipSpec, DType::I8, DType::I8), 8192.0);
  EXPECT_EQ(mxmPeakMacsPerCycle(*chipSpec, DType::F16, DType::F16), 4096.0);
  EXPECT_EQ(mxmPeakMacsPerCycle(*chipSpec, DType::F32, DType::F32), 2048.0);
  // A 16-bit activation against int8 weights streams at the 16-bit rate,
  // and so does an fp8 one against 16-bit weights.
  EXPECT_EQ(mxmPeakMacsPerCycle(*chipSpec, DType::F16, DType::I8), 4096.0);
  EXPECT_EQ(mxmPeakMacsPerCycle(*chipSpec, DType::F8E4M3, DType::F16), 4096.0);
}

/// [rows, 512] x [512, 256] in fp16 (the weight a constant) on one chip,
/// simulated.
bool simulateMatMul(int64_t rows, std::optional<isa::VerifiedProgram> &prog,
                    SimResult &r) {
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::F16, {rows, 512});
  uint32_t w = b.buffer("w", DType::F16, {512, 256}, isa::pb::CONSTANT);
  uint32_t y = b.output("y", DType::F16, {rows, 256});
  b.inst(Opcode::MatMul, {x, w}, y);
  return loadAndSimulate(b, prog, r);
}

// A [256, 512] x [512, 256] fp16 matmul on one chip: 256 * 512 * 256 =
// 33554432 MACs at 4096 per cycle = 8192 cycles. Its bytes (input 262144,
// weight 262144, output 131072 = 655360) take 4 cycles of SRAM: the MXM
// sets the bound.
TEST(PhysicalBoundTest, ComputeBoundMatmul) {
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(simulateMatMul(256, prog, r));

  const PhysicalBound &p = r.physical;
  EXPECT_EQ(p.macs, 256u * 512 * 256);
  EXPECT_DOUBLE_EQ(p.computeCycles, 33554432.0 / (kPeakInt8 / 2));
  EXPECT_EQ(p.sramBytes, 655360u);
  EXPECT_DOUBLE_EQ(p.sramCycles, 655360.0 / kSramBytesPerCycle);
  EXPECT_EQ(p.linkBytes, 0u);
  EXPECT_EQ(p.cycles, 8192u);
  EXPECT_EQ(p.workCycles, 8192u);
  EXPECT_EQ(p.limit, "MXM peak");
  EXPECT_DOUBLE_EQ(r.physicalEfficiency, 8192.0 / double(r.totalCycles));
  // The cost model adds weight loads and latency the peak does not have.
  EXPECT_GT(r.totalCycles, p.cycles);
  EXPECT_EQ(r.gap.serialLatency + r.gap.linkTime + r.gap.idleUnits,
            r.totalCycles - p.cycles);
}

// A matrix-vector product, [1, 512] x [512, 256] fp16: its 131072 MACs
// take 32 cycles at the 16-bit peak, but each weight is used once, so the
// operands' entry into the MXM bounds it: 2 planes install 64 * 64
// elements per 10 cycles each (819.2 per cycle) and stream 64 elements per
// 2 cycles each (64 per cycle); 512 + 131072 elements at 883.2 per cycle
// take 148.99 cycles.
TEST(PhysicalBoundTest, MatrixVectorBoundByOperandEntry) {
  auto chipSpec = isa::parseChipSpec(testChipYaml(), "test chip");
  ASSERT_TRUE(bool(chipSpec)) << llvm::toString(chipSpec.takeError());
  EXPECT_DOUBLE_EQ(
      mxmIngestElementsPerCycle(*chipSpec, DType::F16, DType::F16),
      2.0 * 64 * 64 / 10 + 2.0 * 64 / 2);
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(simulateMatMul(1, prog, r));
  EXPECT_EQ(r.physical.macs, 512u * 256);
  EXPECT_DOUBLE_EQ(r.physical.computeCycles, (512.0 + 512 * 256) / 883.2);
  EXPECT_EQ(r.physical.cycles, 149u);
  EXPECT_EQ(r.physical.limit, "MXM peak");
  // The cost model installs 32 tiles two planes at a time: slower still.
  EXPECT_GT(r.totalCycles, r.physical.cycles);
}

// Elementwise ops on [320, 160] fp32 tensors: no MACs, 3 * 204800 bytes
// (two inputs, one output) at 163840 bytes per cycle = 3.75, so 4 cycles.
TEST(PhysicalBoundTest, SramBoundElementwise) {
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::F32, {320, 160});
  uint32_t y = b.input("y", DType::F32, {320, 160});
  uint32_t t = b.buffer("t", DType::F32, {320, 160});
  uint32_t z = b.output("z", DType::F32, {320, 160});
  b.inst(Opcode::Add, {x, y}, t);
  b.inst(Opcode::Relu, {t}, z);
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(loadAndSimulate(b, prog, r));
  // The intermediate t need not touch SRAM in the best case: not counted.
  EXPECT_EQ(r.physical.sramBytes, 3u * 320 * 160 * 4);
  EXPECT_EQ(r.physical.cycles, 4u);
  EXPECT_EQ(r.physical.limit, "SRAM bandwidth");
  EXPECT_EQ(r.physical.macs, 0u);
}

// An embedding table read only by a gather needs only the rows picked:
// [1000, 160] f32 (640,000 bytes), one index (8 bytes), one row out
// [1, 160] f32 (640 bytes) written to the output. SRAM: the row read (640)
// + the index (8) + the output (640) = 1288 bytes, not the table's 640,000.
TEST(PhysicalBoundTest, GatheredTableCountsTheRowsPicked) {
  ProgramBuilder b;
  uint32_t table = b.buffer("table", DType::F32, {1000, 160}, isa::pb::CONSTANT);
  uint32_t ids = b.input("ids", DType::I64, {1});
  uint32_t row = b.output("row", DType::F32, {1, 160});
  b.inst(Opcode::Gather, {table, ids}, row, {0});
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(loadAndSimulate(b, prog, r));
  EXPECT_EQ(r.physical.sramBytes, 640u + 8 + 640);
  EXPECT_EQ(r.physical.cycles, 1u);
}

// Node 0 sends 1600 bytes to node 1, which sends its relu back: two hops on
// the chain and 3200 bytes over the 2 chips' 4 links of 8 bytes per cycle
// (3200 / 64 = 50 cycles), plus 2 * 50 cycles of flight = 150 cycles.
TEST(PhysicalBoundTest, LinksAndHops) {
  ProgramBuilder b(2);
  uint32_t x = b.input("x", DType::F32, {1, 400});
  uint32_t x1 = b.buffer("x@1", DType::F32, {1, 400}, isa::pb::TEMP, 1);
  uint32_t y1 = b.buffer("y", DType::F32, {1, 400}, isa::pb::TEMP, 1);
  uint32_t y0 = b.output("y@0", DType::F32, {1, 400});
  b.send(x, x1, 0, 1);
  b.inst(Opcode::Relu, {x1}, y1, {}, 1);
  b.send(y1, y0, 1, 0);
  std::optional<isa::VerifiedProgram> prog;
  auto loaded = b.load();
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  PhysicalBound p = computePhysicalBound(*loaded);
  EXPECT_EQ(p.chips, 2u);
  EXPECT_EQ(p.linkBytes, 3200u);
  EXPECT_EQ(p.linkHops, 2u);
  EXPECT_DOUBLE_EQ(p.linkCycles, 3200.0 / (2 * kLinkBytesPerCyclePerChip) +
                                     2.0 * chip::kLinkLatency);
  EXPECT_EQ(p.cycles, 150u); // no deskew on the test chip by default
  // Without the links: 2 * 1600 bytes of SRAM, well under a cycle.
  EXPECT_EQ(p.workCycles, 1u);
  EXPECT_EQ(p.limit, "links");
}

// The same value sent twice to the same chip crosses once; to another chip
// it crosses again.
TEST(PhysicalBoundTest, EachValueCrossesOncePerDestination) {
  ProgramBuilder b(3);
  uint32_t x = b.input("x", DType::F32, {1, 400});
  uint32_t a = b.buffer("a", DType::F32, {1, 400}, isa::pb::TEMP, 1);
  uint32_t a2 = b.buffer("a2", DType::F32, {1, 400}, isa::pb::TEMP, 1);
  uint32_t c = b.buffer("c", DType::F32, {1, 400}, isa::pb::TEMP, 2);
  b.send(x, a, 0, 1);
  b.send(x, a2, 0, 1);
  b.send(x, c, 0, 2);
  auto loaded = b.load();
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  PhysicalBound p = computePhysicalBound(*loaded);
  EXPECT_EQ(p.linkBytes, 2u * 1600);
  EXPECT_EQ(p.linkHops, 1u);
}

TEST(PhysicalBoundTest, GapShares) {
  PhysicalBound p;
  p.cycles = 100;
  p.linkCycles = 40;
  // 400 simulated: the chain of 250 is 150 beyond the bound; the busiest
  // link's 100 busy cycles are 60 beyond the link term; 90 are idle.
  GapAttribution g = attributeGap(p, 400, 250, 100);
  EXPECT_EQ(g.serialLatency, 150u);
  EXPECT_EQ(g.linkTime, 60u);
  EXPECT_EQ(g.idleUnits, 90u);
  // A schedule at the bound leaves no gap.
  GapAttribution none = attributeGap(p, 100, 250, 100);
  EXPECT_EQ(none.serialLatency + none.linkTime + none.idleUnits, 0u);
}

//===--- The latency bound ------------------------------------------------===//

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

// A constant that meets the activations before the product (a bias added to
// x) is no weight of it: only w's 512 * 256 elements enter once per pass,
// not the bias's 512.
TEST(LatencyBoundTest, AConstantMetByTheActivationsIsNoWeight) {
  ProgramBuilder b;
  uint32_t x = b.input("x", DType::F16, {1, 512});
  uint32_t bias = b.buffer("bias", DType::F16, {1, 512}, isa::pb::CONSTANT);
  uint32_t xb = b.buffer("xb", DType::F16, {1, 512});
  uint32_t w = b.buffer("w", DType::F16, {512, 256}, isa::pb::CONSTANT);
  uint32_t y = b.output("y", DType::F16, {1, 256});
  b.inst(Opcode::Add, {x, bias}, xb);
  b.inst(Opcode::MatMul, {xb, w}, y);
  auto loaded = b.load();
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  const LatencyBound l = computeLatencyBound(*loaded);
  EXPECT_DOUBLE_EQ(l.stages[0].passCycles,
                   512.0 * 256 / kEntry16 - kPreloadEntry);
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
