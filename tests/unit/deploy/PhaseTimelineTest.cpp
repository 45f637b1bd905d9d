//===- PhaseTimelineTest.cpp - What `lpx decode --report` draws of a phase ===//
//
// The chunk each instruction works on, on a program made by hand (so every
// label is worked out below); and the timeline of a real chunked prefill
// (tiny-llama on 8 lpx3 chips of 128 KiB: tp 2 x pp 4, a prompt of 64 in 2
// chunks of 32, placed as `lpx decode` places it) against its own
// simulation: the binned busy time of every
// stage adds up to its chips' queues' busy cycles, the stages are the
// placement's, and the chips drawn in full are the busiest stage's, with
// the occupancy PhaseResult holds. A second or two.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/DecodePlan.h"
#include "lpx/deploy/DeploymentTarget.h"
#include "lpx/deploy/PhaseTimeline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace lpx;
using namespace lpx::deploy;
using ::testing::ElementsAre;

namespace {

uint32_t buffer(isa::pb::Program &p, const std::string &name,
                isa::pb::BufferKind kind) {
  isa::pb::Buffer *b = p.add_buffers();
  b->set_name(name);
  b->set_kind(kind);
  return uint32_t(p.buffers_size() - 1);
}

void inst(isa::pb::Program &p, std::initializer_list<uint32_t> operands,
          uint32_t result) {
  isa::pb::Instruction *i = p.add_instructions();
  for (uint32_t id : operands)
    i->add_operands(id);
  i->set_result(result);
}

} // namespace

TEST(PhaseTimeline, EachInstructionWorksOnTheHighestChunkReachingIt) {
  isa::pb::Program p;
  const uint32_t ids0 = buffer(p, "input_ids", isa::pb::INPUT);
  const uint32_t ids1 = buffer(p, "input_ids.chunk1", isa::pb::INPUT);
  const uint32_t mask = buffer(p, "attention_mask", isa::pb::INPUT);
  const uint32_t table = buffer(p, "embed", isa::pb::CONSTANT);
  const uint32_t kv = buffer(p, "present.0.key", isa::pb::STATE);
  uint32_t t[6];
  for (uint32_t &id : t)
    id = buffer(p, "t", isa::pb::TEMP);
  inst(p, {ids0, table}, t[0]); // 0: chunk 0's embedding
  inst(p, {mask}, t[1]);        // -1: the mask, off the tokens' path
  inst(p, {t[0], kv}, kv);      // 0: chunk 0 writes the state
  inst(p, {ids1, table}, t[2]); // 1: chunk 1's embedding
  inst(p, {t[2], kv, t[1]}, t[3]); // 1: the state read carries no chunk
  inst(p, {kv}, t[4]);          // -1: the state alone
  inst(p, {t[0], t[3]}, t[5]);  // 1: the highest chunk of its operands
  EXPECT_THAT(chunkOfInstructions(p), ElementsAre(0, -1, 0, 1, 1, -1, 1));

  isa::pb::Program noIds;
  const uint32_t x = buffer(noIds, "x", isa::pb::INPUT);
  inst(noIds, {x}, buffer(noIds, "y", isa::pb::OUTPUT));
  EXPECT_TRUE(chunkOfInstructions(noIds).empty());
}

TEST(PhaseTimeline, AChunkedPrefillAgainstItsSimulation) {
  auto target = loadDeploymentTarget(
      {"tiny-llama", "lpx3", {"sram.bytes=128KiB"}, "", "", 2, 4},
      [](llvm::StringRef) { return "no preset"; });
  ASSERT_TRUE(bool(target)) << llvm::toString(target.takeError());
  ScratchDir dir;
  ASSERT_FALSE(bool(dir.create("lpx-phase-timeline-test")));
  target->scratchDir = dir.path.str().str();
  std::string why;
  auto shape = prefillShape(64, 1, 64, 32, why);
  ASSERT_TRUE(bool(shape)) << llvm::toString(shape.takeError());
  ASSERT_EQ(shape->chunks, 2);
  FitVerdict failure;
  auto r = runPhase(*target, *shape, 8, failure);
  ASSERT_TRUE(r && *r) << (r ? failure.message : llvm::toString(r.takeError()));
  const PhaseResult &phase = **r;
  const PhaseTimeline &t = phase.timeline;
  const isa::pb::Program &prog = phase.program->program();
  ASSERT_EQ(prog.tp(), 2u);
  // The stages are the latency bound's and cover the 8 chips: 4 stages of
  // 2, each holding work (the embedding and layer 0's attention, its MLP,
  // layer 1, the LM head: each ends at the residual add nearest its share
  // of the weights).
  EXPECT_EQ(phase.sim.latency.stages.size(), 4u);
  EXPECT_EQ(prog.pp(), 4u);

  EXPECT_EQ(t.cycles, phase.sim.totalCycles);
  EXPECT_EQ(t.chunks, 2);
  ASSERT_EQ(t.stages.size(), 4u);
  for (uint32_t s = 0; s < 4; ++s) {
    const StageTiming &st = t.stages[s];
    EXPECT_EQ(st.firstChip, 2 * s);
    EXPECT_EQ(st.chips, 2u);
    // The binned busy time (busy queues per chip per bin) adds back up to
    // the busy cycles the simulator counted on the stage's queues.
    uint64_t busy = 0;
    for (const sim::QueueStats &q : phase.sim.queues)
      if (q.node / 2 == s)
        busy += q.busyCycles;
    double binned = 0;
    for (float b : st.busy)
      binned += double(b);
    binned *= double(t.cycles) / double(t.stageBins) * double(st.chips);
    EXPECT_NEAR(binned, double(busy), 1e-3 * double(busy) + 1) << "stage " << s;
    ASSERT_EQ(st.chunks.size(), 2u);
    for (const CycleSpan &c : st.chunks)
      EXPECT_LE(c.to, t.cycles);
  }
  // The first stage takes chunk 0 before chunk 1 (a pipeline, not a
  // reorder), and chunk 0 reaches it before any other stage. (The prefill's
  // program uses 3 of the 4 stages the step's placement gave it, pp 3: the
  // last stage's chips do nothing on the tokens' path.)
  ASSERT_FALSE(t.stages[0].chunks[0].empty());
  ASSERT_FALSE(t.stages[0].chunks[1].empty());
  EXPECT_LT(t.stages[0].chunks[0].from, t.stages[0].chunks[1].from);
  for (const StageTiming &st : t.stages) {
    if (!st.chunks[0].empty()) {
      EXPECT_LE(t.stages[0].chunks[0].from, st.chunks[0].from);
    }
  }
  // The chips in full: the busiest stage's, longest occupied first.
  const StageTiming &b = t.stages[t.busiestStage];
  ASSERT_EQ(t.detail.size(), 2u);
  uint64_t longest = 0;
  for (uint64_t o : phase.occupied)
    longest = std::max(longest, o);
  EXPECT_EQ(t.detail[0].occupied, longest);
  for (const ChipTiming &c : t.detail) {
    EXPECT_GE(c.chip, b.firstChip);
    EXPECT_LT(c.chip, b.firstChip + b.chips);
    EXPECT_EQ(c.occupied, phase.occupied[c.chip]);
    EXPECT_FALSE(c.queues.empty());
  }
  EXPECT_GE(t.detail[0].occupied, t.detail[1].occupied);
}
