//===- SpeculativeWordsTest.cpp - --draft's words checked before any work -===//
//
// Which presets may draft for which (Speculative.h, vocabularyMismatch: the
// published configs' vocabularies, Llama 2's 32,000 pieces against Mistral's
// 32,000 and Llama 3's 128,256), and the rules of --speculate and --accept.
// Nothing here compiles.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/Speculative.h"

#include <gtest/gtest.h>

using namespace lpx;
using namespace lpx::deploy;

namespace {

bool share(const char *draft, const char *target) {
  return !vocabularyMismatch(*models::findPreset(draft),
                             *models::findPreset(target));
}

std::string parseError(SpeculativeWords w, const char *model = "tiny-llama") {
  SpeculativeNumbers o;
  return llvm::toString(parseSpeculative(w, model, o));
}

} // namespace

TEST(SpeculativeWords, DraftAndTargetShareAVocabulary) {
  EXPECT_TRUE(share("llama2-7b", "llama2-70b"));
  EXPECT_TRUE(share("llama2-13b", "llama2-70b"));
  EXPECT_TRUE(share("llama3-8b", "llama3-70b"));
  EXPECT_TRUE(share("gpt2", "gpt2-xl"));
  EXPECT_FALSE(share("llama3-8b", "llama2-70b"));    // 128,256 against 32,000
  EXPECT_FALSE(share("mixtral-8x7b", "llama2-70b")); // Mistral's 32,000
  EXPECT_TRUE(share("tiny-gpt2", "tiny-llama"));     // 256 plain ids
  EXPECT_TRUE(share("tiny-mixtral", "tiny-llama"));
  EXPECT_FALSE(share("tiny-vocab", "tiny-llama"));   // 1,024
  EXPECT_EQ(*vocabularyMismatch(*models::findPreset("tiny-vocab"),
                                *models::findPreset("tiny-llama")),
            "the draft tiny-vocab (1024 plain ids) and the target tiny-llama "
            "(256 plain ids) do not share a vocabulary; a draft proposes the "
            "target's token ids");
}

TEST(SpeculativeWords, SpeculateAndAccept) {
  SpeculativeNumbers o;
  ASSERT_FALSE(bool(parseSpeculative({"tiny-gpt2", "4", "0.7"}, "tiny-llama", o)));
  EXPECT_EQ(o.k, 4);
  EXPECT_DOUBLE_EQ(o.accept, 0.7);
  EXPECT_FALSE(o.measured);
  ASSERT_FALSE(bool(parseSpeculative({"tiny-gpt2", "64", ""}, "tiny-llama", o)));
  EXPECT_TRUE(o.measured); // the default
  ASSERT_FALSE(bool(parseSpeculative({"tiny-gpt2", "1", "1"}, "tiny-llama", o)));
  EXPECT_DOUBLE_EQ(o.accept, 1);
  for (const char *k : {"0", "65", "-1", "2.5", "1000"})
    EXPECT_EQ(parseError({"tiny-gpt2", k, "0.7"}),
              std::string("--speculate '") + k +
                  "' is not a number of tokens from 1 to 64");
  for (const char *a : {"0", "1.01", "-0.5", "x", "nan"})
    EXPECT_EQ(parseError({"tiny-gpt2", "4", a}),
              std::string("--accept '") + a +
                  "' is not a rate in (0, 1] or 'measured'");
  EXPECT_EQ(parseError({"", "4", ""}), "--speculate and --accept go with --draft");
  EXPECT_EQ(parseError({"tiny-gpt2", "", ""}),
            "--draft needs --speculate K (the tokens it proposes per round)");
  EXPECT_EQ(parseError({"tiny-gpt2", "4", ""}, "model.onnx"),
            "--draft needs a preset as --model (the target), not 'model.onnx'");
  EXPECT_EQ(parseError({"llama2-7b", "4", "measured"}, "llama2-70b"),
            "--accept measured runs draft and target on the CPU runtime, "
            "which holds only the test presets' weights; give --accept A for "
            "llama2-7b");
}

TEST(SpeculativeWords, ARunMeasuresTheAcceptance) {
  SpeculativeNumbers o;
  EXPECT_EQ(llvm::toString(parseSpeculativeRun({"tiny-gpt2", "4", "0.5"},
                                               "tiny-llama", o)),
            "--accept goes without --run: a speculative --run measures the "
            "acceptance");
  ASSERT_FALSE(bool(parseSpeculativeRun({"tiny-gpt2", "4", ""}, "tiny-llama", o)));
  EXPECT_TRUE(o.measured);
}

TEST(SpeculativeWords, TheMeasuredPromptsAreTheReferencesPrompts) {
  // models/reference/decode.mjs: sequence b's prompt is 1, 2, 3 plus 6 b.
  const auto prompts = measuredPromptSet();
  ASSERT_EQ(prompts.size(), 4u);
  EXPECT_EQ(prompts[1], (std::vector<int64_t>{7, 8, 9}));
  EXPECT_EQ(prompts[3], (std::vector<int64_t>{19, 20, 21}));
}
