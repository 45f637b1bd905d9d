//===- GridSample.cpp - ONNX GridSample (2-D) -----------------------------===//
//
// Follows ONNX GridSample-16 (the PyTorch grid_sample it was defined from):
// the grid's (x, y) are unnormalized to input coordinates; bilinear and
// nearest apply the padding mode to that coordinate, bicubic to each of its
// 16 integer taps; taps outside the input read 0. Values are read as double,
// combined in double and rounded once on store. Attributes as Opcodes.def.
//
//===----------------------------------------------------------------------===//
#include "ElementTypes.h"
#include "Kernels.h"

#include <algorithm>
#include <cmath>

using namespace lpx::rt;
namespace isa = lpx::isa;

namespace {
double unnormalize(double g, int64_t size, bool align) {
  return align ? (g + 1) / 2 * double(size - 1)
               : ((g + 1) * double(size) - 1) / 2;
}

/// Mirrors `v` into [low/2, high/2] (bounds given doubled, as in PyTorch).
double reflect(double v, int64_t twiceLow, int64_t twiceHigh) {
  if (twiceLow == twiceHigh)
    return 0;
  const double lo = double(twiceLow) / 2, span = double(twiceHigh - twiceLow) / 2;
  v = std::fabs(v - lo);
  const double extra = std::fmod(v, span);
  const int64_t flips = int64_t(std::floor(v / span));
  return flips % 2 == 0 ? extra + lo : span - extra + lo;
}

/// The padding mode applied to a coordinate along an axis of `size`.
double padCoord(double v, int64_t size, pb::GridSamplePadding padding,
                bool align) {
  if (padding == pb::GRID_SAMPLE_BORDER)
    return std::clamp(v, 0.0, double(size - 1));
  if (padding == pb::GRID_SAMPLE_REFLECTION) {
    v = align ? reflect(v, 0, 2 * (size - 1)) : reflect(v, -1, 2 * size - 1);
    return std::clamp(v, 0.0, double(size - 1));
  }
  return v;
}

double cubic1(double x, double a) { return ((a + 2) * x - (a + 3)) * x * x + 1; }
double cubic2(double x, double a) {
  return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
}
} // namespace

llvm::Error lpx::rt::gridSample(const View &x, const View &grid,
                                const pb::GridSampleAttrs &attrs,
                                const OutView &out) {
  if (x.shape.size() != 4 || grid.shape.size() != 4 || out.shape.size() != 4 ||
      grid.shape[3] != 2 || grid.shape[0] != x.shape[0] ||
      out.shape[0] != x.shape[0] || out.shape[1] != x.shape[1] ||
      out.shape[2] != grid.shape[1] || out.shape[3] != grid.shape[2])
    return fail("grid_sample of " + shapeStr(x.shape) + " by " +
                shapeStr(grid.shape) + " cannot give " + shapeStr(out.shape));
  if (!isa::isFloat(x.dtype) || x.dtype != out.dtype ||
      grid.dtype != x.dtype)
    return fail("grid_sample needs X, grid and result of one floating-point "
                "type");
  const pb::GridSampleMode mode = attrs.mode();
  const pb::GridSamplePadding padding = attrs.padding();
  const bool align = attrs.align_corners();
  const int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
  const int64_t Ho = out.shape[2], Wo = out.shape[3];
  return dispatchType(x.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    if constexpr (!isFloatElem<Et>) {
      return fail("grid_sample needs a floating-point type");
    } else {
      auto at = [&](const View &v, int64_t i) {
        return double(Et::load(v.data + i * Et::bytes));
      };
      for (int64_t n = 0; n < N; ++n)
        for (int64_t h = 0; h < Ho; ++h)
          for (int64_t w = 0; w < Wo; ++w) {
            const int64_t g = ((n * Ho + h) * Wo + w) * 2;
            const double ix0 = unnormalize(at(grid, g), W, align);
            const double iy0 = unnormalize(at(grid, g + 1), H, align);
            for (int64_t c = 0; c < C; ++c) {
              const int64_t plane = (n * C + c) * H * W;
              // The value at integer tap (xi, yi); 0 outside the input.
              auto tap = [&](int64_t xi, int64_t yi) {
                if (xi < 0 || xi >= W || yi < 0 || yi >= H)
                  return 0.0;
                return at(x, plane + yi * W + xi);
              };
              double v = 0;
              if (mode == pb::GRID_SAMPLE_BICUBIC) { //: padding applies to every tap
                const double fx = std::floor(ix0), fy = std::floor(iy0);
                const double tx = ix0 - fx, ty = iy0 - fy, a = -0.75;
                const double cx[4] = {cubic2(tx + 1, a), cubic1(tx, a),
                                      cubic1(1 - tx, a), cubic2(2 - tx, a)};
                const double cy[4] = {cubic2(ty + 1, a), cubic1(ty, a),
                                      cubic1(1 - ty, a), cubic2(2 - ty, a)};
                for (int j = 0; j < 4; ++j)
                  for (int i = 0; i < 4; ++i) {
                    double px = padCoord(fx - 1 + i, W, padding, align);
                    double py = padCoord(fy - 1 + j, H, padding, align);
                    v += cx[i] * cy[j] * tap(int64_t(px), int64_t(py));
                  }
              } else {
                const double ix = padCoord(ix0, W, padding, align);
                const double iy = padCoord(iy0, H, padding, align);
                if (mode == pb::GRID_SAMPLE_NEAREST) {
                  v = tap(int64_t(std::nearbyint(ix)),
                          int64_t(std::nearbyint(iy)));
                } else {
                  const double fx = std::floor(ix), fy = std::floor(iy);
                  const double tx = ix - fx, ty = iy - fy;
                  const int64_t x0 = int64_t(fx), y0 = int64_t(fy);
                  v = tap(x0, y0) * (1 - tx) * (1 - ty) +
                      tap(x0 + 1, y0) * tx * (1 - ty) +
                      tap(x0, y0 + 1) * (1 - tx) * ty +
                      tap(x0 + 1, y0 + 1) * tx * ty;
                }
              }
              Et::store(out.data + (((n * C + c) * Ho + h) * Wo + w) * Et::bytes,
                        static_cast<typename Et::Compute>(v));
            }
          }
      return llvm::Error::success();
    }
  });
}
