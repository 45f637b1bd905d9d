//===- AtomicFile.h - Write a whole file or nothing -------------*- C++ -*-===//
//
// The one output-file writer of every lpx tool and library: a program, a
// trace, a report, a sweep CSV or an exported model appears whole or not at
// all. It lives in lpx_isa, the lowest library (LLVMSupport only), so the
// models library and the driver share it.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_ATOMICFILE_H
#define LPX_ISA_ATOMICFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace lpx::isa {

/// An output file that appears whole or not at all. A regular (or new)
/// target is written to a temporary file beside it (same folder, so the
/// rename cannot cross file systems) that commit() renames over it; if
/// commit() is never reached the destructor removes the temporary file.
/// A target that exists and is not a regular file (/dev/null, a FIFO, a
/// terminal, /dev/stdout) is written in place: renaming over it would
/// replace the device or pipe itself (as root, /dev/null), and such a
/// target holds no partial file to protect.
class AtomicFile {
public:
  static llvm::Expected<AtomicFile> create(llvm::StringRef target);
  AtomicFile(AtomicFile &&other);
  AtomicFile(const AtomicFile &) = delete;
  AtomicFile &operator=(const AtomicFile &) = delete;
  AtomicFile &operator=(AtomicFile &&) = delete;
  ~AtomicFile();

  int fd() const { return fileDescriptor; }
  /// Closes the file and renames it over the target: an error if the data
  /// did not reach the disk or the rename failed (the target is unchanged).
  llvm::Error commit();
  /// The "cannot write 'TARGET': ..." error for a failure while writing.
  llvm::Error fail(std::error_code ec) const;

private:
  AtomicFile() = default;
  llvm::Error close();
  std::string target;
  llvm::SmallString<256> temp; // empty when writing the target in place
  int fileDescriptor = -1;
  bool done = false;
};

/// Writes `contents` to `path` through an AtomicFile.
llvm::Error writeFileAtomically(llvm::StringRef path,
                                llvm::StringRef contents);

/// The same, for contents too large to build in memory first: `write`
/// streams them into the file.
llvm::Error
writeFileAtomically(llvm::StringRef path,
                    llvm::function_ref<void(llvm::raw_ostream &)> write);

/// The same, for a writer that can fail part-way (a program's data
/// sections): its error is returned and no file appears.
llvm::Error writeFileAtomicallyChecked(
    llvm::StringRef path,
    llvm::function_ref<llvm::Error(llvm::raw_ostream &)> write);

/// An error unless `path` can be written: a file name in a folder that
/// exists (checked before a long computation whose result goes there).
llvm::Error checkOutputPath(llvm::StringRef path);

} // namespace lpx::isa

#endif
