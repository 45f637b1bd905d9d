//===- TempFile.cpp - A file that appears whole or not at all -------------===//
#include "TempFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include <unistd.h>

using namespace lpx::models;
namespace fs = llvm::sys::fs;

llvm::Error TempFile::fail(std::error_code ec) const {
  return llvm::createStringError(ec, "cannot write '" + target +
                                         "': " + ec.message());
}

llvm::Expected<TempFile> TempFile::create(llvm::StringRef target) {
  TempFile f;
  f.target = target.str();
  if (std::error_code ec =
          fs::createUniqueFile(target + ".tmp-%%%%%%", f.fileDescriptor, f.temp))
    return f.fail(ec);
  return std::move(f);
}

TempFile::TempFile(TempFile &&o)
    : target(std::move(o.target)), temp(std::move(o.temp)),
      fileDescriptor(o.fileDescriptor), done(o.done) {
  o.fileDescriptor = -1;
  o.done = true;
}

TempFile::~TempFile() {
  if (fileDescriptor >= 0)
    ::close(fileDescriptor);
  if (!done)
    fs::remove(temp);
}

llvm::Error TempFile::close() {
  if (fileDescriptor < 0)
    return llvm::Error::success();
  int rc = ::close(fileDescriptor);
  fileDescriptor = -1;
  if (rc != 0)
    return fail(std::error_code(errno, std::generic_category()));
  return llvm::Error::success();
}

llvm::Error TempFile::commit() {
  if (llvm::Error e = close())
    return e;
  if (std::error_code ec = fs::rename(temp, target))
    return fail(ec);
  done = true;
  return llvm::Error::success();
}
