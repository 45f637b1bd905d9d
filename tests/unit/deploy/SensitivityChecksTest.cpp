//===- SensitivityChecksTest.cpp - What a sensitivity study needs first ---===//
#include "lpx/deploy/SensitivityChecks.h"
#include "lpx/isa/AtomicFile.h"

#include <gtest/gtest.h>

using namespace lpx;
using namespace lpx::deploy;

TEST(SensitivityChecks, OneNodeCount) {
  auto none = sensitivityNodes("");
  ASSERT_TRUE(bool(none));
  EXPECT_EQ(*none, 1u);
  auto four = sensitivityNodes("4");
  ASSERT_TRUE(bool(four));
  EXPECT_EQ(*four, 4u);
  for (const char *bad : {"1,2", "0", "x"}) {
    auto n = sensitivityNodes(bad);
    ASSERT_FALSE(bool(n)) << bad;
    EXPECT_EQ(llvm::toString(n.takeError()),
              "--sensitivity takes one node count, not '" + std::string(bad) +
                  "'");
  }
}

TEST(SensitivityChecks, AChipWithoutRangesIsRefused) {
  auto ranged = loadRangedChip("tsp-v1");
  ASSERT_TRUE(bool(ranged)) << llvm::toString(ranged.takeError());
  EXPECT_FALSE(ranged->ranges.empty());
  // The printed description keeps the values, not the comments that
  // state the ranges.
  auto chip = isa::loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(chip));
  std::string path = testing::TempDir() + "plain-chip.yaml";
  ASSERT_FALSE(bool(isa::writeFileAtomically(path, isa::printChipSpec(*chip))));
  auto plain = loadRangedChip(path);
  ASSERT_FALSE(bool(plain));
  EXPECT_EQ(llvm::toString(plain.takeError()),
            "chip '" + path +
                "' states no assumption ranges (`# ASSUMPTION range A..B: "
                "why`)");
}

TEST(SensitivityChecks, TheBaseMustBeTimedAndHazardsAnywhereCount) {
  Sensitivity s;
  s.base.status = "compile-error";
  s.base.message = "out of SRAM";
  EXPECT_EQ(llvm::toString(checkSensitivityBase(s, "tsp-v1")),
            "the base point (tsp-v1 as described) failed: compile-error: out "
            "of SRAM");
  s.base.status = "ok";
  EXPECT_FALSE(bool(checkSensitivityBase(s, "tsp-v1")));
  SensitivityRow row;
  row.low.status = "ok";
  row.high.status = "ok";
  s.rows = {row};
  EXPECT_FALSE(anyHazards(s));
  s.rows[0].high.status = "hazards";
  EXPECT_TRUE(anyHazards(s));
  EXPECT_EQ(sensitivityTitle("models/mlp/model.onnx", "lpx3"),
            "sensitivity of model.onnx on lpx3 (seconds)");
}
