//===- SimulatorTest.cpp - Cycle counts of correct schedules --------------===//
//
// Every expected number is derived here from the test chip's constants
// (ProgramBuilder.h), never copied from the simulator's output.
//
//===----------------------------------------------------------------------===//
#include "ProgramBuilder.h"

using namespace lpx::sim::test;

namespace {

using SimulatorTest = SimulatedTest;


const QueueStats *findQueue(const SimResult &r, uint32_t node,
                            const std::string &name) {
  for (const QueueStats &q : r.queues)
    if (q.node == node && q.queue == name)
      return &q;
  return nullptr;
}

TEST_F(SimulatorTest, OneVxmOp) {
  ProgramBuilder b;
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 640}, isa::pb::INPUT);
  uint32_t y = b.buffer("y", 0, 4096, DType::F32, {1, 640}, isa::pb::INPUT);
  uint32_t z = b.buffer("z", 0, 8192, DType::F32, {1, 640}, isa::pb::OUTPUT);
  b.inst(Opcode::Add, 0, 0, {x, y}, z, "Add_0");

  ASSERT_TRUE(simulated(b));
  // Issued at 0, busy 2, then the VXM pipeline latency.
  const uint64_t expected = row::kVxmBusy + chip::kVxmLatency;
  EXPECT_EQ(r.totalCycles, expected);
  EXPECT_DOUBLE_EQ(r.seconds, double(expected) / (chip::kClockMHz * 1e6));
  EXPECT_EQ(r.instructions, 1u);
  EXPECT_EQ(r.hazardCount, 0u);
  EXPECT_TRUE(r.hazards.empty());
  EXPECT_EQ(r.bytesOverLinks, 0u);
}

TEST_F(SimulatorTest, DependentChainAtReadiness) {
  // The add completes at busy + latency; the relu issues exactly then.
  const uint64_t addDone = row::kVxmBusy + chip::kVxmLatency;
  ProgramBuilder b = addThenRelu(addDone);

  ASSERT_TRUE(simulated(b));
  const uint64_t expected = addDone + row::kVxmBusy + chip::kVxmLatency;
  EXPECT_EQ(r.totalCycles, expected);
  EXPECT_EQ(r.hazardCount, 0u);
  EXPECT_EQ(r.instructions, 2u);
}

TEST_F(SimulatorTest, TranscendentalTakesSeveralPasses) {
  ProgramBuilder b;
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 640}, isa::pb::INPUT);
  uint32_t z = b.buffer("z", 0, 4096, DType::F32, {1, 640}, isa::pb::OUTPUT);
  b.inst(Opcode::Tanh, 0, 0, {x}, z, "Tanh_0");

  ASSERT_TRUE(simulated(b));
  // 8 vectors times 2 passes at 4 vectors per cycle.
  const uint64_t busy = ceilDiv(row::kVectors * chip::kVxmTranscendentalPasses,
                                chip::kVxmVectorsPerCycle);
  EXPECT_EQ(r.totalCycles, busy + chip::kVxmLatency);
  EXPECT_EQ(r.hazardCount, 0u);
}

TEST_F(SimulatorTest, MatMul) {
  // A: f32 [M=16, K=100], B: f32 [K=100, N=130] (weights), R: f32 [16, 130].
  constexpr uint64_t M = 16, K = 100, N = 130;
  ProgramBuilder b = f32MatMul(M, K, N, 3);

  ASSERT_TRUE(simulated(b));
  // Weight tiles: ceil(100/64) * ceil(130/64) = 2 * 3 = 6, spread over 2
  // planes = 3 tiles per plane. Loading a tile takes weight_load_cycles per
  // weight byte = 10 * 4 = 40. Streaming the 16 activation rows at the 32-bit
  // rate takes 16 * 4 = 64. The first load is exposed; afterwards each tile
  // costs max(load, stream) but the last, which streams alone: busy = 40 +
  // 2 * max(40, 64) + 64 = 232.
  const uint64_t tiles =
      ceilDiv(K, chip::kMxmRows) * ceilDiv(N, chip::kMxmCols);
  const uint64_t load = uint64_t(chip::kMxmWeightLoad) * 4;
  const uint64_t stream = M * chip::kMxmCycles32;
  const uint64_t busy =
      load + (ceilDiv(tiles, chip::kMxmPlanes) - 1) * std::max(load, stream) +
      stream;
  ASSERT_EQ(busy, 232u); // the arithmetic above, spelled out
  EXPECT_EQ(r.totalCycles, 3 + busy + chip::kMxmLatency);
  EXPECT_EQ(r.hazardCount, 0u);
  const QueueStats *mxm = findQueue(r, 0, "mxm");
  ASSERT_NE(mxm, nullptr);
  EXPECT_EQ(mxm->busyCycles, busy);
  EXPECT_EQ(mxm->instructions, 1u);
}

TEST_F(SimulatorTest, Int8MatMulIsLoadBound) {
  // A: i8 [8, 64], B: i8 [64, 64]: one tile, installed in both planes in
  // 10 * 1 byte = 10 cycles; the planes split the 8 rows, 4 cycles each:
  // busy = 10 + 4 = 14, the install more than the streaming.
  constexpr uint64_t M = 8, K = 64, N = 64;
  ProgramBuilder b;
  uint32_t a = b.buffer("a", 0, 0, DType::I8, {M, K}, isa::pb::INPUT);
  uint32_t w = b.buffer("w", 0, 1024, DType::I8, {K, N}, isa::pb::CONSTANT);
  uint32_t r0 = b.buffer("r", 0, 8192, DType::I8, {M, N}, isa::pb::OUTPUT);
  b.inst(Opcode::MatMul, 0, 0, {a, w}, r0, "MatMul_0");

  ASSERT_TRUE(simulated(b));
  const uint64_t load = chip::kMxmWeightLoad * 1;
  const uint64_t stream = M * chip::kMxmCyclesInt8;
  const uint64_t busy = load + stream / chip::kMxmPlanes;
  ASSERT_EQ(busy, 14u);
  EXPECT_EQ(r.totalCycles, busy + chip::kMxmLatency);
}

TEST_F(SimulatorTest, SendBetweenNodes) {
  ProgramBuilder b(2);
  // 1x200 f32 = 800 bytes.
  constexpr uint64_t bytes = 200 * 4;
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 200}, isa::pb::INPUT);
  uint32_t y = b.buffer("x@1", 1, 0, DType::F32, {1, 200});
  uint32_t z = b.buffer("z", 1, 4096, DType::F32, {1, 200}, isa::pb::OUTPUT);
  // 800 bytes = ceil(800 / 320) = 3 flits of 328 wire bytes = 984 bytes, at
  // 8 bytes per cycle = 123 cycles on the link, then 50 cycles of flight.
  const uint64_t flits = ceilDiv(bytes, chip::kFlitPayload);
  const uint64_t linkBusy =
      ceilDiv(flits * chip::kFlitBytes, chip::kLinkBytesPerCycle);
  const uint64_t arrive = linkBusy + chip::kLinkLatency;
  ASSERT_EQ(arrive, 173u);
  b.send(0, 0, x, y, 1, arrive, "Relu_0");
  // On node 1 the relu streams 3 vectors at 4 per cycle: 1 busy cycle.
  b.inst(Opcode::Relu, 1, arrive, {y}, z, "Relu_0");

  ASSERT_TRUE(simulated(b));
  const uint64_t reluBusy =
      ceilDiv(ceilDiv(bytes, chip::kVectorBytes), chip::kVxmVectorsPerCycle);
  EXPECT_EQ(r.totalCycles, arrive + reluBusy + chip::kVxmLatency);
  EXPECT_EQ(r.hazardCount, 0u);
  EXPECT_EQ(r.bytesOverLinks, bytes);
  const QueueStats *link = findQueue(r, 0, "link0");
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->busyCycles, linkBusy);
  EXPECT_EQ(link->instructions, 1u);
  EXPECT_EQ(findQueue(r, 1, "link0"), nullptr); // node 1 sent nothing
}

TEST_F(SimulatorTest, QueueStatsAndOrder) {
  ProgramBuilder b(2);
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 640}, isa::pb::INPUT);
  uint32_t t = b.buffer("t", 0, 4096, DType::F32, {1, 640});
  uint32_t c = b.buffer("c", 0, 8192, DType::F32, {1, 640});
  uint32_t y = b.buffer("y", 1, 0, DType::F32, {1, 640}, isa::pb::OUTPUT);
  uint32_t y2 = b.buffer("y2", 1, 4096, DType::F32, {1, 640}, isa::pb::OUTPUT);
  const uint64_t negDone = row::kVxmBusy + chip::kVxmLatency;
  // Copy: 8 vectors at 8 per cycle on MEM.
  const uint64_t copyBusy = ceilDiv(row::kVectors, chip::kMemVectorsPerCycle);
  const uint64_t copyDone = negDone + copyBusy + chip::kMemLatency;
  // 2560 bytes = 8 flits = 2624 wire bytes = 328 link cycles.
  const uint64_t linkBusy =
      ceilDiv(ceilDiv(row::kBytes, chip::kFlitPayload) * chip::kFlitBytes,
              chip::kLinkBytesPerCycle);
  b.inst(Opcode::Neg, 0, 0, {x}, t, "Neg_0");
  b.inst(Opcode::Copy, 0, negDone, {t}, c, "Reshape_1");
  b.send(0, copyDone, c, y, 1, copyDone + linkBusy + chip::kLinkLatency,
         "Reshape_1");
  // A second send on link 0 after the first frees it.
  b.send(0, copyDone + linkBusy, c, y2, 1,
         copyDone + 2 * linkBusy + chip::kLinkLatency, "Reshape_1");

  ASSERT_TRUE(simulated(b));
  EXPECT_EQ(r.hazardCount, 0u);
  const uint64_t total = copyDone + 2 * linkBusy + chip::kLinkLatency;
  EXPECT_EQ(r.totalCycles, total);

  // Node 0: its link, then the four units by name; node 1: units only.
  std::vector<std::pair<uint32_t, std::string>> order;
  for (const QueueStats &q : r.queues)
    order.emplace_back(q.node, q.queue);
  std::vector<std::pair<uint32_t, std::string>> want = {
      {0, "link0"}, {0, "mem"}, {0, "mxm"}, {0, "sxm"}, {0, "vxm"},
      {1, "mem"},   {1, "mxm"}, {1, "sxm"}, {1, "vxm"}};
  EXPECT_EQ(order, want);

  const QueueStats *vxm = findQueue(r, 0, "vxm");
  const QueueStats *mem = findQueue(r, 0, "mem");
  const QueueStats *link = findQueue(r, 0, "link0");
  ASSERT_TRUE(vxm && mem && link);
  EXPECT_EQ(vxm->busyCycles, row::kVxmBusy);
  EXPECT_EQ(mem->busyCycles, copyBusy);
  EXPECT_EQ(link->busyCycles, 2 * linkBusy);
  EXPECT_EQ(link->instructions, 2u);
  EXPECT_EQ(findQueue(r, 0, "mxm")->busyCycles, 0u);
  EXPECT_EQ(r.bytesOverLinks, 2 * row::kBytes);
}

TEST_F(SimulatorTest, EmptyProgram) {
  ProgramBuilder b;
  ASSERT_TRUE(simulated(b));
  EXPECT_EQ(r.totalCycles, 0u);
  EXPECT_EQ(r.instructions, 0u);
  EXPECT_EQ(r.queues.size(), 4u); // the four units of node 0
}

TEST_F(SimulatorTest, MaxCyclesStopsWithError) {
  ProgramBuilder b;
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 640}, isa::pb::INPUT);
  uint32_t z = b.buffer("z", 0, 4096, DType::F32, {1, 640}, isa::pb::OUTPUT);
  b.inst(Opcode::Relu, 0, 1000, {x}, z, "Relu_0");
  auto prog = b.load();
  ASSERT_TRUE(bool(prog)) << llvm::toString(prog.takeError());

  SimOptions opts;
  opts.maxCycles = 999;
  auto r = simulate(*prog, opts);
  ASSERT_FALSE(bool(r));
  std::string msg = llvm::toString(r.takeError());
  EXPECT_NE(msg.find("cycle 1000"), std::string::npos) << msg;
  EXPECT_NE(msg.find("relu"), std::string::npos) << msg;

  opts.maxCycles = 1000; // issuing exactly at the limit is allowed
  auto ok = simulate(*prog, opts);
  ASSERT_TRUE(bool(ok)) << llvm::toString(ok.takeError());
}

} // namespace
