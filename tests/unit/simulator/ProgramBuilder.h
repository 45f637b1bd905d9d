//===- ProgramBuilder.h - Helpers of the simulator tests --------*- C++ -*-===//
//
// Tests describe the chip by its own constants (lpx/test/TestChip.h) so that
// every expected cycle count is derived in the test from numbers it
// controls, and build programs with the shared lpx::test::ProgramBuilder.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TESTS_SIM_PROGRAMBUILDER_H
#define LPX_TESTS_SIM_PROGRAMBUILDER_H

#include "lpx/isa/Program.h"
#include "lpx/sim/Simulator.h"
#include "lpx/test/ProgramBuilder.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include <optional>

#include <initializer_list>
#include <string>
#include <vector>

namespace lpx::sim::test {

// The one test chip of the GoogleTest suites (tests/lib).
namespace chip = lpx::test::chip;
using lpx::test::testChipYaml;

constexpr uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/// The tensor most tests use: a 1x640 f32 row, 640 * 4 = 2560 bytes = 8
/// vectors of 320 bytes. A VXM pass over it is busy 2 cycles (4 vectors per
/// cycle) and done kVxmLatency later; a MEM pass is busy 1 cycle.
namespace row {
constexpr uint64_t kBytes = 640 * 4;
constexpr uint64_t kVectors = ceilDiv(kBytes, chip::kVectorBytes);
constexpr uint64_t kVxmBusy = ceilDiv(kVectors, chip::kVxmVectorsPerCycle);
constexpr uint64_t kVxmDone = kVxmBusy + chip::kVxmLatency;
constexpr uint64_t kMemBusy = ceilDiv(kVectors, chip::kMemVectorsPerCycle);
} // namespace row

using lpx::test::ProgramBuilder;

/// The replay checks alone, the vector check off: for tests of one replay
/// rule that count its hazards. VectorCheckTest.cpp shows what the vector
/// check reports on the same kinds of schedule.
inline SimOptions replayOnly() {
  SimOptions o;
  o.vectorCheck = false;
  return o;
}

/// Puts the test chip with stream.chaining on (and no stream transport)
/// into the program.
inline void chainingChip(ProgramBuilder &b) {
  std::string yaml = testChipYaml() + "stream:\n  transport_cycles: 0\n"
                                      "  chaining: true\n";
  b.proto().set_chip_yaml(yaml);
  b.proto().set_chip_hash(isa::hashText(yaml));
}

/// Loads and simulates, failing the test on any error.
inline bool loadAndSimulate(const ProgramBuilder &b,
                            std::optional<isa::VerifiedProgram> &prog,
                            SimResult &result, const SimOptions &opts = {}) {
  auto loaded = b.load();
  if (!loaded) {
    ADD_FAILURE() << "load: " << llvm::toString(loaded.takeError());
    return false;
  }
  prog.emplace(std::move(*loaded));
  auto sim = simulate(*prog, opts);
  if (!sim) {
    ADD_FAILURE() << "simulate: " << llvm::toString(sim.takeError());
    return false;
  }
  result = std::move(*sim);
  return true;
}

/// The chain most timing tests start from, on node 0: add x + y -> `sum`,
/// issued at 0, then relu `sum` -> z issued at `reluIssue`. Each 1x640 f32
/// row sits 4096 bytes from the next, in a bank of its own.
inline ProgramBuilder addThenRelu(uint64_t reluIssue,
                                  const std::string &sum = "t") {
  ProgramBuilder b;
  uint32_t x = b.buffer("x", 0, 0, isa::DType::F32, {1, 640}, isa::pb::INPUT);
  uint32_t y =
      b.buffer("y", 0, 4096, isa::DType::F32, {1, 640}, isa::pb::INPUT);
  uint32_t t = b.buffer(sum, 0, 8192, isa::DType::F32, {1, 640});
  uint32_t z =
      b.buffer("z", 0, 12288, isa::DType::F32, {1, 640}, isa::pb::OUTPUT);
  b.inst(isa::Opcode::Add, 0, 0, {x, y}, t, "Add_0");
  b.inst(isa::Opcode::Relu, 0, reluIssue, {t}, z, "Relu_1");
  return b;
}

/// The 1x640 f32 input `x` read by two instructions on node 0, into the
/// outputs z1 and z2; the three rows sit 4096 bytes apart, in banks of
/// their own.
inline ProgramBuilder twoReadersOfX(isa::Opcode first, uint64_t firstIssue,
                                    const std::string &firstOrigin,
                                    isa::Opcode second, uint64_t secondIssue,
                                    const std::string &secondOrigin) {
  ProgramBuilder b;
  uint32_t x = b.buffer("x", 0, 0, isa::DType::F32, {1, 640}, isa::pb::INPUT);
  uint32_t z1 =
      b.buffer("z1", 0, 4096, isa::DType::F32, {1, 640}, isa::pb::OUTPUT);
  uint32_t z2 =
      b.buffer("z2", 0, 8192, isa::DType::F32, {1, 640}, isa::pb::OUTPUT);
  b.inst(first, 0, firstIssue, {x}, z1, firstOrigin);
  b.inst(second, 0, secondIssue, {x}, z2, secondOrigin);
  return b;
}

/// `count` independent relus of the 1x640 f32 input `x` on node 0 into
/// z0, z1, ... (Relu_0, Relu_1, ...), relu i issued at `issueOf(i)` on VXM
/// queue i % `queues` of a chip with that many; the rows sit 4096 bytes
/// apart, in banks of their own.
inline ProgramBuilder relusOfX(int count,
                               llvm::function_ref<uint64_t(int)> issueOf,
                               uint32_t queues = 1) {
  ProgramBuilder b;
  if (queues > 1)
    b.setVxmQueues(queues);
  uint32_t x = b.buffer("x", 0, 0, isa::DType::F32, {1, 640}, isa::pb::INPUT);
  for (int i = 0; i < count; ++i) {
    uint32_t z = b.buffer("z" + std::to_string(i), 0, 4096 * (i + 1),
                          isa::DType::F32, {1, 640}, isa::pb::OUTPUT);
    auto &inst = b.inst(isa::Opcode::Relu, 0, issueOf(i), {x}, z,
                        "Relu_" + std::to_string(i));
    if (queues > 1)
      inst.set_queue(i % queues);
  }
  return b;
}

/// An f32 [M, K] x [K, N] matmul on node 0 issued at `issue`: input 'a' at
/// 0, constant weights 'w' at 8192, output 'r' at 65536.
inline ProgramBuilder f32MatMul(uint64_t M, uint64_t K, uint64_t N,
                                uint64_t issue) {
  ProgramBuilder b;
  using isa::DType;
  uint32_t a = b.buffer("a", 0, 0, DType::F32,
                        {int64_t(M), int64_t(K)}, isa::pb::INPUT);
  uint32_t w = b.buffer("w", 0, 8192, DType::F32,
                        {int64_t(K), int64_t(N)}, isa::pb::CONSTANT);
  uint32_t r = b.buffer("r", 0, 65536, DType::F32,
                        {int64_t(M), int64_t(N)}, isa::pb::OUTPUT);
  b.inst(isa::Opcode::MatMul, 0, issue, {a, w}, r, "MatMul_0");
  return b;
}

/// Loads and simulates a program that must have no hazard; its result, or
/// none (the test has then failed).
inline std::optional<SimResult> hazardFree(const ProgramBuilder &b) {
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  if (!loadAndSimulate(b, prog, r))
    return std::nullopt;
  EXPECT_EQ(r.hazardCount, 0u)
      << (r.hazards.empty() ? "" : r.hazards[0].message);
  return r;
}

/// The hazards of one kind, in program order.
inline std::vector<Hazard> hazardsOfKind(const SimResult &r,
                                         const std::string &kind) {
  std::vector<Hazard> out;
  for (const Hazard &h : r.hazards)
    if (h.kind == kind)
      out.push_back(h);
  return out;
}

/// Loads and simulates `b`, which must report exactly one hazard of `kind`
/// (and, when `alone`, no other); that hazard, or none (the test has then
/// failed).
inline std::optional<Hazard> singleHazard(const ProgramBuilder &b,
                                          const std::string &kind,
                                          const SimOptions &opts, bool alone) {
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  if (!loadAndSimulate(b, prog, r, opts))
    return std::nullopt;
  std::vector<Hazard> found = hazardsOfKind(r, kind);
  if (found.size() != 1 || (alone && r.hazardCount != 1)) {
    ADD_FAILURE() << "expected one " << kind << " hazard"
                  << (alone ? " and no other" : "") << ", got "
                  << found.size() << " of " << r.hazardCount;
    return std::nullopt;
  }
  return found.front();
}

} // namespace lpx::sim::test

// What every simulator test file names without qualification, said once:
// `using namespace lpx::sim::test;` brings all of it.
namespace lpx::sim::test {
using namespace lpx::test::prelude;
using namespace lpx::sim;
using ::testing::HasSubstr;
/// The fixture of tests that load and simulate one program into `prog` and
/// `r`.
class SimulatedTest : public ::testing::Test {
protected:
  /// Loads and simulates `b`; false (the test has then failed) on an error.
  bool simulated(const ProgramBuilder &b, const SimOptions &opts = {}) {
    return loadAndSimulate(b, prog, r, opts);
  }
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
};
/// The one hazard of a program that must report exactly one, of `kind`.
inline std::optional<Hazard> onlyHazard(const ProgramBuilder &b,
                                        const std::string &kind,
                                        const SimOptions &opts = {}) {
  return singleHazard(b, kind, opts, /*alone=*/true);
}
/// The one hazard of `kind` (others may come with it: the replay's and the
/// vector check's findings of one mistake).
inline std::optional<Hazard> oneHazardOfKind(const ProgramBuilder &b,
                                             const std::string &kind,
                                             const SimOptions &opts = {}) {
  return singleHazard(b, kind, opts, /*alone=*/false);
}

} // namespace lpx::sim::test

#endif
