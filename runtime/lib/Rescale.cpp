//===- Rescale.cpp - The unary quantize and dequantize functions ----------===//
//
// QDQ's rescaling in one pass (ElementwiseFunctions.def, format 3.4): each
// step in f32, as the ONNX ops they stand for compute it, so a fused
// quantize gives the bits of the cast, mul, relu, div, round, add and clip
// it replaces.
//
//===----------------------------------------------------------------------===//
#include "ElementTypes.h"
#include "Kernels.h"
#include "lpx/isa/ElementwiseFunctions.h"

#include <cmath>

using namespace lpx::rt;
namespace isa = lpx::isa;
using isa::UnaryFn;

namespace {
/// quantize: saturate(round_half_even(f32(x) * pre / scale) + zp) to
/// [lo, hi]; dequantize: (f32(x) - zp) * scale.
float rescale(UnaryFn fn, float v, llvm::ArrayRef<double> p) {
  if (fn == UnaryFn::Dequantize)
    return (v - float(p[1])) * float(p[0]);
  if (p[0] != 1)
    v = v * float(p[0]);
  v = std::nearbyint(v / float(p[1])) + float(p[2]);
  return std::isnan(v) ? v : std::min(std::max(v, float(p[3])), float(p[4]));
}
} // namespace

llvm::Error lpx::rt::rescaleFn(const View &x, UnaryFn fn,
                               llvm::ArrayRef<double> params,
                               const OutView &out) {
  const bool toInt = fn == UnaryFn::Quantize;
  if (out.dtype == isa::DType::Bool || isa::isFloat(out.dtype) == toInt)
    return fail(std::string(toInt ? "quantize" : "dequantize") +
                " of a result of type " +
                std::string(isa::dtypeName(out.dtype)));
  const int64_t n = x.elements();
  return dispatchType(x.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    return dispatchType(out.dtype, [&](auto R) -> llvm::Error {
      using Rt = decltype(R);
      using C = typename Rt::Compute;
      for (int64_t i = 0; i < n; ++i) {
        float v = rescale(fn, float(Et::load(x.data + i * Et::bytes)), params);
        Rt::store(out.data + i * Rt::bytes, convertValue<C>(v));
      }
      return llvm::Error::success();
    });
  });
}
