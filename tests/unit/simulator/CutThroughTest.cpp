//===- CutThroughTest.cpp - Multi-hop transfers forwarded flit by flit ----===//
//
// A tensor sent 0 -> 1 -> 2 -> 3 over three links of the test chip. With
// link.cut_through an intermediate chip forwards each flit as soon as it has
// arrived, so the transfer costs about one serialisation plus three hop
// latencies instead of three whole transfers. Every figure is derived here
// from the test chip's constants.
//
//===----------------------------------------------------------------------===//
#include "ProgramBuilder.h"

using namespace lpx;
using namespace lpx::sim;
using namespace lpx::sim::test;
using isa::DType;

namespace {

// 1x3200 f32 = 12,800 bytes = 40 flits of 320 payload bytes, 328 bytes on
// the wire each: 13,120 bytes at 8 bytes per cycle = 1640 cycles on a link,
// 41 cycles per flit; each hop then flies 50 cycles.
constexpr uint64_t kBytes = 3200 * 4;
constexpr uint64_t kFlits = ceilDiv(kBytes, chip::kFlitPayload);
constexpr uint64_t kLinkBusy =
    ceilDiv(kFlits * chip::kFlitBytes, chip::kLinkBytesPerCycle);
constexpr uint64_t kFlitCycles = kLinkBusy / kFlits;
static_assert(kFlits == 40 && kLinkBusy == 1640 && kFlitCycles == 41);

// Hop k issues at issues[k] and arrives at issues[k] + 1640 + 50.
ProgramBuilder threeHops(const uint64_t (&issues)[3]) {
  ProgramBuilder b(4);
  uint32_t x = b.buffer("x", 0, 0, DType::F32, {1, 3200}, isa::pb::INPUT);
  uint32_t at1 = b.buffer("x@1", 1, 0, DType::F32, {1, 3200});
  uint32_t at2 = b.buffer("x@2", 2, 0, DType::F32, {1, 3200});
  uint32_t at3 = b.buffer("x@3", 3, 0, DType::F32, {1, 3200}, isa::pb::OUTPUT);
  const uint32_t from[] = {x, at1, at2}, to[] = {at1, at2, at3};
  for (uint32_t k = 0; k < 3; ++k)
    b.send(k, issues[k], from[k], to[k], k + 1,
           issues[k] + kLinkBusy + chip::kLinkLatency, "x");
  return b;
}

// Flit j leaves hop k+1 at issue + 41 j and has arrived over hop k at
// issue_k + 41 (j + 1) + 50: the first flit decides on equal links, so each
// hop may start 41 + 50 = 91 cycles after the previous one.
constexpr uint64_t kForward = kFlitCycles + chip::kLinkLatency;
static_assert(kForward == 91);

TEST(CutThroughTest, ThreeHopsCostOneSerialisationAndThreeLatencies) {
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(loadAndSimulate(threeHops({0, kForward, 2 * kForward}), prog, r));
  EXPECT_EQ(r.hazardCount, 0u) << (r.hazards.empty() ? "" : r.hazards[0].message);
  // 182 + 1640 + 50 = 1872 = one serialisation (1640) + three latencies
  // (150) + two flit times (82); store and forward would take 3 x 1690.
  EXPECT_EQ(r.totalCycles, 1872u);
  EXPECT_EQ(r.totalCycles, kLinkBusy + 3 * chip::kLinkLatency + 2 * kFlitCycles);
  // The lower bound knows the forwarding too: it is the same chain.
  EXPECT_EQ(r.lowerBound, 1872u);
}

TEST(CutThroughTest, ForwardingOneCycleEarlyIsAHazard) {
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(
      loadAndSimulate(threeHops({0, kForward, 2 * kForward - 1}), prog, r));
  std::vector<Hazard> h = hazardsOfKind(r, "operand-not-ready");
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].instruction, 2u);
  // Flit 0 would leave node 2 at 181 but is complete there only at 91 + 41
  // + 50 = 182.
  EXPECT_THAT(h[0].message, ::testing::HasSubstr("flit 0"));
  EXPECT_THAT(h[0].message, ::testing::HasSubstr("at cycle 181"));
  EXPECT_THAT(h[0].message, ::testing::HasSubstr("arrived at cycle 182"));
}

// The test chip with link.cut_through: false.
void storeAndForward(ProgramBuilder &b) {
  std::string yaml = testChipYaml();
  const std::string flit = llvm::formatv("flit_bytes: {0}\n", chip::kFlitBytes);
  yaml.replace(yaml.find(flit), flit.size(), flit + "  cut_through: false\n");
  b.program.set_chip_yaml(yaml);
  b.program.set_chip_hash(isa::hashText(yaml));
}

TEST(CutThroughTest, StoreAndForwardWhenSwitchedOff) {
  ProgramBuilder early = threeHops({0, kForward, 2 * kForward});
  storeAndForward(early);
  std::optional<isa::VerifiedProgram> prog;
  SimResult r;
  ASSERT_TRUE(loadAndSimulate(early, prog, r));
  // Each hop now needs the whole tensor: hops 1 and 2 are early.
  EXPECT_EQ(hazardsOfKind(r, "operand-not-ready").size(), 2u);
  // Hop after hop, 1690 cycles each: 5070.
  ProgramBuilder whole = threeHops({0, 1690, 3380});
  storeAndForward(whole);
  ASSERT_TRUE(loadAndSimulate(whole, prog, r));
  EXPECT_EQ(r.hazardCount, 0u);
  EXPECT_EQ(r.totalCycles, 3u * (kLinkBusy + chip::kLinkLatency));
}

} // namespace
