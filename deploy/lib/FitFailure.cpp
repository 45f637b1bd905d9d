//===- FitFailure.cpp - Why a compile failed, as a type -------------------===//
//
// TEMPORARY: the only place that reads the compiler's prose (FitFailure.h).
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/FitFailure.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Regex.h"

using namespace lpx;
using namespace lpx::deploy;

FitFailure lpx::deploy::classifyCompileFailure(llvm::StringRef message) {
  FitFailure f;
  f.message = message.str();
  f.doesNotFit = message.contains("does not fit");
  f.outOfSram = message.contains("SRAM");
  // "...; 48 nodes would hold them ..." in the partitioner's message.
  llvm::SmallVector<llvm::StringRef, 2> m;
  if (llvm::Regex("; ([0-9]+) nodes? would hold them").match(message, &m) &&
      m[1].getAsInteger(10, f.chipsHint))
    f.chipsHint = 0;
  return f;
}
