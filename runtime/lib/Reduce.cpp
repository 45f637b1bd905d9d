//===- Reduce.cpp - Softmax and ReduceMean along axes ---------------------===//
//
// Both accumulate in double and round once on store.
//
//===----------------------------------------------------------------------===//
#include "ElementTypes.h"
#include "Kernels.h"

using namespace lpx::rt;
namespace isa = lpx::isa;

llvm::Error lpx::rt::softmax(const View &x, int64_t axis, const OutView &out) {
  if (auto e = expectType("operand", x.dtype, out.dtype))
    return e;
  if (llvm::ArrayRef<int64_t>(x.shape) != out.shape)
    return fail("softmax operand shape " + shapeStr(x.shape) +
                " differs from result shape " + shapeStr(out.shape));
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return fail("softmax axis " + llvm::Twine(axis) + " out of range for rank " +
                llvm::Twine(rank));
  const int64_t outer = product(x.shape.take_front(axis));
  const int64_t len = x.shape[axis];
  const int64_t inner = product(x.shape.drop_front(axis + 1));
  return dispatchType(x.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    if constexpr (!isFloatElem<Et>) {
      return fail("softmax needs a floating-point type, not " +
                  std::string(isa::dtypeName(x.dtype)));
    } else {
      std::vector<double> row(static_cast<size_t>(len));
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          const int64_t base = o * len * inner + i;
          double mx = -std::numeric_limits<double>::infinity();
          for (int64_t j = 0; j < len; ++j) {
            row[j] = Et::load(x.data + (base + j * inner) * Et::bytes);
            mx = std::max(mx, row[j]);
          }
          // Subtracting the max keeps exp in range.
          double sum = 0;
          for (int64_t j = 0; j < len; ++j)
            sum += row[j] = std::exp(row[j] - mx);
          for (int64_t j = 0; j < len; ++j)
            Et::store(out.data + (base + j * inner) * Et::bytes,
                      static_cast<typename Et::Compute>(row[j] / sum));
        }
      return llvm::Error::success();
    }
  });
}

llvm::Error lpx::rt::reduceMean(const View &x, llvm::ArrayRef<int64_t> axes,
                                const OutView &out) {
  if (auto e = expectType("operand", x.dtype, out.dtype))
    return e;
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  llvm::SmallVector<bool, 6> reduced(rank, false);
  for (int64_t a : axes) {
    int64_t ax = a < 0 ? a + rank : a;
    if (ax < 0 || ax >= rank || reduced[ax])
      return fail("reduce_mean axis " + llvm::Twine(a) +
                  " is out of range or repeated for rank " + llvm::Twine(rank));
    reduced[ax] = true;
  }
  // The result's rank tells whether reduced dimensions were kept.
  const bool keepDims = static_cast<int64_t>(out.shape.size()) == rank;
  Strides expected;
  for (int64_t d = 0; d < rank; ++d)
    if (!reduced[d])
      expected.push_back(x.shape[d]);
    else if (keepDims)
      expected.push_back(1);
  if (llvm::ArrayRef<int64_t>(expected) != out.shape)
    return fail("reduce_mean of " + shapeStr(x.shape) + " over " +
                shapeStr(axes) + " gives " + shapeStr(expected) +
                ", result buffer is " + shapeStr(out.shape));

  if (axes.empty()) // nothing reduced: exact, even for wide integers
    return copyBytes(x, out);

  // Walk the input; each element adds into the output slot it reduces to.
  Strides outStrides(rank, 0);
  {
    Strides dense = contiguousStrides(expected);
    size_t k = 0;
    for (int64_t d = 0; d < rank; ++d) {
      if (!reduced[d])
        outStrides[d] = dense[k];
      if (!reduced[d] || keepDims)
        ++k;
    }
  }
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d)
    if (reduced[d])
      count *= x.shape[d];
  std::array<Strides, 2> strides = {contiguousStrides(x.shape), outStrides};

  return dispatchType(x.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    using C = typename Et::Compute;
    if constexpr (isBoolElem<Et>) {
      return fail("reduce_mean is not defined for bool");
    } else {
      std::vector<double> sums(static_cast<size_t>(out.elements()), 0.0);
      forEachIndex<2>(x.shape, strides, {0, 0}, [&](const auto &off) {
        sums[off[1]] += static_cast<double>(Et::load(x.data + off[0] * Et::bytes));
      });
      for (size_t i = 0; i < sums.size(); ++i) {
        double mean = count ? sums[i] / double(count)
                            : std::numeric_limits<double>::quiet_NaN();
        Et::store(out.data + i * Et::bytes, convertValue<C>(mean));
      }
      return llvm::Error::success();
    }
  });
}
