//===- Float8Test.cpp - FP8 encodings against hand-worked bit patterns ----===//
#include "lpx/isa/Float8.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace lpx::isa;

namespace {

TEST(Float8, E4M3ByHand) {
  // Bias 7. 1.0 = 2^0 -> exponent field 7 -> 0 0111 000.
  EXPECT_EQ(F8E4M3(1.0f).bits, 0x38);
  // 0.1 = 1.6 * 2^-4: exponent 3, mantissa 0.6 * 8 = 4.8 -> 5 (0.1015625).
  EXPECT_EQ(F8E4M3(0.1f).bits, 0x1D);
  EXPECT_FLOAT_EQ(float(F8E4M3(0.1f)), 0.1015625f);
  // Largest finite: 1.75 * 2^8 = 448 -> 0 1111 110; beyond it saturates.
  EXPECT_EQ(F8E4M3(448.0f).bits, 0x7E);
  EXPECT_EQ(F8E4M3(1000.0f).bits, 0x7E);
  EXPECT_EQ(F8E4M3(-1000.0f).bits, 0xFE);
  // Smallest subnormal: 2^-9 = 0.001953125 -> 0 0000 001.
  EXPECT_EQ(F8E4M3(0.001953125f).bits, 0x01);
  // 1.0625 lies halfway between 1.0 (mantissa 0) and 1.125 (mantissa 1):
  // ties go to the even mantissa.
  EXPECT_EQ(F8E4M3(1.0625f).bits, 0x38);
  EXPECT_TRUE(std::isnan(float(F8E4M3(NAN))));
}

TEST(Float8, E5M2ByHand) {
  // Bias 15. 1.0 -> 0 01111 00.
  EXPECT_EQ(F8E5M2(1.0f).bits, 0x3C);
  // Largest finite: 1.75 * 2^15 = 57344 -> 0 11110 11.
  EXPECT_EQ(F8E5M2(57344.0f).bits, 0x7B);
  // Far past it: infinity 0 11111 00.
  EXPECT_EQ(F8E5M2(1e6f).bits, 0x7C);
  EXPECT_TRUE(std::isinf(float(F8E5M2(1e6f))));
  // -2.5 = -1.25 * 2^1: exponent 16, mantissa 1 -> 1 10000 01.
  EXPECT_EQ(F8E5M2(-2.5f).bits, 0xC1);
}

/// The rounding by definition: the nearest of the format's finite
/// magnitudes, ties to the even pattern, with E4M3's saturation and E5M2's
/// overflow to infinity. This was the runtime's encoder until it was
/// replaced by bit arithmetic (the search costs ~1 us per element, 99% of an
/// fp8 ResNet-50 run); it stays here as the oracle the fast one must match.
template <typename F> uint8_t encodeBySearch(float f) {
  constexpr int E = F::kBias == 7 ? 4 : 5;
  constexpr bool finiteOnly = E == 4;
  uint8_t sign = std::signbit(f) ? 0x80 : 0;
  if (std::isnan(f))
    return uint8_t(sign | 0x7F);
  float a = std::fabs(f);
  float maxF = F::decode(F::kMaxBits);
  if (a > maxF && (finiteOnly || std::isinf(a)))
    return finiteOnly ? uint8_t(sign | F::kMaxBits)
                      : uint8_t(sign | F::kInfBits);
  uint8_t best = 0;
  float bestErr = INFINITY;
  for (int m = 0; m < 128; ++m) {
    float v = F::decode(uint8_t(m));
    if (std::isnan(v) || std::isinf(v))
      continue;
    float err = std::fabs(v - a);
    if (err < bestErr || (err == bestErr && (m & 1) == 0)) {
      best = uint8_t(m);
      bestErr = err;
    }
  }
  if (!finiteOnly && a > maxF && bestErr > 0) {
    float next = std::ldexp(1.0f, (1 << E) - 1 - F::kBias);
    if (a >= (maxF + next) / 2)
      return uint8_t(sign | F::kInfBits);
  }
  return uint8_t(sign | best);
}

float fromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

/// Floats on which rounding decides: every pattern of the top 16 bits
/// (sign, exponent and 7 mantissa bits: each format's values and the
/// midpoints between them, float subnormals, infinities and NaNs) and its
/// neighbours one float ulp away, plus seeded random patterns.
std::vector<float> decidingFloats() {
  std::vector<float> xs;
  for (uint32_t hi = 0; hi < 0x10000; ++hi)
    for (int d : {0, 1, -1})
      xs.push_back(fromBits((hi << 16) + uint32_t(d)));
  std::mt19937 rng(8);
  for (int i = 0; i < 200000; ++i)
    xs.push_back(fromBits(uint32_t(rng())));
  return xs;
}

template <typename F> void expectMatchesSearch() {
  for (float x : decidingFloats()) {
    uint8_t want = encodeBySearch<F>(x), got = F::encode(x);
    if (got != want) {
      uint32_t u;
      std::memcpy(&u, &x, sizeof u);
      FAIL() << "encode(" << x << ", bits 0x" << std::hex << u << ") = 0x"
             << int(got) << ", nearest-even search gives 0x" << int(want);
    }
  }
}

TEST(Float8, FastEncodeMatchesNearestEvenSearch) {
  expectMatchesSearch<F8E4M3>();
  expectMatchesSearch<F8E5M2>();
}

template <typename F> void expectTableIsDecode() {
  for (int b = 0; b < 256; ++b) {
    F x;
    x.bits = uint8_t(b);
    float want = F::decode(uint8_t(b));
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(float(x))) << b;
    } else {
      EXPECT_EQ(float(x), want) << b;
      // Every pattern that is not NaN encodes back to itself.
      EXPECT_EQ(F(float(x)).bits, b);
    }
  }
}

TEST(Float8, DecodeTableIsTheDefinition) {
  expectTableIsDecode<F8E4M3>();
  expectTableIsDecode<F8E5M2>();
}

} // namespace
