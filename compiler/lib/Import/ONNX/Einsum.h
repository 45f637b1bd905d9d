//===- Einsum.h - Einsum equation parsing -----------------------*- C++ -*-===//
//
// The equation of an ONNX Einsum, resolved against its operands' ranks: one
// label per dimension of every operand and of the output. Letters are their
// character code; the dimensions an ellipsis stands for get labels
// kEllipsisLabel + j, j counted from the left of the widest ellipsis (the
// ellipsis dims of all operands are right-aligned, as numpy broadcasts
// them). Independent of MLIR so it can be tested alone.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_IMPORT_ONNX_EINSUM_H
#define LPX_LIB_IMPORT_ONNX_EINSUM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace lpx::onnximport {

inline constexpr int kEllipsisLabel = 256;

struct EinsumEquation {
  /// Labels of each operand's dims, in order.
  std::vector<std::vector<int>> inputs;
  /// Labels of the output dims. For an implicit output ("ij,jk"): the
  /// ellipsis dims, then every letter used exactly once, in alphabetical
  /// (character code) order.
  std::vector<int> output;
};

/// Parses `equation` (spaces ignored) for operands of ranks `ranks`. Errors
/// name the problem: a term count different from the operand count, a
/// character that is not a letter, a misplaced or repeated "...", a term
/// whose labels do not match its operand's rank, an output label that no
/// input has or that repeats.
llvm::Expected<EinsumEquation> parseEinsumEquation(llvm::StringRef equation,
                                                   llvm::ArrayRef<int64_t> ranks);

} // namespace lpx::onnximport

#endif
