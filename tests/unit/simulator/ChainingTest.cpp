//===- ChainingTest.cpp - Consumers reading a producer's first vectors ----===//
//
// docs/simulator.md, "Chaining": with stream.chaining a streaming consumer
// may read vector j of a streaming producer's result once it is available,
// at issue_p + latency_p + fill_p + (j + 1) S_p / V, reading it at issue_c
// + fill_c + j S_c / V (S = busy - fill, the streaming window). Every
// figure is derived here from the test chip's constants; none is read back
// from the cost model.
//
//===----------------------------------------------------------------------===//
#include "ProgramBuilder.h"

using namespace lpx;
using namespace lpx::sim::test;
using isa::DType;

namespace {

// The test chip with stream.chaining on (its stream transport is 0) and
// `alus` ALUs per lane (its default: one per vector stream, 4).
void withChaining(ProgramBuilder &b, uint32_t alus = 4) {
  std::string yaml = testChipYaml() + "stream:\n  transport_cycles: 0\n"
                                      "  chaining: true\n";
  const std::string vxm = "vxm:\n";
  yaml.replace(yaml.find(vxm), vxm.size(),
               vxm + llvm::formatv("  alus_per_lane: {0}\n", alus).str());
  b.program.set_chip_yaml(yaml);
  b.program.set_chip_hash(isa::hashText(yaml));
}

// A consumer that reads a vector before its producer wrote it: the message
// of the replay's hazard (the program's only one) and of the vector check's,
// each found from its own timing model ("" for one not found: the test has
// then failed).
struct EarlyRead {
  std::string replay, vector;
};
EarlyRead earlyRead(const ProgramBuilder &b) {
  std::optional<Hazard> h = onlyHazard(b, "operand-not-ready", replayOnly());
  std::optional<Hazard> v = oneHazardOfKind(b, "vector-not-ready");
  return {h ? h->message : "", v ? v->message : ""};
}

// Copy (MEM) then relu (VXM) of a 1x6400 f32 row: 25,600 bytes = 80
// vectors. The copy is busy 80 / 8 = 10 cycles and done 2 later; the relu
// (one lane per f32 element: 80 lane-vectors) is busy 80 / 4 = 20, done 3
// later.
namespace copyRelu {
constexpr uint64_t kVectors = 6400 * 4 / chip::kVectorBytes;
constexpr uint64_t kCopyBusy = kVectors / chip::kMemVectorsPerCycle;
constexpr uint64_t kReluBusy = kVectors / chip::kVxmVectorsPerCycle;
static_assert(kVectors == 80 && kCopyBusy == 10 && kReluBusy == 20);
// The relu is the slower side (20 >= 10), so its first vector decides:
// vector 0 is available at 0 + 2 + 10/80 and read at the relu's issue, so
// the relu may issue at cycle 3 (2.125 rounded up).
constexpr uint64_t kChainedIssue = 3;
// Whole tensors: the relu waits for the copy's completion, 10 + 2.
constexpr uint64_t kWholeIssue = kCopyBusy + chip::kMemLatency;

ProgramBuilder program(uint64_t reluIssue, bool chaining) {
  ProgramBuilder b;
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 6400}, isa::pb::INPUT);
  uint32_t t = b.buffer("t", 0, 32768, DType::F32, {1, 6400});
  uint32_t z =
      b.buffer("z", 0, 65536, DType::F32, {1, 6400}, isa::pb::OUTPUT);
  b.inst(isa::Opcode::Copy, 0, 0, {x}, t, "Copy_0");
  b.inst(isa::Opcode::Relu, 0, reluIssue, {t}, z, "Relu_1");
  if (chaining)
    withChaining(b);
  return b;
}
} // namespace copyRelu

TEST(ChainingTest, SlowConsumerStartsOneVectorAfterTheProducer) {
  std::optional<SimResult> r =
      hazardFree(copyRelu::program(copyRelu::kChainedIssue, true));
  ASSERT_TRUE(r);
  // 3 + 20 + 3 = 26, against 12 + 20 + 3 = 35 with whole tensors. The
  // relu reads t off the stream while the copy still writes it: no bank
  // conflict although both touch t's bank.
  EXPECT_EQ(r->totalCycles, 26u);
  EXPECT_EQ(r->totalCycles,
            copyRelu::kChainedIssue + copyRelu::kReluBusy + chip::kVxmLatency);
  // The lower bound's dependency chain follows the same rule.
  EXPECT_EQ(r->bounds.criticalPath.cycles, 26u);
}

TEST(ChainingTest, ReadingTheFirstVectorOneCycleEarlyIsAHazard) {
  EarlyRead e =
      earlyRead(copyRelu::program(copyRelu::kChainedIssue - 1, true));
  // Vector 0 read at 2, available at 2 + 10/80, i.e. during cycle 3.
  EXPECT_THAT(e.replay, HasSubstr("reads vector 0 of 80 of 't' at cycle 2"));
  EXPECT_THAT(e.replay, HasSubstr("available at cycle 3"));
  // The vector check, from its own timing model, finds the same vector.
  EXPECT_THAT(e.vector, HasSubstr("reads vector 0 of 't' at cycle 2, before "
                                  "it lands in SRAM at cycle 3"));
}

TEST(ChainingTest, WholeTensorSwitchGivesTodaysCycles) {
  // Without stream.chaining the relu must wait for the copy's last vector,
  // and reads t from SRAM while the copy still writes its bank.
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(loadAndSimulate(
      copyRelu::program(copyRelu::kChainedIssue, false), prog, r,
      replayOnly()));
  std::vector<Hazard> early = hazardsOfKind(r, "operand-not-ready");
  ASSERT_EQ(early.size(), 1u);
  EXPECT_THAT(early[0].message, HasSubstr("not complete until cycle 12"));
  EXPECT_EQ(hazardsOfKind(r, "bank-conflict").size(), 1u);
  EXPECT_EQ(r.hazardCount, 2u);
  ASSERT_TRUE(loadAndSimulate(
      copyRelu::program(copyRelu::kWholeIssue, false), prog, r));
  EXPECT_EQ(r.hazardCount, 0u);
  EXPECT_EQ(r.totalCycles, 35u);
  // A whole-tensor schedule stays valid with chaining on, at the same cycles.
  ASSERT_TRUE(loadAndSimulate(
      copyRelu::program(copyRelu::kWholeIssue, true), prog, r));
  EXPECT_EQ(r.hazardCount, 0u);
  EXPECT_EQ(r.totalCycles, 35u);
}

// Matmul (MXM) then relu (VXM): x [128, 64] int8 times w [64, 64] int8 into
// i32 [128, 64] = 32,768 bytes = 103 vectors (102.4 rounded up).
// Weights stationary: one 64x64 tile, copied into both planes, which split
// the 128 rows: install 10 x 1 byte, then max(10, 128 / 2) = 64 cycles of
// streaming; busy 74, fill 10 (the install), streaming window 64, latency 7.
// (Activations stationary: two tiles of x^T, one per plane, 10 + 64, no
// cheaper, so the weights stay.) The relu: 8192 i32 elements, 4 lanes each,
// 102.4 -> 103 lane-vectors at 4 per cycle: busy 26, latency 3.
namespace mxmRelu {
constexpr uint64_t kVectors = ceilDiv(128 * 64 * 4, chip::kVectorBytes);
constexpr uint64_t kFill = chip::kMxmWeightLoad;
constexpr uint64_t kMxmBusy = kFill + 128 / chip::kMxmPlanes;
constexpr uint64_t kStream = kMxmBusy - kFill;
constexpr uint64_t kReluBusy = ceilDiv(kVectors, chip::kVxmVectorsPerCycle);
static_assert(kVectors == 103 && kMxmBusy == 74 && kReluBusy == 26);
// The relu is faster (26 < 64): the last vector decides. Vector 102 is
// available at 7 + 10 + 103 x 64 / 103 = 81 and read at issue + 102 x 26 /
// 103 = issue + 25.75, so the relu may issue at 55.25 -> 56.
constexpr uint64_t kChainedIssue = 56;
static_assert(kChainedIssue ==
              chip::kMxmLatency + kFill +
                  ceilDiv(kVectors * kStream - (kVectors - 1) * kReluBusy,
                          kVectors));

ProgramBuilder program(uint64_t reluIssue) {
  ProgramBuilder b;
  uint32_t x = b.buffer("x", 0, 0, DType::I8, {128, 64}, isa::pb::INPUT);
  uint32_t w = b.buffer("w", 0, 16384, DType::I8, {64, 64}, isa::pb::CONSTANT);
  uint32_t y = b.buffer("y", 0, 32768, DType::I32, {128, 64});
  uint32_t z =
      b.buffer("z", 0, 65536, DType::I32, {128, 64}, isa::pb::OUTPUT);
  b.inst(isa::Opcode::MatMul, 0, 0, {x, w}, y, "MatMul_0");
  b.inst(isa::Opcode::Relu, 0, reluIssue, {y}, z, "Relu_1");
  withChaining(b);
  return b;
}
} // namespace mxmRelu

TEST(ChainingTest, FastConsumerFinishesJustAfterTheProducer) {
  std::optional<SimResult> r =
      hazardFree(mxmRelu::program(mxmRelu::kChainedIssue));
  ASSERT_TRUE(r);
  // 56 + 26 + 3 = 85, against (74 + 7) + 26 + 3 = 110 with whole tensors.
  EXPECT_EQ(r->totalCycles, 85u);
  EXPECT_EQ(r->bounds.criticalPath.cycles, 85u);
}

TEST(ChainingTest, OvertakingTheProducerIsAHazardAtTheVectorItHappens) {
  EarlyRead e = earlyRead(mxmRelu::program(mxmRelu::kChainedIssue - 1));
  // Issued at 55, vector j is read at 55 + 26 j / 103 and available at 17
  // + 64 (j + 1) / 103: the relu first overtakes at j = 102 (80.75 < 81;
  // at j = 101, 80.50 >= 80.38).
  EXPECT_THAT(e.replay, HasSubstr("reads vector 102 of 103 of 'y'"));
  EXPECT_THAT(e.replay, HasSubstr("available at cycle 81"));
  // The vector check's own plane model: the last vector decides too.
  EXPECT_THAT(e.vector, HasSubstr("reads vector 102 of 'y' at cycle 80, "
                                  "before it lands in SRAM at cycle 81"));
}

// Two vector operations in the ALU mesh (item 6): add x + y -> t then relu
// t -> z, 1x6400 f32 rows (80 lane-vectors, busy 20, one ALU pass each,
// latency 3), both on the one VXM queue. With 16 ALUs per lane the two
// need (1 + 1) x 4 = 8, so the relu may issue while the add holds the
// queue. Equal rates: the first vector decides, available at 0 + 3 +
// 20/80 -> issue 4.
namespace mesh {
constexpr uint64_t kBusy = 6400 * 4 / chip::kVectorBytes / chip::kVxmVectorsPerCycle;
static_assert(kBusy == 20);
constexpr uint64_t kReluIssue = chip::kVxmLatency + 1;

ProgramBuilder program(uint32_t alus, bool third = false) {
  ProgramBuilder b;
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 6400}, isa::pb::INPUT);
  uint32_t y = b.buffer("y", 0, 32768, DType::F32, {1, 6400}, isa::pb::INPUT);
  uint32_t t = b.buffer("t", 0, 65536, DType::F32, {1, 6400});
  uint32_t z = b.buffer("z", 0, 98304, DType::F32, {1, 6400},
                        third ? isa::pb::TEMP : isa::pb::OUTPUT);
  b.inst(isa::Opcode::Add, 0, 0, {x, y}, t, "Add_0");
  b.inst(isa::Opcode::Relu, 0, kReluIssue, {t}, z, "Relu_1");
  if (third) { // a neg of z, chained at the same pace, joining the pair
    uint32_t n =
        b.buffer("n", 0, 131072, DType::F32, {1, 6400}, isa::pb::OUTPUT);
    b.inst(isa::Opcode::Neg, 0, 2 * kReluIssue, {z}, n, "Neg_2");
  }
  withChaining(b, alus);
  return b;
}
} // namespace mesh

TEST(ChainingTest, TwoVectorOperationsShareTheMesh) {
  std::optional<SimResult> r = hazardFree(mesh::program(16));
  ASSERT_TRUE(r);
  // 4 + 20 + 3 = 27: one pass over the data plus the two pipelines, against
  // (20 + 3) + 20 + 3 = 46 one after the other. The queue is occupied
  // during [0, 24).
  EXPECT_EQ(r->totalCycles, 27u);
  EXPECT_EQ(r->bounds.criticalPath.cycles, 27u);
  ASSERT_FALSE(r->queues.empty());
  for (const QueueStats &q : r->queues) {
    if (q.queue == "vxm") {
      EXPECT_EQ(q.busyCycles, 24u);
    }
  }
}

TEST(ChainingTest, NoMeshSharingWhenTheAlusDoNotFit) {
  // 4 ALUs per lane: the add alone needs all of them at 4 vectors a cycle.
  std::optional<Hazard> h =
      onlyHazard(mesh::program(4), "unit-busy", replayOnly());
  ASSERT_TRUE(h);
  EXPECT_THAT(h->message, HasSubstr("vxm is busy until cycle 20"));
  // The vector check's own model of the mesh agrees.
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(loadAndSimulate(mesh::program(4), prog, r));
  std::vector<Hazard> v = hazardsOfKind(r, "stream-conflict");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_THAT(v[0].message, HasSubstr("until cycle 20"));
}

TEST(ChainingTest, OnlyAPairSharesTheMesh) {
  // The neg would be a third operation in the mesh while the add runs.
  std::optional<Hazard> h =
      onlyHazard(mesh::program(16, true), "unit-busy", replayOnly());
  ASSERT_TRUE(h);
  EXPECT_EQ(h->instruction, 2u);
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(loadAndSimulate(mesh::program(16, true), prog, r));
  std::vector<Hazard> v = hazardsOfKind(r, "stream-conflict");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].instruction, 2u);
}

} // namespace
