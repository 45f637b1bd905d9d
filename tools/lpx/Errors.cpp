//===- Errors.cpp - One-line error reporting for the driver ---------------===//
#include "Commands.h"

#include "llvm/Support/raw_ostream.h"

using namespace lpx::cli;

int lpx::cli::reportError(llvm::StringRef command, llvm::StringRef message) {
  llvm::errs() << "lpx " << command << ": error: " << message << "\n";
  return kError;
}

int lpx::cli::reportError(llvm::StringRef command, llvm::Error err) {
  return reportError(command, llvm::toString(std::move(err)));
}
