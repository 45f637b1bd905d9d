//===- Selection.cpp - TopK, ScatterElements, ScatterND -------------------===//
//
// Kernels whose data movement depends on values: top-k selection (indices
// only; the values are a gather_elements) and the scatters, which start from
// a copy of the data and write (or combine) every update at its place.
//
//===----------------------------------------------------------------------===//
#include "ElementTypes.h"
#include "Kernels.h"
#include <algorithm>
#include <cstring>
#include <numeric>

using namespace lpx::rt;
namespace isa = lpx::isa;
using lpx::isa::DType;

namespace {

/// Index element `j` of an i32 or i64 tensor (the caller checked the type).
int64_t loadIndex(const View &v, int64_t j) {
  if (v.dtype == DType::I32) {
    int32_t x;
    std::memcpy(&x, v.data + j * 4, 4);
    return x;
  }
  int64_t x;
  std::memcpy(&x, v.data + j * 8, 8);
  return x;
}

llvm::Error expectIndexType(const char *what, const View &v) {
  if (v.dtype != DType::I32 && v.dtype != DType::I64)
    return fail(llvm::Twine(what) + " indices must be i32 or i64, not " +
                std::string(isa::dtypeName(v.dtype)));
  return llvm::Error::success();
}

/// `old` combined with `update` by a scatter reduction; integers wrap, bool
/// add/mul are or/and.
template <typename C> C combine(pb::ScatterReduction reduction, C old, C update) {
  if constexpr (std::is_same_v<C, bool>) {
    switch (reduction) {
    case pb::SCATTER_ADD: case pb::SCATTER_MAX: return old || update;
    case pb::SCATTER_MUL: case pb::SCATTER_MIN: return old && update;
    default: return update;
    }
  } else if constexpr (std::is_floating_point_v<C>) {
    switch (reduction) {
    case pb::SCATTER_ADD: return old + update;
    case pb::SCATTER_MUL: return old * update;
    case pb::SCATTER_MAX: return std::isnan(update) || update > old ? update : old;
    case pb::SCATTER_MIN: return std::isnan(update) || update < old ? update : old;
    default: return update;
    }
  } else {
    using W = WrapType<C>;
    switch (reduction) {
    case pb::SCATTER_ADD:
      return static_cast<C>(static_cast<W>(old) + static_cast<W>(update));
    case pb::SCATTER_MUL:
      return static_cast<C>(static_cast<W>(old) * static_cast<W>(update));
    case pb::SCATTER_MAX: return std::max(old, update);
    case pb::SCATTER_MIN: return std::min(old, update);
    default: return update;
    }
  }
}

/// What both scatters require of their operands: data, updates and result
/// of one type, integer indices, a reduction this runtime knows.
llvm::Error checkScatter(const char *op, const View &data, const View &indices,
                         const View &updates, const pb::ScatterAttrs &attrs,
                         const OutView &out) {
  if (auto e = expectType("data", data.dtype, out.dtype))
    return e;
  if (auto e = expectType("updates", updates.dtype, out.dtype))
    return e;
  if (auto e = expectIndexType(op, indices))
    return e;
  if (!pb::ScatterReduction_IsValid(attrs.reduction()))
    return fail(llvm::Twine(op) + ": unknown reduction " +
                llvm::Twine(attrs.reduction()));
  return llvm::Error::success();
}
} // namespace

llvm::Error lpx::rt::topK(const View &x, const pb::TopKAttrs &attrs,
                          const OutView &out) {
  if (auto e = expectType("result", out.dtype, DType::I64))
    return e;
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  const int64_t axis = attrs.axis(), k = attrs.k();
  const bool largest = attrs.largest();
  if (axis < 0 || axis >= rank)
    return fail("top_k axis " + llvm::Twine(axis) + " out of range for rank " +
                llvm::Twine(rank));
  const int64_t len = x.shape[axis];
  llvm::SmallVector<int64_t, 6> want(x.shape.begin(), x.shape.end());
  want[axis] = k;
  if (k < 1 || k > len || llvm::ArrayRef<int64_t>(want) != out.shape)
    return fail("top_k of " + llvm::Twine(k) + " along axis " +
                llvm::Twine(axis) + " of " + shapeStr(x.shape) +
                " cannot give " + shapeStr(out.shape));
  const int64_t outer = product(x.shape.take_front(axis));
  const int64_t inner = product(x.shape.drop_front(axis + 1));
  return dispatchNumericType("top_k", x.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    using C = typename Et::Compute;
    std::vector<C> line(static_cast<size_t>(len));
    std::vector<int64_t> order(static_cast<size_t>(len));
    // NaN ranks above every number (as numpy sorts it); equal values keep
    // the lower index first.
    auto above = [](C a, C b) {
      if constexpr (std::is_floating_point_v<C>) {
        if (std::isnan(a))
          return !std::isnan(b);
        if (std::isnan(b))
          return false;
      }
      return a > b;
    };
    auto before = [&](int64_t i, int64_t j) {
      C a = line[i], b = line[j];
      if (largest ? above(a, b) : above(b, a))
        return true;
      if (largest ? above(b, a) : above(a, b))
        return false;
      return i < j;
    };
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t in = 0; in < inner; ++in) {
        for (int64_t j = 0; j < len; ++j)
          line[j] = Et::load(x.data + ((o * len + j) * inner + in) * Et::bytes);
        std::iota(order.begin(), order.end(), int64_t(0));
        std::partial_sort(order.begin(), order.begin() + k, order.end(),
                          before);
        for (int64_t j = 0; j < k; ++j)
          std::memcpy(out.data + ((o * k + j) * inner + in) * 8, &order[j], 8);
      }
    return llvm::Error::success();
  });
}

llvm::Error lpx::rt::scatterElements(const View &data, const View &indices,
                                     const View &updates,
                                     const pb::ScatterAttrs &attrs,
                                     const OutView &out) {
  if (auto e = checkScatter("scatter_elements", data, indices, updates,
                            attrs, out))
    return e;
  const int64_t rank = static_cast<int64_t>(data.shape.size());
  const int64_t axis = attrs.axis();
  const pb::ScatterReduction reduction = attrs.reduction();
  bool fits = axis >= 0 && axis < rank &&
              llvm::ArrayRef<int64_t>(data.shape) == out.shape &&
              static_cast<int64_t>(indices.shape.size()) == rank &&
              indices.shape == updates.shape;
  for (int64_t d = 0; fits && d < rank; ++d)
    fits = d == axis || indices.shape[d] <= data.shape[d];
  if (!fits)
    return fail("scatter_elements into " + shapeStr(data.shape) + " of " +
                shapeStr(updates.shape) + " updates at " +
                shapeStr(indices.shape) + " indices along axis " +
                llvm::Twine(axis) + " cannot give " + shapeStr(out.shape));
  const int64_t extent = data.shape[axis];
  Strides ds = contiguousStrides(data.shape);
  const int64_t n = updates.elements();
  // Every target offset first, so a bad index leaves nothing half done.
  std::vector<int64_t> target(static_cast<size_t>(n));
  llvm::SmallVector<int64_t, 6> idx(rank, 0);
  for (int64_t u = 0; u < n; ++u) {
    int64_t k = loadIndex(indices, u);
    if (k < -extent || k >= extent)
      return fail("scatter_elements index " + llvm::Twine(k) +
                  " out of range for extent " + llvm::Twine(extent));
    if (k < 0)
      k += extent;
    int64_t off = 0;
    for (int64_t d = 0; d < rank; ++d)
      off += (d == axis ? k : idx[d]) * ds[d];
    target[u] = off;
    for (int64_t d = rank; d-- > 0;) {
      if (++idx[d] < indices.shape[d])
        break;
      idx[d] = 0;
    }
  }
  return dispatchType(out.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    std::memcpy(out.data, data.data, data.elements() * Et::bytes);
    for (int64_t u = 0; u < n; ++u) {
      uint8_t *dst = out.data + target[u] * Et::bytes;
      Et::store(dst, combine(reduction, Et::load(dst),
                             Et::load(updates.data + u * Et::bytes)));
    }
    return llvm::Error::success();
  });
}

llvm::Error lpx::rt::scatterND(const View &data, const View &indices,
                               const View &updates,
                               const pb::ScatterAttrs &attrs,
                               const OutView &out) {
  if (auto e = checkScatter("scatter_nd", data, indices, updates, attrs, out))
    return e;
  const pb::ScatterReduction reduction = attrs.reduction();
  const int64_t rank = static_cast<int64_t>(data.shape.size());
  const int64_t k = indices.shape.empty() ? -1 : indices.shape.back();
  llvm::SmallVector<int64_t, 6> want;
  if (k >= 1 && k <= rank) {
    want.assign(indices.shape.begin(), indices.shape.end() - 1);
    want.append(data.shape.begin() + k, data.shape.end());
  }
  if (k < 1 || k > rank || llvm::ArrayRef<int64_t>(data.shape) != out.shape ||
      llvm::ArrayRef<int64_t>(want) != updates.shape)
    return fail("scatter_nd into " + shapeStr(data.shape) + " of " +
                shapeStr(updates.shape) + " updates at " +
                shapeStr(indices.shape) + " indices cannot give " +
                shapeStr(out.shape));
  Strides ds = contiguousStrides(data.shape);
  const int64_t slice = product(data.shape.drop_front(k));
  const int64_t count = product(indices.shape.drop_back());
  std::vector<int64_t> start(static_cast<size_t>(count));
  for (int64_t q = 0; q < count; ++q) {
    int64_t off = 0;
    for (int64_t j = 0; j < k; ++j) {
      int64_t v = loadIndex(indices, q * k + j);
      int64_t dim = data.shape[j];
      if (v < -dim || v >= dim)
        return fail("scatter_nd index " + llvm::Twine(v) +
                    " out of range for dim " + llvm::Twine(j) + " of size " +
                    llvm::Twine(dim));
      off += (v < 0 ? v + dim : v) * ds[j];
    }
    start[q] = off;
  }
  return dispatchType(out.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    std::memcpy(out.data, data.data, data.elements() * Et::bytes);
    for (int64_t q = 0; q < count; ++q)
      for (int64_t i = 0; i < slice; ++i) {
        uint8_t *dst = out.data + (start[q] + i) * Et::bytes;
        Et::store(dst,
                  combine(reduction, Et::load(dst),
                          Et::load(updates.data + (q * slice + i) * Et::bytes)));
      }
    return llvm::Error::success();
  });
}
