//===- ConstantData.h - The bytes of a program's constants ------*- C++ -*-===//
//
// Since format 3 a program's constant data lies outside the protobuf message:
// the message keeps each constant's offset and size (pb::Constant), the bytes
// are data sections after the payload. In memory a ConstantData holds one
// view per constant, into memory it keeps alive (an owned string, a mapped
// file) or that the caller keeps alive (the compiler's attributes while it
// writes the file), so a weight is neither copied to be written nor to be
// read.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_CONSTANTDATA_H
#define LPX_ISA_CONSTANTDATA_H

#include "program.pb.h"
#include "llvm/ADT/ArrayRef.h"

#include <memory>
#include <string>
#include <vector>

namespace lpx::isa {

/// Data sections start at multiples of this, from the start of the data
/// region, which itself starts at the first multiple after the payload.
inline constexpr uint64_t kSectionAlign = 64;

class ConstantData {
public:
  /// The data of program.constants(i); empty for a shape-only constant or
  /// when `i` has no entry.
  llvm::ArrayRef<char> operator[](size_t i) const {
    return i < views.size() ? views[i] : llvm::ArrayRef<char>();
  }
  size_t size() const { return views.size(); }

  /// Appends to `p` a constant of `buffer` whose data is `bytes` (empty:
  /// shape-only), and sets its offset and size to those of the next data
  /// section. The caller keeps `bytes` alive as long as this object is used.
  void addView(pb::Program &p, uint32_t buffer, llvm::ArrayRef<char> bytes);
  /// The same, holding `bytes` itself.
  void addOwned(pb::Program &p, uint32_t buffer, std::string bytes);
  /// Appends a view for the next constant without touching a message (the
  /// reader, which takes offsets and sizes from the file).
  void append(llvm::ArrayRef<char> bytes) { views.push_back(bytes); }
  /// Keeps `owner` alive as long as this object (the views point into it).
  void keepAlive(std::shared_ptr<const void> owner) {
    owners.push_back(std::move(owner));
  }
  /// Bytes the data region takes in a file (sections and the padding
  /// between them).
  uint64_t regionBytes() const { return end; }

private:
  std::vector<llvm::ArrayRef<char>> views;
  std::vector<std::shared_ptr<const void>> owners;
  uint64_t end = 0; // end of the last section, from the region's start
};

} // namespace lpx::isa

#endif
