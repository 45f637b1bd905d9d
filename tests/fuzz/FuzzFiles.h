//===- FuzzFiles.h - A private folder for fuzz inputs -----------*- C++ -*-===//
//
// The importer and `lpx coverage` take a model *file*, and a model may name
// external-data files next to it. Each fuzz process writes its input into a
// folder of its own that holds nothing else, so an input can only reach
// files the fuzzer itself put there.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TESTS_FUZZ_FUZZFILES_H
#define LPX_TESTS_FUZZ_FUZZFILES_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstdlib>
#include <string>

namespace lpx::fuzz {

/// The path of `name` inside this process's private folder (created once).
inline std::string privatePath(llvm::StringRef name) {
  static std::string dir = [] {
    llvm::SmallString<128> d;
    if (llvm::sys::fs::createUniqueDirectory("lpx-fuzz", d)) {
      llvm::errs() << "fuzz: cannot create a temporary folder\n";
      std::abort();
    }
    return std::string(d);
  }();
  llvm::SmallString<128> p(dir);
  llvm::sys::path::append(p, name);
  return std::string(p);
}

/// Writes the fuzz input to `name` in the private folder; returns its path.
inline std::string writeInput(const uint8_t *data, size_t size,
                              llvm::StringRef name) {
  std::string path = privatePath(name);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "fuzz: cannot write " << path << "\n";
    std::abort();
  }
  os.write(reinterpret_cast<const char *>(data), size);
  return path;
}

} // namespace lpx::fuzz

#endif
