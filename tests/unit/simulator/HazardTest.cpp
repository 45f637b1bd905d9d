//===- HazardTest.cpp - Schedules that cannot run as written --------------===//
//
// Each test breaks one rule of a correct schedule by a known amount and checks
// that exactly that hazard is reported, with node, instruction, cycle and the
// buffer concerned. Buffers sit 4096 bytes apart, in different banks of the
// test chip, except where a test shares an address on purpose: reading or
// overwriting data while it is being written is then also a bank conflict
// (BankConflictTest.cpp covers that rule on its own). Tests that count
// hazards run the replay checks alone (replayOnly()); the vector check's
// view of such schedules is VectorCheckTest.cpp's.
//
//===----------------------------------------------------------------------===//
#include "ProgramBuilder.h"
#include "lpx/test/Attributes.h"

#include <map>

using namespace lpx::sim::test;

namespace {

using HazardTest = SimulatedTest;


TEST_F(HazardTest, OperandNotReady) {
  // The relu issues one cycle before the add's result is complete.
  ProgramBuilder b = addThenRelu(row::kVxmDone - 1, "sum");

  ASSERT_TRUE(simulated(b, replayOnly()));
  // The relu also reads 'sum' while the add is still writing it.
  ASSERT_EQ(r.hazards.size(), 2u);
  EXPECT_EQ(r.hazardCount, 2u);
  ASSERT_EQ(hazardsOfKind(r, "bank-conflict").size(), 1u);
  EXPECT_EQ(hazardsOfKind(r, "bank-conflict")[0].instruction, 1u);
  const Hazard h = hazardsOfKind(r, "operand-not-ready").at(0);
  EXPECT_EQ(h.node, 0u);
  EXPECT_EQ(h.instruction, 1u);
  EXPECT_EQ(h.cycle, row::kVxmDone - 1);
  EXPECT_THAT(h.message, HasSubstr("relu"));
  EXPECT_THAT(h.message, HasSubstr("Relu_1"));
  EXPECT_THAT(h.message, HasSubstr("'sum'"));
  EXPECT_THAT(h.message, HasSubstr("cycle " + std::to_string(row::kVxmDone)));
  // The simulator does not stall: the relu still finishes on its own clock.
  EXPECT_EQ(r.totalCycles, row::kVxmDone - 1 + row::kVxmDone);
}

TEST_F(HazardTest, OperandNeverProduced) {
  ProgramBuilder b;
  uint32_t t = b.buffer("ghost", 0, 0, DType::F32, {1, 640});
  uint32_t z = b.buffer("z", 0, 4096, DType::F32, {1, 640}, isa::pb::OUTPUT);
  b.inst(Opcode::Relu, 0, 0, {t}, z, "Relu_0");

  ASSERT_TRUE(simulated(b));
  ASSERT_EQ(r.hazards.size(), 1u);
  EXPECT_EQ(r.hazards[0].kind, "operand-not-ready");
  EXPECT_THAT(r.hazards[0].message, HasSubstr("'ghost' is never produced"));
}

TEST_F(HazardTest, UnitBusy) {
  // The VXM is busy for row::kVxmBusy = 2 cycles; issue the next one at 1.
  ProgramBuilder b = twoReadersOfX(Opcode::Neg, 0, "Neg_0", Opcode::Relu,
                                   row::kVxmBusy - 1, "Relu_1");

  ASSERT_TRUE(simulated(b, replayOnly()));
  ASSERT_EQ(r.hazards.size(), 1u);
  const Hazard &h = r.hazards[0];
  EXPECT_EQ(h.kind, "unit-busy");
  EXPECT_EQ(h.instruction, 1u);
  EXPECT_EQ(h.cycle, row::kVxmBusy - 1);
  EXPECT_THAT(h.message, HasSubstr("vxm is busy until cycle " +
                                   std::to_string(row::kVxmBusy)));
  EXPECT_THAT(h.message, HasSubstr("Neg_0"));
  // Busy cycles count the union of occupied cycles: [0, 2) and [1, 3).
  for (const QueueStats &q : r.queues) {
    if (q.queue == "vxm") {
      EXPECT_EQ(q.busyCycles, row::kVxmBusy + 1);
    }
  }
}

TEST_F(HazardTest, DifferentUnitsRunInParallel) {
  ProgramBuilder b =
      twoReadersOfX(Opcode::Neg, 0, "Neg_0", Opcode::Copy, 0, "Reshape_1");

  std::optional<SimResult> r = hazardFree(b);
  ASSERT_TRUE(r);
  EXPECT_EQ(
      r->totalCycles,
      std::max(row::kVxmDone, row::kMemBusy + uint64_t(chip::kMemLatency)));
}

// With vxm.queues = 2 two VXM instructions may run in the same cycles, one
// per queue; the same queue still holds one at a time.
TEST_F(HazardTest, QueuesOfOneUnitRunInParallel) {
  ProgramBuilder b;
  b.setVxmQueues(2);
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 640}, isa::pb::INPUT);
  uint32_t z1 = b.buffer("z1", 0, 4096, DType::F32, {1, 640}, isa::pb::OUTPUT);
  uint32_t z2 = b.buffer("z2", 0, 8192, DType::F32, {1, 640}, isa::pb::OUTPUT);
  uint32_t z3 = b.buffer("z3", 0, 12288, DType::F32, {1, 640},
                         isa::pb::OUTPUT);
  b.inst(Opcode::Neg, 0, 0, {x}, z1, "Neg_0");
  b.inst(Opcode::Relu, 0, 0, {x}, z2, "Relu_1").set_queue(1);
  b.inst(Opcode::Neg, 0, row::kVxmBusy - 1, {x}, z3, "Neg_2").set_queue(1);

  ASSERT_TRUE(simulated(b, replayOnly()));
  ASSERT_EQ(r.hazards.size(), 1u) << "only Neg_2 collides, with Relu_1";
  EXPECT_EQ(r.hazards[0].kind, "unit-busy");
  EXPECT_EQ(r.hazards[0].instruction, 2u);
  EXPECT_THAT(r.hazards[0].message, HasSubstr("Relu_1"));
  // Each queue is reported: vxm0 ran [0, 2), vxm1 [0, 2) and [1, 3).
  std::map<std::string, uint64_t> busy;
  for (const QueueStats &q : r.queues)
    busy[q.queue] = q.busyCycles;
  EXPECT_EQ(busy["vxm0"], row::kVxmBusy);
  EXPECT_EQ(busy["vxm1"], row::kVxmBusy + 1);
  EXPECT_EQ(busy.count("vxm"), 0u);
}

TEST_F(HazardTest, QueueBeyondTheUnitsIsRejected) {
  ProgramBuilder b;
  b.setVxmQueues(2);
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 640}, isa::pb::INPUT);
  uint32_t z = b.buffer("z", 0, 4096, DType::F32, {1, 640}, isa::pb::OUTPUT);
  b.inst(Opcode::Neg, 0, 0, {x}, z, "Neg_0").set_queue(2);
  auto prog = b.load();
  ASSERT_FALSE(bool(prog));
  EXPECT_THAT(llvm::toString(prog.takeError()),
              HasSubstr("queue 2 of vxm, which has 2 queues"));
}

TEST_F(HazardTest, LinkBusy) {
  ProgramBuilder b(2);
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 80}, isa::pb::INPUT);
  uint32_t y1 = b.buffer("y1", 1, 0, DType::F32, {1, 80}, isa::pb::OUTPUT);
  uint32_t y2 = b.buffer("y2", 1, 4096, DType::F32, {1, 80}, isa::pb::OUTPUT);
  // 320 bytes = 1 flit = 328 wire bytes = 41 cycles at 8 bytes per cycle.
  const uint64_t busy = ceilDiv(chip::kFlitBytes, chip::kLinkBytesPerCycle);
  b.send(0, 0, x, y1, 1, busy + chip::kLinkLatency, "Send_0");
  b.send(0, busy - 1, x, y2, 1, 2 * busy - 1 + chip::kLinkLatency, "Send_1");

  ASSERT_TRUE(simulated(b, replayOnly()));
  ASSERT_EQ(r.hazards.size(), 1u);
  EXPECT_EQ(r.hazards[0].kind, "link-busy");
  EXPECT_EQ(r.hazards[0].instruction, 1u);
  EXPECT_THAT(r.hazards[0].message,
              HasSubstr("link 0 is busy until cycle " + std::to_string(busy)));
}

TEST_F(HazardTest, ArrivalMismatch) {
  ProgramBuilder b(2);
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 80}, isa::pb::INPUT);
  uint32_t y = b.buffer("y", 1, 0, DType::F32, {1, 80}, isa::pb::OUTPUT);
  // One flit: 41 link cycles plus 50 of flight; declare one cycle too early.
  const uint64_t arrive =
      ceilDiv(chip::kFlitBytes, chip::kLinkBytesPerCycle) + chip::kLinkLatency;
  b.send(0, 0, x, y, 1, arrive - 1, "Send_0");

  ASSERT_TRUE(simulated(b));
  ASSERT_EQ(r.hazards.size(), 1u);
  const Hazard &h = r.hazards[0];
  EXPECT_EQ(h.kind, "arrival-mismatch");
  EXPECT_EQ(h.instruction, 0u);
  EXPECT_THAT(h.message, HasSubstr("'y'"));
  EXPECT_THAT(h.message, HasSubstr("cycle " + std::to_string(arrive - 1)));
  EXPECT_THAT(h.message, HasSubstr("cycle " + std::to_string(arrive)));
  EXPECT_EQ(r.totalCycles, arrive); // the real arrival, not the declared one
}

// t1 and t2 share address 4096. t1 is read by a relu issued when t1 is ready
// at row::kVxmDone, which keeps reading for row::kVxmBusy cycles.
struct SharedAddress {
  ProgramBuilder b;
  uint32_t x, t1, t2, out1, out2;
  SharedAddress() {
    x = b.buffer("x", 0, 0, DType::F32, {1, 640}, isa::pb::INPUT);
    t1 = b.buffer("t1", 0, 4096, DType::F32, {1, 640});
    t2 = b.buffer("t2", 0, 4096, DType::F32, {1, 640});
    out1 = b.buffer("out1", 0, 8192, DType::F32, {1, 640}, isa::pb::OUTPUT);
    out2 = b.buffer("out2", 0, 12288, DType::F32, {1, 640}, isa::pb::OUTPUT);
  }
};

TEST_F(HazardTest, SramOverwriteWhileRead) {
  SharedAddress s;
  s.b.inst(Opcode::Neg, 0, 0, {s.x}, s.t1, "Neg_0");
  s.b.inst(Opcode::Relu, 0, row::kVxmDone, {s.t1}, s.out1, "Relu_1");
  // t1 is read until row::kVxmDone + row::kVxmBusy; the copy into t2 (on MEM,
  // so no unit conflict) starts one cycle before that.
  const uint64_t readEnd = row::kVxmDone + row::kVxmBusy;
  s.b.inst(Opcode::Copy, 0, readEnd - 1, {s.x}, s.t2, "Copy_2");
  s.b.inst(Opcode::Relu, 0, readEnd - 1 + row::kMemBusy + chip::kMemLatency,
           {s.t2}, s.out2, "Relu_3");

  ASSERT_TRUE(simulated(s.b));
  // Writing t2 over t1 while t1 is read is also a bank conflict.
  ASSERT_EQ(r.hazards.size(), 2u);
  ASSERT_EQ(hazardsOfKind(r, "bank-conflict").size(), 1u);
  EXPECT_EQ(hazardsOfKind(r, "bank-conflict")[0].instruction, 2u);
  const Hazard h = hazardsOfKind(r, "sram-overwrite").at(0);
  EXPECT_EQ(h.instruction, 2u);
  EXPECT_EQ(h.cycle, readEnd - 1);
  EXPECT_THAT(h.message, HasSubstr("copy (origin 'Copy_2')"));
  EXPECT_THAT(h.message, HasSubstr("'t2'"));
  EXPECT_THAT(h.message, HasSubstr("'t1' still read until cycle " +
                                   std::to_string(readEnd)));
}

TEST_F(HazardTest, SramReuseAfterLastReadIsFine) {
  SharedAddress s;
  s.b.inst(Opcode::Neg, 0, 0, {s.x}, s.t1, "Neg_0");
  s.b.inst(Opcode::Relu, 0, row::kVxmDone, {s.t1}, s.out1, "Relu_1");
  const uint64_t readEnd = row::kVxmDone + row::kVxmBusy;
  s.b.inst(Opcode::Copy, 0, readEnd, {s.x}, s.t2, "Copy_2");
  s.b.inst(Opcode::Relu, 0, readEnd + row::kMemBusy + chip::kMemLatency, {s.t2},
           s.out2, "Relu_3");

  EXPECT_TRUE(hazardFree(s.b));
}

TEST_F(HazardTest, SramOverwriteWhileProduced) {
  SharedAddress s;
  s.b.inst(Opcode::Neg, 0, 0, {s.x}, s.t1, "Neg_0");
  // t1 is complete only at row::kVxmDone; t2 takes its space at cycle 1.
  s.b.inst(Opcode::Copy, 0, 1, {s.x}, s.t2, "Copy_1");

  ASSERT_TRUE(simulated(s.b, replayOnly()));
  // Two writes to the same banks at once are also a bank conflict.
  ASSERT_EQ(r.hazards.size(), 2u);
  EXPECT_EQ(hazardsOfKind(r, "bank-conflict").size(), 1u);
  ASSERT_EQ(hazardsOfKind(r, "sram-overwrite").size(), 1u);
  EXPECT_THAT(hazardsOfKind(r, "sram-overwrite")[0].message,
              HasSubstr("'t1' still being produced until cycle " +
                        std::to_string(row::kVxmDone)));
}

TEST_F(HazardTest, ReadAfterOverwrite) {
  SharedAddress s;
  s.b.inst(Opcode::Neg, 0, 0, {s.x}, s.t1, "Neg_0");
  // t1 is complete and not yet read, so taking its space is not itself a
  // conflict; reading t1 afterwards is.
  s.b.inst(Opcode::Copy, 0, row::kVxmDone, {s.x}, s.t2, "Copy_1");
  s.b.inst(Opcode::Relu, 0, row::kVxmDone + 1, {s.t1}, s.out1, "Relu_2");

  ASSERT_TRUE(simulated(s.b, replayOnly()));
  // The copy is still writing t2 (until row::kVxmDone + 1 + kMemLatency) when
  // the relu reads the same banks: also a bank conflict.
  ASSERT_EQ(r.hazards.size(), 2u);
  EXPECT_EQ(hazardsOfKind(r, "bank-conflict").size(), 1u);
  const Hazard h = hazardsOfKind(r, "sram-overwrite").at(0);
  EXPECT_EQ(h.instruction, 2u);
  EXPECT_THAT(h.message,
              HasSubstr("operand 't1' was overwritten by 't2' (instruction 1 "
                        "at cycle " +
                        std::to_string(row::kVxmDone) + ")"));
}

TEST_F(HazardTest, PartialOverlapCounts) {
  ProgramBuilder b;
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 640}, isa::pb::INPUT);
  // a occupies [4096, 6656); b starts inside it.
  uint32_t a = b.buffer("a", 0, 4096, DType::F32, {1, 640});
  uint32_t c = b.buffer("c", 0, 4096 + 2000, DType::F32, {1, 80});
  uint32_t z = b.buffer("z", 0, 16384, DType::F32, {1, 640}, isa::pb::OUTPUT);
  b.inst(Opcode::Neg, 0, 0, {x}, a, "Neg_0");
  b.inst(Opcode::Relu, 0, row::kVxmDone, {a}, z, "Relu_1");
  isa::pb::Instruction &slice =
      b.inst(Opcode::Slice, 0, row::kVxmDone, {x}, c, "Slice_2");
  *slice.mutable_attributes() = lpx::test::sliceAttrs({0, 0}, {1, 1});

  ASSERT_TRUE(simulated(b));
  // The slice writes c into a's banks while the relu reads a.
  ASSERT_EQ(r.hazards.size(), 2u);
  EXPECT_EQ(hazardsOfKind(r, "bank-conflict").size(), 1u);
  ASSERT_EQ(hazardsOfKind(r, "sram-overwrite").size(), 1u);
  EXPECT_THAT(hazardsOfKind(r, "sram-overwrite")[0].message,
              HasSubstr("overwrites 'a'"));
}

TEST_F(HazardTest, OverwritingAnOutput) {
  ProgramBuilder b;
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 640}, isa::pb::INPUT);
  uint32_t out =
      b.buffer("out", 0, 4096, DType::F32, {1, 640}, isa::pb::OUTPUT);
  uint32_t t = b.buffer("t", 0, 4096, DType::F32, {1, 640});
  b.inst(Opcode::Neg, 0, 0, {x}, out, "Neg_0");
  b.inst(Opcode::Copy, 0, row::kVxmDone, {x}, t, "Copy_1");

  ASSERT_TRUE(simulated(b));
  ASSERT_EQ(r.hazards.size(), 1u);
  EXPECT_THAT(r.hazards[0].message,
              HasSubstr("'out' which the host reads after the program"));
}

TEST_F(HazardTest, MaxHazardsKeepsCounting) {
  // Five relus all at cycle 0 on the VXM: four unit-busy hazards.
  ProgramBuilder b = relusOfX(5, [](int) { return uint64_t(0); });
  SimOptions opts = replayOnly();
  opts.maxHazards = 2;
  ASSERT_TRUE(simulated(b, opts));
  EXPECT_EQ(r.hazardCount, 4u);
  ASSERT_EQ(r.hazards.size(), 2u);
  EXPECT_EQ(r.hazards[0].instruction, 1u);
  EXPECT_EQ(r.hazards[1].instruction, 2u);
}

} // namespace
