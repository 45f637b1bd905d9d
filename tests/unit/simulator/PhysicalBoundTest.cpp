//===- PhysicalBoundTest.cpp - The bound from the work and the peaks ------===//
//
// Figures derived by hand from the test chip (lpx/test/TestChip.h): the MXM
// does planes * rows * cols = 2 * 64 * 64 = 8192 MACs per cycle at the int8
// rate and half that (cycles_per_vector_16bit = 2) with 16-bit operands;
// SRAM delivers 256 slices * 2 banks * one 320-byte vector = 163840 bytes
// per cycle; each chip has 4 links of 8 bytes per cycle and 50 cycles of
// flight per hop.
//
//===----------------------------------------------------------------------===//
#include "ProgramBuilder.h"

#include "lpx/sim/PhysicalBound.h"

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

} // namespace
