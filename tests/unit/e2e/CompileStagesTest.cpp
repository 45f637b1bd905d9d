//===- CompileStagesTest.cpp - The driver tells each stage as it starts ---===//
//
// `lpx compile` draws its progress from this callback: every stage once, in
// order, numbered from 0 of the right count, for the pipeline as built.
//
//===----------------------------------------------------------------------===//
#include "lpx/Driver/Compile.h"

#include "mlir/IR/Diagnostics.h"
#include <gtest/gtest.h>

using namespace lpx;

namespace {

struct Heard {
  std::string stage;
  unsigned index, count;
};

std::vector<Heard> stagesOf(const CompileOptions &opts) {
  auto ctx = makeCompilerContext();
  auto chip = isa::loadChipSpec(isa::presetNames().front());
  EXPECT_TRUE(bool(chip));
  std::vector<Heard> heard;
  auto program = compileToProgram(
      *ctx, std::string(LPX_SOURCE_DIR) + "/models/mlp/model.onnx",
      ImportOptions{}, opts, *chip,
      [&](llvm::StringRef stage, unsigned index, unsigned count) {
        heard.push_back({stage.str(), index, count});
      });
  EXPECT_TRUE(succeeded(program));
  return heard;
}

void expectStages(const std::vector<Heard> &heard,
                  const std::vector<std::string> &want) {
  ASSERT_EQ(heard.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(heard[i].stage, want[i]);
    EXPECT_EQ(heard[i].index, i);
    EXPECT_EQ(heard[i].count, want.size());
  }
}

TEST(CompileStages, DefaultPipeline) {
  expectStages(stagesOf(CompileOptions{"", 2}),
               {"import", "lpx-graph-decompose", "lpx-partition",
                "lpx-verify-partitioned", "lpx-schedule", "lpx-allocate-sram",
                "lpx-verify-scheduled", "emit"});
}

TEST(CompileStages, WithNumberFormats) {
  expectStages(stagesOf(CompileOptions{"", 1, "bf16", "bf16"}),
               {"import", "lpx-graph-decompose", "lpx-convert-types",
                "lpx-partition", "lpx-verify-partitioned", "lpx-schedule",
                "lpx-allocate-sram", "lpx-verify-scheduled", "emit"});
}

} // namespace
