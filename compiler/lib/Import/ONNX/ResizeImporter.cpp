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

Value transposeLast(NodeContext &n, Value v, int64_t axis) {
  auto t = n.typeOf(v);
  int64_t last = t.getRank() - 1;
  SmallVector<int64_t> perm, shape;
  for (int64_t d = 0; d <= last; ++d)
    perm.push_back(d == axis ? last : d == last ? axis : d);
  for (int64_t p : perm)
    shape.push_back(t.getDimSize(p));
  return n.create<TransposeOp>(n.tensorOf(shape, t.getElementType()), v,
                               n.builder().getDenseI64ArrayAttr(perm));
}

/// Applies `m` along `axis` of `v`: a Gather when it only picks elements, a
/// MatMul by its transpose otherwise.
FailureOr<Value> applyAxisMap(NodeContext &n, Value v, int64_t axis,
                              const ResizeAxisMap &m) {
  auto t = n.typeOf(v);
  Type elt = t.getElementType();
  SmallVector<int64_t> shape(t.getShape());
  shape[axis] = m.out;
  if (auto idx = m.asIndices()) {
    auto it = n.tensorOf({m.out}, n.builder().getI64Type());
    Value indices = n.create<ConstantOp>(
        DenseElementsAttr::get(it, ArrayRef<int64_t>(*idx)));
    return Value(n.create<GatherOp>(n.tensorOf(shape, elt), v, indices,
                                    n.builder().getI64IntegerAttr(axis)));
  }
  if (!llvm::isa<FloatType>(elt))
    return n.fail("linear and cubic modes need a floating-point input");
  // [in, out]: the map's transpose, so the input streams as the lhs.
  std::vector<double> wt(size_t(m.in * m.out));
  for (int64_t o = 0; o < m.out; ++o)
    for (int64_t i = 0; i < m.in; ++i)
      wt[i * m.out + o] = m.at(o, i);
  Value w = n.floatConstant({m.in, m.out}, elt, wt);
  int64_t last = t.getRank() - 1;
  if (axis != last)
    v = transposeLast(n, v, axis);
  SmallVector<int64_t> mmShape(n.typeOf(v).getShape());
  mmShape.back() = m.out;
  v = n.create<MatMulOp>(n.tensorOf(mmShape, elt), v, w);
  if (axis != last)
    v = transposeLast(n, v, axis);
  return v;
}

LogicalResult importResize(NodeContext &n) {
  const bool isUpsample = n.node.op_type() == "Upsample";
  const bool legacy = isUpsample || n.opset() < 11; // Upsample, Resize-10
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto xt = n.typeOf(*x);
  const int64_t rank = xt.getRank();
  Type elt = xt.getElementType();

  ResizeOptions o;
  std::string mode = strAttr(n, "mode", "nearest");
  auto rm = parseResizeMode(mode);
  if (!rm || (legacy && *rm == ResizeMode::Cubic))
    return n.fail("unknown mode '" + mode + "'");
  o.mode = *rm;
  double extrapolation = 0;
  std::vector<double> scales, roi;
  std::vector<int64_t> sizes;
  if (legacy) {
    if (isUpsample && n.opset() < 7)
      return n.fail("Upsample before opset 7 (height_scale / width_scale) is "
                    "not supported");
    o.coordinates = CoordinateMode::Asymmetric;
    if (isUpsample && n.opset() < 9) {
      auto s = n.attr("scales");
      if (!s)
        return n.fail("the scales attribute is required");
      scales.assign(s->floats().begin(), s->floats().end());
    } else {
      auto s = n.constDoubles(1);
      if (failed(s))
        return failure();
      scales = std::move(*s);
    }
  } else {
    if (n.intAttr("antialias", 0) != 0)
      return n.fail("antialias is not supported");
    if (n.attr("axes"))
      return n.fail("the axes attribute is not supported");
    std::string policy = strAttr(n, "keep_aspect_ratio_policy", "stretch");
    if (policy != "stretch")
      return n.fail("keep_aspect_ratio_policy '" + policy +
                    "' is not supported");
    std::string ctm =
        strAttr(n, "coordinate_transformation_mode", "half_pixel");
    auto cm = parseCoordinateMode(ctm);
    if (!cm)
      return n.fail("unknown coordinate_transformation_mode '" + ctm + "'");
    o.coordinates = *cm;
    std::string nm = strAttr(n, "nearest_mode", "round_prefer_floor");
    auto nmode = parseNearestMode(nm);
    if (!nmode)
      return n.fail("unknown nearest_mode '" + nm + "'");
    o.nearest = *nmode;
    o.cubicCoeffA = n.floatAttr("cubic_coeff_a", -0.75f);
    o.excludeOutside = n.intAttr("exclude_outside", 0) != 0;
    extrapolation = n.floatAttr("extrapolation_value", 0.0f);
    auto s = n.constDoubles(2);
    if (failed(s))
      return failure();
    scales = std::move(*s);
    if (n.hasInput(3)) {
      auto z = n.constInts(3);
      if (failed(z))
        return failure();
      sizes = std::move(*z);
    }
    if (o.coordinates == CoordinateMode::TfCropAndResize) {
      auto r = n.constDoubles(1);
      if (failed(r))
        return failure();
      roi = std::move(*r);
      if (int64_t(roi.size()) != 2 * rank)
        return n.fail("tf_crop_and_resize needs a roi of " +
                      llvm::Twine(2 * rank) + " values, has " +
                      llvm::Twine(roi.size()));
    }
  }
  if (!sizes.empty() && !scales.empty())
    return n.fail("only one of scales and sizes may be given");
  if (sizes.empty() && scales.empty())
    return n.fail("scales or sizes must be given");
  if (!sizes.empty() && int64_t(sizes.size()) != rank)
    return n.fail("sizes has " + llvm::Twine(sizes.size()) +
                  " entries for rank " + llvm::Twine(rank));
  if (!scales.empty() && int64_t(scales.size()) != rank)
    return n.fail("scales has " + llvm::Twine(scales.size()) +
                  " entries for rank " + llvm::Twine(rank));

  // One map per axis; the output shape follows the reference:
  // floor(scale * in) from scales, or sizes with scale = out / in.
  std::vector<ResizeAxisMap> maps;
  SmallVector<int64_t> outShape;
  for (int64_t d = 0; d < rank; ++d) {
    ResizeAxis a;
    a.in = xt.getDimSize(d);
    if (!sizes.empty()) {
      a.out = sizes[d];
      if (a.out < 1 || a.in < 1)
        return n.fail("sizes must be positive (dim " + llvm::Twine(d) + ")");
      a.scale = double(a.out) / double(a.in);
    } else {
      a.scale = scales[d];
      if (!(a.scale > 0) || !std::isfinite(a.scale))
        return n.fail("scales must be positive (dim " + llvm::Twine(d) + ")");
      a.out = int64_t(std::floor(a.scale * double(a.in)));
      if (a.out < 1)
        return n.fail("scale " + std::to_string(a.scale) + " leaves dim " +
                      llvm::Twine(d) + " empty");
    }
    if (!roi.empty()) {
      a.roiStart = roi[d];
      a.roiEnd = roi[rank + d];
    }
    ResizeOptions od = o;
    if (legacy && o.mode == ResizeMode::Nearest)
      od.nearest = a.scale < 1 ? NearestMode::Ceil : NearestMode::Floor;
    maps.push_back(resizeAxisMap(a, od));
    outShape.push_back(a.out);
  }

  Value v = *x;
  bool anyOutside = false;
  // Last axis first: it needs no transpose.
  for (int64_t d = rank - 1; d >= 0; --d) {
    anyOutside |= maps[d].anyOutside();
    if (maps[d].isIdentity())
      continue;
    auto r = applyAxisMap(n, v, d, maps[d]);
    if (failed(r))
      return failure();
    v = *r;
  }
  if (anyOutside) {
    // Positions outside the input along any axis take extrapolation_value.
    SmallVector<int64_t> maskShape;
    for (int64_t d = 0; d < rank; ++d)
      maskShape.push_back(maps[d].anyOutside() ? outShape[d] : 1);
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
    v = n.create<WhereOp>(n.tensorOf(outShape, elt), m, e, v);
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
