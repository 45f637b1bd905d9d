//===- StateTest.cpp - Resident state: state_write and Machine ------------===//
//
// A state buffer [1, 2, 3, 2] (batch, heads, positions, head dim) written one
// position per run; a copy reads the whole state into an output; the same
// split by head over two nodes. Expected values are the written updates at
// the positions given, zeros elsewhere.
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
    state = b.state("cache", DType::F32, {1, 2, 3, 2});
    out = b.output("out", DType::F32, {1, 2, 3, 2});
    b.inst(Opcode::StateWrite, {update, position}, state, {2});
    b.inst(Opcode::Copy, {state}, out);
  }
};

/// A piece's offsets in the whole [1, 2, 3, 2] cache: head `head`.
void setOffsets(google::protobuf::RepeatedField<int64_t> *offsets,
                uint32_t head) {
  for (int64_t o : {int64_t(0), int64_t(head), int64_t(0), int64_t(0)})
    offsets->Add(o);
}

/// The same cache split by head over 2 nodes, as lpx-partition splits a KV
/// cache over a tensor-parallel group: one state buffer "cache" [1, 1, 3, 2]
/// per node (bound as state in pieces by head), each written by its node's
/// state_write (node 1 receives the position), the update and the output
/// bound in pieces by head.
struct SplitStateProgram {
  ProgramBuilder b{2};
  uint32_t state[2];
  SplitStateProgram() {
    uint32_t pos = b.input("pos", DType::I64, {1, 1});
    uint32_t posAt1 = b.buffer("pos@1", DType::I64, {1, 1}, isa::pb::TEMP, 1);
    b.send(pos, posAt1, 0, 1);
    for (uint32_t node : {0u, 1u}) {
      uint32_t k = b.input("k", DType::F32, {1, 1, 1, 2}, node);
      setOffsets(b.proto().mutable_inputs()->rbegin()->mutable_offsets(), node);
      state[node] = b.state("cache", DType::F32, {1, 1, 3, 2}, node);
      setOffsets(b.proto().mutable_states()->rbegin()->mutable_offsets(), node);
      b.inst(Opcode::StateWrite, {k, node ? posAt1 : pos}, state[node], {2},
             node);
    }
    for (uint32_t node : {0u, 1u}) {
      uint32_t out = b.output("out", DType::F32, {1, 1, 3, 2}, node);
      setOffsets(b.proto().mutable_outputs()->rbegin()->mutable_offsets(),
                 node);
      b.inst(Opcode::Copy, {state[node]}, out, {}, node);
    }
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

/// Three runs of a program holding the [1, 2, 3, 2] cache: writes at
/// positions 0 and 2 accumulate, a reset zeroes them before the third.
void expectWritesAccumulate(const ProgramBuilder &b) {
  auto lp = b.load();
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
} // namespace

TEST(State, WritesAccumulateAcrossRunsUntilReset) {
  expectWritesAccumulate(StateProgram().b);
}

// Each node keeps its head's positions across runs; the host sees the whole
// cache, as StateProgram's, and reset zeroes both pieces.
TEST(State, PiecesOnTwoNodesKeepTheirHeads) {
  expectWritesAccumulate(SplitStateProgram().b);
}

// A node writes only its own piece: a state_write on node 1 into node 0's.
TEST(State, VerifierKeepsEachPieceToItsNode) {
  SplitStateProgram sp;
  sp.b.proto().mutable_instructions(2)->set_result(sp.state[0]);
  auto lp = sp.b.load();
  ASSERT_FALSE(bool(lp));
  EXPECT_NE(llvm::toString(lp.takeError()).find("result cache is not on node 1"),
            std::string::npos);
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

namespace {
/// The verifier's error for a state_write of an update and positions of
/// these shapes into a state [1, 2, 3, 2]; empty if it is accepted.
std::string writeError(std::vector<int64_t> update, std::vector<int64_t> pos) {
  ProgramBuilder b;
  uint32_t k = b.input("k", DType::F32, update);
  uint32_t p = b.input("pos", DType::I64, pos);
  uint32_t s = b.state("cache", DType::F32, {1, 2, 3, 2});
  b.inst(Opcode::StateWrite, {k, p}, s, {2});
  auto lp = b.load();
  return lp ? std::string() : llvm::toString(lp.takeError());
}
} // namespace

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
  // An update of more positions than the state holds; two positions
  // written with one position per row.
  EXPECT_NE(writeError({1, 2, 4, 2}, {1, 4}).find("update must have the state's"),
            std::string::npos);
  EXPECT_NE(writeError({1, 2, 2, 2}, {1, 1}).find("position must be [B, n]"),
            std::string::npos);
  { // a state buffer the program does not bind as state
    StateProgram sp;
    sp.b.proto().clear_states();
    auto lp = sp.b.load();
    ASSERT_FALSE(bool(lp));
    EXPECT_NE(llvm::toString(lp.takeError()).find("state buffer cache has no state binding"),
              std::string::npos);
  }
}

namespace {
/// A prefill's write: two positions [1, 2, 2, 2] into the same state.
struct PrefillProgram {
  ProgramBuilder b;
  PrefillProgram() {
    uint32_t k = b.input("k", DType::F32, {1, 2, 2, 2});
    uint32_t pos = b.input("pos", DType::I64, {1, 2});
    uint32_t s = b.state("cache", DType::F32, {1, 2, 3, 2});
    uint32_t out = b.output("out", DType::F32, {1, 2, 3, 2});
    b.inst(Opcode::StateWrite, {k, pos}, s, {2});
    b.inst(Opcode::Copy, {s}, out);
  }
};
} // namespace

TEST(State, PrefillWritesEveryPositionThenHandsTheStateToTheStep) {
  PrefillProgram pp;
  StateProgram sp;
  // Both lay the state out alike: the builders place 'cache' third.
  auto prefill = pp.b.load();
  auto stepProg = sp.b.load();
  ASSERT_TRUE(bool(prefill) && bool(stepProg));
  auto pm = Machine::load(*prefill);
  auto m = Machine::load(*stepProg);
  ASSERT_TRUE(bool(pm) && bool(m));
  // Positions 0 and 1 of head 0 get (1, 2) and (3, 4); of head 1 (5, 6), (7, 8).
  auto out = pm->run({tensor<float>("k", DType::F32, {1, 2, 2, 2},
                                    {1, 2, 3, 4, 5, 6, 7, 8}),
                      tensor<int64_t>("pos", DType::I64, {1, 2}, {0, 1})});
  ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
  EXPECT_EQ(valuesOf<float>((*out)[0].data),
            (std::vector<float>{1, 2, 3, 4, 0, 0, 5, 6, 7, 8, 0, 0}));
  ASSERT_FALSE(bool(pm->handStateTo(*m)));
  // The step appends position 2 to what the prefill wrote.
  EXPECT_EQ(runStep(*m, 2, {9, 9, 9, 9}),
            (std::vector<float>{1, 2, 3, 4, 9, 9, 5, 6, 7, 8, 9, 9}));
}

TEST(State, HandingStateToAProgramThatPlacesItElsewhereIsAnError) {
  PrefillProgram pp;
  ProgramBuilder other; // the same state, one buffer placed before it
  uint32_t k = other.input("k", DType::F32, {1, 2, 1, 2});
  uint32_t pad = other.input("pad", DType::F32, {64});
  uint32_t pos = other.input("pos", DType::I64, {1, 1});
  uint32_t s = other.state("cache", DType::F32, {1, 2, 3, 2});
  other.inst(Opcode::StateWrite, {k, pos}, s, {2});
  other.inst(Opcode::Neg, {pad}, other.output("out", DType::F32, {64}));
  auto a = pp.b.load();
  auto b = other.load();
  ASSERT_TRUE(bool(a) && bool(b)) << llvm::toString(b.takeError());
  auto ma = Machine::load(*a);
  auto mb = Machine::load(*b);
  ASSERT_TRUE(bool(ma) && bool(mb));
  llvm::Error e = ma->handStateTo(*mb);
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("state 'cache' is f32[1,2,3,2] in 1 piece: node 0 @"),
            std::string::npos);
}
