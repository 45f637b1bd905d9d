//===- DataMovement.cpp - Transpose, Concat, Slice, Gather, Copy ----------===//
//
// Type-agnostic: elements move as bytes of the element width.
//
//===----------------------------------------------------------------------===//
#include "ElementTypes.h"
#include "Kernels.h"
#include "llvm/ADT/bit.h"
#include <cstring>

using namespace lpx::rt;
namespace isa = lpx::isa;
using lpx::isa::DType;

llvm::Error lpx::rt::copyBytes(const View &x, const OutView &out) {
  uint64_t in = x.elements() * isa::dtypeBytes(x.dtype);
  uint64_t res = out.elements() * isa::dtypeBytes(out.dtype);
  if (in != res)
    return fail("copy of " + llvm::Twine(in) + " bytes into a " +
                llvm::Twine(res) + "-byte buffer");
  if (in)
    std::memcpy(out.data, x.data, in);
  return llvm::Error::success();
}

llvm::Error lpx::rt::transpose(const View &x, llvm::ArrayRef<int64_t> perm,
                               const OutView &out) {
  if (auto e = expectType("operand", x.dtype, out.dtype))
    return e;
  const size_t rank = x.shape.size();
  if (perm.size() != rank || out.shape.size() != rank)
    return fail("transpose permutation " + shapeStr(perm) +
                " does not fit operand " + shapeStr(x.shape));
  llvm::SmallVector<bool, 6> seen(rank, false);
  Strides in = contiguousStrides(x.shape), walk(rank);
  for (size_t d = 0; d < rank; ++d) {
    int64_t p = perm[d];
    if (p < 0 || p >= int64_t(rank) || seen[p])
      return fail("transpose attributes " + shapeStr(perm) +
                  " are not a permutation");
    seen[p] = true;
    if (out.shape[d] != x.shape[p])
      return fail("transpose of " + shapeStr(x.shape) + " by " +
                  shapeStr(perm) + " does not give " + shapeStr(out.shape));
    walk[d] = in[p];
  }
  const size_t w = isa::dtypeBytes(x.dtype);
  std::array<Strides, 2> strides = {walk, contiguousStrides(out.shape)};
  forEachIndex<2>(out.shape, strides, {0, 0}, [&](const auto &off) {
    std::memcpy(out.data + off[1] * w, x.data + off[0] * w, w);
  });
  return llvm::Error::success();
}

llvm::Error lpx::rt::concat(llvm::ArrayRef<View> xs, int64_t axis,
                            const OutView &out) {
  const int64_t rank = static_cast<int64_t>(out.shape.size());
  if (axis < 0 || axis >= rank)
    return fail("concat axis " + llvm::Twine(axis) + " out of range for rank " +
                llvm::Twine(rank));
  int64_t total = 0;
  for (const View &x : xs) {
    if (auto e = expectType("operand", x.dtype, out.dtype))
      return e;
    bool fits = static_cast<int64_t>(x.shape.size()) == rank;
    for (int64_t d = 0; fits && d < rank; ++d)
      fits = d == axis || x.shape[d] == out.shape[d];
    if (!fits)
      return fail("concat operand " + shapeStr(x.shape) +
                  " does not fit result " + shapeStr(out.shape) +
                  " along axis " + llvm::Twine(axis));
    total += x.shape[axis];
  }
  if (total != out.shape[axis])
    return fail("concat operands sum to " + llvm::Twine(total) +
                " along axis " + llvm::Twine(axis) + ", result has " +
                llvm::Twine(out.shape[axis]));
  const int64_t outer = product(out.shape.take_front(axis));
  const int64_t inner =
      product(out.shape.drop_front(axis + 1)) * isa::dtypeBytes(out.dtype);
  uint8_t *dst = out.data;
  for (int64_t o = 0; o < outer; ++o)
    for (const View &x : xs) {
      const int64_t chunk = x.shape[axis] * inner;
      if (chunk)
        std::memcpy(dst, x.data + o * chunk, chunk);
      dst += chunk;
    }
  return llvm::Error::success();
}

llvm::Error lpx::rt::slice(const View &x, const isa::pb::SliceAttrs &attrs,
                           const OutView &out) {
  if (auto e = expectType("operand", x.dtype, out.dtype))
    return e;
  const size_t rank = out.shape.size();
  llvm::ArrayRef<int64_t> start = arrayOf(attrs.starts());
  llvm::ArrayRef<int64_t> step = arrayOf(attrs.steps());
  if (x.shape.size() != rank || start.size() != rank || step.size() != rank)
    return fail("slice of " + shapeStr(x.shape) + " to " + shapeStr(out.shape) +
                " needs equal ranks and " + llvm::Twine(rank) +
                " starts and steps");
  Strides in = contiguousStrides(x.shape), walk(rank);
  int64_t base = 0;
  for (size_t d = 0; d < rank; ++d) {
    walk[d] = in[d] * step[d];
    if (out.shape[d] == 0)
      continue;
    // Both ends of the walk must lie inside the operand.
    int64_t last = start[d] + (out.shape[d] - 1) * step[d];
    if (start[d] < 0 || start[d] >= x.shape[d] || last < 0 ||
        last >= x.shape[d])
      return fail("slice dimension " + llvm::Twine(d) + " reads [" +
                  llvm::Twine(start[d]) + " .. " + llvm::Twine(last) +
                  "] of an extent of " + llvm::Twine(x.shape[d]));
    base += start[d] * in[d];
  }
  const size_t w = isa::dtypeBytes(x.dtype);
  std::array<Strides, 2> strides = {walk, contiguousStrides(out.shape)};
  forEachIndex<2>(out.shape, strides, {base, 0}, [&](const auto &off) {
    std::memcpy(out.data + off[1] * w, x.data + off[0] * w, w);
  });
  return llvm::Error::success();
}

llvm::Error lpx::rt::gather(const View &data, const View &indices, int64_t axis,
                            const OutView &out) {
  if (auto e = expectType("data", data.dtype, out.dtype))
    return e;
  if (indices.dtype != DType::I32 && indices.dtype != DType::I64)
    return fail("gather indices must be i32 or i64, not " +
                std::string(isa::dtypeName(indices.dtype)));
  const int64_t rank = static_cast<int64_t>(data.shape.size());
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return fail("gather axis " + llvm::Twine(axis) + " out of range for rank " +
                llvm::Twine(rank));
  Strides expected(data.shape.begin(), data.shape.begin() + axis);
  expected.append(indices.shape.begin(), indices.shape.end());
  expected.append(data.shape.begin() + axis + 1, data.shape.end());
  if (llvm::ArrayRef<int64_t>(expected) != out.shape)
    return fail("gather of " + shapeStr(data.shape) + " by indices " +
                shapeStr(indices.shape) + " gives " + shapeStr(expected) +
                ", result buffer is " + shapeStr(out.shape));

  // Read and check every index before moving data.
  const int64_t extent = data.shape[axis];
  const int64_t count = indices.elements();
  std::vector<int64_t> idx(static_cast<size_t>(count));
  for (int64_t j = 0; j < count; ++j) {
    int64_t k;
    if (indices.dtype == DType::I32) {
      int32_t v;
      std::memcpy(&v, indices.data + j * 4, 4);
      k = v;
    } else {
      std::memcpy(&k, indices.data + j * 8, 8);
    }
    int64_t norm = k < 0 ? k + extent : k;
    if (norm < 0 || norm >= extent)
      return fail("gather index " + llvm::Twine(k) + " out of range for axis " +
                  llvm::Twine(axis) + " of extent " + llvm::Twine(extent));
    idx[j] = norm;
  }
  const int64_t outer = product(data.shape.take_front(axis));
  const int64_t inner =
      product(data.shape.drop_front(axis + 1)) * isa::dtypeBytes(data.dtype);
  if (inner == 0)
    return llvm::Error::success();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < count; ++j)
      std::memcpy(out.data + (o * count + j) * inner,
                  data.data + (o * extent + idx[j]) * inner, inner);
  return llvm::Error::success();
}

llvm::Error lpx::rt::broadcast(const View &x, const OutView &out) {
  if (auto e = expectType("operand", x.dtype, out.dtype))
    return e;
  auto s = broadcastStrides(x.shape, out.shape);
  if (!s)
    return s.takeError();
  const size_t w = isa::dtypeBytes(x.dtype);
  std::array<Strides, 2> strides = {*s, contiguousStrides(out.shape)};
  forEachIndex<2>(out.shape, strides, {0, 0}, [&](const auto &off) {
    std::memcpy(out.data + off[1] * w, x.data + off[0] * w, w);
  });
  return llvm::Error::success();
}

llvm::Error lpx::rt::pad(const View &x, const isa::pb::PadAttrs &attrs,
                         const OutView &out) {
  if (auto e = expectType("operand", x.dtype, out.dtype))
    return e;
  const size_t rank = x.shape.size();
  llvm::ArrayRef<int64_t> begin = arrayOf(attrs.begin());
  llvm::ArrayRef<int64_t> end = arrayOf(attrs.end());
  if (out.shape.size() != rank || begin.size() != rank || end.size() != rank)
    return fail("pad of " + shapeStr(x.shape) + " to " + shapeStr(out.shape) +
                " needs equal ranks and " + llvm::Twine(rank) +
                " begin and end pads");
  const isa::pb::PadMode mode = attrs.mode();
  for (size_t d = 0; d < rank; ++d) {
    if (x.shape[d] + begin[d] + end[d] != out.shape[d])
      return fail("pad dimension " + llvm::Twine(d) + ": " +
                  llvm::Twine(x.shape[d]) + " padded by " +
                  llvm::Twine(begin[d]) + " and " + llvm::Twine(end[d]) +
                  " is not " + llvm::Twine(out.shape[d]));
    if (mode != isa::pb::PAD_CONSTANT && x.shape[d] == 0 && out.shape[d] > 0)
      return fail("pad: reflect and edge modes need a non-empty dimension");
  }
  // The padding value, converted to the element type once.
  const size_t w = isa::dtypeBytes(x.dtype);
  std::vector<uint8_t> value(w, 0);
  const double v = attrs.value();
  if (auto e = dispatchType(x.dtype, [&](auto E) -> llvm::Error {
        using Et = decltype(E);
        Et::store(value.data(), convertValue<typename Et::Compute>(v));
        return llvm::Error::success();
      }))
    return e;
  Strides in = contiguousStrides(x.shape);
  const int64_t n = out.elements();
  llvm::SmallVector<int64_t, 6> idx(rank, 0);
  for (int64_t o = 0; o < n; ++o) {
    int64_t src = 0;
    bool inside = true;
    for (size_t d = 0; d < rank; ++d) {
      int64_t i = idx[d] - begin[d], len = x.shape[d];
      if (i < 0 || i >= len) {
        if (mode == isa::pb::PAD_CONSTANT) {
          inside = false;
          break;
        }
        if (mode == isa::pb::PAD_EDGE) {
          i = i < 0 ? 0 : len - 1;
        } else if (len == 1) {
          i = 0;
        } else { // reflect without repeating the edge, period 2(len-1)
          int64_t period = 2 * (len - 1);
          i = ((i % period) + period) % period;
          if (i >= len)
            i = period - i;
        }
      }
      src += i * in[d];
    }
    std::memcpy(out.data + o * w, inside ? x.data + src * w : value.data(), w);
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < out.shape[d])
        break;
      idx[d] = 0;
    }
  }
  return llvm::Error::success();
}

llvm::Error lpx::rt::gatherElements(const View &data, const View &indices,
                                    int64_t axis, const OutView &out) {
  if (auto e = expectType("data", data.dtype, out.dtype))
    return e;
  if (indices.dtype != DType::I32 && indices.dtype != DType::I64)
    return fail("gather_elements indices must be i32 or i64");
  const int64_t rank = static_cast<int64_t>(data.shape.size());
  if (axis < 0 || axis >= rank ||
      static_cast<int64_t>(indices.shape.size()) != rank ||
      llvm::ArrayRef<int64_t>(indices.shape) != out.shape)
    return fail("gather_elements of " + shapeStr(data.shape) + " by " +
                shapeStr(indices.shape) + " along axis " + llvm::Twine(axis) +
                " cannot give " + shapeStr(out.shape));
  const size_t w = isa::dtypeBytes(data.dtype);
  Strides ds = contiguousStrides(data.shape);
  const int64_t n = out.elements(), extent = data.shape[axis];
  llvm::SmallVector<int64_t, 6> idx(rank, 0);
  for (int64_t o = 0; o < n; ++o) {
    int64_t k;
    if (indices.dtype == DType::I32) {
      int32_t v;
      std::memcpy(&v, indices.data + o * 4, 4);
      k = v;
    } else {
      std::memcpy(&k, indices.data + o * 8, 8);
    }
    if (k < -extent || k >= extent)
      return fail("gather_elements index " + llvm::Twine(k) +
                  " out of range for extent " + llvm::Twine(extent));
    if (k < 0)
      k += extent;
    int64_t src = 0;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t i = d == axis ? k : idx[d];
      if (i >= data.shape[d])
        return fail("gather_elements: indices shape exceeds the data");
      src += i * ds[d];
    }
    std::memcpy(out.data + o * w, data.data + src * w, w);
    for (int64_t d = rank; d-- > 0;) {
      if (++idx[d] < out.shape[d])
        break;
      idx[d] = 0;
    }
  }
  return llvm::Error::success();
}
