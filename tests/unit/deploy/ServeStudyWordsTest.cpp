//===- ServeStudyWordsTest.cpp - lpx serve's words checked before any work ===//
//
// A study's refusal of one run's outputs, the workload checked once with
// -o left to the study, the part line's base options, and a run's output
// paths (ServeStudy.h, ServeRun.h). Nothing here compiles or serves.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/ServeStudy.h"

#include <gtest/gtest.h>

using namespace lpx::deploy;

/// Each test's workload: five calls a second, 8 to 32 prompt tokens.
const char *const kPoisson = "poisson:rate=5,prompt=8..32,output=8..16";

TEST(ServeStudyWords, OneRunsOutputsGoWithoutAStudy) {
  ServeWords w;
  w.workload = kPoisson;
  EXPECT_FALSE(bool(checkStudyOutputs(w)));
  w.report = "study.html"; // a study's --report is the study's page
  EXPECT_FALSE(bool(checkStudyOutputs(w)));
  w.curveSvg = "c.svg";
  w.trace = "t.json";
  // The first named in option order.
  EXPECT_EQ(llvm::toString(checkStudyOutputs(w)),
            "--curve-svg is of one run; a --sweep study goes without it");
}

TEST(ServeStudyWords, TheWorkloadIsCheckedOnceAndOIsTheStudys) {
  ServeWords w;
  w.workload = kPoisson;
  w.output = "study.csv";
  auto serving = studyServeWords(w);
  ASSERT_TRUE(bool(serving)) << llvm::toString(serving.takeError());
  EXPECT_EQ(serving->output, "");
  EXPECT_EQ(serving->workload, w.workload);
  w.workload.clear();
  auto none = studyServeWords(w);
  ASSERT_FALSE(bool(none));
  EXPECT_EQ(llvm::toString(none.takeError()),
            "--workload is required (poisson:, closed:, agent: or trace:FILE; "
            "docs/serving.md)");
}

TEST(ServeStudyWords, TheBaseLineNamesWhatEveryPointShares) {
  DeploymentArgs d;
  d.model = "tiny-llama";
  d.sets = {"sram.bytes=64MiB", "link.latency=100"};
  ServeWords w;
  w.workload = kPoisson;
  w.slo = "ttft_p99=1s";
  w.loadSweep = "1,2";
  EXPECT_EQ(serveStudyBaseLine(d, w, "lpx3"),
            "--model tiny-llama --chip lpx3 --workload " + w.workload +
                " --max-batch 8 --slo ttft_p99=1s --load-sweep 1,2 --seed 1 "
                "--set sram.bytes=64MiB --set link.latency=100");
  w.prefillChunk = "16";
  EXPECT_NE(serveStudyBaseLine(d, w, "lpx3").find(" --seed 1 --prefill-chunk 16 "),
            std::string::npos);
}

TEST(ServeStudyWords, ARunsFilesAreCheckedAsOutputPaths) {
  ServeWords w;
  w.workload = kPoisson;
  w.report = testing::TempDir() + "serve.html";
  EXPECT_FALSE(bool(checkServeOutputs(w)));
  w.trace = "/no/such/folder/t.json";
  llvm::Error e = checkServeOutputs(w);
  EXPECT_TRUE(bool(e));
  llvm::consumeError(std::move(e));
}
