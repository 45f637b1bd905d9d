//===- FitFailure.h - Why a compile failed, as a type -----------*- C++ -*-===//
//
// TEMPORARY. The chip search needs to know whether a failed compile failed
// because the model does not fit on that many chips (more chips may help)
// and, if the compiler said so, how many chips would hold it. Until the
// partitioner answers with a typed fit result, this is read from the text
// of its diagnostic, here and nowhere else: classifyCompileFailure is the
// one function to replace with the compiler's typed answer.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_FITFAILURE_H
#define LPX_DEPLOY_FITFAILURE_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace lpx::deploy {

struct FitFailure {
  /// The partitioner: the weights do not fit on that many chips.
  bool doesNotFit = false;
  /// The SRAM allocator (or the partitioner): a chip ran out of SRAM.
  bool outOfSram = false;
  /// The chips the partitioner said would hold the weights; 0: not named.
  unsigned chipsHint = 0;
  std::string message;
  /// Whether a larger chip count may compile (decode's search continues
  /// on either; coverage only on doesNotFit).
  bool moreChipsMayHelp() const { return doesNotFit || outOfSram; }
};

/// TEMPORARY: reads a compile failure's message ("model does not fit on 4
/// nodes: ...; 48 nodes would hold them", "node 3 is out of SRAM: ...").
FitFailure classifyCompileFailure(llvm::StringRef message);

} // namespace lpx::deploy

#endif
