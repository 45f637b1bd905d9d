//===- SignalMathTest.cpp - DFT matrices, windows, mel filterbanks --------===//
//
// Every expected value is derived by hand in the comments from the DFT
// definition, the window formulas of the ONNX spec and the MelWeightMatrix
// reference (onnx/backend/test/case/node/melweightmatrix.py).
//
//===----------------------------------------------------------------------===//
#include "SignalMath.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace lpx::onnximport;

namespace {

void expectMatrix(const std::vector<double> &m, int64_t cols,
                  const std::vector<std::vector<double>> &rows) {
  ASSERT_EQ(m.size(), rows.size() * size_t(cols));
  for (size_t r = 0; r < rows.size(); ++r) {
    ASSERT_EQ(rows[r].size(), size_t(cols));
    for (int64_t c = 0; c < cols; ++c)
      EXPECT_NEAR(m[r * cols + c], rows[r][c], 1e-12)
          << "row " << r << " col " << c;
  }
}

void expectVector(const std::vector<double> &v,
                  const std::vector<double> &expected) {
  ASSERT_EQ(v.size(), expected.size());
  for (size_t i = 0; i < v.size(); ++i)
    EXPECT_NEAR(v[i], expected[i], 1e-12) << "at " << i;
}

TEST(SignalMath, UnitRootQuarterTurnsAreExact) {
  // 2*pi*5/10 = pi: cos -1 and sin exactly 0 (std::sin(M_PI) is not).
  EXPECT_EQ(unitRoot(5, 10).c, -1.0);
  EXPECT_EQ(unitRoot(5, 10).s, 0.0);
  // 3/4 turn, reduced from 7/4: (0, -1).
  EXPECT_EQ(unitRoot(7, 4).c, 0.0);
  EXPECT_EQ(unitRoot(7, 4).s, -1.0);
  // 1/6 turn: (1/2, sqrt(3)/2).
  EXPECT_NEAR(unitRoot(1, 6).c, 0.5, 1e-15);
  EXPECT_NEAR(unitRoot(1, 6).s, std::sqrt(3.0) / 2, 1e-15);
}

TEST(SignalMath, FourPointDftOfRealInput) {
  // w^(nk) with w = exp(-2 pi i / 4) = -i, columns (re, im) per k:
  //   n=0: 1, 1, 1, 1
  //   n=1: 1, -i, -1, i
  //   n=2: 1, -1, 1, -1
  //   n=3: 1, i, -1, -i
  expectMatrix(dftMatrix(4, 1, 4, 4, false), 8,
               {{1, 0, 1, 0, 1, 0, 1, 0},
                {1, 0, 0, -1, -1, 0, 0, 1},
                {1, 0, -1, 0, 1, 0, -1, 0},
                {1, 0, 0, 1, -1, 0, 0, -1}});
  // Onesided: bins 0..4/2, the first 3 column pairs.
  expectMatrix(dftMatrix(4, 1, 4, 3, false), 6,
               {{1, 0, 1, 0, 1, 0},
                {1, 0, 0, -1, -1, 0},
                {1, 0, -1, 0, 1, 0},
                {1, 0, 0, 1, -1, 0}});
}

TEST(SignalMath, DftPadsAndTruncates) {
  // dft_length 4 over 2 samples: zero padding, so only rows n=0, 1 exist.
  expectMatrix(dftMatrix(2, 1, 4, 4, false), 8,
               {{1, 0, 1, 0, 1, 0, 1, 0},
                {1, 0, 0, -1, -1, 0, 0, 1}});
  // dft_length 2 over 3 samples: sample 2 is dropped (zero row);
  // w = exp(-pi i) = -1.
  expectMatrix(dftMatrix(3, 1, 2, 2, false), 4,
               {{1, 0, 1, 0},
                {1, 0, -1, 0},
                {0, 0, 0, 0}});
}

TEST(SignalMath, InverseDftOfComplexInput) {
  // Inverse, 4 points: (1/4) exp(+2 pi i n k / 4) = (1/4) i^(nk). Rows are
  // (a_n, b_n) for x_n = a_n + i b_n; (a + ib) * (c + is) has re a c - b s
  // and im a s + b c. n=1: k=1 multiplies by i: a -> im, b -> -re; k=2 by
  // -1; k=3 by -i: a -> -im, b -> re.
  expectMatrix(dftMatrix(2, 2, 4, 4, true), 8,
               {{0.25, 0, 0.25, 0, 0.25, 0, 0.25, 0},   // a0
                {0, 0.25, 0, 0.25, 0, 0.25, 0, 0.25},   // b0
                {0.25, 0, 0, 0.25, -0.25, 0, 0, -0.25}, // a1
                {0, 0.25, -0.25, 0, 0, -0.25, 0.25, 0}}); // b1
}

TEST(SignalMath, DftWithWindow) {
  // Window (0, 0.5, 1, 0.5) scales rows n of the 4-point matrix.
  expectMatrix(dftMatrix(4, 1, 4, 2, false, {0, 0.5, 1, 0.5}), 4,
               {{0, 0, 0, 0},
                {0.5, 0, 0, -0.5},
                {1, 0, -1, 0},
                {0.5, 0, 0, 0.5}});
}

TEST(SignalMath, Windows) {
  // Periodic, size 4 (N = 4): cos(2 pi n / 4) = 1, 0, -1, 0.
  //   Hann 0.5 - 0.5 c: 0, 0.5, 1, 0.5
  expectVector(windowFunction(WindowKind::Hann, 4, true), {0, 0.5, 1, 0.5});
  //   Hamming 25/46 - 21/46 c: 4/46, 25/46, 1, 25/46
  expectVector(windowFunction(WindowKind::Hamming, 4, true),
               {4.0 / 46, 25.0 / 46, 1, 25.0 / 46});
  //   Blackman 0.42 - 0.5 c + 0.08 cos(4 pi n / 4), the latter 1, -1, 1, -1:
  //   0, 0.34, 1, 0.34
  expectVector(windowFunction(WindowKind::Blackman, 4, true),
               {0, 0.34, 1, 0.34});
  // Symmetric, size 4 (N = 3): cos(2 pi n / 3) = 1, -1/2, -1/2, 1.
  //   Hann: 0, 0.75, 0.75, 0
  expectVector(windowFunction(WindowKind::Hann, 4, false), {0, 0.75, 0.75, 0});
  //   Blackman, cos(4 pi n / 3) = 1, -1/2, -1/2, 1:
  //   0.42 - 0.5 + 0.08 = 0; 0.42 + 0.25 - 0.04 = 0.63
  expectVector(windowFunction(WindowKind::Blackman, 4, false),
               {0, 0.63, 0.63, 0});
  // Degenerate sizes.
  expectVector(windowFunction(WindowKind::Hann, 1, false), {1});
  expectVector(windowFunction(WindowKind::Hann, 0, true), {});
}

TEST(SignalMath, MelWeightMatrixOfTheNodeTest) {
  // 8 bins, dft_length 16, 8192 Hz, edges 0 and 4096 Hz.
  // mel(4096) = 2595 log10(1 + 4096/700) = 2595 * 0.835781 = 2168.85; the
  // 10 points are 216.885 * i mel, i.e. 700 (10^(0.083578 i) - 1) Hz:
  // 0, 148.6, 328.8, 547.2, 811.9, 1132.9, 1522.0, 1993.8, 2565.6, 3259.0;
  // times 17 / 8192, floored: 0, 0, 0, 1, 1, 2, 3, 4, 5, 6.
  // Bin i rises from point i to point i+1 and falls to point i+2; with
  // equal points the peak (1) sits at the centre:
  //   bin 0 (0,0,0): row 0. bin 1 (0,0,1): row 0. bin 2 (0,1,1): rows 0 (0),
  //   1 (1). bin 3 (1,1,2): row 1. bin 4 (1,2,3): row 2. bin 5 (2,3,4): row 3.
  //   bin 6: row 4. bin 7: row 5.
  std::vector<std::vector<double>> rows(9, std::vector<double>(8, 0.0));
  rows[0][0] = rows[0][1] = 1;
  rows[1][2] = rows[1][3] = 1;
  rows[2][4] = 1;
  rows[3][5] = 1;
  rows[4][6] = 1;
  rows[5][7] = 1;
  expectMatrix(melWeightMatrix(8, 16, 8192, 0.0f, 4096.0f), 8, rows);
}

TEST(SignalMath, MelWeightMatrixRamps) {
  // 2 bins, dft_length 32, 8192 Hz, edges 0 and 4096 Hz: 4 points at
  // 542.21 * i mel = 0, 432.4, 1132.9, 2264.7 Hz; times 33 / 8192, floored:
  // 0, 1, 4, 9.
  //   bin 0 (0, 1, 4): rises 0 -> 1 over rows 0..1, falls (4 - j) / 3 over
  //   rows 1..3: 0, 1, 2/3, 1/3.
  //   bin 1 (1, 4, 9): rises (j - 1) / 3 over rows 1..4: 0, 1/3, 2/3, 1;
  //   falls (9 - j) / 5 over rows 4..8: 1, 0.8, 0.6, 0.4, 0.2.
  std::vector<std::vector<double>> rows(17, std::vector<double>(2, 0.0));
  rows[1][0] = 1;
  rows[2][0] = 2.0 / 3;
  rows[3][0] = 1.0 / 3;
  rows[2][1] = 1.0 / 3;
  rows[3][1] = 2.0 / 3;
  rows[4][1] = 1;
  rows[5][1] = 0.8;
  rows[6][1] = 0.6;
  rows[7][1] = 0.4;
  rows[8][1] = 0.2;
  expectMatrix(melWeightMatrix(2, 32, 8192, 0.0f, 4096.0f), 2, rows);
  // With 16384 Hz the last point, 3/4 of mel(16384) = 2700.4 mel = 6986 Hz,
  // maps to bin 28, beyond the 17 bins: rejected.
  EXPECT_TRUE(melWeightMatrix(2, 32, 8192, 0.0f, 16384.0f).empty());
}

} // namespace
