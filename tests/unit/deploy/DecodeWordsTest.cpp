//===- DecodeWordsTest.cpp - lpx decode's words checked before any work ---===//
//
// The rules of decode's context and prompt sweeps and of `--run`'s options
// (DecodeWords.h): which words go together, the SVG beside the CSV, the
// prompts as many as --batch. Nothing here compiles.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/DecodeWords.h"
#include "lpx/deploy/StudyRun.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace lpx::deploy;
using ::testing::ElementsAre;

namespace {

std::string sweepError(const DecodeWords &w, const DecodeSweepWords &s,
                       const StudyOptions &study = {}) {
  DecodeSweepNumbers o;
  return llvm::toString(parseDecodeSweep(w, s, study, o));
}

DecodeWords tinyLlama() {
  DecodeWords w;
  w.model = "tiny-llama";
  return w;
}

} // namespace

TEST(DecodeWords, SweepsAreListsOfPositiveNumbers) {
  DecodeSweepWords s;
  s.contextSweep = "16,32";
  DecodeSweepNumbers o;
  ASSERT_FALSE(bool(parseDecodeSweep(tinyLlama(), s, {}, o)));
  EXPECT_THAT(o.sweep, ElementsAre(16, 32));
  EXPECT_TRUE(o.sweeping());
  s.contextSweep = "16,0";
  EXPECT_NE(sweepError(tinyLlama(), s), "");
}

TEST(DecodeWords, WordsThatGoWithoutEachOther) {
  DecodeWords w = tinyLlama();
  DecodeSweepWords s;
  s.promptSweep = "8,16";
  w.prompt = "8";
  EXPECT_EQ(sweepError(w, s), "--prompt-sweep gives the prompts; --prompt "
                              "and --context-sweep go without it");
  StudyOptions study;
  study.metric = "ttft_us";
  EXPECT_EQ(sweepError(tinyLlama(), {}, study),
            "--metric, --shard and --jobs go with --sweep or --sensitivity");
  study.sweeps = {"chips=1,2"};
  s.promptSweep.clear();
  s.contextSweep = "16";
  EXPECT_EQ(sweepError(tinyLlama(), s, study),
            "--sweep is a study of whole deployments; --context-sweep and "
            "--prompt-sweep go without it");
}

TEST(DecodeWords, ASweepWritesItsSvgBesideItsCsv) {
  DecodeSweepNumbers none;
  DecodeSweepWords s;
  s.output = "t.csv";
  EXPECT_EQ(llvm::toString(checkDecodeSweepOutputs(s, none)),
            "-o and --plot go with --context-sweep or --prompt-sweep");
  DecodeSweepNumbers prompts;
  prompts.prompts = {8};
  s.output.clear();
  EXPECT_EQ(llvm::toString(checkDecodeSweepOutputs(s, prompts)),
            "--prompt-sweep needs -o FILE.csv");
  s.output = testing::TempDir() + "tpot.csv";
  ASSERT_FALSE(bool(checkDecodeSweepOutputs(s, prompts)));
  EXPECT_EQ(prompts.plot, testing::TempDir() + "tpot.svg");
}

TEST(DecodeWords, RunTakesOnePromptPerSequence) {
  DecodeWords w = tinyLlama();
  w.chips = "8", w.tp = "4", w.pp = "2", w.context = "16";
  DecodeNumbers o;
  ASSERT_FALSE(bool(parseDecodeNumbers(w, o)));
  auto run = decodeRunOptions(w, o, {}, 4);
  ASSERT_TRUE(bool(run)) << llvm::toString(run.takeError());
  // --tp/--pp are the placement the run compiles with, not dropped.
  EXPECT_EQ(run->chips, 8u);
  EXPECT_EQ(run->tp, 4u);
  EXPECT_EQ(run->pp, 2u);
  EXPECT_EQ(run->context, 16);
  EXPECT_EQ(run->tokens, 4u);
  ASSERT_EQ(run->prompts.size(), 1u); // none given: the prompt "1"
  EXPECT_THAT(run->prompts[0], ElementsAre(1));

  w.batch = "2";
  ASSERT_FALSE(bool(parseDecodeNumbers(w, o)));
  auto one = decodeRunOptions(w, o, {"1,2,3"}, 4);
  ASSERT_FALSE(bool(one));
  EXPECT_EQ(llvm::toString(one.takeError()),
            "--batch 2 needs 2 --prompt-ids (one per sequence), not 1");
  auto two = decodeRunOptions(w, o, {"1,2,3", "4,5,6"}, 4);
  ASSERT_TRUE(bool(two)) << llvm::toString(two.takeError());
  EXPECT_THAT(two->prompts[1], ElementsAre(4, 5, 6));
  // --batch left at 1 takes any number of prompts.
  w.batch = "1";
  ASSERT_FALSE(bool(parseDecodeNumbers(w, o)));
  EXPECT_TRUE(bool(decodeRunOptions(w, o, {"1", "2", "3"}, 4)));
}
