//===- StateTest.cpp - Resident state: state_write and Machine ------------===//
//
// A state buffer [1, 2, 3, 2] (batch, heads, positions, head dim) written one
// position per run; a copy reads the whole state into an output. Expected
// values are the written updates at the positions given, zeros elsewhere.
//
//===----------------------------------------------------------------------===//
#include "TestProgram.h"

using namespace lpx;
using namespace lpx::rt;
using namespace lpx::rt::test;
using isa::DType;
using isa::Opcode;

namespace {
struct StateProgram {
  ProgramBuilder b;
  uint32_t update, position, state, out;
  StateProgram() {
    update = b.input("k", DType::F32, {1, 2, 1, 2});
    position = b.input("pos", DType::I64, {1, 1});
    state = b.buffer("cache", DType::F32, {1, 2, 3, 2}, isa::pb::STATE);
    out = b.output("out", DType::F32, {1, 2, 3, 2});
    b.inst(Opcode::StateWrite, {update, position}, state, {2});
    b.inst(Opcode::Copy, {state}, out);
  }
};

std::vector<HostTensor> step(int64_t pos, std::vector<float> k) {
  return {tensor<float>("k", DType::F32, {1, 2, 1, 2}, k),
          tensor<int64_t>("pos", DType::I64, {1, 1}, {pos})};
}

std::vector<float> runStep(Machine &m, int64_t pos, std::vector<float> k) {
  auto out = m.run(step(pos, std::move(k)));
  if (out)
    return valuesOf<float>((*out)[0].data);
  ADD_FAILURE() << llvm::toString(out.takeError());
  return {};
}
} // namespace

TEST(State, WritesAccumulateAcrossRunsUntilReset) {
  StateProgram sp;
  auto lp = sp.b.load();
  ASSERT_TRUE(bool(lp)) << llvm::toString(lp.takeError());
  auto m = Machine::load(*lp);
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  // Head 0 gets (1, 2) at position 0, head 1 gets (3, 4).
  EXPECT_EQ(runStep(*m, 0, {1, 2, 3, 4}),
            (std::vector<float>{1, 2, 0, 0, 0, 0, 3, 4, 0, 0, 0, 0}));
  EXPECT_EQ(runStep(*m, 2, {5, 6, 7, 8}),
            (std::vector<float>{1, 2, 0, 0, 5, 6, 3, 4, 0, 0, 7, 8}));
  m->reset();
  EXPECT_EQ(runStep(*m, 1, {9, 9, 9, 9}),
            (std::vector<float>{0, 0, 9, 9, 0, 0, 0, 0, 9, 9, 0, 0}));
}

TEST(State, PositionOutsideTheStateIsAnError) {
  StateProgram sp;
  auto lp = sp.b.load();
  ASSERT_TRUE(bool(lp)) << llvm::toString(lp.takeError());
  auto m = Machine::load(*lp);
  ASSERT_TRUE(bool(m));
  auto out = m->run(step(3, {1, 2, 3, 4}));
  ASSERT_FALSE(bool(out));
  EXPECT_NE(llvm::toString(out.takeError())
                .find("state_write position 3 outside the state's 3 positions"),
            std::string::npos);
}

TEST(State, VerifierKeepsStateToStateWrite) {
  { // a state written by another opcode
    StateProgram sp;
    sp.b.inst(Opcode::Copy, {sp.out}, sp.state);
    auto lp = sp.b.load();
    ASSERT_FALSE(bool(lp));
    EXPECT_NE(llvm::toString(lp.takeError()).find("only state_write writes"),
              std::string::npos);
  }
  { // a state bound to the host
    StateProgram sp;
    auto *bind = sp.b.proto().add_inputs();
    bind->set_name("cache");
    bind->set_buffer(sp.state);
    auto lp = sp.b.load();
    ASSERT_FALSE(bool(lp));
    EXPECT_NE(llvm::toString(lp.takeError()).find("not bound to the host"),
              std::string::npos);
  }
  { // a temporary sharing the state's bytes
    StateProgram sp;
    const auto &st = sp.b.proto().buffers(int(sp.state));
    uint32_t t = sp.b.buffer("t", 0, st.addr() + 8, DType::F32, {2});
    sp.b.inst(Opcode::Neg, {sp.update}, t);
    auto lp = sp.b.load();
    ASSERT_FALSE(bool(lp));
    EXPECT_NE(llvm::toString(lp.takeError()).find("overlaps buffer cache; a state buffer shares no byte"),
              std::string::npos);
  }
  { // an update of the wrong shape
    ProgramBuilder b;
    uint32_t k = b.input("k", DType::F32, {1, 2, 2, 2});
    uint32_t p = b.input("pos", DType::I64, {1, 1});
    uint32_t s = b.buffer("cache", DType::F32, {1, 2, 3, 2}, isa::pb::STATE);
    b.inst(Opcode::StateWrite, {k, p}, s, {2});
    auto lp = b.load();
    ASSERT_FALSE(bool(lp));
    EXPECT_NE(llvm::toString(lp.takeError()).find("update must have the state's"),
              std::string::npos);
  }
}
