//===- SensitivityTest.cpp - One assumption at a time ---------------------===//
//
// runSensitivity on the built-in MLP: the base is evaluate() of the preset,
// an end at the base's value is the base point (not run again), rows sort
// by swing; the band, the summary line, the CSV and the tornado from a
// hand-made study.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/Sensitivity.h"
#include "lpx/deploy/Evaluate.h"
#include "lpx/isa/ChipSpec.h"
#include "lpx/report/SvgTornado.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace lpx;
using namespace lpx::deploy;
using ::testing::HasSubstr;

namespace {

const std::string kMlp = std::string(LPX_SOURCE_DIR) + "/models/mlp/model.onnx";

isa::AssumptionRange range(std::string key, std::string low, std::string high) {
  return {std::move(key), std::move(low), std::move(high), "why", 1};
}

TEST(Sensitivity, BaseAndEndsOfTheMlp) {
  Sweep sweep;
  sweep.model = kMlp;
  auto chip = isa::loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(chip)) << llvm::toString(chip.takeError());
  sweep.base = *chip;
  // cut_through is true on tsp-v1: its high end is the base point. One node
  // has no links, so neither end moves; the MXM's depth does.
  std::vector<isa::AssumptionRange> ranges = {
      range("link.cut_through", "false", "true"),
      range("mxm.latency", "2", "16")};
  EXPECT_EQ(sensitivityPoints(sweep.base, ranges), 4u);
  size_t heard = 0; // progress counts the points run, never more
  Sensitivity s = runSensitivity(sweep, 1, ranges, 2,
                                 [&](size_t done, size_t) { heard = done; });
  EXPECT_EQ(s.ran, 4u);
  EXPECT_EQ(s.reused, 1u);
  EXPECT_LE(heard, 4u);

  Evaluation e = evaluate(kMlp, sweep.base, EvaluateOptions{});
  ASSERT_TRUE(e.ok()) << e.error;
  ASSERT_EQ(s.base.status, "ok");
  EXPECT_EQ(s.base.cycles, e.sim->totalCycles);

  ASSERT_EQ(s.rows.size(), 2u);
  EXPECT_EQ(s.rows[0].range.key, "mxm.latency"); // the wider swing first
  EXPECT_LT(s.rows[0].low.cycles, s.rows[0].high.cycles);
  EXPECT_EQ(s.rows[1].high.cycles, s.base.cycles);
  EXPECT_EQ(s.rows[1].swingSeconds(), 0.0);
  SensitivityBand b = bandOf(s);
  EXPECT_EQ(b.lowCycles, s.rows[0].low.cycles);
  EXPECT_EQ(b.highCycles, s.rows[0].high.cycles);
  EXPECT_EQ(b.assumptions, 2u);
  EXPECT_EQ(b.failed, 0u);
}

PointResult timed(uint64_t cycles) {
  PointResult r;
  r.status = "ok";
  r.cycles = cycles;
  r.seconds = double(cycles) * 1e-9; // a 1 GHz chip
  return r;
}

Sensitivity handMade() {
  Sensitivity s;
  s.base = timed(1000);
  PointResult failed;
  failed.status = "compile-error";
  failed.message = "does not fit, at all";
  s.rows.push_back({range("mxm.latency", "2", "16"), timed(900), timed(1200)});
  s.rows.push_back(
      {range("sram.bytes", "64KiB", "220MiB"), failed, timed(1000)});
  s.rows[1].range.reason = "small, or large";
  return s;
}

TEST(Sensitivity, SummaryCsvAndTornadoOfAStudy) {
  Sensitivity s = handMade();
  EXPECT_EQ(sensitivitySummary(s),
            "seconds 1.000 us (band 0.900-1.200 us over 2 assumptions); "
            "cycles 1000 (band 900-1200); 1 end(s) without a figure");
  std::string csv = sensitivityCsv(s);
  EXPECT_THAT(csv, HasSubstr("\nmxm.latency,2,16,ok,1000,1e-06,ok,900,9e-07,"
                             "ok,1200,1.2e-06,3e-07,,why\n"));
  EXPECT_THAT(csv, HasSubstr("\nsram.bytes,64KiB,220MiB,ok,1000,1e-06,"
                             "compile-error,,,ok,1000,1e-06,,\"does not fit, "
                             "at all\",\"small, or large\"\n"));
  std::string svg = report::renderTornadoSvg(tornadoOf(s, "t"));
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_THAT(svg, HasSubstr("<title>mxm.latency = 16: 1.2\u00b5 seconds"));
  EXPECT_THAT(svg, HasSubstr(">failed</text>"));
  EXPECT_THAT(svg, HasSubstr(">base 1\u00b5</text>"));
}

} // namespace
