//===- CompileStagesTest.cpp - The driver tells each stage as it starts ---===//
//
// `lpx compile` draws its progress from this callback: every stage once, in
// order, numbered from 0 of the right count, for the pipeline as built.
//
//===----------------------------------------------------------------------===//
#include "lpx/Driver/Compile.h"

#include "mlir/IR/Diagnostics.h"
#include <gtest/gtest.h>
#include <map>

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
  expectStages(stagesOf(CompileOptions{2}),
               {"import", "lpx-graph-decompose", "lpx-fuse-rescale",
                "lpx-grouped-attention", "lpx-partition",
                "lpx-verify-partitioned", "lpx-schedule", "lpx-allocate-sram",
                "lpx-verify-scheduled", "emit"});
}

// The stages that count their work (scheduling, allocation, emission) report
// it unit by unit, from 1 up to their total: what the time-left estimate of
// `lpx compile` extrapolates from.
TEST(CompileStages, WorkIsCountedUpToEachStagesTotal) {
  auto ctx = makeCompilerContext();
  auto chip = isa::loadChipSpec(isa::presetNames().front());
  ASSERT_TRUE(bool(chip));
  std::string stage;
  std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> work;
  auto program = compileToProgram(
      *ctx, std::string(LPX_SOURCE_DIR) + "/models/mlp/model.onnx",
      ImportOptions{}, CompileOptions{2}, *chip,
      [&](llvm::StringRef s, unsigned, unsigned) { stage = s.str(); },
      [&](uint64_t done, uint64_t total) {
        work[stage].push_back({done, total});
      });
  ASSERT_TRUE(succeeded(program));
  for (const char *s : {"lpx-schedule", "lpx-allocate-sram", "emit"}) {
    const auto &w = work[s];
    ASSERT_FALSE(w.empty()) << s;
    uint64_t total = w.front().second;
    EXPECT_GT(total, 0u) << s;
    for (size_t i = 0; i < w.size(); ++i) {
      EXPECT_EQ(w[i].first, i + 1) << s;
      EXPECT_EQ(w[i].second, total) << s;
    }
    EXPECT_EQ(w.back().first, total) << s;
  }
  // Emission counts every op of the program function: one per instruction
  // and one per constant buffer.
  EXPECT_EQ(work["emit"].back().second,
            uint64_t(program->program().instructions_size() +
                     program->program().constants_size()));
}

TEST(CompileStages, WithNumberFormats) {
  expectStages(stagesOf(CompileOptions{1, "bf16", "bf16"}),
               {"import", "lpx-graph-decompose", "lpx-fuse-rescale", "lpx-convert-types",
                "lpx-grouped-attention", "lpx-partition",
                "lpx-verify-partitioned", "lpx-schedule", "lpx-allocate-sram",
                "lpx-verify-scheduled", "emit"});
}

} // namespace
