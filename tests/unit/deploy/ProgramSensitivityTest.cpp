//===- ProgramSensitivityTest.cpp - A program over its assumptions --------===//
//
// compilerReadsKey against the compiler itself: the built-in MLP compiled
// with each key it claims the compiler does not read at two values gives
// the same instructions (and a key it does read, the MXM's depth, does
// not, so the comparison can fail). runProgramSensitivity on that program:
// the base is the program's own simulation, the keys the compiler reads
// are listed and not run, the clock's ends are the base's cycles at
// 800 and 1500 MHz, and the band holds the base.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/ProgramSensitivity.h"
#include "lpx/deploy/Evaluate.h"
#include "lpx/isa/ChipOverrides.h"

#include <gtest/gtest.h>

using namespace lpx;
using namespace lpx::deploy;

namespace {

const std::string kMlp = std::string(LPX_SOURCE_DIR) + "/models/mlp/model.onnx";

/// The instructions of the MLP compiled for tsp-v1 with `key` at `value`.
std::string instructionsWith(const std::string &key, const std::string &value) {
  auto chip = isa::loadChipWithOverrides("tsp-v1", {key + "=" + value});
  EXPECT_TRUE(bool(chip)) << llvm::toString(chip.takeError());
  EvaluateOptions opts;
  opts.simulate = false;
  Evaluation e = evaluate(kMlp, *chip, opts);
  EXPECT_TRUE(e.ok()) << e.error;
  std::string out;
  for (const auto &i : e.program->program().instructions())
    out += i.SerializeAsString();
  return out;
}

TEST(ProgramSensitivity, TheCompilerReadsNeitherClockNorHost) {
  for (auto [key, a, b] : {std::tuple{"clock_mhz", "500", "2000"},
                           {"host.latency_us", "1", "40"},
                           {"host.gb_per_second", "4", "64"}}) {
    EXPECT_FALSE(compilerReadsKey(key)) << key;
    EXPECT_EQ(instructionsWith(key, a), instructionsWith(key, b)) << key;
  }
  EXPECT_TRUE(compilerReadsKey("mxm.latency"));
  EXPECT_NE(instructionsWith("mxm.latency", "2"),
            instructionsWith("mxm.latency", "16"));
}

TEST(ProgramSensitivity, ReSimulatesOnlyWhatTheCompilerDoesNotRead) {
  auto chip = isa::loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(chip)) << llvm::toString(chip.takeError());
  Evaluation e = evaluate(kMlp, *chip, EvaluateOptions{});
  ASSERT_TRUE(e.ok()) << e.error;
  const uint64_t cycles = e.sim->totalCycles;
  std::vector<isa::AssumptionRange> ranges = {
      {"mxm.latency", "2", "16", "why", 1},
      {"clock_mhz", "800", "1500", "why", 2},
      {"host.latency_us", "2", "20", "why", 3}};
  ProgramSensitivity p = runProgramSensitivity(*e.program, ranges, 2);
  ASSERT_EQ(p.compiled.size(), 1u);
  EXPECT_EQ(p.compiled[0].key, "mxm.latency");
  const Sensitivity &s = p.study;
  EXPECT_EQ(s.ran, 5u); // the base and four ends
  ASSERT_EQ(s.base.status, "ok");
  EXPECT_EQ(s.base.cycles, cycles);
  ASSERT_EQ(s.rows.size(), 2u);
  const SensitivityRow &clock = s.rows[0]; // the only one that moves
  ASSERT_EQ(clock.range.key, "clock_mhz");
  ASSERT_EQ(clock.low.status, "ok");
  ASSERT_EQ(clock.high.status, "ok");
  // The same schedule at another clock: the same cycles, each its time.
  EXPECT_EQ(clock.low.cycles, cycles);
  EXPECT_EQ(clock.high.cycles, cycles);
  EXPECT_DOUBLE_EQ(clock.low.seconds, double(cycles) / 800e6);
  EXPECT_DOUBLE_EQ(clock.high.seconds, double(cycles) / 1500e6);
  // Host I/O is timed apart from the cycles: the chip's time is the base's.
  EXPECT_EQ(s.rows[1].low.cycles, cycles);
  EXPECT_EQ(s.rows[1].swingSeconds(), 0.0);
  SensitivityBand b = bandOf(s);
  EXPECT_LE(b.lowSeconds, s.base.seconds);
  EXPECT_GE(b.highSeconds, s.base.seconds);
}

} // namespace
