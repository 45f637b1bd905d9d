//===- LayerReportTest.cpp - Cycles and MACs per ONNX node ----------------===//
#include "ProgramBuilder.h"
#include "lpx/sim/LayerReport.h"

using namespace lpx;
using namespace lpx::sim;
using namespace lpx::sim::test;
using isa::DType;
using isa::Opcode;

namespace {

// The test chip's MXM: 2 planes of 64 x 64 at 1 int8 vector per cycle =
// 8192 MACs per cycle at peak.
constexpr uint64_t kPeak = uint64_t(chip::kMxmPlanes) * chip::kMxmRows *
                           chip::kMxmCols / chip::kMxmCyclesInt8;
static_assert(kPeak == 8192);

TEST(LayerReportTest, GroupsByOriginAndMeasuresTheMatrixUnit) {
  // "fc": an int8 [8,64] x [64,64] matmul, one tile on both planes, each
  // streaming 4 rows: busy 10 + max(10, 4) = 20, done 20 + 7 = 27; 8 x 64
  // x 64 = 32,768 MACs. Then "fc.relu" on its 512-byte result: 2 vectors
  // at 4 per cycle, busy 1, done 27 + 1 + 3 = 31; and a second "fc"
  // instruction (a relu of the input) at cycle 0: busy 1, done 4.
  ProgramBuilder b;
  uint32_t a = b.buffer("a", 0, 0, DType::I8, {8, 64}, isa::pb::INPUT);
  uint32_t w = b.buffer("w", 0, 4096, DType::I8, {64, 64}, isa::pb::CONSTANT);
  uint32_t y = b.buffer("y", 0, 8192, DType::I8, {8, 64});
  uint32_t z = b.buffer("z", 0, 12288, DType::I8, {8, 64}, isa::pb::OUTPUT);
  uint32_t v = b.buffer("v", 0, 16384, DType::I8, {8, 64}, isa::pb::OUTPUT);
  b.inst(Opcode::MatMul, 0, 0, {a, w}, y, "fc");
  b.inst(Opcode::Relu, 0, 0, {a}, v, "fc");
  b.inst(Opcode::Relu, 0, 27, {y}, z, "fc.relu");

  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ExecutionTrace trace;
  SimOptions opts;
  opts.trace = &trace;
  ASSERT_TRUE(loadAndSimulate(b, prog, r, opts));
  ASSERT_EQ(r.hazardCount, 0u);
  ASSERT_EQ(r.totalCycles, 31u);
  EXPECT_EQ(r.macs, 32768u);
  // The run: 32,768 / (8192 x 1 node x 31 cycles).
  EXPECT_DOUBLE_EQ(r.mxmUtilisation, 32768.0 / (8192.0 * 31.0));

  std::vector<LayerStats> layers = layerStats(*prog, trace);
  ASSERT_EQ(layers.size(), 2u);
  EXPECT_EQ(layers[0].origin, "fc");
  EXPECT_EQ(layers[0].instructions, 2u);
  EXPECT_EQ(layers[0].firstIssue, 0u);
  EXPECT_EQ(layers[0].lastDone, 27u);
  EXPECT_EQ(layers[0].busyCycles, 21u);
  EXPECT_EQ(layers[0].mxmBusyCycles, 20u);
  EXPECT_EQ(layers[0].macs, 32768u);
  // While it holds the array: 32,768 / (8192 x 20) = 20%.
  EXPECT_DOUBLE_EQ(layers[0].mxmUtilisation, 0.2);
  EXPECT_EQ(layers[1].origin, "fc.relu");
  EXPECT_EQ(layers[1].firstIssue, 27u);
  EXPECT_EQ(layers[1].lastDone, 31u);
  EXPECT_EQ(layers[1].macs, 0u);
  EXPECT_EQ(layers[1].mxmUtilisation, 0.0);

  std::string text;
  llvm::raw_string_ostream os(text);
  printLayerReport(layers, r, *prog, os);
  EXPECT_THAT(text, ::testing::HasSubstr("20.0%"));
  EXPECT_THAT(text, ::testing::HasSubstr("MXM utilisation 12.9%"));
  llvm::json::Array json = layerJson(layers);
  ASSERT_EQ(json.size(), 2u);
  EXPECT_EQ(json[0].getAsObject()->getInteger("macs"), 32768);
}

} // namespace
