//===- ResizeWeightsTest.cpp - Per-axis maps of ONNX Resize ---------------===//
//
// Every expected matrix is derived by hand in the comments from the ONNX
// coordinate formulas and interpolation kernels.
//
//===----------------------------------------------------------------------===//
#include "ResizeWeights.h"

#include <gtest/gtest.h>

using namespace lpx::onnximport;

namespace {

ResizeAxisMap mapWith(int64_t in, int64_t out, double scale,
                      const ResizeOptions &o) {
  ResizeAxis a;
  a.in = in;
  a.out = out;
  a.scale = scale;
  return resizeAxisMap(a, o);
}

ResizeAxisMap mapOf(int64_t in, int64_t out, double scale, ResizeMode mode,
                    CoordinateMode cm,
                    NearestMode nm = NearestMode::RoundPreferFloor) {
  ResizeOptions o;
  o.mode = mode;
  o.coordinates = cm;
  o.nearest = nm;
  return mapWith(in, out, scale, o);
}

void expectRows(const ResizeAxisMap &m,
                const std::vector<std::vector<double>> &rows) {
  ASSERT_EQ(m.out, int64_t(rows.size()));
  for (int64_t o = 0; o < m.out; ++o) {
    ASSERT_EQ(m.in, int64_t(rows[o].size()));
    for (int64_t i = 0; i < m.in; ++i)
      EXPECT_NEAR(m.at(o, i), rows[o][i], 1e-12) << "row " << o << " col " << i;
  }
}

} // namespace

TEST(ResizeWeights, LinearHalfPixelTwoToFour) {
  // Scale 2: source x' = (x + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25.
  // -0.25 lies between -1 (edge: input 0) and 0 with ratio 0.75: 0.25 + 0.75
  // of input 0. 0.25 and 0.75: between 0 and 1. 1.25: between 1 and 2 (edge:
  // input 1), all of input 1.
  auto m = mapOf(2, 4, 2.0, ResizeMode::Linear, CoordinateMode::HalfPixel);
  expectRows(m, {{1, 0}, {0.75, 0.25}, {0.25, 0.75}, {0, 1}});
  EXPECT_FALSE(m.isIdentity());
  EXPECT_FALSE(m.asIndices());
  EXPECT_FALSE(m.anyOutside());
}

TEST(ResizeWeights, NearestFourToTwo) {
  // Asymmetric, scale 0.5: x' = x / 0.5 = 0, 2: integers, picked as they are.
  auto a = mapOf(4, 2, 0.5, ResizeMode::Nearest, CoordinateMode::Asymmetric);
  expectRows(a, {{1, 0, 0, 0}, {0, 0, 1, 0}});
  ASSERT_TRUE(a.asIndices());
  EXPECT_EQ(*a.asIndices(), (std::vector<int64_t>{0, 2}));
  // Half pixel: x' = (x + 0.5) / 0.5 - 0.5 = 0.5, 2.5: exact halves go
  // down with round_prefer_floor and up with round_prefer_ceil.
  auto f = mapOf(4, 2, 0.5, ResizeMode::Nearest, CoordinateMode::HalfPixel,
                 NearestMode::RoundPreferFloor);
  EXPECT_EQ(*f.asIndices(), (std::vector<int64_t>{0, 2}));
  auto c = mapOf(4, 2, 0.5, ResizeMode::Nearest, CoordinateMode::HalfPixel,
                 NearestMode::RoundPreferCeil);
  EXPECT_EQ(*c.asIndices(), (std::vector<int64_t>{1, 3}));
  // Upsampling 2 -> 6 asymmetric (scale 3): x' = 0, 1/3, 2/3, 1, 4/3, 5/3.
  // floor: 0 0 0 1 1 1; ceil: 0 1 1 1 2 -> edge 1, 1;
  // round_prefer_floor: 0 0 1 1 1 2 -> edge 1.
  EXPECT_EQ(*mapOf(2, 6, 3.0, ResizeMode::Nearest, CoordinateMode::Asymmetric,
                   NearestMode::Floor).asIndices(),
            (std::vector<int64_t>{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(*mapOf(2, 6, 3.0, ResizeMode::Nearest, CoordinateMode::Asymmetric,
                   NearestMode::Ceil).asIndices(),
            (std::vector<int64_t>{0, 1, 1, 1, 1, 1}));
  EXPECT_EQ(*mapOf(2, 6, 3.0, ResizeMode::Nearest, CoordinateMode::Asymmetric,
                   NearestMode::RoundPreferFloor).asIndices(),
            (std::vector<int64_t>{0, 0, 1, 1, 1, 1}));
}

TEST(ResizeWeights, CubicAtOnePoint) {
  // 4 -> 8 half pixel (scale 2), output 1: x' = 1.5 / 2 - 0.5 = 0.25, so the
  // taps -1, 0, 1, 2 sit at distances 1.25, 0.25, 0.75, 1.75. With
  // A = -0.75 the cubic kernel is (A+2)d^3 - (A+3)d^2 + 1 for d <= 1 and
  // A d^3 - 5A d^2 + 8A d - 4A for 1 < d < 2:
  //   W(1.25) = -0.75 * (1.953125 - 7.8125 + 10 - 4)  = -0.10546875
  //   W(0.25) = 1.25 * 0.015625 - 2.25 * 0.0625 + 1    =  0.87890625
  //   W(0.75) = 1.25 * 0.421875 - 2.25 * 0.5625 + 1    =  0.26171875
  //   W(1.75) = -0.75 * (5.359375 - 15.3125 + 14 - 4)  = -0.03515625
  // Tap -1 is the edge-padded input 0.
  auto m = mapOf(4, 8, 2.0, ResizeMode::Cubic, CoordinateMode::HalfPixel);
  const double w0 = -0.10546875 + 0.87890625, w1 = 0.26171875,
               w2 = -0.03515625;
  EXPECT_NEAR(m.at(1, 0), w0, 1e-12);
  EXPECT_NEAR(m.at(1, 1), w1, 1e-12);
  EXPECT_NEAR(m.at(1, 2), w2, 1e-12);
  EXPECT_NEAR(m.at(1, 3), 0.0, 1e-12);
  // exclude_outside drops tap -1 and renormalises by 1.10546875.
  ResizeOptions o;
  o.mode = ResizeMode::Cubic;
  o.excludeOutside = true;
  auto e = mapWith(4, 8, 2.0, o);
  const double sum = 1.10546875;
  EXPECT_NEAR(e.at(1, 0), 0.87890625 / sum, 1e-12);
  EXPECT_NEAR(e.at(1, 1), 0.26171875 / sum, 1e-12);
  EXPECT_NEAR(e.at(1, 2), -0.03515625 / sum, 1e-12);
}

TEST(ResizeWeights, AlignCornersAndIdentity) {
  // 2 -> 3 align corners: x' = x * (2 - 1) / (3 - 1) = 0, 0.5, 1.
  auto m = mapOf(2, 3, 1.5, ResizeMode::Linear, CoordinateMode::AlignCorners);
  expectRows(m, {{1, 0}, {0.5, 0.5}, {0, 1}});
  // Scale 1 maps every position onto itself, in every mode.
  for (ResizeMode mode :
       {ResizeMode::Nearest, ResizeMode::Linear, ResizeMode::Cubic})
    for (CoordinateMode cm :
         {CoordinateMode::HalfPixel, CoordinateMode::AlignCorners,
          CoordinateMode::Asymmetric, CoordinateMode::PytorchHalfPixel})
      EXPECT_TRUE(mapOf(3, 3, 1.0, mode, cm).isIdentity());
}

TEST(ResizeWeights, CropAndResizeMarksOutsidePositions) {
  // 4 -> 3 (scale 0.75, so scale * in - 1 = 2) over roi [0.4, 1.2]:
  // x' = x * 0.8 * 3 / 2 + 0.4 * 3 = 1.2, 2.4, 3.6; the last lies past
  // in - 1 = 3 and takes extrapolation_value.
  ResizeOptions o;
  o.mode = ResizeMode::Linear;
  o.coordinates = CoordinateMode::TfCropAndResize;
  ResizeAxis a;
  a.in = 4;
  a.out = 3;
  a.scale = 0.75;
  a.roiStart = 0.4;
  a.roiEnd = 1.2;
  auto m = resizeAxisMap(a, o);
  expectRows(m, {{0, 0.8, 0.2, 0}, {0, 0, 0.6, 0.4}, {0, 0, 0, 0}});
  EXPECT_EQ(m.outside, (std::vector<bool>{false, false, true}));
  EXPECT_TRUE(m.anyOutside());
  EXPECT_FALSE(m.isIdentity());
}

TEST(ResizeWeights, ParsesAttributeSpellings) {
  EXPECT_EQ(parseResizeMode("cubic"), ResizeMode::Cubic);
  EXPECT_FALSE(parseResizeMode("bicubic"));
  EXPECT_EQ(parseCoordinateMode("tf_half_pixel_for_nn"),
            CoordinateMode::TfHalfPixelForNN);
  EXPECT_FALSE(parseCoordinateMode("half-pixel"));
  EXPECT_EQ(parseNearestMode("round_prefer_ceil"), NearestMode::RoundPreferCeil);
  EXPECT_FALSE(parseNearestMode("round"));
}

TEST(ResizeWeights, CubicAntialiasStretchesTheKernelOnADownscale) {
  // 8 -> 4 half pixel (scale 0.5), output 0: x' = 0.5 / 0.5 - 0.5 = 0.5,
  // left neighbour 0, ratio 0.5. Antialias stretches the kernel by 1 / 0.5:
  // taps i = floor(-2 / 0.5) + 1 = -3 .. 4 at arguments 0.5 (i - 0.5) =
  // -1.75 .. 1.75, weighing (CubicAtOnePoint's values) W(1.75), W(1.25),
  // W(0.75), W(0.25), W(0.25), W(0.75), W(1.25), W(1.75), whose sum is 2;
  // taps -3..-1 are the edge-padded input 0, so input 0 takes
  // (W(1.75) + W(1.25) + W(0.75) + W(0.25)) / 2 = 0.5.
  ResizeOptions o;
  o.mode = ResizeMode::Cubic;
  o.antialias = true;
  auto m = mapWith(8, 4, 0.5, o);
  const double w25 = 0.87890625, w75 = 0.26171875, w125 = -0.10546875,
               w175 = -0.03515625;
  ASSERT_EQ(m.out, 4);
  const std::vector<double> row0 = {0.5, w25 / 2, w75 / 2, w125 / 2,
                                    w175 / 2, 0, 0, 0};
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_NEAR(m.at(0, i), row0[i], 1e-12) << "col " << i;
  // An upscale keeps the plain kernel: antialias changes nothing.
  o.antialias = false;
  auto plain = mapWith(4, 8, 2.0, o);
  o.antialias = true;
  auto same = mapWith(4, 8, 2.0, o);
  EXPECT_EQ(plain.weights, same.weights);
}
