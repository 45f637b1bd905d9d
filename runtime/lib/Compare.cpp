//===- Compare.cpp - Comparing tensors with tolerances --------------------===//
#include "lpx/runtime/Compare.h"
#include "ElementTypes.h"
#include "lpx/isa/NumberFormats.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx::rt;
namespace isa = lpx::isa;
using lpx::isa::DType;

// The tolerances, stated once (docs/reliability.md lists them with any
// per-test loosening). eps is the format's machine epsilon, 2^-(mantissa
// bits).
//  - f64: 1e-12 relative (about 4500 eps: room for a different summation
//    order over long reductions), 1e-15 absolute for results near zero.
//  - f32: the ONNX backend test runner's defaults, rtol 1e-3, atol 1e-7.
//  - f16 and bf16: 4 eps relative and 1 eps absolute; references are usually
//    computed in float32 and rounded, the program may round a few times more.
//  - fp8 (e4m3, e5m2): 1 eps relative (two half-ulp roundings), 2^-6
//    absolute (e4m3's smallest normal; below it both formats are coarse).
//  - integers and bool: exact.
Tolerance lpx::rt::defaultTolerance(DType t) {
  switch (t) {
  case DType::F64:
    return {1e-12, 1e-15};
  case DType::F32:
    return {1e-3, 1e-7};
  case DType::F16:
    return {4 * 0x1p-10, 0x1p-10};
  case DType::BF16:
    return {4 * 0x1p-7, 0x1p-7};
  case DType::F8E4M3:
    return {0x1p-3, 0x1p-6};
  case DType::F8E5M2:
    return {0x1p-2, 0x1p-6};
  case DType::U8: case DType::I8: case DType::U16: case DType::I16:
  case DType::I32: case DType::I64: case DType::Bool: case DType::U32:
  case DType::U64: case DType::Undefined:
    return {0, 0};
  }
  return {0, 0};
}

llvm::StringRef lpx::rt::toleranceFormat(llvm::StringRef weights,
                                         llvm::StringRef activations) {
  llvm::StringRef best;
  double bestRtol = -1;
  for (llvm::StringRef name : {weights, activations})
    if (auto t = isa::floatFormatType(std::string_view(name.data(), name.size())))
      if (defaultTolerance(*t).rtol > bestRtol) {
        best = name;
        bestRtol = defaultTolerance(*t).rtol;
      }
  return best;
}

static std::string indexStr(llvm::ArrayRef<int64_t> shape, int64_t linear) {
  Strides idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? linear % shape[d] : 0;
    linear = shape[d] ? linear / shape[d] : 0;
  }
  return shapeStr(idx);
}

static std::string num(double v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.9g", v);
  return s;
}

CompareResult lpx::rt::compareTensors(const HostTensor &expected,
                                      const HostTensor &actual, double rtol,
                                      double atol) {
  CompareResult r;
  std::string who = expected.name.empty() ? "" : "'" + expected.name + "': ";
  auto failWith = [&](std::string msg) {
    r.ok = false;
    r.message = who + msg;
    return r;
  };
  // Results held in another float format are widened on the host (the
  // tolerance is the caller's: that of the formats computed in).
  if (expected.dtype != actual.dtype && isa::isFloat(expected.dtype) &&
      isa::isFloat(actual.dtype) && expected.shape == actual.shape) {
    auto widened = convertTensor(actual, expected.dtype);
    if (!widened)
      return failWith(llvm::toString(widened.takeError()));
    return compareTensors(expected, *widened, rtol, atol);
  }
  if (expected.dtype != actual.dtype)
    return failWith("element type " + std::string(isa::dtypeName(actual.dtype)) +
                    ", expected " + std::string(isa::dtypeName(expected.dtype)));
  if (expected.shape != actual.shape)
    return failWith("shape " + shapeStr(actual.shape) + ", expected " +
                    shapeStr(expected.shape));
  const unsigned w = isa::dtypeBytes(expected.dtype);
  const int64_t n = static_cast<int64_t>(expected.elements());
  if (w == 0 || expected.data.size() != uint64_t(n) * w ||
      actual.data.size() != uint64_t(n) * w)
    return failWith("data size does not match shape " +
                    shapeStr(expected.shape));

  int64_t bad = 0, worst = -1;
  double worstExcess = -1;
  double worstE = 0, worstA = 0;
  llvm::Error err = dispatchType(expected.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    for (int64_t i = 0; i < n; ++i) {
      auto ev = Et::load(expected.data.data() + i * w);
      auto av = Et::load(actual.data.data() + i * w);
      double e = static_cast<double>(ev), a = static_cast<double>(av);
      bool close;
      double excess;
      if constexpr (isFloatElem<Et>) {
        if (std::isnan(e) || std::isnan(a)) {
          close = std::isnan(e) && std::isnan(a);
          excess = std::numeric_limits<double>::infinity();
        } else if (std::isinf(e) || std::isinf(a)) {
          close = e == a;
          excess = std::numeric_limits<double>::infinity();
        } else {
          double diff = std::fabs(a - e);
          r.worstAbsError = std::max(r.worstAbsError, diff);
          if (e != 0)
            r.worstRelError = std::max(r.worstRelError, diff / std::fabs(e));
          excess = diff - (atol + rtol * std::fabs(e));
          close = excess <= 0;
        }
      } else {
        // Exact for integers: compare the values, not their double images.
        close = ev == av;
        double diff = std::fabs(a - e);
        r.worstAbsError = std::max(r.worstAbsError, diff);
        if (e != 0)
          r.worstRelError = std::max(r.worstRelError, diff / std::fabs(e));
        excess = close ? 0 : std::max(diff, 1.0);
      }
      if (!close) {
        ++bad;
        if (excess > worstExcess) {
          worstExcess = excess;
          worst = i;
          worstE = e;
          worstA = a;
        }
      }
    }
    return llvm::Error::success();
  });
  if (err)
    return failWith(llvm::toString(std::move(err)));
  if (bad == 0)
    return r;
  r.where = indexStr(expected.shape, worst);
  return failWith(std::to_string(bad) + " of " + std::to_string(n) +
                  " elements differ (rtol " + num(rtol) + ", atol " +
                  num(atol) + "); worst at " + r.where + ": expected " +
                  num(worstE) + ", got " + num(worstA) + "; max abs error " +
                  num(r.worstAbsError) + ", max rel error " +
                  num(r.worstRelError));
}

CompareResult lpx::rt::compareTensors(const HostTensor &expected,
                                      const HostTensor &actual) {
  Tolerance t = defaultTolerance(expected.dtype);
  return compareTensors(expected, actual, t.rtol, t.atol);
}
