//===- BrokenScheduleTest.cpp - The simulator catches broken schedules ----===//
//
// Compiles the built-in MLP and Llama decode step in-process, checks that the
// compiler's schedule simulates without hazards, then moves each instruction
// one cycle earlier in turn. The compiler issues every instruction at the
// first cycle its operands and its unit allow, so every such move must be
// reported as a hazard at that instruction.
//
//===----------------------------------------------------------------------===//
#include "lpx/Driver/Compile.h"
#include "lpx/isa/Perturb.h"
#include "lpx/isa/Program.h"
#include "lpx/sim/Simulator.h"

#include "mlir/IR/Diagnostics.h"
#include <algorithm>
#include <gtest/gtest.h>

using namespace lpx;

namespace {

isa::VerifiedProgram compileModel(const std::string &model, unsigned nodes) {
  auto ctx = makeCompilerContext();
  std::string diags;
  mlir::ScopedDiagnosticHandler h(ctx.get(), [&](mlir::Diagnostic &d) {
    diags += d.str() + "\n";
    return mlir::success();
  });
  auto chip = isa::loadChipSpec(isa::presetNames().front());
  EXPECT_TRUE(bool(chip));
  auto program = compileToProgram(
      *ctx, std::string(LPX_SOURCE_DIR) + "/models/" + model + "/model.onnx",
      ImportOptions{}, CompileOptions{nodes}, *chip);
  EXPECT_TRUE(succeeded(program)) << diags;
  return std::move(*program);
}

class BrokenSchedule
    : public ::testing::TestWithParam<std::pair<const char *, unsigned>> {};

TEST_P(BrokenSchedule, EveryEarlierInstructionIsAHazard) {
  auto [model, nodes] = GetParam();
  isa::VerifiedProgram good = compileModel(model, nodes);
  auto clean = sim::simulate(good);
  ASSERT_TRUE(bool(clean)) << llvm::toString(clean.takeError());
  ASSERT_TRUE(clean->hazards.empty()) << clean->hazards.front().message;
  ASSERT_GT(clean->totalCycles, 0u);

  int checked = 0;
  for (int i = 0; i < good.program().instructions_size(); ++i) {
    if (good.program().instructions(i).issue() == 0)
      continue; // cannot move before cycle 0
    isa::pb::Program edited = good.program();
    int at = isa::moveEarlier(edited, i, 1);
    auto broken = isa::VerifiedProgram::verify(std::move(edited), good.chip(),
                                               good.data());
    if (!broken)
      FAIL() << llvm::toString(broken.takeError());
    auto result = sim::simulate(*broken);
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    bool atThisInstruction = std::any_of(
        result->hazards.begin(), result->hazards.end(),
        [&](const sim::Hazard &h) { return h.instruction == uint64_t(at); });
    EXPECT_TRUE(atThisInstruction)
        << model << " on " << nodes << " nodes: instruction " << i << " ("
        << isa::mnemonic(isa::opcodeOf(good.program().instructions(i)))
        << ") moved one cycle earlier was not reported";
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

// Opcodes whose result vector i needs only the operands' vectors at the same
// place: the vector check lets them start on the first vectors, so a whole-
// tensor schedule leaves them slack and moving one a cycle earlier may well
// be fine vector by vector.
bool streamsInStep(isa::Opcode op) {
  using isa::Opcode;
  switch (op) {
  case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Div:
  case Opcode::Pow: case Opcode::Where: case Opcode::Sqrt: case Opcode::Neg:
  case Opcode::Relu: case Opcode::Sigmoid: case Opcode::Tanh:
  case Opcode::Cast: case Opcode::Unary: case Opcode::Binary:
  case Opcode::CumSum: case Opcode::Copy: case Opcode::Send:
    return true;
  default:
    return false;
  }
}

// The same mutation seen by the vector check alone (its own timing model,
// not the cost model): every instruction that needs whole operands or is
// bound by its queue, moved one cycle earlier, is a vector-check hazard.
TEST_P(BrokenSchedule, VectorCheckCatchesEveryEarlierWholeTensorReader) {
  auto [model, nodes] = GetParam();
  isa::VerifiedProgram good = compileModel(model, nodes);
  const uint64_t deskew = nodes > 1 ? good.chip().topology.deskewCycles : 0;
  int checked = 0;
  for (int i = 0; i < good.program().instructions_size(); ++i) {
    const isa::pb::Instruction &inst = good.program().instructions(i);
    if (inst.issue() <= deskew || streamsInStep(isa::opcodeOf(inst)))
      continue; // cannot move before the deskew; in-step readers: above
    isa::pb::Program edited = good.program();
    int at = isa::moveEarlier(edited, i, 1);
    auto broken = isa::VerifiedProgram::verify(std::move(edited), good.chip(),
                                               good.data());
    ASSERT_TRUE(bool(broken)) << llvm::toString(broken.takeError());
    sim::SimOptions opts;
    opts.maxHazards = SIZE_MAX;
    auto result = sim::simulate(*broken, opts);
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    bool caught = std::any_of(
        result->hazards.begin(), result->hazards.end(),
        [&](const sim::Hazard &h) {
          return h.instruction == uint64_t(at) &&
                 (h.kind == "vector-not-ready" || h.kind == "stream-conflict" ||
                  h.kind == "sram-port-conflict");
        });
    EXPECT_TRUE(caught) << model << " on " << nodes << " nodes: instruction "
                        << i << " (" << isa::mnemonic(isa::opcodeOf(inst))
                        << ") one cycle earlier passed the vector check";
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Models, BrokenSchedule,
    ::testing::Values(std::make_pair("mlp", 1u), std::make_pair("mlp", 4u),
                      std::make_pair("llama_step", 1u),
                      std::make_pair("llama_step", 2u)));

} // namespace
