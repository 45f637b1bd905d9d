//===- DeploymentStudyTest.cpp - A study's grid, its rows and its frontier -===//
#include "lpx/deploy/DeploymentStudyTable.h"
#include "lpx/deploy/SweepShard.h"
#include "lpx/isa/ChipOverrides.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace lpx;
using namespace lpx::deploy;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

isa::ChipSpec lpx3() {
  auto chip = isa::loadChipWithOverrides("lpx3", {});
  EXPECT_TRUE(bool(chip));
  return *chip;
}

std::string errorOf(const std::vector<std::string> &specs) {
  auto grid = buildDeploymentGrid(specs, lpx3());
  if (grid)
    return "";
  return llvm::toString(grid.takeError());
}

/// A planned point with the figures the frontier reads.
DeploymentPoint planned(unsigned chips, double tokensPerUser) {
  DeploymentPoint p;
  p.status = "ok";
  p.metrics.chips = chips;
  p.metrics.tokensPerSecondPerUser = tokensPerUser;
  return p;
}

} // namespace

TEST(DeploymentStudy, ChipAndDeploymentKeysMakeOneGrid) {
  auto grid = buildDeploymentGrid({"sram.bytes=250MB,1GB", "context=512..2048:*2"},
                                  lpx3());
  ASSERT_TRUE(bool(grid)) << llvm::toString(grid.takeError());
  EXPECT_EQ(grid->size(), 6u);
  DecodeWords base;
  base.model = "llama2-7b";
  base.sets = {"link.latency=700"};
  DecodeWords w = pointWords(base, *grid, 5); // 1GB, 2048
  EXPECT_THAT(w.sets, ElementsAre("link.latency=700", "sram.bytes=1GB"));
  EXPECT_EQ(w.context, "2048");
  EXPECT_EQ(w.model, "llama2-7b");
}

TEST(DeploymentStudy, ValuesAreCheckedBeforeAnyPlan) {
  EXPECT_THAT(errorOf({"sram.bytes=lots"}), HasSubstr("sram.bytes"));
  EXPECT_THAT(errorOf({"no.such.key=1"}), HasSubstr("no.such.key"));
  EXPECT_THAT(errorOf({"chips=8,0"}), HasSubstr("'0' is not a positive"));
  EXPECT_THAT(errorOf({"batch=1", "batch=2"}), HasSubstr("given twice"));
  EXPECT_THAT(errorOf({"nodes=1,2"}), HasSubstr("`chips`"));
  EXPECT_EQ(errorOf({"weights=fp8e4m3,fp16"}), "");
}

TEST(DeploymentStudy, TheFrontierIsFewerChipsOrFasterUsers) {
  Grid grid({{"sram.bytes", {"a", "b", "c", "d"}}});
  std::vector<std::vector<std::string>> rows = {
      studyRowFields(grid, 0, planned(8, 100)),  // frontier: fewest chips
      studyRowFields(grid, 1, planned(16, 300)), // frontier: fastest
      studyRowFields(grid, 2, planned(16, 200)), // beaten by b
      studyRowFields(grid, 3, DeploymentPoint{"does-not-fit", "x", {}})};
  markPareto(grid, rows);
  const size_t pareto = 1 + 17; // the key, then the pareto column
  EXPECT_EQ(rows[0][pareto], "frontier");
  EXPECT_EQ(rows[1][pareto], "frontier");
  EXPECT_EQ(rows[2][pareto], "");
  EXPECT_EQ(rows[3][pareto], "");
  EXPECT_EQ(std::string(kStudyColumns[17]), "pareto");
}

TEST(DeploymentStudy, RowsReadBackRenderAsWritten) {
  Grid grid({{"weights", {"fp8e4m3", "fp16"}}});
  DeploymentPoint p = planned(8, 100);
  p.metrics.bottleneck = "latency: a \"chain\", then more";
  std::vector<std::vector<std::string>> rows = {
      studyRowFields(grid, 0, p),
      studyRowFields(grid, 1, DeploymentPoint{"error", "line one,\nline two", {}})};
  std::string text = studyCsvRows(rows);
  auto back = studyRowsFromCsv(decodeStudyKind(), grid, text);
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(*back, rows);
  EXPECT_EQ(studyCsvRows(*back), text);
  auto narrow = studyRowsFromCsv(decodeStudyKind(), grid, "fp16,ok\n");
  ASSERT_FALSE(bool(narrow));
  EXPECT_THAT(llvm::toString(narrow.takeError()), HasSubstr("2 fields"));
}

TEST(DeploymentStudy, ShardsKeepThePointsOfOneChipSearchTogether) {
  // 4 x 3 points: the 3 link latencies of one SRAM size go to one shard.
  Grid grid({{"sram.bytes", {"a", "b", "c", "d"}},
             {"link.latency", {"1", "2", "3"}}});
  ASSERT_EQ(studyShardRun(grid, 2), 3u);
  EXPECT_THAT(shardPoints(grid.size(), Shard{1, 2}, 3),
              ElementsAre(3u, 4u, 5u, 9u, 10u, 11u));
  // More shards than runs: single points, dealt round robin.
  EXPECT_EQ(studyShardRun(grid, 8), 1u);
  EXPECT_THAT(shardPoints(grid.size(), Shard{7, 8}, 1), ElementsAre(7u));
}

// Points that differ only in keys the compiler does not read (the clock,
// the host path) re-simulate the first such point's programs; a point
// whose compiler-read values no earlier point shares is planned.
TEST(DeploymentStudy, ResimulationSourcesGroupByWhatTheCompilerReads) {
  Grid grid({{"sram.bytes", {"a", "b"}},
             {"clock_mhz", {"800", "1000", "1500"}},
             {"host.latency_us", {"2", "20"}}});
  std::vector<size_t> all(grid.size());
  for (size_t p = 0; p < all.size(); ++p)
    all[p] = p;
  std::vector<std::optional<size_t>> source = resimulationSources(grid, all);
  for (size_t p = 0; p < all.size(); ++p) {
    const size_t first = p < 6 ? 0 : 6; // the first point of its SRAM size
    if (p == first)
      EXPECT_FALSE(source[p]) << p;
    else
      EXPECT_EQ(source[p], std::optional<size_t>(first)) << p;
  }
  // A part of the grid: slots, not points; its own first point plans.
  std::vector<std::optional<size_t>> part =
      resimulationSources(grid, {3, 4, 9, 10, 11});
  EXPECT_EQ(part, (std::vector<std::optional<size_t>>{
                      std::nullopt, 0, std::nullopt, 2, 2}));
  // Keys the compiler reads are all planned.
  Grid read({{"sram.bytes", {"a", "b"}}, {"link.latency", {"1", "2"}}});
  for (const auto &s : resimulationSources(read, {0, 1, 2, 3}))
    EXPECT_FALSE(s);
}
