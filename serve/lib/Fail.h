//===- Fail.h - The serving model's one-line errors -------------*- C++ -*-===//
#ifndef LPX_SERVE_LIB_FAIL_H
#define LPX_SERVE_LIB_FAIL_H

#include "llvm/Support/Error.h"
#include <string>

namespace lpx::serve {

/// An error of one line: `what` names the input it is about ("slo",
/// "workload"; empty: the message names it). Each file says its own `what`
/// once, in a `fail(msg)` of its own.
inline llvm::Error failAbout(const std::string &what, const std::string &msg) {
  std::string line = what.empty() ? msg : what + ": " + msg;
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s",
                                 line.c_str());
}

/// An error whose message names its input itself.
inline llvm::Error failLine(const std::string &msg) { return failAbout("", msg); }

} // namespace lpx::serve

#endif
