//===- ElementTypes.h - Typed access to raw element bytes -------*- C++ -*-===//
//
// Kernels are templates over an element trait: the type stored in memory and
// the type arithmetic is done in (float for f16 and bf16, so results are
// rounded to nearest even once, on store). Loads and stores go through memcpy
// because buffers sit at arbitrary byte addresses.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_RUNTIME_ELEMENTTYPES_H
#define LPX_RUNTIME_ELEMENTTYPES_H

#include "lpx/isa/Float8.h"
#include "Shape.h"
#include "lpx/isa/DType.h"
#include <Eigen/Core>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace lpx::rt {

using isa::F8E4M3;
using isa::F8E5M2;

template <typename S, typename C> struct Elem {
  using Storage = S;
  using Compute = C;
  static constexpr size_t bytes = sizeof(S);
  static C load(const uint8_t *p) {
    S s;
    std::memcpy(&s, p, sizeof(S));
    return static_cast<C>(s);
  }
  static void store(uint8_t *p, C c) {
    S s = static_cast<S>(c);
    std::memcpy(p, &s, sizeof(S));
  }
};

using ElemF32 = Elem<float, float>;
using ElemF64 = Elem<double, double>;
using ElemF16 = Elem<Eigen::half, float>;
using ElemBF16 = Elem<Eigen::bfloat16, float>;
using ElemBool = Elem<uint8_t, bool>;
using ElemF8E4M3 = Elem<F8E4M3, float>;
using ElemF8E5M2 = Elem<F8E5M2, float>;

template <typename E>
inline constexpr bool isFloatElem = std::is_floating_point_v<typename E::Compute>;
template <typename E>
inline constexpr bool isBoolElem = std::is_same_v<typename E::Compute, bool>;
template <typename E>
inline constexpr bool isIntElem = !isFloatElem<E> && !isBoolElem<E>;

/// Calls fn(Elem<...>{}) for the trait of `t`; fn returns llvm::Error.
template <typename Fn> llvm::Error dispatchType(isa::DType t, Fn &&fn) {
  using isa::DType;
  switch (t) {
  case DType::F32: return fn(ElemF32{});
  case DType::F64: return fn(ElemF64{});
  case DType::F16: return fn(ElemF16{});
  case DType::BF16: return fn(ElemBF16{});
  case DType::I8: return fn(Elem<int8_t, int8_t>{});
  case DType::U8: return fn(Elem<uint8_t, uint8_t>{});
  case DType::I16: return fn(Elem<int16_t, int16_t>{});
  case DType::U16: return fn(Elem<uint16_t, uint16_t>{});
  case DType::I32: return fn(Elem<int32_t, int32_t>{});
  case DType::U32: return fn(Elem<uint32_t, uint32_t>{});
  case DType::I64: return fn(Elem<int64_t, int64_t>{});
  case DType::U64: return fn(Elem<uint64_t, uint64_t>{});
  case DType::Bool: return fn(ElemBool{});
  case DType::F8E4M3: return fn(ElemF8E4M3{});
  case DType::F8E5M2: return fn(ElemF8E5M2{});
  case DType::Undefined: break;
  }
  return fail("unsupported element type " + llvm::Twine(static_cast<unsigned>(t)));
}

/// dispatchType for kernels with no bool form: a bool `t` is the error
/// "`what` is not defined for bool", and fn is instantiated for numbers only.
template <typename Fn>
llvm::Error dispatchNumericType(const llvm::Twine &what, isa::DType t,
                               Fn &&fn) {
  return dispatchType(t, [&](auto E) -> llvm::Error {
    if constexpr (isBoolElem<decltype(E)>)
      return fail(what + " is not defined for bool");
    else
      return fn(E);
  });
}

/// Unsigned type wide enough that arithmetic on it wraps instead of
/// overflowing a signed int after integer promotion.
template <typename T>
using WrapType = std::conditional_t<(sizeof(T) <= 4), uint32_t, uint64_t>;

/// numpy-style value conversion between compute types: to bool is x != 0;
/// float to integer truncates toward zero, NaN gives 0 and out-of-range values
/// saturate (C++ leaves them undefined); everything else is static_cast.
template <typename To, typename From> To convertValue(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_floating_point_v<From> &&
                       std::is_integral_v<To>) {
    if (std::isnan(v))
      return To(0);
    double t = std::trunc(static_cast<double>(v));
    if (t <= static_cast<double>(std::numeric_limits<To>::lowest()))
      return std::numeric_limits<To>::lowest();
    if (t >= static_cast<double>(std::numeric_limits<To>::max()))
      return std::numeric_limits<To>::max();
    return static_cast<To>(t);
  } else {
    return static_cast<To>(v);
  }
}

/// Converts a whole tensor's elements to compute values.
template <typename E>
std::vector<typename E::Compute> loadAll(const uint8_t *p, int64_t n) {
  std::vector<typename E::Compute> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[i] = E::load(p + i * E::bytes);
  return v;
}

} // namespace lpx::rt

#endif
