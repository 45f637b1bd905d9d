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
#include "lpx/deploy/ChipSearch.h"
#include <optional>
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

/// The chip search's reading of one compile: Fits when `result` holds a
/// value (moved into `found`), else what `failure` says of it.
template <typename T>
llvm::Expected<ChipTrial> chipTrial(llvm::Expected<std::optional<T>> result,
                                    std::optional<T> &found,
                                    const FitVerdict &failure) {
  if (!result)
    return result.takeError();
  if (!*result)
    return ChipTrial{failure.moreChipsMayHelp() ? ChipTrial::DoesNotFit
                                                : ChipTrial::Fails,
                     failure.chipsHint};
  found = std::move(**result);
  return ChipTrial{ChipTrial::Fits};
}

} // namespace lpx::deploy

#endif
