//===- TopologyTest.cpp - Routes, hop counts and link rates per level -----===//
//
// Expected routes are derived by hand from the wiring rules in Topology.h
// (worked out in the comments), not taken from the code's output.
//
//===----------------------------------------------------------------------===//
#include "lpx/isa/Topology.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace lpx::isa;
using ::testing::HasSubstr;

namespace {

/// Groups of 4 chips (3 local links), 1 global link per chip: a flat
/// Dragonfly of at most 4 * 1 + 1 = 5 groups (20 chips); past that, racks of
/// 3 groups (one link per pair) and a system of 4 racks (one link per pair):
/// at most 12 groups, 48 chips. A group's 4 global ports (port p on chip p):
/// ports 0-1 go to the other groups of its rack, port 2 (chip 2) holds the
/// one system port the rack deals to it, port 3 is unused.
ChipSpec smallChip() {
  ChipSpec c = *loadChipSpec("tsp-v1");
  c.topology.groupSize = 4;
  c.topology.globalLinksPerChip = 1;
  c.topology.globalLanes = 2;
  c.topology.globalLaneBytesPerCycle = 5;
  c.topology.globalLatency = 100;
  c.topology.rack = TopologyLevel{3, 1, 0, 0, 150};
  c.topology.system = TopologyLevel{4, 1, 1, 4, 300};
  return c;
}

struct Expect {
  uint32_t from, to, link, level;
};

void expectRoute(const ChipSpec &c, uint32_t n, uint32_t src, uint32_t dst,
                 const std::vector<Expect> &want) {
  std::vector<Hop> got = route(c, n, src, dst);
  ASSERT_EQ(got.size(), want.size()) << src << " -> " << dst;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].from, want[i].from) << "hop " << i;
    EXPECT_EQ(got[i].to, want[i].to) << "hop " << i;
    EXPECT_EQ(got[i].link, want[i].link) << "hop " << i;
    EXPECT_EQ(got[i].level, want[i].level) << "hop " << i;
    EXPECT_EQ(linkTarget(c, n, got[i].from, got[i].link), got[i].to);
  }
}

/// Every route is a chain of existing links from src to dst, no longer than
/// `maxHops`; returns the longest.
size_t checkAllRoutes(const ChipSpec &c, uint32_t n, uint32_t stride,
                      size_t maxHops) {
  size_t longest = 0;
  for (uint32_t s = 0; s < n; s += stride)
    for (uint32_t d = 0; d < n; ++d) {
      std::vector<Hop> hops = route(c, n, s, d);
      uint32_t at = s;
      for (const Hop &h : hops) {
        EXPECT_EQ(h.from, at);
        EXPECT_EQ(linkTarget(c, n, h.from, h.link), h.to)
            << s << " -> " << d << " via " << h.from << " link " << h.link;
        at = h.to;
      }
      EXPECT_EQ(at, d);
      EXPECT_LE(hops.size(), maxHops) << s << " -> " << d;
      longest = std::max(longest, hops.size());
    }
  return longest;
}

TEST(Topology, FlatDragonflyUpToItsReach) {
  ChipSpec c = smallChip();
  // 20 chips, 5 groups: flat. Chip 0 (group 0) to chip 19 (group 4, chip 3):
  // group 0's port toward 4 is (4 + 5 - 0 - 1) mod 5 = 3 -> chip 3; group
  // 4's toward 0 is (0 + 5 - 4 - 1) mod 5 = 0 -> chip 16. Local link to the
  // k-th other chip: 0 -> 3 is link 2, 16 -> 19 link 2; global link id 3.
  expectRoute(c, 20, 0, 19, {{0, 3, 2, 0}, {3, 16, 3, 1}, {16, 19, 2, 0}});
  expectRoute(c, 20, 5, 6, {{5, 6, 1, 0}});
  EXPECT_EQ(linkRate(c, 20, 3, 3).bytesPerCycle, 10.0); // 2 lanes x 5
  EXPECT_EQ(linkRate(c, 20, 3, 3).latency, 100u);       // flat: global figures
  EXPECT_EQ(checkAllRoutes(c, 20, 1, 3), 3u);
}

TEST(Topology, SmallerSystemsBundleTheSparePorts) {
  ChipSpec c = smallChip();
  // 12 chips, 3 groups of 4, one global link per chip: 4 ports per group
  // (port p on chip p, link id 3), 2 other groups, so 4 / 2 = 2 links per
  // pair. Group 0's port q goes to group (0 + q mod 2 + 1) mod 3, copy
  // q / 2: chip 0 -> group 1 copy 0, chip 1 -> group 2 copy 0, chip 2 ->
  // group 1 copy 1, chip 3 -> group 2 copy 1. Group 1's port toward group 0
  // is q = copy * 2 + (0 + 3 - 1 - 1) mod 3 = copy * 2 + 1: chip 5 (copy 0)
  // or chip 7 (copy 1). The copy is (src + dst) mod 2.
  // 0 -> 4: copy 0: 0 -link 3-> 5, then local 5 -> 4 (link 0).
  expectRoute(c, 12, 0, 4, {{0, 5, 3, 1}, {5, 4, 0, 0}});
  // 1 -> 4: copy 1: local 1 -> 2 (link 1), 2 -link 3-> 7, local 7 -> 4
  // (link 0).
  expectRoute(c, 12, 1, 4, {{1, 2, 1, 0}, {2, 7, 3, 1}, {7, 4, 0, 0}});
  EXPECT_EQ(linkTarget(c, 12, 2, 3), 7u);
  checkAllRoutes(c, 12, 1, 3);
  // Kept at one link a pair: every route from group 0 to group 1 crosses
  // chip 0's link to chip 5 (copy 0), and chip 2's port goes unused.
  c.topology.bundleGlobalLinks = false;
  expectRoute(c, 12, 1, 4, {{1, 0, 0, 0}, {0, 5, 3, 1}, {5, 4, 0, 0}});
  EXPECT_EQ(linkTarget(c, 12, 2, 3), std::nullopt);
  checkAllRoutes(c, 12, 1, 3);
}

TEST(Topology, ParallelLinksBetweenTwoChipsAreOneBundle) {
  ChipSpec c = smallChip();
  c.topology.globalLinksPerChip = 2;
  // 8 chips, 2 groups of 4, 2 global links per chip: 8 ports per group, all
  // toward the one other group (8 links a pair). Group 0's port q is copy q,
  // on chip q mod 4 as link 3 + q / 4; group 1's port toward group 0 is also
  // copy q: chip 4 + q mod 4. So copies c and c + 4 join the same two chips
  // (chip c mod 4 and chip 4 + c mod 4): bundles of 2, used by copy c < 4.
  // 0 -> 4: copy (0 + 4) mod 8 = 4, bundle of copies 0 and 4: link 3.
  expectRoute(c, 8, 0, 4, {{0, 4, 3, 1}});
  EXPECT_EQ(route(c, 8, 0, 4)[0].rate.links, 2u);
  // 1 -> 4: copy 5, bundle of copies 1 and 5: 1 -link 3-> 5, local 5 -> 4.
  expectRoute(c, 8, 1, 4, {{1, 5, 3, 1}, {5, 4, 0, 0}});
  EXPECT_EQ(linkRate(c, 8, 0, 3).links, 2u); // copy 0 carries the bundle
  EXPECT_EQ(linkRate(c, 8, 0, 4).links, 1u); // copy 4: in copy 0's bundle
  EXPECT_EQ(linkTarget(c, 8, 0, 4), 4u);
  checkAllRoutes(c, 8, 1, 3);
}

TEST(Topology, RacksAndSystemPastTheFlatReach) {
  ChipSpec c = smallChip();
  EXPECT_EQ(maxChips(c), 48u);
  // 48 chips, 12 groups, racks {0,1,2} {3,4,5} {6,7,8} {9,10,11}.
  // Chip 0 -> chip 47 (group 11, rack 3). Rack 0's system port toward rack 3
  // is (3 + 4 - 0 - 1) mod 4 = 2 -> its group 2, chip 2*4+2 = 10; rack 3's
  // toward rack 0 is 0 -> group 9, chip 38. Inside rack 0, group 0's rack
  // port toward group 2 is (2 + 3 - 0 - 1) mod 3 = 1 -> chip 1; group 2's
  // toward group 0 is 0 -> chip 8. Inside rack 3, group 9 (position 0) to
  // group 11 (position 2): chip 37 -> chip 44.
  expectRoute(c, 48, 0, 47,
              {{0, 1, 0, 0},
               {1, 8, 3, 1},
               {8, 10, 1, 0},
               {10, 38, 3, 2},
               {38, 37, 1, 0},
               {37, 44, 3, 1},
               {44, 47, 2, 0}});
  EXPECT_EQ(linkRate(c, 48, 1, 3).latency, 150u); // rack level
  EXPECT_EQ(linkRate(c, 48, 1, 3).bytesPerCycle, 10.0);
  EXPECT_EQ(linkRate(c, 48, 10, 3).latency, 300u); // system level
  EXPECT_EQ(linkRate(c, 48, 10, 3).bytesPerCycle, 4.0);
  EXPECT_EQ(linkTarget(c, 48, 3, 3), std::nullopt); // port 3: unused
  EXPECT_EQ(checkAllRoutes(c, 48, 1, 7), 7u);
}

TEST(Topology, PartialLastRack) {
  ChipSpec c = smallChip();
  // 40 chips, 10 groups: rack 3 is group 9 alone and holds all 3 of its
  // rack's system ports (chips 36, 37, 38). Rack 3's port toward rack 0 is
  // (0 + 4 - 3 - 1) mod 4 = 0 -> chip 36.
  EXPECT_EQ(checkChipCount(c, 40), std::nullopt);
  expectRoute(c, 40, 0, 39,
              {{0, 1, 0, 0}, {1, 8, 3, 1}, {8, 10, 1, 0}, {10, 36, 3, 2},
               {36, 39, 2, 0}});
  checkAllRoutes(c, 40, 1, 7);
}

TEST(Topology, SeveralLinksPerPair) {
  ChipSpec c = smallChip();
  // Two links per pair of groups in a rack: 4 rack ports + 1 system port is
  // more than a group's 4 global ports.
  c.topology.rack->linksPerPair = 2;
  ASSERT_TRUE(checkLevelPorts(c.topology).has_value());
  EXPECT_THAT(*checkLevelPorts(c.topology), HasSubstr("needs 5 global ports"));
  // Without the system level it fits (4 ports), but a rack of 3 groups
  // holds fewer chips than the flat Dragonfly, so it is never used.
  c.topology.system.reset();
  EXPECT_EQ(checkLevelPorts(c.topology), std::nullopt);
  EXPECT_EQ(maxChips(c), 20u); // 5 flat groups beat a 3-group rack
  c.topology.rack->size = 6;   // 5 * 2 = 10 ports > 4: does not fit
  EXPECT_TRUE(checkLevelPorts(c.topology).has_value());
  c.topology.globalLinksPerChip = 3; // 12 ports: flat reaches 13 groups
  EXPECT_EQ(maxChips(c), 52u);
  c.topology.rack->size = 14;        // 13 * 2 = 26 > 12
  EXPECT_TRUE(checkLevelPorts(c.topology).has_value());
  c.topology.globalLinksPerChip = 7; // 28 ports; flat reaches 29 groups
  c.topology.rack->size = 15;        // never used: below the flat reach
  EXPECT_EQ(maxChips(c), 116u);
}

TEST(Topology, ParallelLinksSpreadTraffic) {
  // Groups of 2 chips (1 local link) with 3 global links: 6 ports per group,
  // a flat reach of 7 groups. Racks of 3 groups with 2 links per pair (4 rack
  // ports per group), a system of 3 racks with 1 link per pair (2 ports per
  // rack, dealt to its first two groups): 9 groups, 18 chips.
  ChipSpec c = smallChip();
  c.topology.groupSize = 2;
  c.topology.globalLinksPerChip = 3;
  c.topology.rack = TopologyLevel{3, 2, 0, 0, 0};
  c.topology.system = TopologyLevel{3, 1, 0, 0, 0};
  ASSERT_EQ(checkLevelPorts(c.topology), std::nullopt);
  EXPECT_EQ(maxChips(c), 18u);
  // Group 0's rack port q goes to group (0 + q mod 2 + 1) mod 3, copy q / 2,
  // on chip q mod 2 as global link q / 2 (link id 1 + q / 2): q=0 -> group 1
  // copy 0 (chip 0, link 1), q=2 -> group 1 copy 1 (chip 0, link 2). Group 1
  // toward group 0: q = copy * 2 + (0 + 3 - 1 - 1) mod 3 = 1 or 3, i.e.
  // chip 3 by link 1 or link 2. Both copies join chips 0 and 3, so they are
  // one bundle of 2 links, carried by copy 0 (link 1) whichever copy
  // (src + dst) mod 2 names.
  // 0 -> 2: copy 0: 0 -link 1-> 3, then local 3 -> 2 (link 0).
  expectRoute(c, 18, 0, 2, {{0, 3, 1, 1}, {3, 2, 0, 0}});
  // 0 -> 3: copy 1, in copy 0's bundle: 0 -link 1-> 3, over both links.
  expectRoute(c, 18, 0, 3, {{0, 3, 1, 1}});
  EXPECT_EQ(route(c, 18, 0, 3)[0].rate.links, 2u);
  EXPECT_EQ(linkRate(c, 18, 0, 1).links, 2u);
  checkAllRoutes(c, 18, 1, 7);
}

TEST(Topology, PresetsReachRackScale) {
  ChipSpec tsp = *loadChipSpec("tsp-v1");
  EXPECT_EQ(maxChips(tsp), 10440u); // [P22]: 145 racks of 72
  for (uint64_t n : {264u, 272u, 576u, 1152u, 10440u})
    EXPECT_EQ(checkChipCount(tsp, n), std::nullopt) << n;
  EXPECT_TRUE(checkChipCount(tsp, 10448).has_value());
  // 1,152 chips = 16 racks of 9 nodes: cross-rack routes take up to 7 hops
  // (local, rack, local, system, local, rack, local).
  EXPECT_EQ(checkAllRoutes(tsp, 1152, 97, 7), 7u);
  EXPECT_EQ(checkAllRoutes(tsp, 264, 29, 3), 3u); // still the flat Dragonfly
  // With one global link per chip the levels no longer fit (a node needs 16
  // rack and up to 16 system ports, it has 8): only the flat 9 nodes remain.
  ChipSpec one = tsp;
  one.topology.globalLinksPerChip = 1;
  EXPECT_EQ(maxChips(one), 72u);
  EXPECT_THAT(*checkChipCount(one, 80), HasSubstr("exceed the 72"));
  ChipSpec lpx3 = *loadChipSpec("lpx3");
  EXPECT_EQ(maxChips(lpx3), 4096u);
  for (uint64_t n : {256u, 512u, 800u, 2056u, 2064u, 4096u})
    EXPECT_EQ(checkChipCount(lpx3, n), std::nullopt) << n;
  EXPECT_EQ(checkAllRoutes(lpx3, 800, 101, 3), 3u);
}

} // namespace

namespace {
TEST(Topology, LevelsAreValidatedByKey) {
  std::string text = printChipSpec(*loadChipSpec("tsp-v1"));
  auto withLevel = [&](const std::string &from, const std::string &to) {
    std::string t = text;
    size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return t.replace(at, from.size(), to);
  };
  auto error = [](llvm::Expected<ChipSpec> spec) {
    return spec ? std::string() : llvm::toString(spec.takeError());
  };
  EXPECT_THAT(error(parseChipSpec(withLevel("size:            9", "size: 1"), "test")),
              HasSubstr("topology.rack.size must be at least 2"));
  EXPECT_THAT(error(parseChipSpec(withLevel("  rack:\n", "  racks:\n"), "test")),
              HasSubstr("topology.system needs topology.rack"));
  EXPECT_EQ(error(parseChipSpec(text, "test")), "");
}
} // namespace
