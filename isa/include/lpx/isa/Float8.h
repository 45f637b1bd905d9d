//===- Float8.h - The two FP8 formats of the matrix unit --------*- C++ -*-===//
//
// E4M3 ("FN": no infinities, one NaN pattern per sign, max 448) and E5M2
// (IEEE-like, with infinities), as in the OCP 8-bit floating point spec and
// ONNX's FLOAT8E4M3FN / FLOAT8E5M2. Conversion from float rounds to nearest
// even; E4M3 saturates to +-448 (ONNX's saturate=1 default), E5M2 overflows
// to infinity.
//
// The importer decodes FLOAT8E4M3FN / FLOAT8E5M2 weights with it; both
// directions are on the runtime's hot path (every fp8 operand is
// widened and every fp8 result rounded), so decoding is a 256-entry table
// built from `decode` and encoding rounds with integer arithmetic on the
// float's bits instead of searching the 128 magnitudes. Float8Test checks
// the fast encoder against that search, the definition of the rounding.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_FLOAT8_H
#define LPX_ISA_FLOAT8_H

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace lpx::isa {

/// An 8-bit float with `E` exponent and `M` mantissa bits.
template <int E, int M, bool FiniteOnly> struct Float8 {
  uint8_t bits = 0;
  static constexpr int kBias = (1 << (E - 1)) - 1;
  /// Patterns of the largest finite magnitude and of infinity (E5M2).
  static constexpr uint8_t kMaxBits =
      FiniteOnly ? uint8_t(((1 << E) - 1) << M | ((1 << M) - 2))
                 : uint8_t(((1 << E) - 2) << M | ((1 << M) - 1));
  static constexpr uint8_t kInfBits = uint8_t(((1 << E) - 1) << M);

  /// 2^e, exactly, at compile time.
  static constexpr float pow2(int e) {
    float r = 1.0f;
    for (; e > 0; --e)
      r *= 2.0f;
    for (; e < 0; ++e)
      r /= 2.0f;
    return r;
  }

  Float8() = default;
  explicit Float8(float f) : bits(encode(f)) {}
  explicit operator float() const { return kDecoded[bits]; }
  explicit operator double() const { return kDecoded[bits]; }

  /// The value of a bit pattern, from the format's definition.
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

  /// Every pattern's value, indexed by the pattern.
  static inline const std::array<float, 256> kDecoded = [] {
    std::array<float, 256> t{};
    for (int b = 0; b < 256; ++b)
      t[size_t(b)] = decode(uint8_t(b));
    return t;
  }();

  /// Largest finite magnitude.
  static float maxFinite() { return kDecoded[kMaxBits]; }

  /// Round to nearest, ties to the even pattern.
  static uint8_t encode(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    const uint8_t sign = uint8_t((u >> 24) & 0x80);
    const uint32_t mag = u & 0x7FFFFFFFu;
    if (mag > 0x7F800000u) // NaN
      return uint8_t(sign | 0x7F);
    const float a = std::fabs(f);
    const float maxF = maxFinite();
    if (a > maxF) {
      if (FiniteOnly)
        return uint8_t(sign | kMaxBits);
      // Halfway to the next binade and beyond overflows to infinity (the
      // tie goes to the even pattern, which is infinity's).
      constexpr float next = pow2((1 << E) - 1 - kBias);
      return uint8_t(sign | (a >= (maxF + next) / 2 ? kInfBits : kMaxBits));
    }
    if (a < pow2(1 - kBias)) {
      // Subnormal (or zero): multiples of 2^(1 - bias - M). Adding a power
      // of two whose float ulp is that spacing rounds a to nearest even in
      // float arithmetic; the added bits are the pattern (2^M, the smallest
      // normal, when it rounds up).
      constexpr float align = pow2(1 - kBias - M + 23);
      const float t = a + align;
      uint32_t tb, ab;
      std::memcpy(&tb, &t, sizeof tb);
      std::memcpy(&ab, &align, sizeof ab);
      return uint8_t(sign | (tb - ab));
    }
    // Normal: drop 23 - M mantissa bits, rounding to nearest even (a carry
    // moves into the exponent), then rebias the exponent.
    constexpr int drop = 23 - M;
    const uint32_t rounded =
        mag + ((1u << (drop - 1)) - 1) + ((mag >> drop) & 1);
    return uint8_t(sign | ((rounded >> drop) - (uint32_t(127 - kBias) << M)));
  }
};

using F8E4M3 = Float8<4, 3, /*FiniteOnly=*/true>;
using F8E5M2 = Float8<5, 2, /*FiniteOnly=*/false>;

} // namespace lpx::isa

#endif
