//===- ReportTest.cpp - Pieces of the reports (lpx_report) ----------------===//
#include "lpx/report/Markup.h"
#include "lpx/report/SvgPlot.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace lpx::report;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(Markup, EscapesTheFourCharactersOfMarkup) {
  EXPECT_EQ(escapeMarkup("a<b && c>\"d\""),
            "a&lt;b &amp;&amp; c&gt;&quot;d&quot;");
  EXPECT_EQ(escapeMarkup("plain 'text'"), "plain 'text'");
}

TEST(SvgPlot, TicksAreOneTwoOrFiveTimesAPowerOfTen) {
  // 10 / 5 = 2 per tick.
  EXPECT_THAT(niceTicks(0, 10, 5), ElementsAre(0, 2, 4, 6, 8, 10));
  // 0.7 / 4 = 0.175 -> 0.2, rounded outwards from 0.15 and 0.85: 0, 0.2,
  // ..., 1.
  auto t = niceTicks(0.15, 0.85, 4);
  ASSERT_EQ(t.size(), 6u);
  EXPECT_NEAR(t.front(), 0.0, 1e-12);
  EXPECT_NEAR(t.back(), 1.0, 1e-12);
  // 300 / 3 = 100.
  EXPECT_THAT(niceTicks(100, 400, 3), ElementsAre(100, 200, 300, 400));
  EXPECT_THAT(niceTicks(5, 5, 4), ElementsAre(5)); // no span
}

TEST(SvgPlot, TheTitleIsEscapedAndEverySeriesDrawn) {
  PlotSpec p;
  p.title = "cycles of <model> & more";
  p.xLabel = "nodes";
  p.yLabel = "cycles";
  p.series = {{"first", {{1, 10}, {2, 20}}}, {"second", {{1, 5}, {2, 7}}}};
  std::string svg = renderSvg(p);
  EXPECT_THAT(svg, HasSubstr("<svg"));
  EXPECT_THAT(svg, HasSubstr("cycles of &lt;model&gt; &amp; more"));
  EXPECT_THAT(svg, Not(HasSubstr("<model>")));
  EXPECT_THAT(svg, HasSubstr("first"));
  EXPECT_THAT(svg, HasSubstr("second"));
}
