//===- SensitivityChecks.h - What a sensitivity study needs first -*- C++ -*-===//
//
// The rules `lpx sweep --sensitivity` checks around the study
// (Sensitivity.h): one node count, a chip that states its assumptions'
// ranges, a base point that was timed; and what it says after: the
// chart's title and whether any point had hazards.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_SENSITIVITYCHECKS_H
#define LPX_DEPLOY_SENSITIVITYCHECKS_H

#include "lpx/deploy/Sensitivity.h"
#include "lpx/isa/AssumptionRanges.h"

namespace lpx::deploy {

/// One positive node count ("" is 1): "--sensitivity takes one node count,
/// not '1,2'".
llvm::Expected<unsigned> sensitivityNodes(llvm::StringRef nodes);

/// The chip `presetOrPath` with its stated ranges; a chip that states none
/// is an error that says how to state one.
llvm::Expected<isa::ChipAssumptions> loadRangedChip(llvm::StringRef presetOrPath);

/// An error unless the base point (the chip as described) was timed: the
/// other points mean nothing without it.
llvm::Error checkSensitivityBase(const Sensitivity &s, llvm::StringRef chip);

/// "sensitivity of MODEL on CHIP (seconds)", MODEL the file's name.
std::string sensitivityTitle(llvm::StringRef modelPath, llvm::StringRef chip);

/// Whether the base or any end had hazards.
bool anyHazards(const Sensitivity &s);

} // namespace lpx::deploy

#endif
