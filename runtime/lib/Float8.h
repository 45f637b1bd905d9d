//===- Float8.h - The two FP8 formats of the matrix unit --------*- C++ -*-===//
//
// E4M3 ("FN": no infinities, one NaN pattern per sign, max 448) and E5M2
// (IEEE-like, with infinities), as in the OCP 8-bit floating point spec and
// ONNX's FLOAT8E4M3FN / FLOAT8E5M2. Conversion from float rounds to nearest
// even; E4M3 saturates to +-448 (ONNX's saturate=1 default), E5M2 overflows
// to infinity.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_RUNTIME_FLOAT8_H
#define LPX_RUNTIME_FLOAT8_H

#include <cmath>
#include <cstdint>

namespace lpx::rt {

/// An 8-bit float with `E` exponent and `M` mantissa bits.
template <int E, int M, bool FiniteOnly> struct Float8 {
  uint8_t bits = 0;
  static constexpr int kBias = (1 << (E - 1)) - 1;

  Float8() = default;
  explicit Float8(float f) : bits(encode(f)) {}
  explicit operator float() const { return decode(bits); }
  explicit operator double() const { return decode(bits); }

  static float decode(uint8_t b) {
    int sign = b >> 7, exp = (b >> M) & ((1 << E) - 1), man = b & ((1 << M) - 1);
    float s = sign ? -1.0f : 1.0f;
    if (FiniteOnly) {
      if (exp == (1 << E) - 1 && man == (1 << M) - 1)
        return NAN;
    } else if (exp == (1 << E) - 1) {
      return man ? NAN : s * INFINITY;
    }
    if (exp == 0) // subnormal
      return s * std::ldexp(float(man), 1 - kBias - M);
    return s * std::ldexp(1.0f + float(man) / (1 << M), exp - kBias);
  }

  /// Largest finite magnitude.
  static float maxFinite() {
    return FiniteOnly ? decode(uint8_t(((1 << E) - 1) << M | ((1 << M) - 2)))
                      : decode(uint8_t(((1 << E) - 2) << M | ((1 << M) - 1)));
  }

  static uint8_t encode(float f) {
    uint8_t sign = std::signbit(f) ? 0x80 : 0;
    if (std::isnan(f))
      return uint8_t(sign | (FiniteOnly ? 0x7F : 0x7F));
    float a = std::fabs(f);
    if (a > maxFinite()) {
      // Halfway above the largest finite value still rounds down to it.
      if (FiniteOnly || std::isinf(a))
        return FiniteOnly ? uint8_t(sign | encode(maxFinite()))
                          : uint8_t(sign | (((1 << E) - 1) << M));
    }
    // Search the 128 magnitudes for the nearest, ties to the even pattern.
    uint8_t best = 0;
    float bestErr = INFINITY;
    for (int m = 0; m < 128; ++m) {
      float v = decode(uint8_t(m));
      if (std::isnan(v) || std::isinf(v))
        continue;
      float err = std::fabs(v - a);
      if (err < bestErr || (err == bestErr && (m & 1) == 0)) {
        best = uint8_t(m);
        bestErr = err;
      }
    }
    if (!FiniteOnly && a > maxFinite() && bestErr > 0) {
      // Past the halfway point to the next binade: overflow to infinity.
      float next = std::ldexp(1.0f, (1 << E) - 1 - kBias);
      if (a >= (maxFinite() + next) / 2)
        return uint8_t(sign | (((1 << E) - 1) << M));
    }
    return uint8_t(sign | best);
  }
};

using F8E4M3 = Float8<4, 3, /*FiniteOnly=*/true>;
using F8E5M2 = Float8<5, 2, /*FiniteOnly=*/false>;

} // namespace lpx::rt

#endif
