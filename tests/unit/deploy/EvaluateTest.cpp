//===- EvaluateTest.cpp - compile -> verify -> simulate in one call -------===//
//
// The built-in Llama decode step (models/llama_step, 148 KB of weights) on
// tsp-v1 with 64 KiB of SRAM per chip: it cannot fit on one chip, and on
// enough chips it compiles, verifies and simulates.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/Evaluate.h"
#include "lpx/deploy/FitVerdict.h"

#include "lpx/isa/ChipOverrides.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace lpx;
using namespace lpx::deploy;
using ::testing::HasSubstr;

namespace {

const std::string kLlamaStep =
    std::string(LPX_SOURCE_DIR) + "/models/llama_step/model.onnx";

isa::ChipSpec smallChip() {
  auto chip = isa::loadChipWithOverrides("tsp-v1", {"sram.bytes=65536"});
  EXPECT_TRUE(bool(chip)) << llvm::toString(chip.takeError());
  return chip ? *chip : isa::ChipSpec{};
}

EvaluateOptions onChips(unsigned chips) {
  EvaluateOptions o;
  o.compile.nodes = chips;
  return o;
}

} // namespace

TEST(Evaluate, AMissingModelFailsInTheCompile) {
  Evaluation e = evaluate("/nonexistent/model.onnx", smallChip(), onChips(1));
  ASSERT_EQ(e.failedAt, EvaluateStage::Compile);
  EXPECT_FALSE(e.program);
  EXPECT_THAT(e.error, HasSubstr("/nonexistent/model.onnx"));
  EXPECT_FALSE(e.diagnostics.empty());
}

TEST(Evaluate, OneChipOf64KiBCannotHoldTheWeights) {
  // 148064 bytes of weights in 65536 bytes: at least 3 chips by weight.
  Evaluation e = evaluate(kLlamaStep, smallChip(), onChips(1));
  ASSERT_EQ(e.failedAt, EvaluateStage::Compile);
  FitVerdict f = fitVerdict(e.fit, e.error);
  EXPECT_TRUE(f.doesNotFit) << e.error;
  EXPECT_GE(f.chipsHint, 3u) << e.error;
}

TEST(Evaluate, EnoughChipsCompileVerifyAndSimulate) {
  EvaluateOptions o = onChips(8);
  o.trace = true;
  Evaluation e = evaluate(kLlamaStep, smallChip(), o);
  ASSERT_TRUE(e.ok()) << e.error;
  ASSERT_TRUE(e.program && e.sim && e.trace);
  EXPECT_EQ(e.program->program().num_nodes(), 8u);
  EXPECT_EQ(e.program->chip().sram.bytes, 65536u);
  EXPECT_GT(e.sim->totalCycles, 0u);
  EXPECT_TRUE(e.sim->hazards.empty());
  // The trace has one event per instruction simulated.
  EXPECT_EQ(e.trace->instructions.size(),
            size_t(e.program->program().instructions_size()));
}

TEST(Evaluate, NoSimulationWhenOnlyTheProgramIsWanted) {
  EvaluateOptions o = onChips(8);
  o.simulate = false;
  Evaluation e = evaluate(kLlamaStep, smallChip(), o);
  ASSERT_TRUE(e.ok()) << e.error;
  EXPECT_TRUE(e.program);
  EXPECT_FALSE(e.sim);
  EXPECT_FALSE(e.trace);
}
