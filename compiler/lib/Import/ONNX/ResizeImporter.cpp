//===- ResizeImporter.cpp - Resize and Upsample ---------------------------===//
//
// Resize is separable, so it needs no instruction of its own: for every axis
// whose map is not the identity, the per-axis map (ResizeWeights.h) is
// computed at compile time and applied with ops the chip has:
//
//  - nearest: a Gather with constant indices along that axis (SXM);
//  - linear / cubic: a MatMul by the constant [in, out] interpolation
//    matrix, which the matrix unit holds as weights while the input streams
//    through it; an axis other than the last is transposed last and back;
//  - tf_crop_and_resize: output positions whose source lies outside the
//    input take extrapolation_value through one Where with a constant mask.
//
// Scales, sizes and (for tf_crop_and_resize) roi must be compile-time
// constants. Upsample (opsets 7 and 9) and Resize-10 take scales only and use
// asymmetric coordinates; their nearest mode is floor when upsampling and
// ceil when downsampling, as onnxruntime implements them.
//
//===----------------------------------------------------------------------===//
#include "OpImporters.h"
#include "ResizeWeights.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace lpx::graph;

namespace lpx::onnximport {
namespace {

std::string strAttr(NodeContext &n, StringRef name, StringRef dflt) {
  const onnx::AttributeProto *a = n.attr(name);
  return a ? a->s() : dflt.str();
}

/// `v` with `axis` and the last dim swapped (its own inverse).
FailureOr<Value> transposeLast(NodeContext &n, Value v, int64_t axis) {
  int64_t last = n.typeOf(v).getRank() - 1;
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d <= last; ++d)
    perm.push_back(d == axis ? last : d == last ? axis : d);
  return n.create<TransposeOp>(v, perm);
}

/// Applies `m` along `axis` of `v`: a Gather when it only picks elements, a
/// MatMul by its transpose otherwise.
FailureOr<Value> applyAxisMap(NodeContext &n, Value v, int64_t axis,
                              const ResizeAxisMap &m) {
  Type elt = n.typeOf(v).getElementType();
  if (auto idx = m.asIndices()) {
    auto it = n.tensorOf({m.out}, n.builder().getI64Type());
    Value indices = n.create<ConstantOp>(
        DenseElementsAttr::get(it, ArrayRef<int64_t>(*idx)));
    return n.create<GatherOp>(v, indices, axis);
  }
  if (!llvm::isa<FloatType>(elt))
    return n.fail("linear and cubic modes need a floating-point input");
  // [in, out]: the map's transpose, so the input streams as the lhs.
  std::vector<double> wt(size_t(m.in * m.out));
  for (int64_t o = 0; o < m.out; ++o)
    for (int64_t i = 0; i < m.in; ++i)
      wt[i * m.out + o] = m.at(o, i);
  Value w = n.floatConstant({m.in, m.out}, elt, wt);
  bool last = axis == n.typeOf(v).getRank() - 1;
  FailureOr<Value> r = last ? FailureOr<Value>(v) : transposeLast(n, v, axis);
  if (succeeded(r))
    r = n.create<MatMulOp>(*r, w);
  if (succeeded(r) && !last)
    r = transposeLast(n, *r, axis);
  return r;
}

/// What a Resize or Upsample node asks for, read from its attributes and
/// constant operands.
struct ResizeRequest {
  ResizeOptions o;
  double extrapolation = 0;
  std::vector<double> scales, roi;
  std::vector<int64_t> sizes;
};

/// Upsample (opsets 7, 9) and Resize-10: scales only, asymmetric
/// coordinates.
LogicalResult readLegacyRequest(NodeContext &n, bool isUpsample,
                                ResizeRequest &r) {
  if (isUpsample && n.opset() < 7)
    return n.fail("Upsample before opset 7 (height_scale / width_scale) is "
                  "not supported");
  r.o.coordinates = CoordinateMode::Asymmetric;
  if (isUpsample && n.opset() < 9) {
    auto s = n.attr("scales");
    if (!s)
      return n.fail("the scales attribute is required");
    r.scales.assign(s->floats().begin(), s->floats().end());
    return success();
  }
  auto s = n.constDoubles(1);
  if (failed(s))
    return failure();
  r.scales = std::move(*s);
  return success();
}

/// Resize from opset 11: coordinate and nearest modes, scales or sizes, roi.
LogicalResult readRequest(NodeContext &n, int64_t rank, ResizeRequest &r) {
  // Only an ai.lpx Resize carries it (the opset-18 rewrite keeps it there).
  r.o.antialias = n.intAttr("antialias", 0) != 0;
  if (n.attr("axes"))
    return n.fail("the axes attribute is not supported");
  std::string policy = strAttr(n, "keep_aspect_ratio_policy", "stretch");
  if (policy != "stretch")
    return n.fail("keep_aspect_ratio_policy '" + policy +
                  "' is not supported");
  std::string ctm = strAttr(n, "coordinate_transformation_mode", "half_pixel");
  auto cm = parseCoordinateMode(ctm);
  if (!cm)
    return n.fail("unknown coordinate_transformation_mode '" + ctm + "'");
  r.o.coordinates = *cm;
  std::string nm = strAttr(n, "nearest_mode", "round_prefer_floor");
  auto nmode = parseNearestMode(nm);
  if (!nmode)
    return n.fail("unknown nearest_mode '" + nm + "'");
  r.o.nearest = *nmode;
  r.o.cubicCoeffA = n.floatAttr("cubic_coeff_a", -0.75f);
  r.o.excludeOutside = n.intAttr("exclude_outside", 0) != 0;
  r.extrapolation = n.floatAttr("extrapolation_value", 0.0f);
  auto s = n.constDoubles(2);
  if (failed(s))
    return failure();
  r.scales = std::move(*s);
  if (n.hasInput(3)) {
    auto z = n.constInts(3);
    if (failed(z))
      return failure();
    r.sizes = std::move(*z);
  }
  if (r.o.coordinates == CoordinateMode::TfCropAndResize) {
    auto roi = n.constDoubles(1);
    if (failed(roi))
      return failure();
    r.roi = std::move(*roi);
    if (int64_t(r.roi.size()) != 2 * rank)
      return n.fail("tf_crop_and_resize needs a roi of " +
                    llvm::Twine(2 * rank) + " values, has " +
                    llvm::Twine(r.roi.size()));
  }
  return success();
}

/// One map per axis; the output shape follows the reference:
/// floor(scale * in) from scales, or sizes with scale = out / in.
FailureOr<std::vector<ResizeAxisMap>>
axisMaps(NodeContext &n, ArrayRef<int64_t> in, const ResizeRequest &r,
         bool legacy) {
  int64_t rank = in.size();
  if (!r.sizes.empty() && !r.scales.empty())
    return n.fail("only one of scales and sizes may be given");
  if (r.sizes.empty() && r.scales.empty())
    return n.fail("scales or sizes must be given");
  if (!r.sizes.empty() && int64_t(r.sizes.size()) != rank)
    return n.fail("sizes has " + llvm::Twine(r.sizes.size()) +
                  " entries for rank " + llvm::Twine(rank));
  if (!r.scales.empty() && int64_t(r.scales.size()) != rank)
    return n.fail("scales has " + llvm::Twine(r.scales.size()) +
                  " entries for rank " + llvm::Twine(rank));
  std::vector<ResizeAxisMap> maps;
  for (int64_t d = 0; d < rank; ++d) {
    ResizeAxis a;
    a.in = in[d];
    if (!r.sizes.empty()) {
      a.out = r.sizes[d];
      if (a.out < 1 || a.in < 1)
        return n.fail("sizes must be positive (dim " + llvm::Twine(d) + ")");
      a.scale = double(a.out) / double(a.in);
    } else {
      a.scale = r.scales[d];
      if (!(a.scale > 0) || !std::isfinite(a.scale))
        return n.fail("scales must be positive (dim " + llvm::Twine(d) + ")");
      a.out = int64_t(std::floor(a.scale * double(a.in)));
      if (a.out < 1)
        return n.fail("scale " + std::to_string(a.scale) + " leaves dim " +
                      llvm::Twine(d) + " empty");
    }
    if (!r.roi.empty()) {
      a.roiStart = r.roi[d];
      a.roiEnd = r.roi[rank + d];
    }
    ResizeOptions od = r.o;
    if (legacy && r.o.mode == ResizeMode::Nearest)
      od.nearest = a.scale < 1 ? NearestMode::Ceil : NearestMode::Floor;
    maps.push_back(resizeAxisMap(a, od));
  }
  return maps;
}

/// `v` (the resized tensor) with the positions whose source lies outside
/// the input along any axis set to `extrapolation`: one Where with a
/// constant mask.
FailureOr<Value> maskOutside(NodeContext &n, Value v,
                             ArrayRef<ResizeAxisMap> maps,
                             double extrapolation) {
  int64_t rank = maps.size();
  Type elt = n.typeOf(v).getElementType();
  SmallVector<int64_t> maskShape;
  for (int64_t d = 0; d < rank; ++d)
    maskShape.push_back(maps[d].anyOutside() ? maps[d].out : 1);
  int64_t count = 1;
  for (int64_t e : maskShape)
    count *= e;
  SmallVector<bool> mask(size_t(count), false);
  SmallVector<int64_t> idx(rank, 0);
  for (int64_t flat = 0; flat < count; ++flat) {
    int64_t rem = flat;
    for (int64_t d = rank - 1; d >= 0; --d) {
      idx[d] = rem % maskShape[d];
      rem /= maskShape[d];
    }
    for (int64_t d = 0; d < rank && !mask[flat]; ++d)
      mask[flat] = maps[d].anyOutside() && maps[d].outside[idx[d]];
  }
  auto mt = n.tensorOf(maskShape, n.builder().getI1Type());
  Value m = n.create<ConstantOp>(DenseElementsAttr::get(mt, ArrayRef<bool>(mask)));
  SmallVector<int64_t> ones(rank, 1);
  Value e;
  if (llvm::isa<FloatType>(elt)) {
    e = n.floatConstant(ones, elt, {extrapolation});
  } else {
    auto et = n.tensorOf(ones, elt);
    e = n.create<ConstantOp>(DenseElementsAttr::get(
        et, IntegerAttr::get(elt, int64_t(extrapolation))));
  }
  return n.create<WhereOp>(m, e, v);
}

LogicalResult importResize(NodeContext &n) {
  const bool isUpsample = n.node.op_type() == "Upsample";
  const bool legacy = isUpsample || n.opset() < 11; // Upsample, Resize-10
  auto x = n.input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> in = n.typeOf(*x).getShape();

  ResizeRequest req;
  std::string mode = strAttr(n, "mode", "nearest");
  auto rm = parseResizeMode(mode);
  if (!rm || (legacy && *rm == ResizeMode::Cubic))
    return n.fail("unknown mode '" + mode + "'");
  req.o.mode = *rm;
  if (failed(legacy ? readLegacyRequest(n, isUpsample, req)
                    : readRequest(n, in.size(), req)))
    return failure();
  auto maps = axisMaps(n, in, req, legacy);
  if (failed(maps))
    return failure();

  Value v = *x;
  bool anyOutside = false;
  // Last axis first: it needs no transpose.
  for (int64_t d = int64_t(in.size()) - 1; d >= 0; --d) {
    anyOutside |= (*maps)[d].anyOutside();
    if ((*maps)[d].isIdentity())
      continue;
    auto r = applyAxisMap(n, v, d, (*maps)[d]);
    if (failed(r))
      return failure();
    v = *r;
  }
  if (anyOutside) {
    auto masked = maskOutside(n, v, *maps, req.extrapolation);
    if (failed(masked))
      return failure();
    v = *masked;
  }
  if (v == *x)
    v = n.copy(v);
  n.setOutput(0, v);
  return success();
}

} // namespace

void addResizeImporters(llvm::StringMap<OpImporter> &table) {
  table["Resize"] = importResize;
  table["Upsample"] = importResize;
}

} // namespace lpx::onnximport
