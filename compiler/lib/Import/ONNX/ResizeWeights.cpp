//===- ResizeWeights.cpp - Per-axis maps of ONNX Resize -------------------===//
//
// Mirrors interpolate_1d_with_x of the ONNX reference implementation for one
// output position at a time; see ResizeWeights.h.
//
//===----------------------------------------------------------------------===//
#include "ResizeWeights.h"

#include <algorithm>
#include <cmath>

namespace lpx::onnximport {

std::optional<ResizeMode> parseResizeMode(const std::string &s) {
  if (s == "nearest") return ResizeMode::Nearest;
  if (s == "linear") return ResizeMode::Linear;
  if (s == "cubic") return ResizeMode::Cubic;
  return std::nullopt;
}

std::optional<CoordinateMode> parseCoordinateMode(const std::string &s) {
  if (s == "half_pixel") return CoordinateMode::HalfPixel;
  if (s == "pytorch_half_pixel") return CoordinateMode::PytorchHalfPixel;
  if (s == "align_corners") return CoordinateMode::AlignCorners;
  if (s == "asymmetric") return CoordinateMode::Asymmetric;
  if (s == "tf_half_pixel_for_nn") return CoordinateMode::TfHalfPixelForNN;
  if (s == "tf_crop_and_resize") return CoordinateMode::TfCropAndResize;
  if (s == "half_pixel_symmetric") return CoordinateMode::HalfPixelSymmetric;
  return std::nullopt;
}

std::optional<NearestMode> parseNearestMode(const std::string &s) {
  if (s == "round_prefer_floor") return NearestMode::RoundPreferFloor;
  if (s == "round_prefer_ceil") return NearestMode::RoundPreferCeil;
  if (s == "floor") return NearestMode::Floor;
  if (s == "ceil") return NearestMode::Ceil;
  return std::nullopt;
}

namespace {
constexpr double kIdentityTolerance = 1e-12;

/// The interpolation coefficients for `ratio` in (0, 1] (1 when the source
/// coordinate is an integer), over the window of neighbours that starts one
/// below the left one for cubic: get_coeffs of the reference.
/// The antialiased filter of a downscale: the kernel stretched by 1 / scale
/// over its offsets from the left neighbour, normalised to sum 1.
std::vector<double> antialiasCoefficients(double ratio, double scale,
                                          const ResizeOptions &o) {
  scale = std::min(scale, 1.0);
  const double A = o.cubicCoeffA;
  const bool cubic = o.mode == ResizeMode::Cubic;
  auto kernel = [&](double x) {
    x = std::fabs(x);
    if (!cubic)
      return std::clamp(1 - x, 0.0, 1.0);
    if (x <= 1)
      return ((A + 2) * x - (A + 3)) * x * x + 1;
    if (x < 2)
      return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
    return 0.0;
  };
  const int64_t first = int64_t(std::floor((cubic ? -2 : -1) / scale)) + 1;
  std::vector<double> c;
  double sum = 0;
  for (int64_t i = first; i < 2 - first; ++i) {
    c.push_back(kernel(scale * (double(i) - ratio)));
    sum += c.back();
  }
  for (double &v : c)
    v /= sum;
  return c;
}

std::vector<double> coefficients(double ratio, bool integral, double scale,
                                 const ResizeOptions &o) {
  if (o.antialias && o.mode != ResizeMode::Nearest)
    return antialiasCoefficients(ratio, scale, o);
  switch (o.mode) {
  case ResizeMode::Nearest: {
    if (integral)
      return {0, 1};
    bool right = false;
    switch (o.nearest) {
    case NearestMode::RoundPreferFloor: right = ratio > 0.5; break;
    case NearestMode::RoundPreferCeil: right = ratio >= 0.5; break;
    case NearestMode::Floor: right = false; break;
    case NearestMode::Ceil: right = true; break;
    }
    return {right ? 0.0 : 1.0, right ? 1.0 : 0.0};
  }
  case ResizeMode::Linear:
    return {1 - ratio, ratio};
  case ResizeMode::Cubic: {
    const double A = o.cubicCoeffA, r = ratio, q = 1 - ratio;
    return {((A * (r + 1) - 5 * A) * (r + 1) + 8 * A) * (r + 1) - 4 * A,
            ((A + 2) * r - (A + 3)) * r * r + 1,
            ((A + 2) * q - (A + 3)) * q * q + 1,
            ((A * (q + 1) - 5 * A) * (q + 1) + 8 * A) * (q + 1) - 4 * A};
  }
  }
  return {};
}

/// The source coordinate of output position `x`, or nullopt when it lies
/// outside the input (tf_crop_and_resize extrapolates there).
std::optional<double> sourceCoordinate(int64_t x, const ResizeAxis &a,
                                       const ResizeOptions &o) {
  const double in = double(a.in), outWidth = a.scale * double(a.in);
  const double xd = double(x);
  switch (o.coordinates) {
  case CoordinateMode::AlignCorners:
    // The reference divides by scale * in - 1, not by the integer output
    // length less one (they differ when scales do not divide evenly).
    return outWidth == 1 ? 0.0 : xd * (in - 1) / (outWidth - 1);
  case CoordinateMode::Asymmetric:
    return xd / a.scale;
  case CoordinateMode::TfCropAndResize: {
    double span = a.roiEnd - a.roiStart;
    double v = outWidth == 1 ? span * (in - 1) / 2
                             : xd * span * (in - 1) / (outWidth - 1);
    v += a.roiStart * (in - 1);
    if (v < 0 || v > in - 1)
      return std::nullopt;
    return v;
  }
  case CoordinateMode::PytorchHalfPixel:
    return outWidth == 1 ? -0.5 : (xd + 0.5) / a.scale - 0.5;
  case CoordinateMode::HalfPixel:
    return (xd + 0.5) / a.scale - 0.5;
  case CoordinateMode::TfHalfPixelForNN:
    return (xd + 0.5) / a.scale;
  case CoordinateMode::HalfPixelSymmetric: {
    // The input's centre maps to the integer output's centre: the two
    // differ from half_pixel when scale * in is not an integer.
    double adjustment = double(a.out) / outWidth;
    return in / 2 * (1 - adjustment) + (xd + 0.5) / a.scale - 0.5;
  }
  }
  return std::nullopt;
}
} // namespace

ResizeAxisMap resizeAxisMap(const ResizeAxis &a, const ResizeOptions &o) {
  ResizeAxisMap m;
  m.in = a.in;
  m.out = a.out;
  m.weights.assign(size_t(a.in * a.out), 0.0);
  m.outside.assign(size_t(a.out), false);
  if (a.in <= 0)
    return m;
  for (int64_t x = 0; x < a.out; ++x) {
    std::optional<double> src = sourceCoordinate(x, a, o);
    if (!src) {
      m.outside[x] = true;
      continue;
    }
    const double xo = *src;
    const double fl = std::floor(xo);
    const bool integral = xo == fl;
    // The left neighbour and the ratio in (0, 1]: an integral coordinate
    // counts as ratio 1 from the position below it.
    const int64_t left = integral ? int64_t(fl) - 1 : int64_t(fl);
    const double ratio = integral ? 1.0 : xo - fl;
    std::vector<double> c = coefficients(ratio, integral, a.scale, o);
    const int64_t n = int64_t(c.size());
    // The n nearest positions of the edge-padded input (padded by ceil(n/2)
    // on each side); past the padding the window stops at its end.
    const int64_t pad = (n + 1) / 2;
    int64_t start = left - n / 2 + 1;
    start = std::clamp(start, -pad, a.in + pad - n);
    if (o.excludeOutside) {
      double sum = 0;
      for (int64_t j = 0; j < n; ++j) {
        int64_t idx = start + j;
        if (idx < 0 || idx >= a.in)
          c[j] = 0;
        sum += c[j];
      }
      if (sum != 0)
        for (double &v : c)
          v /= sum;
    }
    for (int64_t j = 0; j < n; ++j) {
      int64_t idx = std::clamp<int64_t>(start + j, 0, a.in - 1);
      m.weights[x * a.in + idx] += c[j];
    }
  }
  return m;
}

bool ResizeAxisMap::isIdentity() const {
  if (in != out || anyOutside())
    return false;
  for (int64_t o = 0; o < out; ++o)
    for (int64_t i = 0; i < in; ++i)
      if (std::fabs(at(o, i) - (o == i ? 1.0 : 0.0)) > kIdentityTolerance)
        return false;
  return true;
}

bool ResizeAxisMap::anyOutside() const {
  return std::find(outside.begin(), outside.end(), true) != outside.end();
}

std::optional<std::vector<int64_t>> ResizeAxisMap::asIndices() const {
  std::vector<int64_t> idx(size_t(out), 0);
  for (int64_t o = 0; o < out; ++o) {
    if (outside[o])
      continue;
    int64_t found = -1;
    for (int64_t i = 0; i < in; ++i) {
      double w = at(o, i);
      if (w == 0)
        continue;
      if (w != 1 || found >= 0)
        return std::nullopt;
      found = i;
    }
    if (found < 0)
      return std::nullopt;
    idx[o] = found;
  }
  return idx;
}

} // namespace lpx::onnximport
