//===- State.cpp - In-place writes into resident state --------------------===//
//
// state_write is the one instruction that writes where its result already
// lives: the state buffer keeps what earlier runs wrote, and only the
// update's bytes move (Dispatch.cpp hands this kernel the state's memory,
// not a scratch copy).
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"
#include <cstring>

using namespace lpx::rt;
namespace isa = lpx::isa;

llvm::Error lpx::rt::stateWrite(const View &update, const View &position,
                                int64_t axis, const OutView &state) {
  if (auto e = expectType("update", update.dtype, state.dtype))
    return e;
  const int64_t rank = int64_t(state.shape.size());
  bool fits = axis > 0 && axis < rank && int64_t(update.shape.size()) == rank;
  for (int64_t d = 0; fits && d < rank; ++d)
    fits = d == axis ? update.shape[d] >= 1 && update.shape[d] <= state.shape[d]
                     : update.shape[d] == state.shape[d];
  if (!fits)
    return fail("state_write of " + shapeStr(update.shape) + " into state " +
                shapeStr(state.shape) + " along axis " + llvm::Twine(axis));
  const int64_t rows = state.shape[0], n = update.shape[axis];
  if (position.elements() != rows * n)
    return fail("state_write needs one position per batch row and written "
                "position, has " + llvm::Twine(position.elements()));
  const bool wide = position.dtype == isa::DType::I64;
  if (!wide && position.dtype != isa::DType::I32)
    return fail("state_write position must be i32 or i64");
  const int64_t extent = state.shape[axis];
  // Per batch row: `outer` runs of n * `inner` update bytes, one per index
  // of the dims between the batch and `axis`; entry i of a run goes to
  // position[b, i] of the state's `extent`.
  const int64_t outer = product(state.shape.slice(1, axis - 1));
  const int64_t inner =
      product(state.shape.drop_front(axis + 1)) * isa::dtypeBytes(state.dtype);
  for (int64_t b = 0; b < rows; ++b)
    for (int64_t i = 0; i < n; ++i) {
      int64_t pos = 0;
      if (wide) {
        std::memcpy(&pos, position.data + (b * n + i) * 8, 8);
      } else {
        int32_t p32;
        std::memcpy(&p32, position.data + (b * n + i) * 4, 4);
        pos = p32;
      }
      if (pos < 0 || pos >= extent)
        return fail("state_write position " + llvm::Twine(pos) +
                    " outside the state's " + llvm::Twine(extent) +
                    " positions");
      for (int64_t o = 0; o < outer; ++o)
        std::memcpy(state.data + ((b * outer + o) * extent + pos) * inner,
                    update.data + ((b * outer + o) * n + i) * inner,
                    size_t(inner));
    }
  return llvm::Error::success();
}
