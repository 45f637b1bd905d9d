//===- ServiceTableInterpolationTest.cpp - Held-out points against simulation ===//
//
// Issue 24: between simulated points the serving model interpolates
// (serve::kInterpolation), and on points the table did not simulate that
// must stay within 5% of a simulation. The table of tiny-llama on lpx3
// (context 64, max batch 24: every batch 1..16, then 24; contexts and
// prompts 8, 16, 32, 64) is built; then shapes off its grid are exported,
// compiled and simulated on the same chips and placement (runPhase, the
// oracle: the simulator, not the table) and compared with what the model
// interpolates there: contexts 24 and 48 (along context), batch 20 (along
// batch, between the simulated 16 and 24), both at once, and prefills of
// 24 and 48 tokens. A few seconds.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/DeploymentTarget.h"
#include "lpx/deploy/ServiceTableBuild.h"

#include <gtest/gtest.h>

using namespace lpx;
using namespace lpx::deploy;

namespace {

constexpr double kWithin = 0.05; // the bound

TEST(ServiceTableInterpolation, HeldOutPointsWithin5PercentOfSimulation) {
  auto target = loadDeploymentTarget(
      {"tiny-llama", "lpx3", {}, "", "", 0, 0},
      [](llvm::StringRef) { return "no preset"; });
  ASSERT_TRUE(bool(target)) << llvm::toString(target.takeError());
  ScratchDir dir;
  ASSERT_FALSE(bool(dir.create("lpx-interp-test")));
  target->scratchDir = dir.path.str().str();
  const ServeGrid grid = serveGrid(24, 64);
  ASSERT_EQ(grid.batches.back(), 24);
  ASSERT_EQ(grid.batches[grid.batches.size() - 2], 16);
  auto table = buildServiceTable(*target, 0, 64, grid);
  ASSERT_TRUE(bool(table)) << llvm::toString(table.takeError());
  ASSERT_EQ(table->stages, 1); // one chip: the placement is the compiler's
  auto model = serve::ServiceModel::create(*table);
  ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());

  auto simulated = [&](const PhaseShape &shape) {
    FitVerdict failure;
    auto r = runPhase(*target, shape, 1, failure);
    EXPECT_TRUE(r && *r) << (r ? failure.message : llvm::toString(r.takeError()));
    return r && *r ? (*r)->computeUs() : 0.0;
  };
  double worst = 0;
  auto expectNear = [&](double interpolated, double sim, const char *what) {
    ASSERT_GT(sim, 0) << what;
    const double err = std::abs(interpolated - sim) / sim;
    worst = std::max(worst, err);
    EXPECT_LT(err, kWithin) << what << ": interpolated " << interpolated
                            << " us, simulated " << sim << " us";
  };
  struct Step {
    int64_t batch, context;
  };
  for (Step s : {Step{3, 24}, Step{6, 48}, Step{20, 32}, Step{20, 64},
                 Step{20, 40}}) {
    const std::string what = "decode step b" + std::to_string(s.batch) +
                             " c" + std::to_string(s.context);
    expectNear(model->decodeUs(s.batch, s.context),
               simulated({s.context, 1, s.batch}), what.c_str());
  }
  for (int64_t p : {24, 48})
    expectNear(model->prefillUs(p, 1), simulated({p, p, 1, 64}),
               ("prefill p" + std::to_string(p)).c_str());
  // And the table's own points held out of it: context 32 between 16 and
  // 64 at every batch (its neighbours' interpolation against its own
  // simulation).
  for (int64_t b : grid.batches) {
    auto held = model->heldOutDecodeUs(b, 32);
    ASSERT_TRUE(bool(held)) << llvm::toString(held.takeError());
    expectNear(*held, model->decodeUs(b, 32), "held-out context 32");
  }
  RecordProperty("worst_error_percent", std::to_string(100 * worst));
  EXPECT_NE(std::string(serve::kInterpolation).find("piecewise-linear"),
            std::string::npos);
}

} // namespace
