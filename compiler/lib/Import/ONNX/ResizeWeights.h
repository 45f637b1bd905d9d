//===- ResizeWeights.h - Per-axis maps of ONNX Resize -----------*- C++ -*-===//
//
// ONNX Resize is separable: along each resized axis every output position is
// a fixed combination of input positions. resizeAxisMap computes that
// combination at compile time as an [out, in] matrix, following the ONNX
// reference implementation (onnx/backend/test/case/node/resize.py,
// interpolate_1d_with_x) exactly: the same coordinate formulas, the same
// choice of neighbours (edge-padded) and the same coefficients. The importer
// applies a nearest map as a Gather with constant indices and any other map
// as a MatMul with a constant weight matrix. No MLIR here, so the maps are
// unit-tested on their own.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_IMPORT_ONNX_RESIZEWEIGHTS_H
#define LPX_LIB_IMPORT_ONNX_RESIZEWEIGHTS_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lpx::onnximport {

enum class ResizeMode { Nearest, Linear, Cubic };

enum class CoordinateMode {
  HalfPixel,
  PytorchHalfPixel,
  AlignCorners,
  Asymmetric,
  TfHalfPixelForNN,
  TfCropAndResize,
  HalfPixelSymmetric, ///< Resize-19: half_pixel about the output's centre
};

enum class NearestMode { RoundPreferFloor, RoundPreferCeil, Floor, Ceil };

/// The attribute spellings; nullopt for an unknown name.
std::optional<ResizeMode> parseResizeMode(const std::string &s);
std::optional<CoordinateMode> parseCoordinateMode(const std::string &s);
std::optional<NearestMode> parseNearestMode(const std::string &s);

struct ResizeOptions {
  ResizeMode mode = ResizeMode::Nearest;
  CoordinateMode coordinates = CoordinateMode::HalfPixel;
  NearestMode nearest = NearestMode::RoundPreferFloor;
  double cubicCoeffA = -0.75;
  bool excludeOutside = false;
  /// Resize-18's antialias: linear and cubic downscaling widen the filter
  /// by 1 / scale (the reference's _linear/_cubic_coeffs_antialias).
  bool antialias = false;
};

/// One axis: input and output lengths, the scale (as given, or out / in when
/// sizes were given) and, for tf_crop_and_resize, the roi's start and end
/// along this axis (normalised coordinates).
struct ResizeAxis {
  int64_t in = 1, out = 1;
  double scale = 1.0;
  double roiStart = 0.0, roiEnd = 1.0;
};

/// Row-major [out, in] weights. A row of an output position whose source
/// coordinate falls outside the input (tf_crop_and_resize only) is all zero
/// and flagged in `outside`: that position takes extrapolation_value.
struct ResizeAxisMap {
  int64_t in = 0, out = 0;
  std::vector<double> weights;
  std::vector<bool> outside;

  double at(int64_t o, int64_t i) const { return weights[o * in + i]; }
  /// True when the map is the identity (no work along this axis).
  bool isIdentity() const;
  bool anyOutside() const;
  /// For a map whose rows each hold a single 1 (nearest): the input index of
  /// every output position (0 for outside positions); nullopt otherwise.
  std::optional<std::vector<int64_t>> asIndices() const;
};

ResizeAxisMap resizeAxisMap(const ResizeAxis &axis, const ResizeOptions &opts);

} // namespace lpx::onnximport

#endif
