//===- ReportTest.cpp - Pieces of the reports (lpx_report) ----------------===//
//
// Markup, plot ticks and the SVG by hand; the Perfetto trace of a real run
// against the run itself.
//
//===----------------------------------------------------------------------===//
#include "lpx/report/Markup.h"
#include "lpx/report/SvgPlot.h"
#include "lpx/report/Timeline.h"
#include "lpx/report/TraceEvents.h"

#include "lpx/deploy/Evaluate.h"
#include "lpx/isa/ChipOverrides.h"
#include "llvm/Support/JSON.h"

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

// The Perfetto trace of a real run (the built-in Llama step on 8 chips of
// 64 KiB, as EvaluateTest): one slice per instruction simulated, one
// process per chip, and the run's figures in its header.

TEST(TraceEvents, OneSlicePerInstructionAndOneProcessPerChip) {
  auto chip = lpx::isa::loadChipWithOverrides("tsp-v1", {"sram.bytes=65536"});
  ASSERT_TRUE(bool(chip)) << llvm::toString(chip.takeError());
  lpx::deploy::EvaluateOptions o;
  o.compile.nodes = 8;
  o.trace = true;
  lpx::deploy::Evaluation e = lpx::deploy::evaluate(
      std::string(LPX_SOURCE_DIR) + "/models/llama_step/model.onnx", *chip, o);
  ASSERT_TRUE(e.ok()) << e.error;
  Timeline t = buildTimeline(*e.program, *e.sim, *e.trace);
  size_t inTracks = 0;
  for (const Track &track : t.tracks)
    inTracks += track.events.size();
  EXPECT_EQ(inTracks, e.trace->instructions.size());

  std::string text;
  llvm::raw_string_ostream os(text);
  writeTraceEvents(t, os);
  auto json = llvm::json::parse(os.str());
  ASSERT_TRUE(bool(json)) << llvm::toString(json.takeError());
  const llvm::json::Object *root = json->getAsObject();
  ASSERT_TRUE(root);
  EXPECT_EQ(root->getObject("otherData")->getInteger("total_cycles"),
            int64_t(e.sim->totalCycles));
  size_t slices = 0, processes = 0;
  for (const llvm::json::Value &v : *root->getArray("traceEvents")) {
    const llvm::json::Object *ev = v.getAsObject();
    std::optional<llvm::StringRef> ph = ev->getString("ph");
    slices += ph == "X";
    processes += ph == "M" && ev->getString("name") == "process_name";
  }
  EXPECT_EQ(slices, size_t(e.program->program().instructions_size()));
  EXPECT_EQ(processes, 8u);
}
