//===- PresetsTest.cpp - Model presets against published figures ----------===//
//
// Parameter counts are counted from the graph an export builds and compared
// with the totals the models' publishers report (Hugging Face model cards /
// safetensors metadata), which nobody here computed.
//
//===----------------------------------------------------------------------===//
#include "lpx/models/Export.h"
#include "lpx/models/PresetTable.h"
#include "lpx/models/Presets.h"
#include "WeightData.h" // models/lib: internal to lpx_models

#include <gtest/gtest.h>

using namespace lpx::models;

static uint64_t parameters(const char *name) {
  const DecoderConfig *c = findPreset(name);
  EXPECT_NE(c, nullptr) << name;
  ExportOptions o;
  EXPECT_FALSE(bool(resolveOptions(*c, o)));
  return summarize(*c, o).parameters;
}

TEST(Presets, ParameterCountsMatchPublishedTotals) {
  EXPECT_EQ(parameters("llama2-7b"), 6738415616u);
  EXPECT_EQ(parameters("llama2-13b"), 13015864320u);
  EXPECT_EQ(parameters("llama2-70b"), 68976648192u);
  EXPECT_EQ(parameters("llama3-8b"), 8030261248u);
  EXPECT_EQ(parameters("llama3-70b"), 70553706496u);
  EXPECT_EQ(parameters("mixtral-8x7b"), 46702792704u);
  // GPT-2's published 124,439,808 ties lm_head to wte; the export stores an
  // untied lm_head [768, 50257] of its own.
  EXPECT_EQ(parameters("gpt2"), 124439808u + 768u * 50257u);
  EXPECT_EQ(parameters("gpt2-xl"), 1557611200u + 1600u * 50257u);
}

TEST(Presets, OptionsAreCheckedAgainstThePreset) {
  const DecoderConfig &c = *findPreset("llama2-70b");
  ExportOptions o;
  ASSERT_FALSE(bool(resolveOptions(c, o)));
  EXPECT_EQ(o.layers, 80);
  EXPECT_EQ(o.context, 4096);
  for (ExportOptions bad : {ExportOptions{-1, 0, 1, false},
                            ExportOptions{81, 0, 1, false},
                            ExportOptions{0, 1, 1, false},
                            ExportOptions{0, 4097, 1, false},
                            ExportOptions{0, 0, 0, false},
                            ExportOptions{0, 0, kMaxBatch + 1, false}}) {
    llvm::Error e = resolveOptions(c, bad);
    EXPECT_TRUE(bool(e));
    llvm::consumeError(std::move(e));
  }
}

TEST(Presets, ShapeOnlyKeepsOnlySmallInitializers) {
  const DecoderConfig &c = *findPreset("llama2-70b");
  ExportOptions o{2, 0, 1, true};
  ASSERT_FALSE(bool(resolveOptions(c, o)));
  ExportSummary s = summarize(c, o);
  // embed, lm_head, final norm; per layer q, k, v, o, gate, up, down and two
  // norms: 3 + 2 * 9.
  EXPECT_EQ(s.shapeOnlyTensors, 21u);
  EXPECT_FALSE(s.externalData);
}

TEST(Presets, FfnOnlyStepHoldsTheMlpBlocksAlone) {
  // llama2-70b's published 68,976,648,192 less the embedding and LM head
  // (2 x 32,000 x 8,192), the final norm (8,192) and per layer Q, K, V, O
  // (2 x 8,192^2 + 2 x 8,192 x 1,024) and the input norm (8,192): per layer
  // gate, up, down (3 x 8,192 x 28,672) and the post-attention norm.
  const DecoderConfig &c = *findPreset("llama2-70b");
  ExportOptions o;
  o.ffnOnly = true;
  ASSERT_FALSE(bool(resolveOptions(c, o)));
  EXPECT_EQ(summarize(c, o).parameters, 80ull * (3ull * 8192 * 28672 + 8192));
  const uint64_t rest = 2ull * 32000 * 8192 + 8192 +
                        80ull * (2ull * 8192 * 8192 + 2ull * 8192 * 1024 + 8192);
  EXPECT_EQ(summarize(c, o).parameters + rest, 68976648192ull);
}

TEST(WeightStream, ChunksDoNotChangeTheValues) {
  Parameter p{"w", {3, 5}, {0.5f, 0.25f}};
  std::vector<float> whole(15), parts(15);
  WeightStream(p).next(whole.data(), 15);
  WeightStream s(p);
  s.next(parts.data(), 4);
  s.next(parts.data() + 4, 11);
  EXPECT_EQ(whole, parts);
  for (float v : whole) {
    EXPECT_GE(v, 0.25f);
    EXPECT_LE(v, 0.75f);
  }
  // Another name, other values.
  std::vector<float> other(15);
  WeightStream(Parameter{"w2", {3, 5}, {0.5f, 0.25f}}).next(other.data(), 15);
  EXPECT_NE(whole, other);
}

// `lpx models list` and `lpx models export`'s text (PresetTable.h).
TEST(PresetTable, HumanCounts) {
  EXPECT_EQ(humanCount(6738415616), "6.74B");
  EXPECT_EQ(humanCount(163037184), "163.04M");
  EXPECT_EQ(humanCount(172224), "172.22K");
  EXPECT_EQ(humanCount(999999), "1000.00K");
}

TEST(PresetTable, OneRowPerPresetUnderTheHeader) {
  auto table = presetTable();
  ASSERT_TRUE(bool(table)) << llvm::toString(table.takeError());
  size_t lines = 0;
  for (char c : *table)
    lines += c == '\n';
  EXPECT_EQ(lines, presets().size() + 1);
  EXPECT_EQ(table->rfind("name ", 0), 0u);
  // tiny-mixtral: 4 experts, 2 per token.
  EXPECT_NE(table->find("4/top2"), std::string::npos);
}

TEST(PresetTable, ExportLineSaysWhatWasWritten) {
  const DecoderConfig *c = findPreset("tiny-llama");
  ASSERT_NE(c, nullptr);
  ExportOptions o;
  o.layers = 2, o.context = 64, o.batch = 1, o.prompt = 8, o.shapeOnly = true;
  ExportSummary s{172224, 99, 12, false};
  EXPECT_EQ(exportSummaryLine(*c, o, s, "m.onnx"),
            "wrote m.onnx: tiny-llama, 2 layers, 8 tokens, context 64, batch "
            "1, 99 nodes, 172.22K parameters, 12 shape-only weights");
  o.prompt = 1, o.shapeOnly = false, s.externalData = true;
  EXPECT_EQ(exportSummaryLine(*c, o, s, "m.onnx"),
            "wrote m.onnx: tiny-llama, 2 layers, context 64, batch 1, 99 "
            "nodes, 172.22K parameters, weights in m.onnx.data");
}
