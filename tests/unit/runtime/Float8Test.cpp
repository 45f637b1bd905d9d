//===- Float8Test.cpp - FP8 encodings against hand-worked bit patterns ----===//
#include "Float8.h" // runtime/lib: a private header of the runtime

#include <gtest/gtest.h>

using namespace lpx::rt;

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

} // namespace
