//===- FitVerdict.h - Whether more chips may help a failed compile -*- C++ -*-===//
//
// The chip search needs to know whether a failed compile failed because the
// model does not fit on that many chips (more chips may help) and how many
// chips the compiler said would hold it. Both come from the compiler's typed
// FitReport (lpx/Transforms/FitReport.h), never from a diagnostic's text.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_FITVERDICT_H
#define LPX_DEPLOY_FITVERDICT_H

#include "lpx/Transforms/FitReport.h"
#include <string>

namespace lpx::deploy {

struct FitVerdict {
  /// The partitioner: the resident data do not fit on that many chips.
  bool doesNotFit = false;
  /// The partitioner or the SRAM allocator: a chip ran out of SRAM.
  bool outOfSram = false;
  /// The chips the partitioner said would hold the resident data; 0: none
  /// named.
  unsigned chipsHint = 0;
  std::string message; // the compile's error line
  /// Whether a larger chip count may compile (decode's search continues
  /// on either; coverage only on doesNotFit).
  bool moreChipsMayHelp() const { return doesNotFit || outOfSram; }
};

/// The verdict of a compile that failed with `message` and filled `fit`.
FitVerdict fitVerdict(const FitReport &fit, std::string message);

} // namespace lpx::deploy

#endif
