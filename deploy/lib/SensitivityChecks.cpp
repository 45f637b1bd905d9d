//===- SensitivityChecks.cpp - What a sensitivity study needs first -------===//
#include "lpx/deploy/SensitivityChecks.h"
#include "lpx/deploy/DeployError.h"

#include "llvm/Support/Path.h"

using namespace lpx;
using namespace lpx::deploy;

llvm::Expected<unsigned> lpx::deploy::sensitivityNodes(llvm::StringRef nodes) {
  unsigned n = 1;
  if (!nodes.empty() && (nodes.getAsInteger(10, n) || n == 0))
    return error("--sensitivity takes one node count, not '" + nodes + "'");
  return n;
}

llvm::Expected<isa::ChipAssumptions>
lpx::deploy::loadRangedChip(llvm::StringRef presetOrPath) {
  auto chip = isa::loadChipAssumptions(presetOrPath);
  if (!chip)
    return chip.takeError();
  if (chip->ranges.empty())
    return error("chip '" + presetOrPath +
                 "' states no assumption ranges (`# ASSUMPTION range A..B: "
                 "why`)");
  return chip;
}

llvm::Error lpx::deploy::checkSensitivityBase(const Sensitivity &s,
                                              llvm::StringRef chip) {
  if (s.base.timed())
    return llvm::Error::success();
  return error("the base point (" + chip + " as described) failed: " +
               s.base.status + ": " + s.base.message);
}

std::string lpx::deploy::sensitivityTitle(llvm::StringRef modelPath,
                                          llvm::StringRef chip) {
  return "sensitivity of " + llvm::sys::path::filename(modelPath).str() +
         " on " + chip.str() + " (seconds)";
}

bool lpx::deploy::anyHazards(const Sensitivity &s) {
  bool hazards = s.base.status == "hazards";
  for (const SensitivityRow &row : s.rows)
    hazards |= row.low.status == "hazards" || row.high.status == "hazards";
  return hazards;
}
