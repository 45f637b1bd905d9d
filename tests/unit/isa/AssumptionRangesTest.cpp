//===- AssumptionRangesTest.cpp - `# ASSUMPTION range A..B: why` ----------===//
//
// Every preset states a range for each numeric assumption, the ranges read
// back with the keys' dotted paths and bracket the preset's values, and a
// range that is malformed, outside the key's legal values or beside the
// chip's own value is refused with a line naming the file, line and key.
//
//===----------------------------------------------------------------------===//
#include "lpx/isa/AssumptionRanges.h"
#include "lpx/isa/ChipKeys.h"

#include "llvm/Support/JSON.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace lpx::isa;
using ::testing::HasSubstr;

namespace {

std::string presetText(const std::string &name) {
  auto text = readChipDescription(name);
  EXPECT_TRUE(bool(text)) << llvm::toString(text.takeError());
  return text ? *text : std::string();
}

bool isNumeric(const ChipKey &k) {
  return k.type == ChipKeyType::Integer || k.type == ChipKeyType::Real ||
         k.type == ChipKeyType::Bytes;
}

const AssumptionRange *rangeOf(const std::vector<AssumptionRange> &ranges,
                               llvm::StringRef key) {
  for (const AssumptionRange &r : ranges)
    if (r.key == key)
      return &r;
  return nullptr;
}

TEST(AssumptionRanges, EveryPresetsRangesRead) {
  for (const std::string &name : presetNames()) {
    auto a = loadChipAssumptions(name);
    ASSERT_TRUE(bool(a)) << name << ": " << llvm::toString(a.takeError());
    EXPECT_GE(a->ranges.size(), 20u) << name;
    for (const AssumptionRange &r : a->ranges) {
      EXPECT_FALSE(r.reason.empty()) << name << " " << r.key;
      EXPECT_NE(findChipKey(r.key), nullptr) << name << " " << r.key;
    }
  }
}

// An ASSUMPTION line of a numeric key, or a numeric key inside a section
// marked ASSUMPTION (a unit's latency table), must state its range.
TEST(AssumptionRanges, EveryNumericAssumptionHasARange) {
  for (const std::string &name : presetNames()) {
    std::string text = presetText(name);
    auto lines = findAssumptionLines(text, name);
    ASSERT_TRUE(bool(lines)) << llvm::toString(lines.takeError());
    auto a = loadChipAssumptions(name);
    ASSERT_TRUE(bool(a)) << llvm::toString(a.takeError());
    size_t checked = 0;
    for (const AssumptionLine &l : *lines) {
      for (const ChipKey &k : chipKeys()) {
        bool covered = l.section
                           ? llvm::StringRef(k.path).starts_with(l.key + ".")
                           : k.path == l.key;
        if (!covered || !isNumeric(k) || !k.get(a->chip))
          continue;
        ++checked;
        EXPECT_NE(rangeOf(a->ranges, k.path), nullptr)
            << name << ":" << l.line << ": " << k.path
            << " is an ASSUMPTION without a range";
      }
    }
    EXPECT_GE(checked, 20u) << name;
  }
}

TEST(AssumptionRanges, PathsEndsAndReasonsAsWritten) {
  auto a = loadChipAssumptions("tsp-v1");
  ASSERT_TRUE(bool(a)) << llvm::toString(a.takeError());
  const AssumptionRange *mxm = rangeOf(a->ranges, "mxm.latency");
  ASSERT_NE(mxm, nullptr);
  EXPECT_EQ(mxm->low, "2");
  EXPECT_EQ(mxm->high, "16");
  // The reasoning that was there before the range stays.
  EXPECT_THAT(mxm->reason, HasSubstr("MXM pipeline depth"));
  std::string text = presetText("tsp-v1");
  llvm::StringRef line = llvm::StringRef(text).drop_front(
      llvm::StringRef(text).find("  latency: 4                   # "
                                 "ASSUMPTION range 2..16"));
  EXPECT_EQ(mxm->line, 1 + llvm::StringRef(text)
                               .take_front(text.size() - line.size())
                               .count('\n'));
  // Paths come from the nesting: a latency table, a topology level.
  EXPECT_NE(rangeOf(a->ranges, "vxm.latencies.exp"), nullptr);
  EXPECT_NE(rangeOf(a->ranges, "sxm.latencies.gather"), nullptr);
  EXPECT_NE(rangeOf(a->ranges, "topology.rack.links_per_pair"), nullptr);
  EXPECT_NE(rangeOf(a->ranges, "topology.system.links_per_pair"), nullptr);
  // A boolean's range is its two values.
  const AssumptionRange *cut = rangeOf(a->ranges, "link.cut_through");
  ASSERT_NE(cut, nullptr);
  EXPECT_EQ(cut->low + ".." + cut->high, "false..true");
  // Sourced figures have none.
  EXPECT_EQ(rangeOf(a->ranges, "link.latency"), nullptr);
  EXPECT_EQ(rangeOf(a->ranges, "clock_mhz"), nullptr);
  auto lpx3 = loadChipAssumptions("lpx3");
  ASSERT_TRUE(bool(lpx3)) << llvm::toString(lpx3.takeError());
  EXPECT_NE(rangeOf(lpx3->ranges, "clock_mhz"), nullptr);
}

/// tsp-v1's text with the comment of the first line that starts with
/// `keyLine` replaced.
std::string withComment(llvm::StringRef keyLine, llvm::StringRef comment) {
  std::string text = presetText("tsp-v1");
  size_t at = text.find(keyLine.str());
  EXPECT_NE(at, std::string::npos) << keyLine.str();
  size_t end = text.find('\n', at);
  return text.substr(0, at) + keyLine.str() + "  # " + comment.str() +
         text.substr(end);
}

std::string rangeError(const std::string &text) {
  auto chip = parseChipSpec(text, "test.yaml");
  EXPECT_TRUE(bool(chip)) << llvm::toString(chip.takeError());
  if (!chip)
    return "";
  auto ranges = readAssumptionRanges(text, *chip, "test.yaml");
  if (ranges) {
    ADD_FAILURE() << "the ranges were accepted";
    return "";
  }
  return llvm::toString(ranges.takeError());
}

TEST(AssumptionRanges, BadRangesAreRefusedNamingFileLineAndKey) {
  // mxm.latency is line 26 of tsp-v1.yaml (the header's sources first).
  std::string mxm = "  latency: 4";
  struct Case {
    std::string line, comment, message;
  } cases[] = {
      {mxm, "ASSUMPTION range 8..16: deeper",
       "test.yaml:26: range of "
       "mxm.latency: 8..16 does not hold the chip's value 4"},
      {mxm, "ASSUMPTION range 16..2: backwards",
       "the low end 16 is above the "
       "high end 2"},
      {mxm, "ASSUMPTION range 2-8: a dash",
       "'2-8: a dash' is not `A..B: "
       "reasoning`"},
      {mxm, "ASSUMPTION range 2..8 no colon", "is not `A..B: reasoning`"},
      {mxm, "ASSUMPTION range 2..8:", "states no reasoning"},
      {mxm, "ASSUMPTION range 2..lots: a word",
       "invalid value 'lots' for "
       "chip parameter 'mxm.latency'"},
      {"  queues: 1", "ASSUMPTION range 0..4: none",
       "test.yaml:30: range of mxm.queues: "
       "invalid value '0' for chip parameter 'mxm.queues': mxm.queues must "
       "be positive"},
      {"  weights: int8", "ASSUMPTION range int8..fp16: formats",
       "range of formats.weights: a format key has no range"},
      {"  latencies:", "ASSUMPTION range 2..8: all",
       "range of vxm.latencies: a section"},
  };
  for (const Case &c : cases) {
    std::string text = withComment(c.line, c.comment);
    EXPECT_THAT(rangeError(text), HasSubstr(c.message)) << c.comment;
  }
}

TEST(AssumptionRanges, OnlyTheMarkedRangeCounts) {
  // "range" elsewhere in a comment is prose, and a range needs the mark.
  std::string text = withComment("  latency: 4", "ASSUMPTION: a range 1..9");
  auto chip = parseChipSpec(text, "t");
  ASSERT_TRUE(bool(chip)) << llvm::toString(chip.takeError());
  auto ranges = readAssumptionRanges(text, *chip, "t");
  ASSERT_TRUE(bool(ranges)) << llvm::toString(ranges.takeError());
  EXPECT_EQ(rangeOf(*ranges, "mxm.latency"), nullptr);
  auto lines = findAssumptionLines(text, "t");
  ASSERT_TRUE(bool(lines));
  bool found = false;
  for (const AssumptionLine &l : *lines)
    if (l.key == "mxm.latency") {
      found = true;
      EXPECT_FALSE(l.ranged);
    }
  EXPECT_TRUE(found);
}

TEST(AssumptionRanges, AnEndAtTheChipsValueIsTheChip) {
  auto chip = loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(chip)) << llvm::toString(chip.takeError());
  EXPECT_TRUE(isChipValue(*chip, "mxm.queues", "1"));
  EXPECT_FALSE(isChipValue(*chip, "mxm.queues", "4"));
  EXPECT_TRUE(isChipValue(*chip, "link.cut_through", "true"));
  EXPECT_TRUE(isChipValue(*chip, "sram.bytes", "220MiB"));
  EXPECT_TRUE(isChipValue(*chip, "link.lane_bytes_per_cycle", "4.1667"));
  EXPECT_FALSE(isChipValue(*chip, "mxm.queues", "lots"));
  EXPECT_FALSE(isChipValue(*chip, "mxm.plane", "4"));
}

TEST(AssumptionRanges, ChipKeysListsTheRanges) {
  auto a = loadChipAssumptions("tsp-v1");
  ASSERT_TRUE(bool(a)) << llvm::toString(a.takeError());
  auto json = llvm::json::parse(listChipKeys(a->chip, true, a->ranges));
  ASSERT_TRUE(bool(json)) << llvm::toString(json.takeError());
  size_t ranged = 0;
  for (const llvm::json::Value &row : *json->getAsArray()) {
    const llvm::json::Object *o = row.getAsObject();
    const llvm::json::Object *range = o->getObject("range");
    const AssumptionRange *r = rangeOf(a->ranges, *o->getString("key"));
    ASSERT_EQ(range != nullptr, r != nullptr) << o->getString("key")->str();
    if (!r)
      continue;
    ++ranged;
    EXPECT_EQ(range->getString("low"), r->low);
    EXPECT_EQ(range->getString("high"), r->high);
    EXPECT_EQ(range->getString("reason"), r->reason);
  }
  EXPECT_EQ(ranged, a->ranges.size());
  std::string text = listChipKeys(a->chip, false, a->ranges);
  EXPECT_THAT(text, ::testing::ContainsRegex("\nmxm[.]latency +integer +"
                                             "cycles +4 +2[.][.]16 +last"));
  EXPECT_THAT(text, ::testing::ContainsRegex("\nlink[.]latency +integer +"
                                             "cycles +216 +- +SRAM"));
}

} // namespace
