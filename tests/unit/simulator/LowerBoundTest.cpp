//===- LowerBoundTest.cpp - Lower bound, efficiency and host I/O ----------===//
//
// Every bound is derived by hand from the test chip's constants
// (ProgramBuilder.h). A 1x640 f32 tensor is 2560 bytes = 8 vectors: 2 busy
// cycles on the VXM (4 vectors per cycle) and 3 of latency. An 8x64 int8
// matmul with a 64x64 int8 weight is one tile, installed in both planes in
// 10 cycles (exposed); the planes split the 8 rows, 4 cycles each: 14 busy
// cycles and 7 of latency.
//
//===----------------------------------------------------------------------===//
#include "ProgramBuilder.h"

#include "llvm/Support/JSON.h"

using namespace lpx::sim::test;

namespace {

using LowerBoundTest = SimulatedTest;
using HostIoTest = SimulatedTest;

constexpr uint64_t kMxmBusy =
    chip::kMxmWeightLoad + 8 / chip::kMxmPlanes * chip::kMxmCyclesInt8;
constexpr uint64_t kMxmDone = kMxmBusy + chip::kMxmLatency;
// Every bank delivers one 320-byte vector per cycle.
constexpr uint64_t kSramBytesPerCycle =
    uint64_t(chip::kSramSlices) * chip::kBanksPerSlice * chip::kVectorBytes;
static_assert(row::kVxmBusy == 2 && row::kVxmDone == 5);
static_assert(kMxmBusy == 14 && kMxmDone == 21);

std::string text(const SimResult &r, const isa::VerifiedProgram &p) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printReport(r, p, os);
  return s;
}

// addThenRelu's chain (add x, y -> t at 0; relu t -> z at 5, when t is
// complete) and an independent int8 matmul a, w -> m issued at
// `matmulIssue`.
ProgramBuilder chainAndMatmul(uint64_t matmulIssue) {
  ProgramBuilder b = addThenRelu(row::kVxmDone);
  uint32_t a = b.buffer("a", 0, 16384, DType::I8, {8, 64}, isa::pb::INPUT);
  uint32_t w = b.buffer("w", 0, 20480, DType::I8, {64, 64}, isa::pb::CONSTANT);
  uint32_t m = b.buffer("m", 0, 28672, DType::I8, {8, 64}, isa::pb::OUTPUT);
  b.inst(Opcode::MatMul, 0, matmulIssue, {a, w}, m, "MatMul_2");
  if (matmulIssue <= row::kVxmDone) // keep the list sorted by issue cycle
    b.program.mutable_instructions()->SwapElements(1, 2);
  return b;
}

TEST_F(LowerBoundTest, ChainAndIndependentMatmul) {
  // The matmul issued only after the chain ends at 2 * 5 = 10.
  const uint64_t late = 2 * row::kVxmDone;
  ProgramBuilder b = chainAndMatmul(late);
  ASSERT_TRUE(simulated(b));
  ASSERT_EQ(r.hazardCount, 0u);
  EXPECT_EQ(r.totalCycles, late + kMxmDone); // 31

  // Dependency chains: add -> relu = (2 + 3) + (2 + 3) = 10; the matmul
  // alone = 14 + 7 = 21. The longer one ends at the matmul.
  EXPECT_EQ(r.bounds.criticalPath.cycles, kMxmDone);
  EXPECT_EQ(r.bounds.criticalPath.what, "dependency chain ending at MatMul_2");
  EXPECT_EQ(r.bounds.criticalPath.kind, lpx::sim::BoundKind::DependencyChain);
  EXPECT_EQ(r.bounds.tightest().kind, lpx::sim::BoundKind::DependencyChain);
  // Queues, as head + work + tail: the mxm can start at 0, works 14 and its
  // result needs 7 more cycles of latency: 21. The vxm starts at 0, works
  // 2 + 2 and at least the relu's 3 of latency follow: 7.
  EXPECT_EQ(r.bounds.resource.cycles, kMxmBusy + chip::kMxmLatency);
  EXPECT_EQ(r.bounds.resource.what, "mxm on node 0");
  EXPECT_EQ(r.bounds.resource.kind, lpx::sim::BoundKind::Queue);
  EXPECT_EQ(r.bounds.resource.unit, lpx::isa::Unit::MXM);
  EXPECT_EQ(r.bounds.resource.node, 0u);
  // SRAM: add 2560 * 3, relu 2560 * 2, matmul 512 + 4096 + 512 bytes.
  const uint64_t bytes = 5 * row::kBytes + 512 + 4096 + 512;
  EXPECT_EQ(r.bounds.sramBandwidth.cycles,
            ceilDiv(bytes, kSramBytesPerCycle)); // 1
  EXPECT_EQ(r.bounds.sramBandwidth.what, "SRAM bandwidth of node 0");
  EXPECT_EQ(r.bounds.sramBandwidth.kind, lpx::sim::BoundKind::SramBandwidth);
  EXPECT_EQ(r.bounds.sramBandwidth.node, 0u);
  EXPECT_EQ(r.bounds.deskew, 0u);

  EXPECT_EQ(r.lowerBound, kMxmDone);
  EXPECT_EQ(r.bottleneck, "dependency chain ending at MatMul_2");
  EXPECT_DOUBLE_EQ(r.efficiency, 21.0 / 31.0);
  std::string s = text(r, *prog);
  EXPECT_THAT(s, HasSubstr("lower bound: 21 cycles (bottleneck: dependency "
                           "chain ending at MatMul_2)"));
  EXPECT_THAT(s, HasSubstr("schedule efficiency: 0.68"));
}

TEST_F(LowerBoundTest, WellScheduledChainIsEfficient) {
  // With the matmul at cycle 0 the schedule meets its bound: 21 of 21.
  ProgramBuilder b = chainAndMatmul(0);
  ASSERT_TRUE(simulated(b));
  ASSERT_EQ(r.hazardCount, 0u);
  EXPECT_EQ(r.totalCycles, kMxmDone);
  EXPECT_EQ(r.lowerBound, kMxmDone);
  EXPECT_DOUBLE_EQ(r.efficiency, 1.0);
  EXPECT_THAT(text(r, *prog), HasSubstr("schedule efficiency: 1.00"));
}

TEST_F(LowerBoundTest, BusiestQueueBound) {
  // Four independent relus of x back to back on the VXM at 0, 2, 4, 6: the
  // last completes at 6 + 5 = 11. No chain is longer than one relu (5), but
  // the VXM can start at 0, needs 4 * 2 = 8 cycles of work, and whichever
  // relu runs last still has its 3 cycles of latency: 11, which this
  // schedule meets.
  ProgramBuilder b =
      relusOfX(4, [](int i) { return uint64_t(row::kVxmBusy * i); });
  ASSERT_TRUE(simulated(b));
  ASSERT_EQ(r.hazardCount, 0u);
  EXPECT_EQ(r.totalCycles, 3 * row::kVxmBusy + row::kVxmDone); // 11
  EXPECT_EQ(r.bounds.criticalPath.cycles, row::kVxmDone);
  // Ties between equal chains go to the first instruction that reached it.
  EXPECT_EQ(r.bounds.criticalPath.what, "dependency chain ending at Relu_0");
  EXPECT_EQ(r.bounds.resource.cycles, 4 * row::kVxmBusy + chip::kVxmLatency);
  EXPECT_EQ(r.lowerBound, 4 * row::kVxmBusy + chip::kVxmLatency);
  EXPECT_EQ(r.bottleneck, "vxm on node 0");
  EXPECT_DOUBLE_EQ(r.efficiency, 1.0);
}

TEST_F(LowerBoundTest, QueuesShareAUnitsWork) {
  // The same four relus on a VXM with 2 queues, two at a time at 0 and 2:
  // done at 2 + 5 = 7. The unit's 8 cycles of work spread over 2 queues
  // take at least 4, plus the last relu's 3 of latency: 7, met.
  ProgramBuilder b = relusOfX(
      4, [](int i) { return uint64_t(row::kVxmBusy * (i / 2)); }, 2);
  ASSERT_TRUE(simulated(b));
  ASSERT_EQ(r.hazardCount, 0u);
  EXPECT_EQ(r.totalCycles, row::kVxmBusy + row::kVxmDone); // 7
  EXPECT_EQ(r.bounds.resource.cycles,
            4 * row::kVxmBusy / 2 + chip::kVxmLatency);
  EXPECT_DOUBLE_EQ(r.efficiency, 1.0);
}

// x (node 0) is sent to y (node 1), then relu y -> z on node 1. A 1x80 f32
// tensor is 320 bytes: one flit of 328 wire bytes = 41 link cycles, 50 of
// flight; the relu streams 1 vector: 1 busy cycle, 3 of latency.
constexpr uint64_t kLinkBusy =
    ceilDiv(chip::kFlitBytes, chip::kLinkBytesPerCycle);
constexpr uint64_t kFlight = kLinkBusy + chip::kLinkLatency;
constexpr uint64_t kReluDone = 1 + chip::kVxmLatency;
static_assert(kLinkBusy == 41 && kFlight == 91);

ProgramBuilder sendThenRelu(uint32_t deskew, uint64_t start) {
  ProgramBuilder b(2);
  b.setDeskew(deskew);
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 80}, isa::pb::INPUT);
  uint32_t y = b.buffer("y", 1, 0, DType::F32, {1, 80});
  uint32_t z = b.buffer("z", 1, 4096, DType::F32, {1, 80}, isa::pb::OUTPUT);
  b.send(0, start, x, y, 1, start + kFlight, "Send_0");
  b.inst(Opcode::Relu, 1, start + kFlight, {y}, z, "Relu_1");
  return b;
}

TEST_F(LowerBoundTest, MultiNodeBoundsStartAfterDeskew) {
  constexpr uint32_t deskew = 100;
  ProgramBuilder b = sendThenRelu(deskew, deskew);
  ASSERT_TRUE(simulated(b));
  ASSERT_EQ(r.hazardCount, 0u);
  const uint64_t total = deskew + kFlight + kReluDone; // 195
  EXPECT_EQ(r.totalCycles, total);
  EXPECT_EQ(r.bounds.deskew, deskew);
  // Chain: deskew + send (41 + 50) + relu (1 + 3).
  EXPECT_EQ(r.bounds.criticalPath.cycles, total);
  EXPECT_EQ(r.bounds.criticalPath.what, "dependency chain ending at Relu_1");
  // Busiest queue: link 0 of node 0 can start after the deskew, works 41,
  // and 50 of flight plus the relu (1 + 3) follow: 100 + 41 + 54 = 195. The
  // vxm of node 1 gives the same (head 191, work 1, tail 3); equal bounds go
  // to the queue named first.
  EXPECT_EQ(r.bounds.resource.cycles, total);
  EXPECT_EQ(r.bounds.resource.what, "link 0 of node 0");
  EXPECT_EQ(r.bounds.resource.kind, lpx::sim::BoundKind::Queue);
  EXPECT_EQ(r.bounds.resource.unit, lpx::isa::Unit::C2C);
  EXPECT_EQ(r.bounds.resource.link, 0u);
  // SRAM: node 0 reads x (320 bytes); node 1 receives y (320), and the relu
  // reads y and writes z (640): node 1 is busier.
  EXPECT_EQ(r.bounds.sramBandwidth.cycles,
            deskew + ceilDiv(3 * 320, kSramBytesPerCycle));
  EXPECT_EQ(r.bounds.sramBandwidth.what, "SRAM bandwidth of node 1");
  EXPECT_EQ(r.bounds.sramBandwidth.node, 1u);
  EXPECT_EQ(r.lowerBound, total);
  EXPECT_DOUBLE_EQ(r.efficiency, 1.0);
}

TEST_F(LowerBoundTest, BeforeDeskewIsAHazard) {
  // The same program started at cycle 0 on a chip whose counters align at
  // cycle 100: both instructions issue too early (at 0 and at 91), and the
  // simulated 95 cycles undercut the bound of 195.
  constexpr uint32_t deskew = 100;
  ProgramBuilder b = sendThenRelu(deskew, 0);
  ASSERT_TRUE(simulated(b));
  ASSERT_EQ(r.hazardCount, 2u);
  EXPECT_EQ(r.hazards[0].kind, "before-deskew");
  EXPECT_EQ(r.hazards[0].instruction, 0u);
  EXPECT_EQ(r.hazards[0].cycle, 0u);
  EXPECT_EQ(r.hazards[1].kind, "before-deskew");
  EXPECT_EQ(r.hazards[1].node, 1u);
  EXPECT_EQ(r.hazards[1].cycle, kFlight);
  EXPECT_THAT(r.hazards[1].message,
              HasSubstr("relu (origin 'Relu_1'): issues at cycle 91, before "
                        "the chips' counters are aligned at cycle 100"));
  EXPECT_EQ(r.totalCycles, kFlight + kReluDone);
  EXPECT_EQ(r.lowerBound, deskew + kFlight + kReluDone);
  EXPECT_GT(r.efficiency, 1.0);
}

TEST_F(LowerBoundTest, SingleNodeIgnoresDeskew) {
  ProgramBuilder b;
  b.setDeskew(100);
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 80}, isa::pb::INPUT);
  uint32_t z = b.buffer("z", 0, 4096, DType::F32, {1, 80}, isa::pb::OUTPUT);
  b.inst(Opcode::Relu, 0, 0, {x}, z, "Relu_0");
  std::optional<SimResult> r = hazardFree(b);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->bounds.deskew, 0u);
  EXPECT_EQ(r->lowerBound, kReluDone);
}

TEST_F(LowerBoundTest, EmptyProgram) {
  ProgramBuilder b(2);
  b.setDeskew(100);
  ASSERT_TRUE(simulated(b));
  EXPECT_EQ(r.lowerBound, 0u);
  EXPECT_EQ(r.bounds.deskew, 0u);
  EXPECT_EQ(r.bottleneck, "");
  EXPECT_DOUBLE_EQ(r.efficiency, 1.0);
  EXPECT_DOUBLE_EQ(r.hostInputUs, 0.0);
  EXPECT_THAT(text(r, *prog), HasSubstr("lower bound: 0 cycles (bottleneck: "
                                       "none)"));
}

TEST_F(LowerBoundTest, ComputeLowerBoundsMatchesTheSimulation) {
  ProgramBuilder b = chainAndMatmul(2 * row::kVxmDone);
  ASSERT_TRUE(simulated(b));
  LowerBounds direct = computeLowerBounds(*prog);
  EXPECT_EQ(direct.tightest().cycles, r.lowerBound);
  EXPECT_EQ(direct.tightest().what, r.bottleneck);
  EXPECT_EQ(direct.resource.what, r.bounds.resource.what);
}

TEST_F(HostIoTest, SeparateFromCycles) {
  // Inputs x, y, a: 2560 + 2560 + 512 bytes; outputs z, m: 2560 + 512. The
  // constant w is not transferred. Each way: 10 us + bytes / 24 GB/s, and
  // 24 GB/s is 24e3 bytes per microsecond.
  ProgramBuilder b = chainAndMatmul(0);
  ASSERT_TRUE(simulated(b));
  const double in = chip::kHostLatencyUs + 5632.0 / 24e3;  // 10.234667
  const double out = chip::kHostLatencyUs + 3072.0 / 24e3; // 10.128
  EXPECT_EQ(r.hostInputBytes, 5632u);
  EXPECT_EQ(r.hostOutputBytes, 3072u);
  EXPECT_DOUBLE_EQ(r.hostInputUs, in);
  EXPECT_DOUBLE_EQ(r.hostOutputUs, out);
  EXPECT_EQ(r.totalCycles, kMxmDone); // unchanged by host I/O
  EXPECT_THAT(text(r, *prog), HasSubstr("host I/O: 10.235 us in, 10.128 us "
                                       "out (not in the cycle count)"));
}

TEST_F(HostIoTest, JsonKeys) {
  ProgramBuilder b = chainAndMatmul(2 * row::kVxmDone);
  ASSERT_TRUE(simulated(b));
  std::string s;
  llvm::raw_string_ostream os(s);
  printJson(r, *prog, os);
  auto parsed = llvm::json::parse(s);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  const llvm::json::Object *root = parsed->getAsObject();
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->getInteger("total_cycles"), 31);
  EXPECT_EQ(root->getInteger("lower_bound"), 21);
  EXPECT_EQ(root->getString("bottleneck"),
            "dependency chain ending at MatMul_2");
  EXPECT_DOUBLE_EQ(*root->getNumber("efficiency"), 21.0 / 31.0);
  EXPECT_DOUBLE_EQ(*root->getNumber("host_input_us"),
                   chip::kHostLatencyUs + 5632.0 / 24e3);
  EXPECT_DOUBLE_EQ(*root->getNumber("host_output_us"),
                   chip::kHostLatencyUs + 3072.0 / 24e3);
  const llvm::json::Object *bounds = root->getObject("bounds");
  ASSERT_NE(bounds, nullptr);
  EXPECT_EQ(bounds->getInteger("deskew"), 0);
  const llvm::json::Object *res = bounds->getObject("resource");
  ASSERT_NE(res, nullptr);
  EXPECT_EQ(res->getInteger("cycles"), 21); // 14 of work + 7 of latency
  EXPECT_EQ(res->getString("what"), "mxm on node 0");
  ASSERT_NE(bounds->getObject("sram_bandwidth"), nullptr);
  ASSERT_NE(bounds->getObject("critical_path"), nullptr);
  EXPECT_EQ(bounds->getObject("critical_path")->getInteger("cycles"), 21);
}

} // namespace
