//===- AtomicFile.h - Write a whole file or nothing -------------*- C++ -*-===//
#ifndef LPX_TOOLS_ATOMICFILE_H
#define LPX_TOOLS_ATOMICFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace lpx::cli {

/// Writes `contents` to a temporary file beside `path` and renames it over
/// `path`, so readers never see a partial file and a failure leaves none.
llvm::Error writeFileAtomically(llvm::StringRef path,
                                llvm::StringRef contents);

/// The same, for contents too large to build in memory first: `write`
/// streams them into the temporary file.
llvm::Error
writeFileAtomically(llvm::StringRef path,
                    llvm::function_ref<void(llvm::raw_ostream &)> write);

} // namespace lpx::cli

#endif
