//===- VectorCheckTest.cpp - The vector-granular check, by hand -----------===//
//
// Per-vector timelines written out from the test chip's constants
// (lpx/test/TestChip.h; no stream transport), compared with the vector
// check's own model (VectorTiming.h) and with the cost model the scheduler
// uses (isa::instructionCost): where both read the same description data
// they must agree. Then schedules one cycle too early, each caught by the
// vector check with the instruction, vector and cycle named.
//
//===----------------------------------------------------------------------===//
#include "ProgramBuilder.h"
#include "VectorTiming.h"

#include "lpx/isa/Timing.h"

using namespace lpx::sim::test;

namespace {

constexpr const char *kNotReady = "vector-not-ready";

/// Unit i of a plan issued at `issue` lands at issue + depth + ceil((i+1) *
/// span / units) (VectorPlan); the whole timeline, for comparing with one
/// written by hand.
std::vector<uint64_t> landings(const VectorPlan &p, uint64_t issue) {
  std::vector<uint64_t> out;
  for (uint64_t i = 0; i < p.units; ++i)
    out.push_back(issue + p.depth + ceilDiv((i + 1) * p.span, p.units));
  return out;
}

/// The plan of instruction `index` and the cost model's cost of it.
struct BothModels {
  VectorPlan plan;
  isa::Cost cost;
};

BothModels bothModels(const isa::VerifiedProgram &prog, int index) {
  const isa::pb::Program &p = prog.program();
  const isa::pb::Instruction &inst = p.instructions(index);
  auto desc = [&](uint32_t id) {
    const isa::pb::Buffer &b = p.buffers(int(id));
    return isa::TensorDesc{static_cast<isa::DType>(b.dtype()),
                           {b.shape().begin(), b.shape().end()}};
  };
  std::vector<isa::TensorDesc> ops;
  for (uint32_t id : inst.operands())
    ops.push_back(desc(id));
  const isa::Opcode op = isa::opcodeOf(inst);
  isa::Cost cost =
      op == Opcode::Send
          ? isa::sendCost(prog.chip(), ops[0].bytes(),
                          isa::localLinkRate(prog.chip()))
          : isa::instructionCost(prog.chip(), op, ops, desc(inst.result()),
                                 inst.attributes());
  return {planInstruction(prog.chip(), p, inst), cost};
}

std::optional<isa::VerifiedProgram> load(const ProgramBuilder &b) {
  auto loaded = b.load();
  if (!loaded) {
    ADD_FAILURE() << llvm::toString(loaded.takeError());
    return std::nullopt;
  }
  return std::move(*loaded);
}

ProgramBuilder chained(ProgramBuilder b) {
  chainingChip(b);
  return b;
}

std::vector<Hazard> vectorHazards(const SimResult &r) {
  std::vector<Hazard> out;
  for (const Hazard &h : r.hazards)
    if (h.kind == "vector-not-ready" || h.kind == "stream-conflict" ||
        h.kind == "sram-port-conflict")
      out.push_back(h);
  return out;
}

TEST(VectorCheckTest, ElementwiseTimelineByHand) {
  // add x + y, 1x640 f32: 8 vectors, the VXM takes 4 a cycle. Vectors 0-3
  // pass in cycle 0 and 4-7 in cycle 1; each lands 3 cycles (the VXM's
  // depth) after the end of its cycle.
  const std::vector<uint64_t> add = {4, 4, 4, 4, 5, 5, 5, 5};
  std::optional<isa::VerifiedProgram> prog = load(addThenRelu(row::kVxmDone));
  ASSERT_TRUE(prog);
  BothModels m = bothModels(*prog, 0);
  EXPECT_EQ(m.plan.span, 2u);
  EXPECT_EQ(m.plan.depth, chip::kVxmLatency);
  EXPECT_TRUE(m.plan.streamsResult);
  EXPECT_TRUE(m.plan.readsInStep);
  EXPECT_EQ(landings(m.plan, 0), add);
  // The cost model's whole-tensor view: busy = the span, and the result is
  // complete when the last vector lands.
  EXPECT_EQ(m.cost.busy, m.plan.span);
  EXPECT_EQ(m.cost.done(0), add.back());
}

TEST(VectorCheckTest, MatrixUnitTimelineByHand) {
  // f32 [16, 100] x [100, 130]: 2 x 3 = 6 weight tiles of 64 x 64, 3 per
  // plane. A 4-byte tile installs in 10 x 4 = 40 cycles; the 16 rows stream
  // at 4 cycles each, 64. Plane 0, written out:
  //   install tile 0 [0, 40)
  //   stream tile 0 [40, 104)   install tile 2 [40, 80)
  //   stream tile 2 [104, 168)  install tile 4 [104, 144)
  //   stream tile 4 [168, 232)
  // Plane 1 does tiles 1, 3, 5 in the same cycles. The last row leaves at
  // 232 and lands 7 (the MXM's depth) later.
  ProgramBuilder b = f32MatMul(16, 100, 130, 0);
  // An int8 [8, 64] x [64, 64]: one tile, installed in both planes in 10
  // cycles; plane 0 streams rows 0-3 during [10, 14), plane 1 rows 4-7.
  uint32_t a8 = b.buffer("a8", 0, 131072, DType::I8, {8, 64}, isa::pb::INPUT);
  uint32_t w8 =
      b.buffer("w8", 0, 135168, DType::I8, {64, 64}, isa::pb::CONSTANT);
  uint32_t r8 =
      b.buffer("r8", 0, 143360, DType::I32, {8, 64}, isa::pb::OUTPUT);
  b.inst(Opcode::MatMul, 0, 232, {a8, w8}, r8, "MatMul_1");
  std::optional<isa::VerifiedProgram> prog = load(b);
  ASSERT_TRUE(prog);
  BothModels big = bothModels(*prog, 0), small = bothModels(*prog, 1);
  EXPECT_EQ(big.plan.span, 232u);
  EXPECT_EQ(big.plan.depth, chip::kMxmLatency);
  // Result vectors leave in order after the first install (the chaining
  // contract's ASSUMPTION): fill 40, then the 26 vectors of the [16, 130]
  // f32 result over the remaining 192 cycles.
  EXPECT_EQ(big.plan.fill, 40u);
  EXPECT_TRUE(big.plan.streamsResult);
  EXPECT_FALSE(big.plan.readsInStep); // operands are taken whole
  EXPECT_EQ(small.plan.span, 14u);
  EXPECT_EQ(big.cost.busy, big.plan.span);
  EXPECT_EQ(big.cost.latency, big.plan.depth);
  EXPECT_EQ(big.cost.fill, big.plan.fill); // the chaining contract's fill
  EXPECT_EQ(small.cost.busy, small.plan.span);
  // Both land by hand: 232 + 7 and 232 + 14 + 7.
  SimResult r;
  ASSERT_TRUE(loadAndSimulate(b, prog, r));
  EXPECT_EQ(r.hazardCount, 0u);
  EXPECT_EQ(r.totalCycles, 232u + 14 + 7);
}

TEST(VectorCheckTest, FlitTimelineByHand) {
  // 12,800 bytes over one link: 40 flits of 328 wire bytes at 8 bytes per
  // cycle, 41 cycles each; flit j arrives at 41 (j + 1) + 50.
  ProgramBuilder b(2);
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 3200}, isa::pb::INPUT);
  uint32_t y = b.buffer("x@1", 1, 0, DType::F32, {1, 3200}, isa::pb::OUTPUT);
  b.send(0, 0, x, y, 1, 1640 + 50, "x");
  std::optional<isa::VerifiedProgram> prog = load(b);
  ASSERT_TRUE(prog);
  BothModels m = bothModels(*prog, 0);
  std::vector<uint64_t> byHand;
  for (uint64_t j = 0; j < 40; ++j)
    byHand.push_back(41 * (j + 1) + 50);
  EXPECT_EQ(landings(m.plan, 0), byHand);
  EXPECT_EQ(m.cost.busy, m.plan.span);
  EXPECT_EQ(m.cost.done(0), byHand.back());
}

// ---- one cycle too early ----------------------------------------------

TEST(VectorCheckTest, InStepReaderMeetsTheFirstVector) {
  // With stream.chaining, relu reads 'sum' in step at the same pace (4 a
  // cycle): vector 0 lands at 4, so at 4 every vector it reads is there
  // (the chaining contract says so too: no replay hazard), and at 3 it is
  // one cycle too early. Read before the add is done, 'sum' comes off the
  // stream registers, so the read uses no SRAM port.
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(loadAndSimulate(chained(addThenRelu(4, "sum")), prog, r));
  EXPECT_TRUE(r.hazards.empty()) << r.hazards[0].message;

  ASSERT_TRUE(loadAndSimulate(chained(addThenRelu(3, "sum")), prog, r));
  std::vector<Hazard> h = hazardsOfKind(r, kNotReady);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].instruction, 1u);
  EXPECT_EQ(h[0].cycle, 3u);
  EXPECT_THAT(h[0].message, HasSubstr("reads vector 0 of 'sum' at cycle 3, "
                                      "before it lands in SRAM at cycle 4 "
                                      "(instruction 0)"));
}

TEST(VectorCheckTest, FasterReaderMeetsTheLastVector) {
  // A copy on the MEM (8 vectors a cycle) reads 'sum' in step: at issue t
  // vector 7 passes at t + 7/8, and lands at 5. t = 5 is the first safe
  // cycle; at 4 vector 0 is fine (lands at 4) but vector 7 is not.
  for (uint64_t issue : {5u, 4u}) {
    ProgramBuilder b = chained(addThenRelu(0, "sum"));
    b.proto().mutable_instructions()->RemoveLast();
    uint32_t c = b.buffer("c", 0, 16384, DType::F32, {1, 640}, isa::pb::OUTPUT);
    b.inst(Opcode::Copy, 0, issue, {2}, c, "Copy_1");
    std::optional<isa::VerifiedProgram> prog;
    SimResult r;
    ASSERT_TRUE(loadAndSimulate(b, prog, r));
    std::vector<Hazard> h = hazardsOfKind(r, kNotReady);
    if (issue == 5) {
      EXPECT_TRUE(vectorHazards(r).empty());
      continue;
    }
    ASSERT_EQ(h.size(), 1u);
    EXPECT_THAT(h[0].message, HasSubstr("reads vector 7 of 'sum' at cycle 4, "
                                        "before it lands in SRAM at cycle 5"));
  }
}

TEST(VectorCheckTest, WithoutChainingEveryReadIsWhole) {
  // stream.chaining off (the test chip's default): the relu at 4 reads
  // 'sum' from SRAM whole, and its last vector lands only at 5.
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(loadAndSimulate(addThenRelu(4, "sum"), prog, r));
  std::vector<Hazard> h = hazardsOfKind(r, kNotReady);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_THAT(h[0].message, HasSubstr("reads 'sum' from cycle 4, but its last "
                                      "vector lands in SRAM only at cycle 5"));
}

TEST(VectorCheckTest, WholeReaderNeedsTheLastVector) {
  // A softmax needs all of its row: it may not start before 'sum' is whole
  // at 5.
  ProgramBuilder b = addThenRelu(0, "sum");
  b.proto().mutable_instructions()->RemoveLast();
  uint32_t s = b.buffer("s", 0, 16384, DType::F32, {1, 640}, isa::pb::OUTPUT);
  b.inst(Opcode::Softmax, 0, 4, {2}, s, "Softmax_1")
      .mutable_attributes()
      ->mutable_axis()
      ->set_axis(1);
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(loadAndSimulate(b, prog, r));
  std::vector<Hazard> h = hazardsOfKind(r, kNotReady);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_THAT(h[0].message, HasSubstr("reads 'sum' from cycle 4, but its last "
                                      "vector lands in SRAM only at cycle 5"));
}

TEST(VectorCheckTest, StreamConflict) {
  // Two relus on the one VXM queue: the first streams during [0, 2).
  ProgramBuilder b =
      twoReadersOfX(Opcode::Relu, 0, "Relu_0", Opcode::Relu, 1, "Relu_1");
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(loadAndSimulate(b, prog, r));
  std::vector<Hazard> h = hazardsOfKind(r, "stream-conflict");
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].instruction, 1u);
  EXPECT_THAT(h[0].message,
              HasSubstr("streams on vxm queue 0 of node 0 from cycle 1, which "
                        "carries the vectors of instruction 0"));
  EXPECT_THAT(h[0].message, HasSubstr("until cycle 2"));
}

TEST(VectorCheckTest, SramPortPerVector) {
  // neg writes its one vector of 't' (bank 2) in cycle 3 (lands at 0 + 3 +
  // 1); a copy issued at 1 writes 't2', also in bank 2, in cycle 1 + 2 + 1
  // - 1 = 3 as well: a port conflict. Issued at 2 it writes in cycle 4:
  // fine per vector, though the instructions' whole windows still overlap
  // (the replay's bank-conflict).
  for (uint64_t issue : {1u, 2u}) {
    ProgramBuilder b;
    uint32_t a = b.buffer("a", 0, 0, DType::F32, {1, 80}, isa::pb::INPUT);
    uint32_t t = b.buffer("t", 0, 2 * chip::kBankBytes, DType::F32, {1, 80},
                          isa::pb::OUTPUT);
    uint32_t t2 = b.buffer("t2", 0, 2 * chip::kBankBytes + 1024, DType::F32,
                           {1, 80}, isa::pb::OUTPUT);
    b.inst(Opcode::Neg, 0, 0, {a}, t, "Neg_0");
    b.inst(Opcode::Copy, 0, issue, {a}, t2, "Copy_1");
    std::optional<isa::VerifiedProgram> prog;
    SimResult r;
    ASSERT_TRUE(loadAndSimulate(b, prog, r));
    std::vector<Hazard> h = hazardsOfKind(r, "sram-port-conflict");
    EXPECT_EQ(hazardsOfKind(r, "bank-conflict").size(), 1u);
    if (issue == 2) {
      EXPECT_TRUE(h.empty());
      continue;
    }
    ASSERT_EQ(h.size(), 1u);
    EXPECT_EQ(h[0].instruction, 1u);
    EXPECT_THAT(h[0].message,
                HasSubstr("writes 't2' in bank 2 of node 0 at cycle 3, while "
                          "instruction 0 writes 't' there during cycles [3, 4)"));
  }
}

TEST(VectorCheckTest, ForwardedFlitBeforeItArrives) {
  // 0 -> 1 -> 2: hop 2 may forward flit 0 once it has arrived at node 1,
  // at 41 + 50 = 91; at 90 it is one cycle early.
  for (uint64_t issue : {91u, 90u}) {
    ProgramBuilder b(3);
    uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 3200}, isa::pb::INPUT);
    uint32_t at1 = b.buffer("x@1", 1, 0, DType::F32, {1, 3200});
    uint32_t at2 =
        b.buffer("x@2", 2, 0, DType::F32, {1, 3200}, isa::pb::OUTPUT);
    b.send(0, 0, x, at1, 1, 1640 + 50, "x");
    b.send(1, issue, at1, at2, 2, issue + 1640 + 50, "x");
    std::optional<isa::VerifiedProgram> prog;
    SimResult r;
    ASSERT_TRUE(loadAndSimulate(b, prog, r));
    std::vector<Hazard> h = hazardsOfKind(r, kNotReady);
    if (issue == 91) {
      EXPECT_EQ(r.hazardCount, 0u);
      continue;
    }
    ASSERT_EQ(h.size(), 1u);
    EXPECT_THAT(h[0].message,
                HasSubstr("reads flit 0 of 'x@1' at cycle 90, before it "
                          "arrives over its link at cycle 91"));
  }
}

TEST(VectorCheckTest, CanBeSwitchedOff) {
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(loadAndSimulate(addThenRelu(3, "sum"), prog, r, replayOnly()));
  EXPECT_TRUE(vectorHazards(r).empty());
  EXPECT_FALSE(r.hazards.empty()); // the replay's own checks still run
}

} // namespace
