//===- DecodeMetricsTest.cpp - Decode figures from hand-made simulations --===//
//
// The bottleneck line and the KV-cache room are read from a simulation's
// queues and bounds and from per-chip SRAM; here both are made by hand, so
// every expected line is worked out below.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/DecodeMetrics.h"

#include <gtest/gtest.h>

using namespace lpx;
using namespace lpx::deploy;

namespace {

sim::Bound bound(uint64_t cycles, sim::BoundKind kind, uint32_t node,
                 std::string what) {
  sim::Bound b;
  b.cycles = cycles;
  b.kind = kind;
  b.node = node;
  b.what = std::move(what);
  return b;
}

/// 1000 cycles; mxm of chip 0 busy `mxm`, link 3 of chip 1 busy `link`;
/// chip 3 streams SRAM for `sram` cycles after a deskew of 100; a chain of
/// `chain` cycles.
sim::SimResult step(uint64_t mxm, uint64_t link, uint64_t sram,
                    uint64_t chain) {
  sim::SimResult r;
  r.totalCycles = 1000;
  r.queues = {{0, "mxm", mxm, 10}, {1, "link3", link, 4}};
  r.bounds.deskew = 100;
  r.bounds.sramBandwidth = bound(100 + sram, sim::BoundKind::SramBandwidth, 3,
                                 "SRAM bandwidth of node 3");
  r.bounds.criticalPath = bound(chain, sim::BoundKind::DependencyChain, 0,
                                "dependency chain ending at MatMul_7");
  return r;
}

} // namespace

TEST(DecodeBottleneck, TheSramOfTheChipStreamingMost) {
  // SRAM 800 cycles (900 - the deskew) > mxm 500; the chain (1000) is not
  // over twice 800.
  EXPECT_EQ(bottleneckOf(step(500, 300, 800, 1000)),
            "SRAM of chip 3: busy 800 of 1000 cycles (80%)");
}

TEST(DecodeBottleneck, TheBusiestQueueByItsChip) {
  // link 3 of chip 1 (400) over mxm (200) and SRAM (100); chain 700 <= 800.
  EXPECT_EQ(bottleneckOf(step(200, 400, 100, 700)),
            "link 3 of chip 1: busy 400 of 1000 cycles (40%)");
  EXPECT_EQ(bottleneckOf(step(600, 400, 100, 700)),
            "mxm on chip 0: busy 600 of 1000 cycles (60%)");
}

TEST(DecodeBottleneck, LatencyWhenTheChainIsOverTwiceTheBusiest) {
  // chain 900 > 2 x 400.
  EXPECT_EQ(bottleneckOf(step(200, 400, 100, 900)),
            "latency: the dependency chain of 900 cycles (dependency chain "
            "ending at MatMul_7); the busiest resource, link 3 of chip 1, is "
            "busy 400 of 1000 cycles (40%)");
}

TEST(DecodeKvRoom, TheFullestCacheChipDecides) {
  // Chip 0: 1000 - (100 + 50 + 50) = 800 free, 800 / 50 = 16 more caches
  // and its own: 17. Chip 1: 1000 - 700 = 300 free, 300 / 100 = 3: 4.
  // Chip 2 holds no cache and does not count.
  std::vector<ChipSram> sram = {{100, 50, 50, 1000},
                                {500, 100, 100, 1000},
                                {900, 0, 50, 1000}};
  EXPECT_EQ(groupsSramHolds(sram), 4u);
  sram.erase(sram.begin() + 1);
  EXPECT_EQ(groupsSramHolds(sram), 17u);
}

TEST(DecodeKvRoom, NoCacheNoLimit) {
  EXPECT_EQ(groupsSramHolds({{100, 0, 50, 1000}}), 0u);
}
