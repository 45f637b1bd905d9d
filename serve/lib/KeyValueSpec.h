//===- KeyValueSpec.h - Comma-separated key=value items ---------*- C++ -*-===//
#ifndef LPX_SERVE_LIB_KEYVALUESPEC_H
#define LPX_SERVE_LIB_KEYVALUESPEC_H

#include "Fail.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace lpx::serve {

/// An option's comma-separated key=value items (--slo; --workload's after
/// its kind) and the one-line errors about them, "WHAT: message".
class KeyValueSpec {
public:
  /// `what` names the input in errors ("slo", "workload: poisson"); `form`
  /// says how an item is written ("key=value"), for the error about an item
  /// without '='.
  KeyValueSpec(std::string what, llvm::StringRef text, llvm::StringRef form)
      : what_(std::move(what)), text_(text), form_(form) {}

  /// The error "WHAT: msg".
  llvm::Error fail(const std::string &msg) const {
    return failAbout(what_, msg);
  }

  /// Calls `each` on the items in order (empty ones skipped) with the key
  /// before the first '=' (trimmed) and the value after it (as written);
  /// stops at the first error, its own or `each`'s.
  llvm::Error forEach(
      llvm::function_ref<llvm::Error(llvm::StringRef item, llvm::StringRef key,
                                     llvm::StringRef value)>
          each) const;

private:
  std::string what_;
  llvm::StringRef text_, form_;
};

} // namespace lpx::serve

#endif
