//===- AtomicFile.cpp - Write a whole file or nothing ---------------------===//
#include "AtomicFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

llvm::Error lpx::cli::writeFileAtomically(llvm::StringRef path,
                                          llvm::StringRef contents) {
  return writeFileAtomically(
      path, [&](llvm::raw_ostream &os) { os << contents; });
}

llvm::Error lpx::cli::writeFileAtomically(
    llvm::StringRef path,
    llvm::function_ref<void(llvm::raw_ostream &)> write) {
  auto fail = [&](std::error_code ec) {
    return llvm::createStringError(ec, "cannot write '" + path +
                                           "': " + ec.message());
  };
  int fd;
  llvm::SmallString<256> temp;
  // Same folder as the target, so the rename cannot cross file systems.
  if (auto ec = llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%", fd, temp))
    return fail(ec);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    write(os);
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return fail(ec);
    }
  }
  if (auto ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    return fail(ec);
  }
  return llvm::Error::success();
}
