//===- ExecutionTraceTest.cpp - The per-instruction record of a run -------===//
//
// The trace must carry the cycles the simulation used: every expected value
// is derived here from the test chip's constants (ProgramBuilder.h), as in
// SimulatorTest, and MAC counts from the shapes.
//
//===----------------------------------------------------------------------===//
#include "ProgramBuilder.h"
#include "lpx/sim/LayerReport.h"

using namespace lpx::sim::test;

namespace {

/// Loads and simulates with a trace.
bool simulateTraced(const ProgramBuilder &b, ExecutionTrace &trace,
                    SimResult &r) {
  SimOptions opts;
  opts.trace = &trace;
  std::optional<isa::VerifiedProgram> prog;
  return loadAndSimulate(b, prog, r, opts);
}

TEST(ExecutionTraceTest, SendThenRelu) {
  ProgramBuilder b(2);
  constexpr uint64_t bytes = 200 * 4; // 1x200 f32
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 200}, isa::pb::INPUT);
  uint32_t y = b.buffer("x@1", 1, 0, DType::F32, {1, 200});
  uint32_t z = b.buffer("z", 1, 4096, DType::F32, {1, 200}, isa::pb::OUTPUT);
  // 3 flits of 328 bytes at 8 bytes per cycle, then 50 cycles of flight.
  const uint64_t linkBusy = ceilDiv(
      ceilDiv(bytes, chip::kFlitPayload) * chip::kFlitBytes,
      chip::kLinkBytesPerCycle);
  const uint64_t arrive = linkBusy + chip::kLinkLatency;
  b.send(0, 0, x, y, 1, arrive, "Relu_0");
  b.inst(Opcode::Relu, 1, arrive, {y}, z, "Relu_0");

  ExecutionTrace trace;
  SimResult r;
  ASSERT_TRUE(simulateTraced(b, trace, r));
  ASSERT_EQ(trace.instructions.size(), 2u);

  const InstructionEvent &send = trace.instructions[0];
  EXPECT_EQ(send.instruction, 0u);
  EXPECT_EQ(send.node, 0u);
  EXPECT_EQ(send.unit, isa::Unit::C2C);
  EXPECT_EQ(send.queue, 0u); // link 0 (to node 1)
  EXPECT_EQ(send.issue, 0u);
  EXPECT_EQ(send.busyEnd, linkBusy);
  EXPECT_EQ(send.done, arrive);
  EXPECT_EQ(send.bytesRead, bytes);
  EXPECT_EQ(send.bytesWritten, bytes);
  EXPECT_EQ(send.macs, 0u);
  EXPECT_EQ(send.hazards, 0u);

  const uint64_t reluBusy =
      ceilDiv(ceilDiv(bytes, chip::kVectorBytes), chip::kVxmVectorsPerCycle);
  const InstructionEvent &relu = trace.instructions[1];
  EXPECT_EQ(relu.node, 1u);
  EXPECT_EQ(relu.unit, isa::Unit::VXM);
  EXPECT_EQ(relu.issue, arrive);
  EXPECT_EQ(relu.busyEnd, arrive + reluBusy);
  EXPECT_EQ(relu.done, arrive + reluBusy + chip::kVxmLatency);
  EXPECT_EQ(relu.done, r.totalCycles);

  // x: preloaded, read by the send until the link is free again; x@1:
  // written by the send at 0, read by the relu until its busy end; z: an
  // output, kept to the end.
  ASSERT_EQ(trace.buffers.size(), 3u);
  EXPECT_EQ(trace.buffers[0].buffer, x);
  EXPECT_EQ(trace.buffers[0].from, 0u);
  EXPECT_EQ(trace.buffers[0].to, linkBusy);
  EXPECT_EQ(trace.buffers[1].node, 1u);
  EXPECT_EQ(trace.buffers[1].from, 0u);
  EXPECT_EQ(trace.buffers[1].to, arrive + reluBusy);
  EXPECT_EQ(trace.buffers[2].addr, 4096u);
  EXPECT_EQ(trace.buffers[2].bytes, bytes);
  EXPECT_EQ(trace.buffers[2].from, arrive);
  EXPECT_EQ(trace.buffers[2].to, r.totalCycles);
}

TEST(ExecutionTraceTest, MatMulMacsAndHazards) {
  constexpr uint64_t M = 16, K = 100, N = 130;
  ProgramBuilder b;
  uint32_t a = b.buffer("a", 0, 0, DType::F32, {M, K}, isa::pb::INPUT);
  uint32_t w = b.buffer("w", 0, 8192, DType::F32, {K, N}, isa::pb::CONSTANT);
  uint32_t t = b.buffer("t", 0, 65536, DType::F32, {M, N});
  uint32_t o = b.buffer("o", 0, 131072, DType::F32, {M, N}, isa::pb::OUTPUT);
  b.inst(Opcode::MatMul, 0, 0, {a, w}, t, "MatMul_0");
  // Issued one cycle after the matmul: its operand is not ready.
  b.inst(Opcode::Relu, 0, 1, {t}, o, "Relu_1");

  ExecutionTrace trace;
  SimResult r;
  ASSERT_TRUE(simulateTraced(b, trace, r));
  ASSERT_EQ(trace.instructions.size(), 2u);
  EXPECT_EQ(trace.instructions[0].unit, isa::Unit::MXM);
  EXPECT_EQ(trace.instructions[0].macs, M * K * N);
  EXPECT_EQ(trace.instructions[0].bytesRead, (M * K + K * N) * 4);
  EXPECT_EQ(trace.instructions[0].hazards, 0u);
  EXPECT_GE(trace.instructions[1].hazards, 1u);
  uint64_t sum = 0;
  for (const InstructionEvent &e : trace.instructions)
    sum += e.hazards;
  EXPECT_EQ(sum, r.hazardCount);
}

TEST(ExecutionTraceTest, NoTraceByDefault) {
  // opts.trace is null: no crash.
  std::optional<SimResult> r =
      hazardFree(relusOfX(1, [](int) { return uint64_t(0); }));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->instructions, 1u);
}

// The test chip's MXM: 2 planes of 64 x 64 at 1 int8 vector per cycle =
// 8192 MACs per cycle at peak.
constexpr uint64_t kPeak = uint64_t(chip::kMxmPlanes) * chip::kMxmRows *
                           chip::kMxmCols / chip::kMxmCyclesInt8;
static_assert(kPeak == 8192);

TEST(ExecutionTraceTest, PerLayerReportGroupsByOrigin) {
  // "fc": an int8 [8,64] x [64,64] matmul, one tile on both planes, each
  // streaming 4 rows: busy 10 + 4 = 14, done 14 + 7 = 21; 8 x 64 x 64 =
  // 32,768 MACs. Then "fc.relu" on its 512-byte result, issued at 27 (6
  // cycles of slack): 2 vectors at 4 per cycle, busy 1, done 27 + 1 + 3 =
  // 31; and a second "fc"
  // instruction (a relu of the input) at cycle 0: busy 1, done 4.
  ProgramBuilder b;
  uint32_t a = b.buffer("a", 0, 0, DType::I8, {8, 64}, isa::pb::INPUT);
  uint32_t w = b.buffer("w", 0, 4096, DType::I8, {64, 64}, isa::pb::CONSTANT);
  uint32_t y = b.buffer("y", 0, 8192, DType::I8, {8, 64});
  uint32_t z = b.buffer("z", 0, 12288, DType::I8, {8, 64}, isa::pb::OUTPUT);
  uint32_t v = b.buffer("v", 0, 16384, DType::I8, {8, 64}, isa::pb::OUTPUT);
  b.inst(Opcode::MatMul, 0, 0, {a, w}, y, "fc");
  b.inst(Opcode::Relu, 0, 0, {a}, v, "fc");
  b.inst(Opcode::Relu, 0, 27, {y}, z, "fc.relu");

  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ExecutionTrace trace;
  SimOptions opts;
  opts.trace = &trace;
  ASSERT_TRUE(loadAndSimulate(b, prog, r, opts));
  ASSERT_EQ(r.hazardCount, 0u);
  ASSERT_EQ(r.totalCycles, 31u);
  EXPECT_EQ(r.macs, 32768u);
  // The run: 32,768 / (8192 x 1 node x 31 cycles).
  EXPECT_DOUBLE_EQ(r.mxmUtilisation, 32768.0 / (8192.0 * 31.0));

  std::vector<LayerStats> layers = layerStats(*prog, trace);
  ASSERT_EQ(layers.size(), 2u);
  EXPECT_EQ(layers[0].origin, "fc");
  EXPECT_EQ(layers[0].instructions, 2u);
  EXPECT_EQ(layers[0].firstIssue, 0u);
  EXPECT_EQ(layers[0].lastDone, 21u);
  EXPECT_EQ(layers[0].busyCycles, 15u);
  EXPECT_EQ(layers[0].mxmBusyCycles, 14u);
  EXPECT_EQ(layers[0].macs, 32768u);
  // While it holds the array: 32,768 / (8192 x 14) = 28.6%.
  EXPECT_DOUBLE_EQ(layers[0].mxmUtilisation, 32768.0 / (8192.0 * 14.0));
  EXPECT_EQ(layers[1].origin, "fc.relu");
  EXPECT_EQ(layers[1].firstIssue, 27u);
  EXPECT_EQ(layers[1].lastDone, 31u);
  EXPECT_EQ(layers[1].macs, 0u);
  EXPECT_EQ(layers[1].mxmUtilisation, 0.0);

  std::string text;
  llvm::raw_string_ostream os(text);
  printLayerReport(layers, r, *prog, os);
  EXPECT_THAT(text, ::testing::HasSubstr("28.6%"));
  EXPECT_THAT(text, ::testing::HasSubstr("MXM utilisation 12.9%"));
  llvm::json::Array json = layerJson(layers);
  ASSERT_EQ(json.size(), 2u);
  EXPECT_EQ(json[0].getAsObject()->getInteger("macs"), 32768);
}

} // namespace

TEST(ExecutionTraceTest, StateWriteMovesTheUpdateAndNoHostIo) {
  // A resident K cache f32 [1, 2, 64, 80] (40960 bytes, banks 0..19 of 2048
  // bytes) and the new entry [1, 2, 1, 80] (640 bytes = 2 vectors) written
  // at a position: MEM streams 8 vectors per cycle, so 1 cycle, then its
  // latency. The state is neither read nor written by the host.
  ProgramBuilder b;
  uint32_t k = b.buffer("k", 0, 65536, DType::F32, {1, 2, 1, 80}, isa::pb::INPUT);
  uint32_t pos = b.buffer("pos", 0, 69632, DType::I64, {1, 1}, isa::pb::INPUT);
  uint32_t state = b.buffer("cache", 0, 0, DType::F32, {1, 2, 64, 80}, isa::pb::STATE);
  auto *stateBinding = b.proto().add_states();
  stateBinding->set_name("cache");
  stateBinding->set_buffer(state);
  for (auto [name, id] : {std::pair{"k", k}, std::pair{"pos", pos}}) {
    auto *bind = b.proto().add_inputs();
    bind->set_name(name);
    bind->set_buffer(id);
  }
  b.inst(Opcode::StateWrite, 0, 0, {k, pos}, state, "Concat_0")
      .mutable_attributes()
      ->mutable_axis()
      ->set_axis(2);

  ExecutionTrace trace;
  SimResult r;
  ASSERT_TRUE(simulateTraced(b, trace, r));
  EXPECT_EQ(r.hazardCount, 0u);
  ASSERT_EQ(trace.instructions.size(), 1u);
  const InstructionEvent &w = trace.instructions[0];
  EXPECT_EQ(w.unit, isa::Unit::MEM);
  EXPECT_EQ(w.busyEnd, 1u);
  EXPECT_EQ(w.done, 1u + chip::kMemLatency);
  EXPECT_EQ(w.bytesRead, 640u + 8u);
  EXPECT_EQ(w.bytesWritten, 640u);
  EXPECT_EQ(r.hostInputBytes, 648u);
  EXPECT_EQ(r.hostOutputBytes, 0u);
  // The state is kept to the end of the program, for the next run.
  auto lifetime = llvm::find_if(trace.buffers, [&](const BufferLifetime &l) {
    return l.buffer == state;
  });
  ASSERT_NE(lifetime, trace.buffers.end());
  EXPECT_EQ(lifetime->to, r.totalCycles);
}
