//===- SweepTest.cpp - The sweep grid, its shards and their merge ---------===//
#include "lpx/deploy/PointPool.h"
#include "lpx/deploy/SweepGrid.h"
#include "lpx/deploy/SweepMerge.h"
#include "lpx/deploy/SweepReport.h"
#include "lpx/deploy/SweepShard.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace lpx::deploy;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(SweepGrid, RangesAndListsKeepTheirText) {
  auto geometric = parseAxis("sram.bytes=1..8:*2");
  ASSERT_TRUE(bool(geometric)) << llvm::toString(geometric.takeError());
  EXPECT_EQ(geometric->key, "sram.bytes");
  EXPECT_THAT(geometric->values, ElementsAre("1", "2", "4", "8"));
  auto listed = parseAxis("sram.bytes=64KiB,1MiB");
  ASSERT_TRUE(bool(listed));
  EXPECT_THAT(listed->values, ElementsAre("64KiB", "1MiB"));
  auto stepped = parseAxis("clock_mhz=900..1000:50");
  ASSERT_TRUE(bool(stepped));
  EXPECT_THAT(stepped->values, ElementsAre("900", "950", "1000"));
  auto bad = parseAxis("novalue");
  EXPECT_FALSE(bool(bad));
  llvm::consumeError(bad.takeError());
}

TEST(SweepGrid, TheLastAxisVariesFastest) {
  Grid g({{"a", {"1", "2"}}, {"nodes", {"1", "2", "4"}}});
  EXPECT_EQ(g.size(), 6u);
  EXPECT_THAT(g.coords(0), ElementsAre(0u, 0u));
  EXPECT_THAT(g.coords(4), ElementsAre(1u, 1u)); // 4 = 1 * 3 + 1
  EXPECT_THAT(g.coords(5), ElementsAre(1u, 2u));
  EXPECT_EQ(numericValue("64KiB"), 65536.0);
  EXPECT_EQ(numericValue("2.5"), 2.5);
  EXPECT_FALSE(numericValue("fast"));
}

TEST(SweepShard, PartsInterleaveThePoints) {
  auto s = parseShard("2/3");
  ASSERT_TRUE(bool(s));
  EXPECT_EQ(s->index, 1u);
  EXPECT_EQ(s->count, 3u);
  EXPECT_THAT(shardPoints(8, *s), ElementsAre(1u, 4u, 7u));
  for (const char *bad : {"0/3", "4/3", "1/0", "x"}) {
    auto b = parseShard(bad);
    EXPECT_FALSE(bool(b)) << bad;
    llvm::consumeError(b.takeError());
  }
}

namespace {

const Grid kGrid({{"nodes", {"1", "2", "4"}}});

PointResult ok(uint64_t cycles) {
  PointResult r;
  r.status = "ok";
  r.cycles = cycles;
  r.seconds = double(cycles) * 1e-9;
  r.lowerBound = cycles / 2;
  r.efficiency = 0.5;
  r.bottleneck = "mxm on node 0";
  return r;
}

/// The part file `lpx sweep --shard I/2` writes for kGrid.
std::string part(size_t index, const std::vector<PointResult> &all) {
  Shard shard{index, 2};
  std::vector<size_t> points = shardPoints(kGrid.size(), shard);
  std::vector<PointResult> results;
  for (size_t p : points)
    results.push_back(all[p]);
  return partLine({"model.onnx", "tsp-v1", shard, kGrid.axes()}) +
         csvHeader(kGrid) + csvRows(kGrid, points, results);
}

} // namespace

TEST(SweepMerge, PartsJoinIntoTheUnshardedRows) {
  std::vector<PointResult> all = {ok(100), ok(200), ok(400)};
  SweepMerge merge;
  ASSERT_FALSE(bool(merge.addText("b.csv", part(1, all))));
  ASSERT_FALSE(bool(merge.addText("a.csv", part(0, all))));
  ASSERT_FALSE(bool(merge.checkComplete()));
  EXPECT_EQ(merge.rows(), csvRows(kGrid, {0, 1, 2}, all));
  EXPECT_EQ(merge.first->chip, "tsp-v1");
  EXPECT_EQ(merge.hazards, 0u);
  EXPECT_EQ(merge.summaryLine(kGrid.size(), "point(s)", "all.csv", ""),
            "merged 2 part(s): 3 point(s) of model.onnx on tsp-v1 -> all.csv");
  // Written: the unsharded CSV, after the metric is checked.
  std::string csv = testing::TempDir() + "merged.csv";
  auto bad = merge.write(csv, "", "watts");
  ASSERT_FALSE(bool(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "unknown metric 'watts' (cycles, seconds, efficiency, "
            "tokens_per_s)");
  auto line = merge.write(csv, "", "");
  ASSERT_TRUE(bool(line)) << llvm::toString(line.takeError());
  EXPECT_EQ(*line,
            "merged 2 part(s): 3 point(s) of model.onnx on tsp-v1 -> " + csv);
  auto text = llvm::MemoryBuffer::getFile(csv);
  ASSERT_TRUE(bool(text));
  EXPECT_EQ((*text)->getBuffer().str(),
            csvHeader(kGrid) + csvRows(kGrid, {0, 1, 2}, all));
  EXPECT_EQ(merge.summaryLine(kGrid.size(), "point(s)", "all.csv", "all.svg"),
            "merged 2 part(s): 3 point(s) of model.onnx on tsp-v1 -> "
            "all.csv, all.svg");
}

TEST(SweepMerge, AMissingOrRepeatedPartIsAnError) {
  std::vector<PointResult> all = {ok(100), ok(200), ok(400)};
  SweepMerge merge;
  ASSERT_FALSE(bool(merge.addText("a.csv", part(0, all))));
  EXPECT_EQ(llvm::toString(merge.checkComplete()),
            "part(s) 2/2 of the sweep are missing");
  EXPECT_EQ(llvm::toString(merge.addText("again.csv", part(0, all))),
            "'again.csv' and 'a.csv' are both part 1/2");
}

TEST(SweepMerge, APartWithTooFewRowsIsAnError) {
  std::vector<PointResult> all = {ok(100), ok(200), ok(400)};
  std::string text = part(0, all);
  text.erase(text.rfind('\n', text.size() - 2) + 1); // drop the last row
  SweepMerge merge;
  EXPECT_THAT(llvm::toString(merge.addText("a.csv", text)),
              HasSubstr("has 1 rows; part 1/2 has 2 points"));
}

// `lpx sweep`'s last line: counts by status, the part, the files.
TEST(SweepReport, SummaryLineCountsEachStatus) {
  PointResult hazards = ok(300), failed;
  hazards.status = "hazards";
  failed.status = "compile-error";
  std::vector<PointResult> results = {ok(100), hazards, failed, ok(200)};
  EXPECT_EQ(sweepSummaryLine(results, "dir/model.onnx", "tsp-v1", nullptr, 4,
                             1.25, 2, "out.csv", ""),
            "swept 4 point(s) of model.onnx on tsp-v1: 2 ok, 1 with hazards, "
            "1 failed in 1.2 s on 2 thread(s) -> out.csv");
  Shard second{1, 3};
  EXPECT_EQ(sweepSummaryLine({ok(1)}, "model.onnx", "lpx3", &second, 7, 0.04,
                             1, "p.csv", "p.svg"),
            "swept 1 point(s) of model.onnx (part 2/3 of 7) on lpx3: 1 ok in "
            "0.0 s on 1 thread(s) -> p.csv, p.svg");
}

TEST(SweepReport, OnlyTheListedMetricsPlot) {
  EXPECT_FALSE(bool(checkSweepMetric("tokens_per_s")));
  EXPECT_EQ(llvm::toString(checkSweepMetric("watts")),
            "unknown metric 'watts' (cycles, seconds, efficiency, "
            "tokens_per_s)");
}

TEST(PointPool, ThreadsAreTheAskedButNoMoreThanThePoints) {
  EXPECT_EQ(poolThreads(4, 10), 4u);
  EXPECT_EQ(poolThreads(4, 3), 3u);
  EXPECT_EQ(poolThreads(4, 0), 1u);
  EXPECT_GE(poolThreads(0, 1000), 1u);
  EXPECT_LE(poolThreads(0, 2), 2u);
}
