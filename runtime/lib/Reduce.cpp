//===- Reduce.cpp - Softmax and ReduceMean along axes ---------------------===//
//
// Both accumulate in double and round once on store.
//
//===----------------------------------------------------------------------===//
#include "ElementTypes.h"
#include "Kernels.h"
#include "lpx/isa/ElementwiseFunctions.h"

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

//===----------------------------------------------------------------------===//
// Generic reductions, arg reductions and the other along-an-axis kernels.
//===----------------------------------------------------------------------===//

namespace {
using isa::ReduceFn;

/// The reduction of `x` over `axes` as an input walk: for each input element,
/// the output slot it lands in. Checks the result shape (keepdims or not).
struct ReductionPlan {
  std::array<Strides, 2> strides; // input, output slot
  int64_t count = 1;              // elements per output slot
};

llvm::Expected<ReductionPlan> planReduction(const char *what, const View &x,
                                            llvm::ArrayRef<int64_t> axes,
                                            llvm::ArrayRef<int64_t> outShape) {
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  llvm::SmallVector<bool, 6> reduced(rank, false);
  for (int64_t a : axes) {
    int64_t ax = a < 0 ? a + rank : a; // ONNX counts negative axes from the end
    if (ax < 0 || ax >= rank || reduced[ax])
      return fail(llvm::Twine(what) + " axis " + llvm::Twine(a) +
                  " is out of range or repeated for rank " +
                  llvm::Twine(rank));
    reduced[ax] = true;
  }
  const bool keepDims = static_cast<int64_t>(outShape.size()) == rank;
  Strides expected;
  for (int64_t d = 0; d < rank; ++d)
    if (!reduced[d])
      expected.push_back(x.shape[d]);
    else if (keepDims)
      expected.push_back(1);
  if (llvm::ArrayRef<int64_t>(expected) != outShape)
    return fail(llvm::Twine(what) + " of " + shapeStr(x.shape) + " over " +
                shapeStr(axes) + " gives " + shapeStr(expected) +
                ", result buffer is " + shapeStr(outShape));
  ReductionPlan plan;
  Strides outStrides(rank, 0);
  Strides dense = contiguousStrides(expected);
  size_t k = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[d])
      outStrides[d] = dense[k];
    else
      plan.count *= x.shape[d];
    if (!reduced[d] || keepDims)
      ++k;
  }
  plan.strides = {contiguousStrides(x.shape), outStrides};
  return plan;
}
} // namespace

llvm::Error lpx::rt::reduceMean(const View &x, llvm::ArrayRef<int64_t> axes,
                                const OutView &out) {
  if (auto e = expectType("operand", x.dtype, out.dtype))
    return e;
  // The result's rank tells whether reduced dimensions were kept.
  auto plan = planReduction("reduce_mean", x, axes, out.shape);
  if (!plan)
    return plan.takeError();
  if (axes.empty()) // nothing reduced: exact, even for wide integers
    return copyBytes(x, out);
  const int64_t count = plan->count;
  const std::array<Strides, 2> &strides = plan->strides;

  return dispatchNumericType("reduce_mean", x.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    using C = typename Et::Compute;
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
  });
}

llvm::Error lpx::rt::reduce(const View &x, const isa::pb::ReduceAttrs &attrs,
                            const OutView &out) {
  if (!isa::reduceFnInfo(attrs.fn()))
    return fail("unknown reduction");
  auto fn = static_cast<ReduceFn>(attrs.fn());
  if (auto e = expectType("operand", x.dtype, out.dtype))
    return e;
  auto plan = planReduction("reduce", x, arrayOf(attrs.axes()), out.shape);
  if (!plan)
    return plan.takeError();
  return dispatchNumericType("reduce", x.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    using C = typename Et::Compute;
    const double inf = std::numeric_limits<double>::infinity();
    double init = fn == ReduceFn::Max   ? -inf
                  : fn == ReduceFn::Min ? inf
                  : fn == ReduceFn::Prod ? 1.0
                                         : 0.0;
    std::vector<double> acc(static_cast<size_t>(out.elements()), init);
    forEachIndex<2>(x.shape, plan->strides, {0, 0}, [&](const auto &off) {
      double v = static_cast<double>(Et::load(x.data + off[0] * Et::bytes));
      double &a = acc[off[1]];
      switch (fn) {
      case ReduceFn::Sum: case ReduceFn::Mean: case ReduceFn::LogSum:
        a += v; break;
      case ReduceFn::Max: a = std::isnan(v) || v > a ? v : a; break;
      case ReduceFn::Min: a = std::isnan(v) || v < a ? v : a; break;
      case ReduceFn::Prod: a *= v; break;
      case ReduceFn::L1: a += std::fabs(v); break;
      case ReduceFn::L2: case ReduceFn::SumSquare: a += v * v; break;
      case ReduceFn::LogSumExp: a += std::exp(v); break;
      case ReduceFn::NumFns: break;
      }
    });
    for (size_t i = 0; i < acc.size(); ++i) {
      double r = acc[i];
      switch (fn) {
      case ReduceFn::Mean:
        r = plan->count ? r / double(plan->count)
                        : std::numeric_limits<double>::quiet_NaN();
        break;
      case ReduceFn::L2: r = std::sqrt(r); break;
      case ReduceFn::LogSum: case ReduceFn::LogSumExp: r = std::log(r); break;
      default: break;
      }
      Et::store(out.data + i * Et::bytes, convertValue<C>(r));
    }
    return llvm::Error::success();
  });
}

llvm::Error lpx::rt::argReduce(const View &x,
                               const isa::pb::ArgReduceAttrs &attrs,
                               const OutView &out) {
  if (!isa::argReduceFnInfo(attrs.fn()))
    return fail("unknown arg reduction");
  if (auto e = expectType("result", out.dtype, isa::DType::I64))
    return e;
  const bool isMax = static_cast<isa::ArgReduceFn>(attrs.fn()) ==
                     isa::ArgReduceFn::ArgMax;
  const int64_t axis = attrs.axis();
  const bool last = attrs.select_last_index();
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  if (axis < 0 || axis >= rank)
    return fail("arg_reduce axis " + llvm::Twine(axis) +
                " out of range for rank " + llvm::Twine(rank));
  if (product(out.shape) * x.shape[axis] != x.elements() ||
      (out.shape.size() != x.shape.size() &&
       out.shape.size() + 1 != x.shape.size()))
    return fail("arg_reduce of " + shapeStr(x.shape) + " gives no " +
                shapeStr(out.shape));
  const int64_t outer = product(x.shape.take_front(axis));
  const int64_t len = x.shape[axis];
  const int64_t inner = product(x.shape.drop_front(axis + 1));
  return dispatchType(x.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        int64_t best = 0;
        double bv = 0;
        for (int64_t j = 0; j < len; ++j) {
          double v = static_cast<double>(
              Et::load(x.data + ((o * len + j) * inner + i) * Et::bytes));
          bool better = j == 0 || (isMax ? (v > bv || (last && v == bv))
                                         : (v < bv || (last && v == bv)));
          if (better) {
            best = j;
            bv = v;
          }
        }
        std::memcpy(out.data + (o * inner + i) * 8, &best, 8);
      }
    return llvm::Error::success();
  });
}

namespace {
/// Calls fn(row loaded as doubles, store(j, value)) for every 1-D line of
/// `x` along `axis`; float types only.
template <typename Fn>
llvm::Error forEachLine(const char *what, const View &x, int64_t axis,
                        const OutView &out, Fn &&fn) {
  if (auto e = expectType("operand", x.dtype, out.dtype))
    return e;
  if (llvm::ArrayRef<int64_t>(x.shape) != out.shape)
    return fail(llvm::Twine(what) + " operand shape " + shapeStr(x.shape) +
                " differs from result shape " + shapeStr(out.shape));
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  if (rank == 0) // a scalar is one line of length 1
    axis = 0;
  else if (axis < 0 || axis >= rank)
    return fail(llvm::Twine(what) + " axis " + llvm::Twine(axis) +
                " out of range for rank " + llvm::Twine(rank));
  const int64_t outer = rank ? product(x.shape.take_front(axis)) : 1;
  const int64_t len = rank ? x.shape[axis] : 1;
  const int64_t inner = rank ? product(x.shape.drop_front(axis + 1)) : 1;
  return dispatchNumericType(what, x.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    using C = typename Et::Compute;
    std::vector<double> row(static_cast<size_t>(len)), res(row.size());
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t base = o * len * inner + i;
        for (int64_t j = 0; j < len; ++j)
          row[j] = static_cast<double>(
              Et::load(x.data + (base + j * inner) * Et::bytes));
        fn(row, res);
        for (int64_t j = 0; j < len; ++j)
          Et::store(out.data + (base + j * inner) * Et::bytes,
                    convertValue<C>(res[j]));
      }
    return llvm::Error::success();
  });
}
} // namespace

llvm::Error lpx::rt::logSoftmax(const View &x, int64_t axis,
                                const OutView &out) {
  if (!isa::isFloat(x.dtype))
    return fail("log_softmax needs a floating-point type");
  return forEachLine("log_softmax", x, axis, out,
                     [](const std::vector<double> &row,
                        std::vector<double> &res) {
                       double mx = -std::numeric_limits<double>::infinity();
                       for (double v : row)
                         mx = std::max(mx, v);
                       double sum = 0;
                       for (double v : row)
                         sum += std::exp(v - mx);
                       double lse = mx + std::log(sum);
                       for (size_t j = 0; j < row.size(); ++j)
                         res[j] = row[j] - lse;
                     });
}

llvm::Error lpx::rt::hardmax(const View &x, int64_t axis, const OutView &out) {
  return forEachLine("hardmax", x, axis, out,
                     [](const std::vector<double> &row,
                        std::vector<double> &res) {
                       size_t best = 0;
                       for (size_t j = 1; j < row.size(); ++j)
                         if (row[j] > row[best])
                           best = j;
                       for (size_t j = 0; j < row.size(); ++j)
                         res[j] = j == best ? 1.0 : 0.0;
                     });
}

llvm::Error lpx::rt::cumSum(const View &x, const isa::pb::CumSumAttrs &attrs,
                            const OutView &out) {
  const bool exclusive = attrs.exclusive(), reverse = attrs.reverse();
  return forEachLine("cumsum", x, attrs.axis(), out,
                     [&](const std::vector<double> &row,
                         std::vector<double> &res) {
                       double sum = 0;
                       const size_t n = row.size();
                       for (size_t k = 0; k < n; ++k) {
                         size_t j = reverse ? n - 1 - k : k;
                         if (exclusive) {
                           res[j] = sum;
                           sum += row[j];
                         } else {
                           sum += row[j];
                           res[j] = sum;
                         }
                       }
                     });
}
