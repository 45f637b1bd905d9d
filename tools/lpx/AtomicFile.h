//===- AtomicFile.h - Write a whole file or nothing -------------*- C++ -*-===//
#ifndef LPX_TOOLS_ATOMICFILE_H
#define LPX_TOOLS_ATOMICFILE_H

#include "llvm/Support/Error.h"

namespace lpx::cli {

/// Writes `contents` to a temporary file beside `path` and renames it over
/// `path`, so readers never see a partial file and a failure leaves none.
llvm::Error writeFileAtomically(llvm::StringRef path,
                                llvm::StringRef contents);

} // namespace lpx::cli

#endif
