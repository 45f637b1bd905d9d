//===- AtomicFile.cpp - Write a whole file or nothing ---------------------===//
#include "lpx/isa/AtomicFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <unistd.h>

using namespace lpx::isa;
namespace fs = llvm::sys::fs;

/// True if `path` exists and is not a regular file or a folder (a device, a
/// FIFO, a socket, a terminal), following symbolic links.
static bool isSpecialFile(llvm::StringRef path) {
  fs::file_status st;
  if (fs::status(path, st))
    return false; // absent (or unreadable): the normal path reports it
  return fs::exists(st) && !fs::is_regular_file(st) && !fs::is_directory(st);
}

llvm::Error AtomicFile::fail(std::error_code ec) const {
  return llvm::createStringError(ec, "cannot write '" + target +
                                         "': " + ec.message());
}

llvm::Expected<AtomicFile> AtomicFile::create(llvm::StringRef target) {
  AtomicFile f;
  f.target = target.str();
  std::error_code ec =
      isSpecialFile(target)
          ? fs::openFileForWrite(target, f.fileDescriptor, fs::CD_OpenExisting)
          : fs::createUniqueFile(target + ".tmp-%%%%%%", f.fileDescriptor,
                                 f.temp);
  if (ec)
    return f.fail(ec);
  return std::move(f);
}

AtomicFile::AtomicFile(AtomicFile &&o)
    : target(std::move(o.target)), temp(std::move(o.temp)),
      fileDescriptor(o.fileDescriptor), done(o.done) {
  o.fileDescriptor = -1;
  o.done = true;
}

AtomicFile::~AtomicFile() {
  if (fileDescriptor >= 0)
    ::close(fileDescriptor);
  if (!done && !temp.empty())
    fs::remove(temp);
}

llvm::Error AtomicFile::close() {
  if (fileDescriptor < 0)
    return llvm::Error::success();
  int rc = ::close(fileDescriptor);
  fileDescriptor = -1;
  if (rc != 0)
    return fail(std::error_code(errno, std::generic_category()));
  return llvm::Error::success();
}

llvm::Error AtomicFile::commit() {
  if (llvm::Error e = close())
    return e;
  if (!temp.empty())
    if (std::error_code ec = fs::rename(temp, target))
      return fail(ec);
  done = true;
  return llvm::Error::success();
}

llvm::Error lpx::isa::writeFileAtomically(llvm::StringRef path,
                                          llvm::StringRef contents) {
  return writeFileAtomically(
      path, [&](llvm::raw_ostream &os) { os << contents; });
}

llvm::Error lpx::isa::writeFileAtomically(
    llvm::StringRef path,
    llvm::function_ref<void(llvm::raw_ostream &)> write) {
  return writeFileAtomicallyChecked(path, [&](llvm::raw_ostream &os) {
    write(os);
    return llvm::Error::success();
  });
}

llvm::Error lpx::isa::writeFileAtomicallyChecked(
    llvm::StringRef path,
    llvm::function_ref<llvm::Error(llvm::raw_ostream &)> write) {
  auto file = AtomicFile::create(path);
  if (!file)
    return file.takeError();
  {
    llvm::raw_fd_ostream os(file->fd(), /*shouldClose=*/false);
    // On an error the AtomicFile's destructor removes the temporary file.
    if (llvm::Error e = write(os))
      return e;
    os.flush();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      return file->fail(ec);
    }
  }
  return file->commit();
}

llvm::Error lpx::isa::checkOutputPath(llvm::StringRef path) {
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
