//===- TempFile.h - A file that appears whole or not at all -----*- C++ -*-===//
#ifndef LPX_MODELS_TEMPFILE_H
#define LPX_MODELS_TEMPFILE_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Error.h"

namespace lpx::models {

/// A temporary file beside `target` (same folder, so the final rename cannot
/// cross file systems). commit() renames it over the target; otherwise the
/// destructor removes it, so a failed export leaves nothing behind.
class TempFile {
public:
  static llvm::Expected<TempFile> create(llvm::StringRef target);
  TempFile(TempFile &&other);
  TempFile(const TempFile &) = delete;
  ~TempFile();

  int fd() const { return fileDescriptor; }
  /// Closes the descriptor; an error if the data did not reach the disk.
  llvm::Error close();
  llvm::Error commit();

private:
  TempFile() = default;
  llvm::Error fail(std::error_code ec) const;
  std::string target;
  llvm::SmallString<256> temp;
  int fileDescriptor = -1;
  bool done = false;
};

} // namespace lpx::models

#endif
