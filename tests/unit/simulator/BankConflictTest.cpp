//===- BankConflictTest.cpp - A read and a write must hit different banks -===//
//
// The test chip has banks of kBankBytes = 2048 bytes, so bank b holds
// [2048 b, 2048 (b + 1)). Tensors here are 1x80 f32 = 320 bytes, one vector:
// on the VXM that is 1 busy cycle (1 vector at 4 per cycle) and 3 of latency,
// on the MEM 1 busy cycle (1 vector at 8 per cycle) and 2 of latency. An
// instruction reads its operands during [issue, issue + busy) and writes its
// result during [issue, issue + busy + latency).
//
//===----------------------------------------------------------------------===//
#include "ProgramBuilder.h"

#include "lpx/isa/Banks.h"

using namespace lpx::sim::test;

namespace {

constexpr uint64_t kVecBytes = 80 * 4;
constexpr uint64_t kVxmBusy = 1;
constexpr uint64_t kMemBusy = 1;
static_assert(ceilDiv(kVecBytes, chip::kVectorBytes) == 1);
static_assert(ceilDiv(1, chip::kVxmVectorsPerCycle) == kVxmBusy);
static_assert(ceilDiv(1, chip::kMemVectorsPerCycle) == kMemBusy);
static_assert(chip::kBankBytes == 2048);

// Address of byte `offset` of bank `bank`.
constexpr uint64_t inBank(uint64_t bank, uint64_t offset = 0) {
  return bank * chip::kBankBytes + offset;
}

TEST(BanksTest, LayoutFromTheChipDescription) {
  auto tsp = isa::loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(tsp)) << llvm::toString(tsp.takeError());
  // 220 MiB over 88 slices x 2 banks = 1.25 MiB per bank.
  EXPECT_EQ(isa::bankBytes(*tsp), (220ull << 20) / (88 * 2));

  ProgramBuilder b;
  auto prog = b.load();
  ASSERT_TRUE(bool(prog)) << llvm::toString(prog.takeError());
  const isa::ChipSpec &c = prog->chip();
  EXPECT_EQ(isa::bankBytes(c), chip::kBankBytes);
  EXPECT_TRUE(isa::banksOf(c, 0, 0).empty());
  isa::BankRange r = isa::banksOf(c, 2047, 2);
  EXPECT_EQ(r.first, 0u);
  EXPECT_EQ(r.last, 1u);
  r = isa::banksOf(c, 4096, 2048);
  EXPECT_EQ(r.first, 2u);
  EXPECT_EQ(r.last, 2u);
  EXPECT_TRUE(r.overlaps(isa::banksOf(c, 5000, 1)));
  EXPECT_FALSE(r.overlaps(isa::banksOf(c, 6144, 1)));
  EXPECT_FALSE(r.overlaps(isa::banksOf(c, 4096, 0)));
}

// neg a -> t on the VXM at cycle 0 writes t (bank 2) during [0, 1 + 3);
// copy u -> z on the MEM at `copyIssue` reads u during [copyIssue,
// copyIssue + 1) and writes z (bank 4).
struct WriteThenRead {
  ProgramBuilder b;
  WriteThenRead(uint64_t uAddr, uint64_t copyIssue) {
    uint32_t a =
        b.buffer("a", 0, inBank(0), DType::F32, {1, 80}, isa::pb::INPUT);
    uint32_t t =
        b.buffer("t", 0, inBank(2), DType::F32, {1, 80}, isa::pb::OUTPUT);
    uint32_t u = b.buffer("u", 0, uAddr, DType::F32, {1, 80}, isa::pb::INPUT);
    uint32_t z =
        b.buffer("z", 0, inBank(4), DType::F32, {1, 80}, isa::pb::OUTPUT);
    b.inst(Opcode::Neg, 0, 0, {a}, t, "Neg_0");
    b.inst(Opcode::Copy, 0, copyIssue, {u}, z, "Copy_1");
  }
};

constexpr uint64_t kNegWriteEnd = kVxmBusy + chip::kVxmLatency; // 4

/// The message of `b`'s one hazard, which must be a bank conflict found at
/// instruction `instruction` of `node` at `cycle` ("" when there is none:
/// the test has then failed).
std::string bankConflictAt(const ProgramBuilder &b, uint32_t node,
                           uint32_t instruction, uint64_t cycle,
                           const SimOptions &opts = {}) {
  std::optional<Hazard> h = onlyHazard(b, "bank-conflict", opts);
  if (!h)
    return "";
  EXPECT_EQ(h->node, node);
  EXPECT_EQ(h->instruction, instruction);
  EXPECT_EQ(h->cycle, cycle);
  return h->message;
}

TEST(BankConflictTest, ReadOfABankBeingWritten) {
  // u shares bank 2 with t but not a byte. The copy reads it during [2, 3),
  // inside the neg's write window [0, 4): one conflict, at the copy.
  WriteThenRead w(inBank(2, 1024), 2);
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(loadAndSimulate(w.b, prog, r));
  ASSERT_EQ(r.hazardCount, 1u);
  const Hazard &h = r.hazards[0];
  EXPECT_EQ(h.kind, "bank-conflict");
  EXPECT_EQ(h.node, 0u);
  EXPECT_EQ(h.instruction, 1u);
  EXPECT_EQ(h.cycle, 2u);
  EXPECT_THAT(h.message, HasSubstr("copy (origin 'Copy_1'): reads 'u' in "
                                   "bank 2 during cycles [2, 3)"));
  EXPECT_THAT(h.message,
              HasSubstr("instruction 0, neg (origin 'Neg_0'), writes 't' in "
                        "bank 2 during cycles [0, " +
                        std::to_string(kNegWriteEnd) + ")"));
  // A conflict does not change timing: the copy still ends at 2 + 1 + 2.
  EXPECT_EQ(r.totalCycles,
            std::max<uint64_t>(kNegWriteEnd, 2 + kMemBusy + chip::kMemLatency));
}

TEST(BankConflictTest, DifferentBanksDoNotConflict) {
  WriteThenRead w(inBank(6), 2);
  EXPECT_TRUE(hazardFree(w.b));
}

TEST(BankConflictTest, SameBankAfterTheWriteEndsIsFine) {
  // The neg's write window is [0, 4); a read from cycle 4 on is after it.
  WriteThenRead w(inBank(2, 1024), kNegWriteEnd);
  EXPECT_TRUE(hazardFree(w.b));
}

TEST(BankConflictTest, ReadsShareABank) {
  // Two units read a (bank 0) in the same cycle and write different banks.
  ProgramBuilder b;
  uint32_t a = b.buffer("a", 0, inBank(0), DType::F32, {1, 80}, isa::pb::INPUT);
  uint32_t c =
      b.buffer("c", 0, inBank(0, 1024), DType::F32, {1, 80}, isa::pb::INPUT);
  uint32_t t =
      b.buffer("t", 0, inBank(2), DType::F32, {1, 80}, isa::pb::OUTPUT);
  uint32_t z =
      b.buffer("z", 0, inBank(4), DType::F32, {1, 80}, isa::pb::OUTPUT);
  b.inst(Opcode::Add, 0, 0, {a, c}, t, "Add_0");
  b.inst(Opcode::Copy, 0, 0, {a}, z, "Copy_1");
  EXPECT_TRUE(hazardFree(b));
}

TEST(BankConflictTest, TwoWritesToOneBank) {
  // neg writes t (bank 2) during [0, 4); the copy writes t2, also in bank 2,
  // during [1, 1 + 1 + 2).
  ProgramBuilder b;
  uint32_t a = b.buffer("a", 0, inBank(0), DType::F32, {1, 80}, isa::pb::INPUT);
  uint32_t t =
      b.buffer("t", 0, inBank(2), DType::F32, {1, 80}, isa::pb::OUTPUT);
  uint32_t t2 =
      b.buffer("t2", 0, inBank(2, 1024), DType::F32, {1, 80}, isa::pb::OUTPUT);
  b.inst(Opcode::Neg, 0, 0, {a}, t, "Neg_0");
  b.inst(Opcode::Copy, 0, 1, {a}, t2, "Copy_1");
  EXPECT_THAT(bankConflictAt(b, 0, 1, 1, replayOnly()),
              HasSubstr("writes 't2' in bank 2 during cycles [1, " +
                        std::to_string(1 + kMemBusy + chip::kMemLatency) +
                        ")"));
}

TEST(BankConflictTest, ResultSharesABankWithItsOwnOperand) {
  // relu u -> t with u and t in bank 2 (different bytes): the write window
  // [0, 4) covers the read window [0, 1). No other instruction is involved.
  ProgramBuilder b;
  uint32_t u =
      b.buffer("u", 0, inBank(2, 1024), DType::F32, {1, 80}, isa::pb::INPUT);
  uint32_t t =
      b.buffer("t", 0, inBank(2), DType::F32, {1, 80}, isa::pb::OUTPUT);
  b.inst(Opcode::Relu, 0, 0, {u}, t, "Relu_0");
  EXPECT_THAT(bankConflictAt(b, 0, 0, 0),
              HasSubstr("writes 't' in bank 2 during cycles [0, " +
                        std::to_string(kNegWriteEnd) +
                        ") while it reads its own operand 'u' in bank 2"));
}

TEST(BankConflictTest, SendWritesOnTheDestination) {
  // The send writes y (node 1, bank 0) from its issue until it lands: one
  // flit = 328 wire bytes at 8 per cycle = 41 cycles, plus 50 of flight. A
  // relu on node 1 reading w (also bank 0) at cycle 10 conflicts with it;
  // on node 0 nothing does.
  ProgramBuilder b(2);
  const uint64_t arrive =
      ceilDiv(chip::kFlitBytes, chip::kLinkBytesPerCycle) + chip::kLinkLatency;
  uint32_t x = b.buffer("x", 0, inBank(0), DType::F32, {1, 80}, isa::pb::INPUT);
  uint32_t y =
      b.buffer("y", 1, inBank(0), DType::F32, {1, 80}, isa::pb::OUTPUT);
  uint32_t w =
      b.buffer("w", 1, inBank(0, 1024), DType::F32, {1, 80}, isa::pb::INPUT);
  uint32_t z =
      b.buffer("z", 1, inBank(4), DType::F32, {1, 80}, isa::pb::OUTPUT);
  b.send(0, 0, x, y, 1, arrive, "Send_0");
  b.inst(Opcode::Relu, 1, 10, {w}, z, "Relu_1");
  EXPECT_THAT(bankConflictAt(b, 1, 1, 10),
              HasSubstr("writes 'y' in bank 0 during cycles [0, " +
                        std::to_string(arrive) + ") on node 1"));
}

} // namespace
