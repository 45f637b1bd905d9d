//===- ChipSpecTest.cpp - Chip descriptions: presets, errors, round trip --===//
#include "lpx/isa/ChipSpec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace lpx::isa;
using ::testing::HasSubstr;

namespace {

std::string errorOf(llvm::Expected<ChipSpec> spec) {
  if (spec)
    return "";
  return llvm::toString(spec.takeError());
}

std::string presetText(const std::string &name) {
  auto spec = loadChipSpec(name);
  EXPECT_TRUE(bool(spec));
  return printChipSpec(*spec);
}

/// The tsp-v1 text with one "key: value" line changed.
std::string withLine(const std::string &key, const std::string &value) {
  std::string text = presetText("tsp-v1");
  size_t at = text.find(key + ":");
  EXPECT_NE(at, std::string::npos) << key;
  size_t end = text.find('\n', at);
  return text.substr(0, at) + key + ": " + value + text.substr(end);
}

TEST(ChipSpec, PresetsCarryThePublishedFigures) {
  auto tsp = loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(tsp));
  EXPECT_EQ(tsp->clockMHz, 900);                 // [P20]
  EXPECT_EQ(tsp->sram.bytes, 220ull << 20);      // 220 MiB [P20]
  EXPECT_EQ(tsp->sram.slices, 88u);
  EXPECT_EQ(tsp->vector.bytes, 320u);
  EXPECT_EQ(tsp->mxm.planes, 4u);
  EXPECT_EQ(tsp->mxm.cyclesPerVector16, 4 * tsp->mxm.cyclesPerVectorInt8);
  EXPECT_EQ(tsp->link.latency, 216u);            // [P22]
  EXPECT_EQ(tsp->link.flitBytes - tsp->link.flitPayload, 8u);
  auto lpx3 = loadChipSpec("lpx3");
  ASSERT_TRUE(bool(lpx3));
  EXPECT_EQ(lpx3->sram.bytes, 500000000ull);     // 500 MB [NV]
  EXPECT_EQ(lpx3->link.perChip, 96u);
  EXPECT_EQ(presetNames().front(), "tsp-v1");
}

TEST(ChipSpec, PrintedDescriptionParsesBackIdentically) {
  for (const std::string &name : presetNames()) {
    std::string text = presetText(name);
    auto again = parseChipSpec(text, "printed");
    ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
    EXPECT_EQ(printChipSpec(*again), text);
  }
}

TEST(ChipSpec, UnknownKeyIsNamed) {
  std::string text = presetText("tsp-v1");
  text.insert(text.find("name:"), "warp_drive: 3\n");
  EXPECT_THAT(errorOf(parseChipSpec(text, "x.yaml")),
              HasSubstr("warp_drive"));
}

// Found by fuzz-chip: a text with no YAML document made LLVM's reader
// dereference a null node (SIGSEGV in lpx chip validate and lpx simulate).
TEST(ChipSpec, EmptyDescriptionIsAnError) {
  for (const char *text : {"", "# only a comment\n", "\n\n"})
    EXPECT_THAT(errorOf(parseChipSpec(text, "x.yaml")),
                HasSubstr("x.yaml: empty chip description"));
  // An alias as the document or as a value: an error, not a crash.
  for (const char *text : {"**", "clock_mhz: *a\n"})
    EXPECT_FALSE(errorOf(parseChipSpec(text, "x.yaml")).empty()) << text;
}

TEST(ChipSpec, MissingKeyIsNamed) {
  std::string text = presetText("tsp-v1");
  size_t at = text.find("clock_mhz:");
  text.erase(at, text.find('\n', at) - at + 1);
  EXPECT_THAT(errorOf(parseChipSpec(text, "x.yaml")), HasSubstr("clock_mhz"));
}

TEST(ChipSpec, ImpossibleValuesAreNamed) {
  EXPECT_THAT(errorOf(parseChipSpec(withLine("clock_mhz", "0"), "x")),
              HasSubstr("clock_mhz must be positive"));
  EXPECT_THAT(
      errorOf(parseChipSpec(withLine("  lane_bytes_per_cycle", "-4"), "x")),
      HasSubstr("link.lane_bytes_per_cycle must be positive"));
  EXPECT_THAT(errorOf(parseChipSpec(withLine("  lanes", "0"), "x")),
              HasSubstr("vector.lanes must be positive"));
  EXPECT_THAT(errorOf(parseChipSpec(withLine("  planes", "0"), "x")),
              HasSubstr("mxm.planes must be positive"));
  EXPECT_THAT(errorOf(parseChipSpec(withLine("  group_size", "0"), "x")),
              HasSubstr("topology.group_size"));
  // SRAM smaller than one 320-byte vector.
  std::string text = presetText("tsp-v1");
  size_t at = text.find("  bytes:");
  text.replace(at, text.find('\n', at) - at, "  bytes: 100");
  EXPECT_THAT(errorOf(parseChipSpec(text, "x")),
              HasSubstr("smaller than one vector"));
}

TEST(ChipSpec, QueuesAndLatencyTablesAreChecked) {
  // tsp-v1's first "queues:" line is the MXM's.
  EXPECT_THAT(errorOf(parseChipSpec(withLine("  queues", "0"), "x")),
              HasSubstr("mxm.queues must be positive"));
  EXPECT_THAT(errorOf(parseChipSpec(withLine("  queues", "3"), "x")),
              HasSubstr("mxm.planes must be a multiple of mxm.queues"));
  // A latency for an operation the unit does not have names both.
  EXPECT_THAT(errorOf(parseChipSpec(withLine("    exp", "4\n    warp: 1"), "x")),
              HasSubstr("vxm.latencies.warp: vxm has no operation 'warp'"));
  EXPECT_THAT(errorOf(parseChipSpec(withLine("    transpose", "4\n    exp: 1"),
                                    "x")),
              HasSubstr("sxm.latencies.exp: sxm has no operation 'exp'"));
}

TEST(ChipSpec, OptionalKeysDefaultToTheOldModel) {
  // A description without the optional keys: one vector per bank per
  // cycle, one ALU per stream pipeline, one queue per unit.
  std::string text = presetText("tsp-v1");
  for (const char *key : {"  bytes_per_cycle_per_bank:", "  alus_per_lane:",
                          "  queues:", "  queues:", "  queues:", "  queues:"}) {
    size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos) << key;
    text.erase(at, text.find('\n', at) - at + 1);
  }
  auto spec = parseChipSpec(text, "x");
  ASSERT_TRUE(bool(spec)) << llvm::toString(spec.takeError());
  EXPECT_EQ(spec->sram.bytesPerCyclePerBank, spec->vector.bytes);
  EXPECT_EQ(spec->vxm.alusPerLane, spec->vxm.vectorsPerCycle);
  EXPECT_EQ(spec->mxm.queues, 1u);
  EXPECT_EQ(spec->sxm.queues, 1u);
}

TEST(ChipSpec, NotYamlOrMissingFile) {
  EXPECT_FALSE(errorOf(parseChipSpec("[1, 2", "x")).empty());
  EXPECT_THAT(errorOf(loadChipSpec("/nonexistent/chip.yaml")),
              HasSubstr("cannot read chip description"));
}

} // namespace
