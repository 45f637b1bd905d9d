//===- PrefillBesideStepTest.cpp - A count's prefill beside its step ------===//
//
// DecodeRequest::prefillBesideStep (lpx serve's chip search) compiles a
// count's prefill on a second thread beside its step once a step on a mesh
// fitted on fewer chips, placed as that step was, and again after the step
// where the step is placed otherwise; the plan must be the serial one's.
// tiny-llama on lpx3 with 512 KiB of SRAM a chip, context 256, a step of
// batch 1 and a prefill of 256 tokens in chunks of 64: the search tries 1
// chip (the step fits, with no mesh; the prefill does not), 16 (both fit)
// and 8 (both fit: tp 2 x pp 4, as lpx decode places it). No step on a
// mesh fits below a count it tries, so nothing is compiled beside: the
// flag must change nothing, compile for compile. (The guess itself is
// checked on llama2-70b on tsp-v1, whose table is byte-identical with and
// without it: docs/serving.md, "Floors".) A few seconds.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/DecodePlan.h"
#include "lpx/deploy/DeploymentTarget.h"

#include <gtest/gtest.h>
#include <mutex>

using namespace lpx;
using namespace lpx::deploy;

TEST(PrefillBesideStep, ChangesNothingWhereNoStepOnAMeshFittedBelow) {
  auto target = loadDeploymentTarget(
      {"tiny-llama", "lpx3", {"sram.bytes=524288"}, "", "", 0, 0},
      [](llvm::StringRef) { return "no preset"; });
  ASSERT_TRUE(bool(target)) << llvm::toString(target.takeError());
  ScratchDir dir;
  ASSERT_FALSE(bool(dir.create("lpx-beside-test")));
  target->scratchDir = dir.path.str().str();
  std::string why;
  auto prefill = prefillShape(256, 1, 256, 64, why);
  ASSERT_TRUE(bool(prefill)) << llvm::toString(prefill.takeError());
  DecodeRequest req;
  req.step = PhaseShape{256, 1, 1};
  req.prefill = *prefill;

  std::mutex m;
  std::vector<std::string> told; // "phase@chips", in the order told
  PlanProgress progress;
  progress.compiling = [&](llvm::StringRef phase, unsigned chips) {
    std::lock_guard<std::mutex> lock(m);
    told.push_back(phase.str() + "@" + std::to_string(chips));
  };
  auto serial = planDecode(*target, req, progress);
  ASSERT_TRUE(bool(serial)) << llvm::toString(serial.takeError());
  const std::vector<std::string> serialTold = told;
  told.clear();
  req.prefillBesideStep = true;
  auto beside = planDecode(*target, req, progress);
  ASSERT_TRUE(bool(beside)) << llvm::toString(beside.takeError());

  EXPECT_EQ(beside->chips, 8u);
  EXPECT_EQ(beside->chips, serial->chips);
  const auto &s = serial->step.program->program();
  const auto &b = beside->step.program->program();
  EXPECT_EQ(b.tp(), 2u);
  EXPECT_EQ(b.pp(), 4u);
  EXPECT_EQ(b.tp(), s.tp());
  EXPECT_EQ(b.pp(), s.pp());
  EXPECT_EQ(beside->step.sim.totalCycles, serial->step.sim.totalCycles);
  ASSERT_TRUE(beside->prefill && serial->prefill);
  EXPECT_EQ(beside->prefill->sim.totalCycles, serial->prefill->sim.totalCycles);
  EXPECT_EQ(beside->prefill->occupied, serial->prefill->occupied);
  EXPECT_EQ(beside->searchCompiles, serial->searchCompiles);
  EXPECT_EQ(told, serialTold);
  ASSERT_GE(told.size(), 6u);
  EXPECT_EQ(std::vector<std::string>(told.begin(), told.begin() + 6),
            (std::vector<std::string>{"decode step@1", "prefill@1",
                                      "decode step@16", "prefill@16",
                                      "decode step@8", "prefill@8"}));
}
