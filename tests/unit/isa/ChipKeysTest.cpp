//===- ChipKeysTest.cpp - The key table against the printer ---------------===//
//
// The table (ChipKeys.def) and printChipSpec are two lists of the same
// parameters; these tests keep them one: every scalar the printer writes has
// exactly one key and every key is a scalar the printer writes, in the same
// order, and each key set through the table survives print -> parse.
//
//===----------------------------------------------------------------------===//
#include "lpx/isa/ChipKeys.h"
#include "lpx/isa/ChipOverrides.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace lpx::isa;
using ::testing::HasSubstr;

namespace {

using Leaves = std::vector<std::pair<std::string, std::string>>;

/// The dotted path and text of every scalar in a printed description.
void collectLeaves(llvm::yaml::MappingNode *map, const std::string &prefix,
                   Leaves &out) {
  for (llvm::yaml::KeyValueNode &kv : *map) {
    llvm::SmallString<32> storage;
    std::string path =
        prefix +
        llvm::cast<llvm::yaml::ScalarNode>(kv.getKey())->getValue(storage).str();
    if (auto *inner = llvm::dyn_cast<llvm::yaml::MappingNode>(kv.getValue()))
      collectLeaves(inner, path + ".", out);
    else if (auto *v = llvm::dyn_cast<llvm::yaml::ScalarNode>(kv.getValue()))
      out.push_back({path, v->getValue(storage).str()});
    else
      ADD_FAILURE() << path << " is neither a section nor a scalar";
  }
}

Leaves printedScalars(const ChipSpec &spec) {
  std::string text = printChipSpec(spec);
  llvm::SourceMgr sm;
  llvm::yaml::Stream stream(text, sm);
  Leaves out;
  auto doc = stream.begin();
  EXPECT_NE(doc, stream.end());
  collectLeaves(llvm::cast<llvm::yaml::MappingNode>(doc->getRoot()), "", out);
  return out;
}

std::vector<std::string> printedLeaves(const ChipSpec &spec) {
  std::vector<std::string> paths;
  for (auto &[path, text] : printedScalars(spec))
    paths.push_back(path);
  return paths;
}

/// What the printer writes at `path`, or "" where it writes nothing.
std::string printedAt(const ChipSpec &spec, const std::string &path) {
  for (auto &[p, text] : printedScalars(spec))
    if (p == path)
      return text;
  return "";
}

std::vector<std::string> keysGiven(const ChipSpec &spec) {
  std::vector<std::string> out;
  for (const ChipKey &k : chipKeys())
    if (k.get(spec))
      out.push_back(k.path);
  return out;
}

ChipSpec preset(const std::string &name) {
  auto spec = loadChipSpec(name);
  EXPECT_TRUE(bool(spec)) << name;
  return spec ? *spec : ChipSpec();
}

TEST(ChipKeys, EveryPrintedScalarHasExactlyOneKey) {
  std::set<std::string> unique;
  for (const ChipKey &k : chipKeys())
    EXPECT_TRUE(unique.insert(k.path).second) << "twice: " << k.path;
  for (const std::string &name : presetNames()) {
    ChipSpec spec = preset(name);
    EXPECT_EQ(printedLeaves(spec), keysGiven(spec)) << name;
    // With every optional entry given, the printer writes the whole table.
    for (const ChipKey &k : chipKeys())
      if (!k.get(spec))
        k.set(spec, *k.parse(k.type == ChipKeyType::Text ? "x" : "3"));
    std::vector<std::string> all;
    for (const ChipKey &k : chipKeys())
      all.push_back(k.path);
    EXPECT_EQ(printedLeaves(spec), all) << name;
  }
}

/// Values other than `now` that a key of `type` may take, most useful first.
std::vector<std::string> otherValues(const ChipKey &k, const std::string &now) {
  switch (k.type) {
  case ChipKeyType::Integer:
  case ChipKeyType::Bytes: {
    uint64_t n = std::stoull(now);
    std::vector<std::string> out;
    for (uint64_t v : {2 * n, n + 1, n / 2, n - 1, uint64_t(7)})
      if (v != n && v <= UINT32_MAX * (k.type == ChipKeyType::Bytes ? 4 : 1))
        out.push_back(std::to_string(v));
    return out;
  }
  case ChipKeyType::Real: {
    double d = std::stod(now);
    return {std::to_string(2 * d + 1), std::to_string(d / 2), "3.5"};
  }
  case ChipKeyType::Bool:
    return {now == "true" ? "false" : "true"};
  case ChipKeyType::Format:
    return {now == "bf16" ? "fp16" : "bf16", "int8"};
  case ChipKeyType::Text:
    return {"a: b # c 'd'"}; // YAML's own characters stay text
  }
  return {};
}

TEST(ChipKeys, EverySetSurvivesPrintAndParse) {
  for (const std::string &name : presetNames()) {
    const ChipSpec base = preset(name);
    for (const ChipKey &k : chipKeys()) {
      std::optional<ChipValue> old = k.get(base);
      // A latency not listed is the unit's; a level not given is 0.
      std::string now = old ? k.format(*old) : "4";
      ChipSpec spec = base;
      std::string chosen;
      for (const std::string &v : otherValues(k, now)) {
        if (llvm::Error err = applyOverride(spec, k.path, v)) {
          llvm::consumeError(std::move(err));
          continue;
        }
        chosen = v;
        break;
      }
      ASSERT_FALSE(chosen.empty()) << name << ": no other value of "
                                   << k.path << " is accepted";
      std::optional<ChipValue> set = k.get(spec);
      ASSERT_TRUE(set) << k.path;
      EXPECT_NE(set, old) << k.path;
      EXPECT_EQ(*set, *k.parse(chosen)) << k.path;
      // The printer writes the new value under this key and no other: the
      // key reaches the field the printer prints there.
      EXPECT_EQ(printedAt(spec, k.path), k.format(*set)) << name;
      for (const ChipKey &other : chipKeys())
        if (&other != &k && other.get(base) && other.path != "description")
          EXPECT_EQ(other.get(spec), other.get(base))
              << name << ": setting " << k.path << " moved " << other.path;
      auto again = parseChipSpec(printChipSpec(spec), "printed");
      ASSERT_TRUE(bool(again)) << name << " " << k.path << ": "
                               << llvm::toString(again.takeError());
      EXPECT_EQ(k.get(*again), set) << name << " " << k.path;
      EXPECT_EQ(printChipSpec(*again), printChipSpec(spec)) << k.path;
    }
  }
}

std::string overrideError(const std::string &key, const std::string &value) {
  ChipSpec spec = preset("tsp-v1");
  return llvm::toString(applyOverride(spec, key, value));
}

TEST(ChipKeys, ValuesReadAsInADescriptionFile) {
  ChipSpec spec = preset("tsp-v1");
  ASSERT_FALSE(bool(applyOverride(spec, "sram.bytes", "128MiB")));
  EXPECT_EQ(spec.sram.bytes, 128ull << 20);
  ASSERT_FALSE(bool(applyOverride(spec, "vxm.latencies.erf", "5")));
  EXPECT_EQ(spec.vxm.latencyOf("erf"), 5u);
  // A real is kept as printed (what a program embeds): %g, six digits.
  ASSERT_FALSE(bool(applyOverride(spec, "link.lane_bytes_per_cycle",
                                  "4.16666666")));
  EXPECT_EQ(spec.link.laneBytesPerCycle, 4.16667);
  EXPECT_THAT(overrideError("mxm.planes", "lots"),
              "invalid value 'lots' for chip parameter 'mxm.planes': "
              "invalid number");
  EXPECT_THAT(overrideError("mxm.planes", "0"),
              "invalid value '0' for chip parameter 'mxm.planes': mxm.planes "
              "must be positive");
  EXPECT_THAT(overrideError("formats.weights", "fp7"),
              HasSubstr("formats.weights 'fp7' is not a format"));
}

TEST(ChipKeys, UnknownKeysListTheirSection) {
  EXPECT_THAT(overrideError("mxm.plane", "8"),
              HasSubstr("unknown chip parameter 'mxm.plane' (mxm has: "
                        "planes, rows, cols,"));
  EXPECT_THAT(overrideError("vxm.latencies.warp", "1"),
              HasSubstr("(vxm.latencies has: "));
  EXPECT_THAT(overrideError("foo.bar", "1"),
              HasSubstr("unknown chip section 'foo' in 'foo.bar' (sections: "
                        "sram, vector, stream, mxm, vxm, vxm.latencies,"));
  EXPECT_THAT(overrideError("topology.rack", "1"),
              HasSubstr("'topology.rack' is a section, set one of its "
                        "parameters: size, links_per_pair, lanes,"));
  EXPECT_THAT(overrideError("clock", "1"),
              HasSubstr("(top-level parameters: name, description, "
                        "clock_mhz; sections: sram,"));
}

TEST(ChipKeys, ListingGivesEveryKeyWithTheChipsValue) {
  ChipSpec spec = preset("tsp-v1");
  auto json = llvm::json::parse(listChipKeys(spec, true));
  ASSERT_TRUE(bool(json)) << llvm::toString(json.takeError());
  const llvm::json::Array *rows = json->getAsArray();
  ASSERT_NE(rows, nullptr);
  ASSERT_EQ(rows->size(), chipKeys().size());
  const llvm::json::Object *bytes = nullptr;
  for (const llvm::json::Value &row : *rows)
    if (row.getAsObject()->getString("key") == "sram.bytes")
      bytes = row.getAsObject();
  ASSERT_NE(bytes, nullptr);
  EXPECT_EQ(bytes->getInteger("value"), int64_t(220) << 20); // 220 MiB [P20]
  EXPECT_EQ(bytes->getString("type"), "bytes");
  EXPECT_EQ(bytes->getString("unit"), "bytes");
  std::string text = listChipKeys(spec, false);
  EXPECT_THAT(text, HasSubstr("link.latency"));
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'),
            long(chipKeys().size()));
}

} // namespace
