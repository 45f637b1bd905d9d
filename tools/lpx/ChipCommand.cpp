//===- ChipCommand.cpp - lpx chip list|show|validate|keys -----------------===//
#include "Commands.h"

#include "lpx/isa/AssumptionRanges.h"
#include "lpx/isa/ChipKeys.h"
#include "lpx/isa/ChipOverrides.h"
#include "lpx/isa/ChipSpec.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx;
using namespace lpx::cli;

int lpx::cli::runChipList() {
  for (const std::string &name : isa::presetNames()) {
    auto spec = isa::loadChipSpec(name);
    if (!spec)
      return reportError("chip", spec.takeError());
    llvm::outs() << name << ": " << spec->description << "\n";
  }
  return kOk;
}

int lpx::cli::runChipShow(const std::string &presetOrFile,
                          const std::vector<std::string> &sets) {
  auto spec = isa::loadChipWithOverrides(presetOrFile, sets);
  if (!spec)
    return reportError("chip show", spec.takeError());
  llvm::outs() << isa::printChipSpec(*spec);
  return kOk;
}

int lpx::cli::runChipValidate(const std::string &file) {
  // The stated ranges are part of the description: a malformed one is an
  // error here as it is for `lpx sweep --sensitivity`.
  auto chip = isa::loadChipAssumptions(file);
  if (!chip)
    return reportError("chip validate", chip.takeError());
  llvm::outs() << file << ": valid chip description '" << chip->chip.name
               << "' (" << chip->ranges.size() << " assumption ranges)\n";
  return kOk;
}

int lpx::cli::runChipKeys(const std::string &presetOrFile, bool json) {
  auto chip = isa::loadChipAssumptions(presetOrFile);
  if (!chip)
    return reportError("chip keys", chip.takeError());
  llvm::outs() << isa::listChipKeys(chip->chip, json, chip->ranges);
  return kOk;
}
