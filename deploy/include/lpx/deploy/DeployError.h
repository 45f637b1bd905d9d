//===- DeployError.h - The deployment layer's errors ------------*- C++ -*-===//
//
// The deployment layer reports what is wrong as one line of text (the
// command line prints it after "lpx CMD: error: "); this makes one.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_DEPLOYERROR_H
#define LPX_DEPLOY_DEPLOYERROR_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace lpx::deploy {

/// An error whose message is `message`.
inline llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 message.str());
}

} // namespace lpx::deploy

#endif
