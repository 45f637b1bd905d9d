//===- ChipSearchTest.cpp - The fewest-chips search on hand-made fits -----===//
//
// A fake compile that fits from N chips up (and, where it says so, names
// the count that would hold the model) stands in for the compiler; each
// case follows the search by hand: the counts tried, in order, and the
// count found.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/ChipSearch.h"
#include "lpx/isa/ChipSpec.h"
#include "lpx/isa/Topology.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <mutex>

using namespace lpx::deploy;
using ::testing::ElementsAre;

namespace {

/// Fits from `fitsFrom` chips; a misfit names `hint` (0: none).
struct FakeCompiler {
  unsigned fitsFrom = 1, hint = 0;
  std::vector<unsigned> tried;
  ChipTrialFn fn() {
    return [this](unsigned chips) -> llvm::Expected<ChipTrial> {
      tried.push_back(chips);
      if (chips >= fitsFrom)
        return ChipTrial{ChipTrial::Fits};
      return ChipTrial{ChipTrial::DoesNotFit, hint};
    };
  }
};

ChipSearchPolicy groupsOf(unsigned group, unsigned most) {
  ChipSearchPolicy p;
  p.group = group;
  p.most = most;
  return p;
}

/// Coverage's shape of policy: single chips, no hint, no bisection.
ChipSearchPolicy doublingUpTo(unsigned most) {
  ChipSearchPolicy p = groupsOf(1, most);
  p.followHint = false;
  p.bisect = false;
  return p;
}

ChipSearchResult search(const ChipSearchPolicy &p, FakeCompiler &c) {
  auto r = findFewestChips(p, c.fn());
  EXPECT_TRUE(bool(r));
  return r ? *r : ChipSearchResult{};
}

} // namespace

TEST(ChipSearch, OneChipWhenOneHoldsIt) {
  FakeCompiler c{1};
  ChipSearchResult r = search(groupsOf(8, 256), c);
  EXPECT_EQ(r.chips, 1u);
  EXPECT_THAT(c.tried, ElementsAre(1u));
  EXPECT_EQ(r.trials, 1u);
}

TEST(ChipSearch, GallopsOverGroupsThenBisectsBack) {
  // Fits from 20 chips, groups of 8, no hint: 1 misses; 1 + 8 rounds up to
  // 16 (step doubles to 16), misses; 16 + 16 = 32 fits. Whole groups
  // strictly between 16 and 32: 24 fits. The fewest whole groups: 3.
  FakeCompiler c{20};
  ChipSearchResult r = search(groupsOf(8, 256), c);
  EXPECT_EQ(r.chips, 24u);
  EXPECT_THAT(c.tried, ElementsAre(1u, 16u, 32u, 24u));
  EXPECT_EQ(r.trials, 4u);
  EXPECT_EQ(r.lastMisfit, 16u);
}

TEST(ChipSearch, FollowsTheCompilersHint) {
  // The compiler names 24: straight there (fits), then the bisection tries
  // the one whole-group count between 1 and 24 it has not ruled out
  // (groups 1..2: 16), which misses.
  FakeCompiler c{20, 24};
  ChipSearchResult r = search(groupsOf(8, 256), c);
  EXPECT_EQ(r.chips, 24u);
  EXPECT_THAT(c.tried, ElementsAre(1u, 24u, 16u));
}

TEST(ChipSearch, IgnoresTheHintWhenTheCallerDoes) {
  FakeCompiler c{20, 24};
  ChipSearchPolicy p = groupsOf(8, 256);
  p.followHint = false;
  ChipSearchResult r = search(p, c);
  EXPECT_EQ(r.chips, 24u);
  EXPECT_THAT(c.tried, ElementsAre(1u, 16u, 32u, 24u));
}

TEST(ChipSearch, LargeModelsTakeLogarithmicallyFewCompiles) {
  // Fits from 700 chips in groups of 8 (up to 1024): 1, 16, 32, 64, 128,
  // 256, 512, 1024 (fits), then bisect groups 65..127: 96 -> 768 fits,
  // 80 -> 640 misses, 88 -> 704 fits, 84 -> 672, 86 -> 688, 87 -> 696
  // miss. 704 = 88 groups, the fewest holding 700.
  FakeCompiler c{700};
  ChipSearchResult r = search(groupsOf(8, 1024), c);
  EXPECT_EQ(r.chips, 704u);
  EXPECT_THAT(c.tried, ElementsAre(1u, 16u, 32u, 64u, 128u, 256u, 512u,
                                   1024u, 768u, 640u, 704u, 672u, 688u,
                                   696u));
}

TEST(ChipSearch, LeaningToMisfitsFindsTheSameCount) {
  // As LargeModelsTakeLogarithmicallyFewCompiles, the bisection of groups
  // 65..127 two fifths of the way up: 65 + 63 * 2/5 = 90 -> 720 fits;
  // 65..89: 75 -> 600 misses; 76..89: 81 -> 648 misses; 82..89: 85 -> 680
  // misses; 86..89: 87 -> 696 misses; 88..89: 88 -> 704 fits. The same
  // 704 in as many compiles (here the middle's probes miss four times
  // too).
  FakeCompiler c{700};
  ChipSearchPolicy p = groupsOf(8, 1024);
  p.cheapMisfits = true;
  ChipSearchResult r = search(p, c);
  EXPECT_EQ(r.chips, 704u);
  EXPECT_THAT(c.tried, ElementsAre(1u, 16u, 32u, 64u, 128u, 256u, 512u,
                                   1024u, 720u, 600u, 648u, 680u, 696u,
                                   704u));
}

TEST(ChipSearch, TriesTheLargestCountLastAndReportsTheMisfit) {
  // Never fits; at most 48: 1, 16, 32, then 64 is past 48, so 48 itself.
  FakeCompiler c{1000};
  ChipSearchResult r = search(groupsOf(8, 48), c);
  EXPECT_FALSE(r.chips);
  EXPECT_EQ(r.lastMisfit, 48u);
  EXPECT_THAT(c.tried, ElementsAre(1u, 16u, 32u, 48u));
}

TEST(ChipSearch, StopsAtAFailureMoreChipsWillNotMend) {
  std::vector<unsigned> tried;
  auto trial = [&](unsigned chips) -> llvm::Expected<ChipTrial> {
    tried.push_back(chips);
    return ChipTrial{chips < 2 ? ChipTrial::DoesNotFit : ChipTrial::Fails};
  };
  ChipSearchPolicy p = groupsOf(1, 64);
  auto r = findFewestChips(p, trial);
  ASSERT_TRUE(bool(r));
  EXPECT_FALSE(r->chips);
  EXPECT_EQ(r->failedAt, 2u);
  EXPECT_THAT(tried, ElementsAre(1u, 2u));
}

TEST(ChipSearch, DoublingWithoutBisectionKeepsThePowerOfTwo) {
  // Coverage's policy shape: group 1, no hint, no bisection: 1, 2, 4, 8.
  FakeCompiler c{5, 5};
  ChipSearchResult r = search(doublingUpTo(64), c);
  EXPECT_EQ(r.chips, 8u);
  EXPECT_THAT(c.tried, ElementsAre(1u, 2u, 4u, 8u));
}

TEST(ChipSearch, SkippedCountsAreNotCompiled) {
  FakeCompiler c{3};
  ChipSearchPolicy p = doublingUpTo(64);
  p.skip = [](unsigned chips) { return chips == 2; };
  ChipSearchResult r = search(p, c);
  EXPECT_EQ(r.chips, 4u);
  EXPECT_THAT(c.tried, ElementsAre(1u, 4u));
  EXPECT_EQ(r.trials, 2u);
}

TEST(ChipSearch, AnErrorOfTheTrialEndsTheSearch) {
  auto trial = [](unsigned) -> llvm::Expected<ChipTrial> {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "boom");
  };
  auto r = findFewestChips(groupsOf(8, 64), trial);
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(llvm::toString(r.takeError()), "boom");
}

// Decode's policy on tsp-v1 never compiles a count the topology cannot
// wire: 6,136 chips (767 groups of 8) leave group 765 short of global
// ports (the search of mixtral-8x7b at batch 8 in fp32 stopped there with
// "cannot be wired"), so it is skipped, and the largest count tried is
// one the topology joins.
TEST(ChipSearch, WholeGroupsSkipCountsTheTopologyCannotWire) {
  auto chip = lpx::isa::loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(chip)) << llvm::toString(chip.takeError());
  ChipSearchPolicy p = wholeGroupsPolicy(*chip);
  ASSERT_TRUE(bool(p.skip));
  EXPECT_TRUE(lpx::isa::checkChipCount(*chip, 6136).has_value());
  EXPECT_TRUE(p.skip(6136));
  EXPECT_FALSE(p.skip(8));
  EXPECT_FALSE(lpx::isa::checkChipCount(*chip, p.most).has_value());
  // A model that fits nowhere: every count compiled is one the topology
  // wires, and the search ends at the largest such.
  FakeCompiler c{1u << 30};
  ChipSearchResult r = search(p, c);
  EXPECT_FALSE(r.chips.has_value());
  for (unsigned chips : c.tried)
    EXPECT_FALSE(lpx::isa::checkChipCount(*chip, chips).has_value()) << chips;
  ASSERT_FALSE(c.tried.empty());
  EXPECT_EQ(c.tried.back(), p.most);
}

// A start (a neighbouring deployment's count), groups of 8 up to 256:
//  - fits from 20: the start 24 fits and 16 does not, two compiles;
//  - fits from 100: 24 misses and the gallop goes on from the next group,
//    32, as from any misfit: 32 + 8 = 40, + 16 = 56, + 32 = 88 miss,
//    + 64 = 152 fits; bisecting the groups between 88 and 152 (12 to 19):
//    15 (120) fits, 13 (104) fits, 12 (96) misses;
//  - fits from 1: 24 and 16 both fit, so the search runs from one.
TEST(ChipSearch, AStartIsConfirmedInTwoCompilesOrSearchedOnFrom) {
  struct Case {
    unsigned fitsFrom, chips;
    bool confirmed;
    std::vector<unsigned> tried;
  };
  for (const Case &k :
       {Case{20, 24, true, {24, 16}},
        Case{100, 104, false, {24, 32, 40, 56, 88, 152, 120, 104, 96}},
        Case{1, 1, false, {24, 16, 1}}}) {
    FakeCompiler c{k.fitsFrom};
    ChipSearchPolicy p = groupsOf(8, 256);
    p.start = 24;
    ChipSearchResult r = search(p, c);
    EXPECT_EQ(r.chips, k.chips) << "fits from " << k.fitsFrom;
    EXPECT_EQ(r.startConfirmed, k.confirmed) << "fits from " << k.fitsFrom;
    EXPECT_EQ(c.tried, k.tried) << "fits from " << k.fitsFrom;
  }
}

TEST(ChipSearch, TwoWorkersFindTheSerialCountInFewerRounds) {
  // As LargeModelsTakeLogarithmicallyFewCompiles, two compiles at once. The
  // gallop compiles each count with the one after it: {1, 16}, {32, 64},
  // {128, 256}, {512, 1024} (16 was compiled beside 1, so 32 goes alone
  // with nothing: it pairs with 64). The bisection of groups 65..127 tries
  // a third and two thirds in: {86, 107} -> 688 misses, 856 fits; groups
  // 87..106: {93, 100} -> 744 fits; 87..92: {89, 91} -> 712 fits; 87..88:
  // {87, 88} -> 696 misses, 704 fits. 16 compiles in 8 rounds (serially
  // 14 in 14); the same 704.
  std::mutex m;
  std::vector<unsigned> tried;
  ChipTrialFn fn = [&](unsigned chips) -> llvm::Expected<ChipTrial> {
    std::lock_guard<std::mutex> lock(m);
    tried.push_back(chips);
    return ChipTrial{chips >= 700 ? ChipTrial::Fits : ChipTrial::DoesNotFit};
  };
  ChipSearchPolicy p = groupsOf(8, 1024);
  p.workers = 2;
  auto r = findFewestChips(p, fn);
  ASSERT_TRUE(bool(r));
  EXPECT_EQ(r->chips, 704u);
  EXPECT_EQ(r->trials, 16u);
  EXPECT_THAT(tried, ::testing::UnorderedElementsAre(
                         1u, 16u, 32u, 64u, 128u, 256u, 512u, 1024u, 688u,
                         856u, 744u, 800u, 712u, 728u, 696u, 704u));
}
