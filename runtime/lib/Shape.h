//===- Shape.h - Shapes, strides and index walks for kernels ----*- C++ -*-===//
#ifndef LPX_RUNTIME_SHAPE_H
#define LPX_RUNTIME_SHAPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <array>
#include <cstdint>
#include <string>

namespace lpx::rt {

using Strides = llvm::SmallVector<int64_t, 6>;

inline llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// "[3, 4, 5]"; "[]" for a scalar.
std::string shapeStr(llvm::ArrayRef<int64_t> shape);
int64_t product(llvm::ArrayRef<int64_t> dims);
/// Row-major element strides.
Strides contiguousStrides(llvm::ArrayRef<int64_t> shape);
/// Element strides that read `operand` while walking `result`, 0 along
/// broadcast dimensions; an error if `operand` does not broadcast to `result`.
llvm::Expected<Strides> broadcastStrides(llvm::ArrayRef<int64_t> operand,
                                         llvm::ArrayRef<int64_t> result);

/// Walks every index of `shape` in row-major order and calls fn(offsets),
/// where offsets[k] is the running sum of index * strides[k]; incremental,
/// so the cost per element is constant.
template <size_t N, typename Fn>
void forEachIndex(llvm::ArrayRef<int64_t> shape,
                  const std::array<Strides, N> &strides,
                  std::array<int64_t, N> offsets, Fn &&fn) {
  int64_t total = product(shape);
  if (total == 0)
    return;
  size_t rank = shape.size();
  llvm::SmallVector<int64_t, 6> idx(rank, 0);
  for (int64_t n = 0; n < total; ++n) {
    fn(offsets);
    for (size_t d = rank; d-- > 0;) {
      for (size_t k = 0; k < N; ++k)
        offsets[k] += strides[k][d];
      if (++idx[d] < shape[d])
        break;
      for (size_t k = 0; k < N; ++k)
        offsets[k] -= strides[k][d] * shape[d];
      idx[d] = 0;
    }
  }
}

} // namespace lpx::rt

#endif
