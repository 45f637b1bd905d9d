//===- Errors.cpp - One-line error reporting for the driver ---------------===//
#include "Commands.h"

#include "lpx/models/Presets.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx::cli;

int lpx::cli::reportError(llvm::StringRef command, llvm::StringRef message) {
  llvm::errs() << "lpx " << command << ": error: " << message << "\n";
  return kError;
}

int lpx::cli::reportError(llvm::StringRef command, llvm::Error err) {
  return reportError(command, llvm::toString(std::move(err)));
}

/// An integer option given as text, so that "-3", "abc" and values past
/// int64 all get the same one-line message.
llvm::Error lpx::cli::checkOutputPath(llvm::StringRef path) {
  namespace fs = llvm::sys::fs;
  auto error = [](const llvm::Twine &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
  };
  if (path.empty() || llvm::sys::path::filename(path).empty())
    return error("the output file name is empty");
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  if (!dir.empty() && !fs::is_directory(dir))
    return error("cannot write '" + path + "': folder '" + dir +
                 "' does not exist");
  if (fs::is_directory(path))
    return error("cannot write '" + path + "': it is a folder");
  return llvm::Error::success();
}
