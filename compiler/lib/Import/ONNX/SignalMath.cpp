//===- SignalMath.cpp - DFT matrices, windows, mel filterbanks ------------===//
#include "SignalMath.h"

#include <cmath>

namespace lpx::onnximport {

CosSin unitRoot(int64_t num, int64_t den) {
  int64_t r = num % den;
  if (r < 0)
    r += den;
  // Quarter turns are exact.
  if ((4 * r) % den == 0) {
    switch ((4 * r) / den) {
    case 0: return {1, 0};
    case 1: return {0, 1};
    case 2: return {-1, 0};
    default: return {0, -1};
    }
  }
  double a = 2 * M_PI * double(r) / double(den);
  return {std::cos(a), std::sin(a)};
}

std::vector<double> dftMatrix(int64_t inLen, int64_t inComponents,
                              int64_t dftLen, int64_t bins, bool inverse,
                              const std::vector<double> &window) {
  const int64_t cols = 2 * bins;
  std::vector<double> m(size_t(inLen * inComponents * cols), 0.0);
  const double scale = inverse ? 1.0 / double(dftLen) : 1.0;
  // exp(-+i t) = cos t -+ i sin t; sign = -1 forward, +1 inverse.
  const double sign = inverse ? 1.0 : -1.0;
  for (int64_t n = 0; n < std::min(inLen, dftLen); ++n) {
    double w = scale * (window.empty() ? 1.0 : window[n]);
    for (int64_t k = 0; k < bins; ++k) {
      CosSin e = unitRoot(n * k, dftLen);
      // (a + i b)(c + i sign s) = (a c - sign b s) + i (sign a s + b c)
      double *re = &m[size_t(n * inComponents * cols + 2 * k)];
      re[0] = w * e.c;           // a -> re
      re[1] = w * sign * e.s;    // a -> im
      if (inComponents == 2) {
        double *im = re + cols;
        im[0] = -w * sign * e.s; // b -> re
        im[1] = w * e.c;         // b -> im
      }
    }
  }
  return m;
}

std::vector<double> windowFunction(WindowKind kind, int64_t size,
                                   bool periodic) {
  std::vector<double> w(size_t(std::max<int64_t>(size, 0)));
  const int64_t N = periodic ? size : size - 1;
  if (N <= 0) {
    for (double &v : w)
      v = 1.0;
    return w;
  }
  for (int64_t n = 0; n < size; ++n) {
    double c1 = unitRoot(n, N).c, c2 = unitRoot(2 * n, N).c;
    switch (kind) {
    case WindowKind::Hann: w[n] = 0.5 - 0.5 * c1; break;
    case WindowKind::Hamming: w[n] = 25.0 / 46.0 - 21.0 / 46.0 * c1; break;
    case WindowKind::Blackman: w[n] = 0.42 - 0.5 * c1 + 0.08 * c2; break;
    }
  }
  return w;
}

std::vector<double> melWeightMatrix(int64_t numMelBins, int64_t dftLength,
                                    int64_t sampleRate, float lowerEdgeHertz,
                                    float upperEdgeHertz) {
  const int64_t spectrogramBins = dftLength / 2 + 1;
  // The reference's float32 scalar arithmetic for the edges' mel values.
  float lowMel = 2595.0f * float(std::log10(1.0f + lowerEdgeHertz / 700.0f));
  float highMel = 2595.0f * float(std::log10(1.0f + upperEdgeHertz / 700.0f));
  float melStep = (highMel - lowMel) / float(numMelBins + 2);
  std::vector<int64_t> point(size_t(numMelBins + 2));
  for (int64_t i = 0; i < numMelBins + 2; ++i) {
    double mel = double(i) * double(melStep) + double(lowMel);
    double hz = 700.0 * (std::pow(10.0, mel / 2595.0) - 1.0);
    point[i] = int64_t(std::floor(double(dftLength + 1) * hz / double(sampleRate)));
    if (point[i] < 0 || point[i] >= spectrogramBins)
      return {};
  }
  std::vector<double> out(size_t(spectrogramBins * numMelBins), 0.0);
  auto at = [&](int64_t j, int64_t i) -> double & {
    return out[size_t(j * numMelBins + i)];
  };
  for (int64_t i = 0; i < numMelBins; ++i) {
    int64_t lo = point[i], center = point[i + 1], hi = point[i + 2];
    if (center == lo) {
      at(center, i) = 1;
    } else {
      for (int64_t j = lo; j <= center; ++j)
        at(j, i) = double(j - lo) / double(center - lo);
    }
    if (hi > center)
      for (int64_t j = center; j < hi; ++j)
        at(j, i) = double(hi - j) / double(hi - center);
  }
  return out;
}

} // namespace lpx::onnximport
