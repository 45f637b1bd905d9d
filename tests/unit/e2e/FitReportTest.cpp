//===- FitReportTest.cpp - The compiler says what does not fit, typed -----===//
//
// The built-in MLP (models/README.md) on the unit-test chip with too little
// SRAM. Its weights, by hand from the ONNX file: fc1.weight 128x64 and
// fc1.bias 128, fc2.weight 128x32 and fc2.bias 32, all float32:
// (8192 + 128 + 4096 + 32) * 4 = 49,792 bytes. Its input x is 64 floats
// (256 bytes), its output y 32 (128 bytes); fc1's product, 128 floats (512
// bytes), is computed from x and a weight alone, so the placement counts it
// as resident (at cycle 0 the scheduler may compute it). The report must
// carry these counts, the chip count the message names, and that count must
// be one the partitioner accepts (one chip fewer it does not).
//
//===----------------------------------------------------------------------===//
#include "lpx/Driver/Compile.h"
#include "lpx/isa/ChipOverrides.h"
#include "lpx/test/TestChip.h"

#include "mlir/IR/Diagnostics.h"
#include <gtest/gtest.h>

using namespace lpx;

namespace {

constexpr uint64_t kWeights = (128 * 64 + 128 + 128 * 32 + 32) * 4;
constexpr uint64_t kInput = 64 * 4, kOutput = 32 * 4, kHidden = 128 * 4;

std::string mlp() {
  return std::string(LPX_SOURCE_DIR) + "/models/mlp/model.onnx";
}

isa::ChipSpec chipWithSram(uint64_t bytes) {
  auto chip = isa::parseChipSpec(test::testChipYaml(), "test");
  EXPECT_TRUE(bool(chip)) << llvm::toString(chip.takeError());
  EXPECT_FALSE(
      bool(isa::applyOverride(*chip, "sram.bytes", std::to_string(bytes))));
  return *chip;
}

struct Outcome {
  bool compiled = false;
  std::string diagnostics;
  FitReport fit;
};

Outcome compile(const isa::ChipSpec &chip, unsigned nodes, StopAfter stop) {
  auto ctx = makeCompilerContext();
  Outcome out;
  mlir::ScopedDiagnosticHandler h(ctx.get(), [&](mlir::Diagnostic &d) {
    if (d.getSeverity() == mlir::DiagnosticSeverity::Error)
      out.diagnostics += d.str() + "\n";
    return mlir::success();
  });
  out.compiled = succeeded(compileToIR(*ctx, mlp(), ImportOptions{},
                                       CompileOptions{nodes}, chip, stop,
                                       nullptr, nullptr, &out.fit));
  return out;
}

// 40,960 bytes (80 banks of the test chip's 512) hold neither the weights
// nor all of them and the input and output on one node.
TEST(FitReport, ResidentDataOnOneNode) {
  isa::ChipSpec chip = chipWithSram(40960);
  Outcome one = compile(chip, 1, StopAfter::Partitioned);
  ASSERT_FALSE(one.compiled);
  const FitReport &r = one.fit;
  EXPECT_EQ(r.failure, FitFailure::ResidentData);
  EXPECT_EQ(r.chip, "sim-test");
  EXPECT_EQ(r.nodes, 1u);
  EXPECT_EQ(r.sramBytes, 40960u);
  EXPECT_EQ(r.tp, 0);
  EXPECT_EQ(r.pp, 0);
  EXPECT_EQ(r.fullestChip, 0u);
  EXPECT_EQ(r.fullest.weights, kWeights);
  EXPECT_EQ(r.fullest.state, 0u);
  EXPECT_EQ(r.fullest.activations, kInput + kOutput);
  EXPECT_EQ(r.fullest.temporaries, kHidden);
  EXPECT_EQ(r.all.total(), r.fullest.total());
  // The text is the diagnostic, unchanged, and names the same count.
  EXPECT_EQ(r.message + "\n", one.diagnostics);
  ASSERT_GT(r.chipsNeeded, 1u);
  EXPECT_NE(r.message.find("; " + std::to_string(r.chipsNeeded) +
                           " nodes would hold them"),
            std::string::npos)
      << r.message;
  // The count is right: the partitioner takes the model on it and not on
  // one chip fewer.
  Outcome enough = compile(chip, r.chipsNeeded, StopAfter::Partitioned);
  EXPECT_TRUE(enough.compiled) << enough.diagnostics;
  EXPECT_TRUE(enough.fit.fits());
  Outcome fewer = compile(chip, r.chipsNeeded - 1, StopAfter::Partitioned);
  EXPECT_FALSE(fewer.compiled);
  EXPECT_EQ(fewer.fit.failure, FitFailure::ResidentData);
}

// 50,688 bytes (99 banks) hold exactly what partition counts as resident
// on one node (each piece a multiple of the allocator's 64-byte alignment):
// it accepts the model, and the allocator finds room for fc1's product but
// not for the bias added to it (the product still being read): live then
// are the weights, the input, the product and the sum. (The output's buffer
// is taken when its op runs, at the end.)
TEST(FitReport, TemporariesAtAllocation) {
  isa::ChipSpec chip = chipWithSram(kWeights + kInput + kOutput + kHidden);
  Outcome out = compile(chip, 1, StopAfter::Scheduled);
  ASSERT_FALSE(out.compiled);
  const FitReport &r = out.fit;
  EXPECT_EQ(r.failure, FitFailure::ScheduleOutOfSram);
  EXPECT_EQ(r.message + "\n", out.diagnostics);
  EXPECT_NE(r.message.find("node 0 is out of SRAM: 512 more bytes needed"),
            std::string::npos)
      << r.message;
  EXPECT_EQ(r.nodes, 1u);
  EXPECT_EQ(r.fullestChip, 0u);
  EXPECT_EQ(r.fullest.weights, kWeights);
  EXPECT_EQ(r.fullest.state, 0u);
  EXPECT_EQ(r.fullest.activations, kInput);
  EXPECT_EQ(r.fullest.temporaries, 2 * kHidden);
  EXPECT_EQ(r.chipsNeeded, 0u);
}

// The mesh placement's check (the Llama decode step is a transformer, so
// two nodes are tp 2 x pp 1), on tsp-v1 with 72 KiB of SRAM (its topology
// has room for more stages; the test chip's four does not): the report
// carries the mesh and the stages the message names, and the partitioner
// takes the model on that many.
TEST(FitReport, MeshNamesStagesThatHoldIt) {
  auto chip = isa::loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(chip));
  ASSERT_FALSE(bool(isa::applyOverride(*chip, "sram.bytes", "72KiB")));
  auto compileStep = [&](CompileOptions opts, FitReport &fit) {
    auto ctx = makeCompilerContext();
    mlir::ScopedDiagnosticHandler h(ctx.get(), [](mlir::Diagnostic &) {
      return mlir::success();
    });
    return succeeded(compileToIR(
        *ctx, std::string(LPX_SOURCE_DIR) + "/models/llama_step/model.onnx",
        ImportOptions{}, opts, *chip, StopAfter::Partitioned, nullptr,
        nullptr, &fit));
  };
  FitReport r;
  ASSERT_FALSE(compileStep(CompileOptions{2}, r));
  EXPECT_EQ(r.failure, FitFailure::ResidentData);
  EXPECT_EQ(r.tp, 2);
  EXPECT_EQ(r.pp, 1);
  EXPECT_GT(r.fullest.total(), r.sramBytes);
  EXPECT_EQ(r.fullest.temporaries, 0u);
  ASSERT_GT(r.ppNeeded, 1);
  EXPECT_EQ(r.chipsNeeded, unsigned(r.tp * r.ppNeeded));
  EXPECT_NE(r.message.find(std::to_string(r.chipsNeeded) +
                           " nodes would hold them (tp 2 x pp " +
                           std::to_string(r.ppNeeded) + ")"),
            std::string::npos)
      << r.message;
  CompileOptions enough{r.chipsNeeded};
  enough.tp = 2;
  enough.pp = unsigned(r.ppNeeded);
  FitReport again;
  EXPECT_TRUE(compileStep(enough, again)) << again.message;
  EXPECT_TRUE(again.fits());
}

TEST(FitReport, FitsSaysNone) {
  Outcome out = compile(chipWithSram(1 << 20), 1, StopAfter::Scheduled);
  ASSERT_TRUE(out.compiled) << out.diagnostics;
  EXPECT_TRUE(out.fit.fits());
  EXPECT_TRUE(out.fit.message.empty());
}

} // namespace
