//===- ConvImporters.cpp - Conv, pooling, (de)quantization ----------------===//
//
// Windowed ops over [N, C, spatial...]: auto_pad, ceil_mode and (for
// ConvTranspose) output_shape are resolved here into explicit begin / end
// pads and a static result shape.
// QuantizeLinear / DequantizeLinear decompose into cast, div/mul, round,
// add/sub and clip with per-axis operands reshaped to broadcast.
//
//===----------------------------------------------------------------------===//
#include "OpImporters.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace lpx::graph;

namespace lpx::onnximport {
namespace {

struct WindowAttrs {
  SmallVector<int64_t> kernel, strides, dilations, pads, outSpatial;
};

/// Attribute `name` as `count` integers, or `count` copies of `dflt` when it
/// is absent or empty; a list of another length is an error.
LogicalResult intListAttr(NodeContext &n, StringRef name, int64_t count,
                          int64_t dflt, SmallVector<int64_t> &dst) {
  auto v = n.intsAttr(name);
  if (!v || v->empty()) {
    dst.assign(count, dflt);
    return success();
  }
  if (int64_t(v->size()) != count)
    return n.fail(name + " has " + llvm::Twine(v->size()) +
                  " entries, expected " + llvm::Twine(count));
  dst.assign(v->begin(), v->end());
  return success();
}

/// Reads strides, dilations, pads and auto_pad for `kernel` over `inSp`.
FailureOr<WindowAttrs> resolveWindow(NodeContext &n, ArrayRef<int64_t> inSp,
                                     ArrayRef<int64_t> kernel, bool ceilMode) {
  const int64_t s = static_cast<int64_t>(inSp.size());
  WindowAttrs w;
  w.kernel.assign(kernel.begin(), kernel.end());
  if (failed(intListAttr(n, "strides", s, 1, w.strides)) ||
      failed(intListAttr(n, "dilations", s, 1, w.dilations)) ||
      failed(intListAttr(n, "pads", 2 * s, 0, w.pads)))
    return failure();
  for (int64_t d = 0; d < s; ++d)
    if (w.kernel[d] < 1 || w.strides[d] < 1 || w.dilations[d] < 1)
      return n.fail("kernel, strides and dilations must be positive");
  const onnx::AttributeProto *ap = n.attr("auto_pad");
  std::string autoPad = ap ? ap->s() : "NOTSET";
  if (autoPad == "VALID") {
    w.pads.assign(2 * s, 0);
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (int64_t d = 0; d < s; ++d) {
      int64_t out = (inSp[d] + w.strides[d] - 1) / w.strides[d];
      int64_t span = w.dilations[d] * (w.kernel[d] - 1) + 1;
      int64_t total = std::max<int64_t>(0, (out - 1) * w.strides[d] + span -
                                               inSp[d]);
      int64_t small = total / 2;
      w.pads[d] = autoPad == "SAME_UPPER" ? small : total - small;
      w.pads[s + d] = total - w.pads[d];
    }
  } else if (autoPad != "NOTSET" && !autoPad.empty()) {
    return n.fail("unknown auto_pad '" + autoPad + "'");
  }
  for (int64_t d = 0; d < s; ++d) {
    int64_t span = w.dilations[d] * (w.kernel[d] - 1) + 1;
    int64_t room = inSp[d] + w.pads[d] + w.pads[s + d] - span;
    if (room < 0)
      return n.fail("the window does not fit spatial dim " + llvm::Twine(d));
    int64_t out = room / w.strides[d] + 1;
    if (ceilMode && room % w.strides[d]) {
      // One more window, unless it would start in the end padding.
      if (out * w.strides[d] < inSp[d] + w.pads[d])
        ++out;
    }
    w.outSpatial.push_back(out);
  }
  return w;
}

} // namespace

FailureOr<Value> buildConv(NodeContext &n, Value x, Value wt, Value bias,
                           std::optional<double> padValue, Value *padded) {
  auto xt = n.typeOf(x), wtT = n.typeOf(wt);
  int64_t rank = xt.getRank();
  if (rank < 3 || wtT.getRank() != rank)
    return n.fail("input and weight need the same rank, 3 or more");
  ArrayRef<int64_t> kernel = wtT.getShape().drop_front(2);
  if (auto ks = n.intsAttr("kernel_shape"))
    if (!ks->empty() && ArrayRef<int64_t>(*ks) != kernel)
      return n.fail("kernel_shape differs from the weight's spatial dims");
  auto w = resolveWindow(n, xt.getShape().drop_front(2), kernel, false);
  if (failed(w))
    return failure();
  OpBuilder &b = n.builder();
  if (padValue && padded && *padded) {
    x = *padded; // made by an earlier call, with these pads
    w->pads.assign(w->pads.size(), 0);
  } else if (padValue &&
             llvm::any_of(w->pads, [](int64_t p) { return p != 0; })) {
    // The pads as a constant Pad of x (begin amounts of every dim, then
    // the end amounts), the window then without them.
    const int64_t s = rank - 2;
    SmallVector<int64_t> pads(2 * rank, 0);
    for (int64_t d = 0; d < s; ++d) {
      pads[2 + d] = w->pads[d];
      pads[rank + 2 + d] = w->pads[s + d];
    }
    auto padOp =
        n.create<PadOp>(x, PadModeAttr::get(n.ctx(), PadMode::Constant),
                        b.getDenseI64ArrayAttr(pads), b.getF64FloatAttr(*padValue));
    if (failed(padOp))
      return failure();
    x = *padOp;
    if (padded)
      *padded = x;
    w->pads.assign(2 * s, 0);
  }
  return n.create<ConvOp>(x, wt, bias, b.getDenseI64ArrayAttr(w->strides),
                          b.getDenseI64ArrayAttr(w->dilations),
                          b.getDenseI64ArrayAttr(w->pads),
                          b.getI64IntegerAttr(n.intAttr("group", 1)));
}

namespace {

LogicalResult importConv(NodeContext &n) {
  auto x = n.input(0), wt = n.input(1);
  if (failed(x) || failed(wt))
    return failure();
  Type elt = n.typeOf(*x).getElementType();
  if (!llvm::isa<FloatType>(elt))
    return n.fail("only floating-point Conv is supported");
  if (n.typeOf(*wt).getElementType() != elt)
    return n.fail("input and weight element types differ");
  FailureOr<Value> bias = n.optionalInput(2);
  if (failed(bias))
    return failure();
  return n.setOutput(0, buildConv(n, *x, *wt, *bias));
}

/// Python-style floor division (ONNX's padding formulas are written with //).
int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/// ConvTranspose is its own MXM instruction rather than a Conv over a
/// zero-stuffed input with a flipped kernel: the stuffed Conv would spend
/// prod(strides) times the MACs multiplying inserted zeros, and the weight
/// (a graph input in general) would need a flip and a transpose on the chip
/// first. The instruction streams input vectors through W^T tiles and adds
/// the products into the overlapping result windows (col2im), which is the
/// dense MAC count. auto_pad and output_shape are resolved here into pads and
/// output_padding, with ONNX's formulas.
LogicalResult importConvTranspose(NodeContext &n) {
  auto x = n.input(0), wt = n.input(1);
  if (failed(x) || failed(wt))
    return failure();
  auto xt = n.typeOf(*x), wtT = n.typeOf(*wt);
  Type elt = xt.getElementType();
  if (!llvm::isa<FloatType>(elt))
    return n.fail("only floating-point ConvTranspose is supported");
  if (wtT.getElementType() != elt)
    return n.fail("input and weight element types differ");
  int64_t rank = xt.getRank(), s = rank - 2;
  if (rank < 3 || wtT.getRank() != rank)
    return n.fail("input and weight need the same rank, 3 or more");
  int64_t group = n.intAttr("group", 1);
  if (group < 1 || xt.getDimSize(1) != wtT.getDimSize(0) ||
      wtT.getDimSize(0) % group)
    return n.fail("channels " + shapeString(xt.getShape()) + " and weight " +
                  shapeString(wtT.getShape()) + " do not match group " +
                  llvm::Twine(group) + " (the weight is [C, M/group, kernel...])");
  ArrayRef<int64_t> kernel = wtT.getShape().drop_front(2);
  ArrayRef<int64_t> inSp = xt.getShape().drop_front(2);
  if (auto ks = n.intsAttr("kernel_shape"))
    if (!ks->empty() && ArrayRef<int64_t>(*ks) != kernel)
      return n.fail("kernel_shape differs from the weight's spatial dims");
  SmallVector<int64_t> strides, dilations, pads, outPad;
  if (failed(intListAttr(n, "strides", s, 1, strides)) ||
      failed(intListAttr(n, "dilations", s, 1, dilations)) ||
      failed(intListAttr(n, "pads", 2 * s, 0, pads)) ||
      failed(intListAttr(n, "output_padding", s, 0, outPad)))
    return failure();
  for (int64_t d = 0; d < s; ++d) {
    if (strides[d] < 1 || dilations[d] < 1)
      return n.fail("strides and dilations must be positive");
    if (outPad[d] < 0)
      return n.fail("output_padding must not be negative");
  }
  const onnx::AttributeProto *ap = n.attr("auto_pad");
  std::string autoPad = ap ? ap->s() : "NOTSET";
  if (autoPad.empty())
    autoPad = "NOTSET";
  if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER")
    return n.fail("unknown auto_pad '" + autoPad + "'");
  // Extent of every tap's reach plus output_padding, before pads trim it.
  SmallVector<int64_t> full;
  for (int64_t d = 0; d < s; ++d)
    full.push_back(strides[d] * (inSp[d] - 1) +
                   dilations[d] * (kernel[d] - 1) + 1 + outPad[d]);
  // A wanted result extent per dim (from output_shape or SAME) gives the
  // total padding, split as the spec says; a negative total (a result larger
  // than the taps reach) extends the result past them.
  std::optional<SmallVector<int64_t>> target;
  if (auto os = n.intsAttr("output_shape"); os && !os->empty()) {
    if (int64_t(os->size()) != s && int64_t(os->size()) != rank)
      return n.fail("output_shape has " + llvm::Twine(os->size()) +
                    " entries, expected " + llvm::Twine(s));
    target = SmallVector<int64_t>(os->end() - s, os->end());
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    target = SmallVector<int64_t>();
    for (int64_t d = 0; d < s; ++d) {
      // The spec (and the reference) give in * stride here; ONNX's shape
      // inference gives in * stride + output_padding and clamps a negative
      // total padding to 0. Refuse where the two disagree rather than pick.
      if (outPad[d] != 0 || dilations[d] * (kernel[d] - 1) + 1 < strides[d])
        return n.fail("auto_pad " + autoPad +
                      " with output_padding or a kernel span shorter than the "
                      "stride is not supported (ONNX's spec and its shape "
                      "inference disagree on the result shape)");
      target->push_back(inSp[d] * strides[d]);
    }
  }
  if (target) {
    for (int64_t d = 0; d < s; ++d) {
      int64_t total = full[d] - (*target)[d];
      int64_t half = floorDiv(total, 2);
      pads[d] = autoPad == "SAME_UPPER" ? half : total - half;
      pads[s + d] = total - pads[d];
    }
  } else if (autoPad == "VALID") {
    pads.assign(2 * s, 0);
  }
  FailureOr<Value> bias = n.optionalInput(2);
  if (failed(bias))
    return failure();
  OpBuilder &b = n.builder();
  return n.setOutput(
      0, n.create<ConvTransposeOp>(*x, *wt, *bias, b.getDenseI64ArrayAttr(strides),
                                   b.getDenseI64ArrayAttr(dilations),
                                   b.getDenseI64ArrayAttr(pads),
                                   b.getDenseI64ArrayAttr(outPad),
                                   b.getI64IntegerAttr(group)));
}

LogicalResult importPool(NodeContext &n) {
  bool isMax = n.node.op_type() == "MaxPool";
  if (isMax && n.node.output_size() > 1 && !n.node.output(1).empty())
    return n.fail("the Indices output of MaxPool is not supported");
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto xt = n.typeOf(*x);
  Type elt = xt.getElementType();
  if (xt.getRank() < 3)
    return n.fail("input must have rank 3 or more");
  if (!isMax && !llvm::isa<FloatType>(elt))
    return n.fail("AveragePool needs a floating-point input");
  if (isMax && n.intAttr("storage_order", 0) != 0)
    return n.fail("storage_order 1 is not supported");
  auto ks = n.intsAttr("kernel_shape");
  if (!ks || int64_t(ks->size()) != xt.getRank() - 2)
    return n.fail("kernel_shape must have one entry per spatial dim");
  auto w = resolveWindow(n, xt.getShape().drop_front(2), *ks,
                         n.intAttr("ceil_mode", 0) != 0);
  if (failed(w))
    return failure();
  SmallVector<int64_t> shape{xt.getDimSize(0), xt.getDimSize(1)};
  llvm::append_range(shape, w->outSpatial);
  OpBuilder &b = n.builder();
  n.setOutput(0, n.create<PoolOp>(
                     n.tensorOf(shape, elt), *x,
                     PoolKindAttr::get(n.ctx(),
                                       isMax ? PoolKind::Max : PoolKind::Avg),
                     b.getDenseI64ArrayAttr(w->kernel),
                     b.getDenseI64ArrayAttr(w->strides),
                     b.getDenseI64ArrayAttr(w->dilations),
                     b.getDenseI64ArrayAttr(w->pads),
                     b.getBoolAttr(!isMax &&
                                   n.intAttr("count_include_pad", 0) != 0)));
  return success();
}
/// `v` cast to f32 and, when it is 1-D per-axis data, reshaped so that it
/// broadcasts along `axis` of a rank-`rank` tensor.
Value asF32Along(NodeContext &n, Value v, int64_t axis, int64_t rank) {
  auto t = n.typeOf(v);
  Type f32 = n.builder().getF32Type();
  if (t.getElementType() != f32)
    v = n.create<CastOp>(n.tensorOf(t.getShape(), f32), v);
  if (t.getRank() == 1 && rank > 1) {
    SmallVector<int64_t> shape(rank, 1);
    shape[axis] = t.getDimSize(0);
    v = n.reshape(v, shape);
  }
  return v;
}

/// Scale and zero point of a (De)QuantizeLinear node: checks their shapes
/// and returns the normalised axis.
FailureOr<int64_t> quantAxis(NodeContext &n, RankedTensorType xt,
                             RankedTensorType st) {
  int64_t rank = xt.getRank();
  if (st.getRank() == 0 || (st.getRank() == 1 && st.getDimSize(0) == 1 &&
                            rank == 0))
    return int64_t(0);
  if (st.getRank() != 1)
    return n.fail("blocked quantization (scale of rank > 1) is not supported");
  auto axis = n.axis(n.intAttr("axis", 1), rank, "axis");
  if (failed(axis))
    return failure();
  if (st.getDimSize(0) != 1 && st.getDimSize(0) != xt.getDimSize(*axis))
    return n.fail("scale has " + llvm::Twine(st.getDimSize(0)) +
                  " entries for an axis of " +
                  llvm::Twine(xt.getDimSize(*axis)));
  return axis;
}

/// A DequantizeLinear of constants (a weight, a bias) dequantised now,
/// whatever its size, as the ONNX reference computes it: per element
/// f32(x - zero_point) * scale. False when an input is not a constant.
FailureOr<bool> dequantizeConstant(NodeContext &n) {
  using onnx::TensorProto;
  const TensorProto *x = n.constTensor(0);
  const TensorProto *s = n.constTensor(1);
  if (!x || !s || (n.hasInput(2) && !n.constTensor(2)) ||
      s->data_type() != TensorProto::FLOAT ||
      !llvm::is_contained({TensorProto::INT8, TensorProto::UINT8,
                           TensorProto::INT16, TensorProto::UINT16,
                           TensorProto::INT32},
                          TensorProto::DataType(x->data_type())))
    return false;
  const int64_t rank = x->dims_size();
  SmallVector<int64_t> shape(x->dims().begin(), x->dims().end());
  auto xs = n.constInts(0);
  auto ss = n.constDoubles(1);
  if (failed(xs) || failed(ss))
    return failure();
  std::vector<int64_t> zs{0};
  if (n.hasInput(2)) {
    auto z = n.constInts(2);
    if (failed(z))
      return failure();
    zs = std::move(*z);
  }
  int64_t axis = 0, dim = 1, inner = 1;
  if (ss->size() != 1) {
    auto a = n.axis(n.intAttr("axis", 1), rank, "axis");
    if (failed(a))
      return failure();
    axis = *a;
    dim = shape[axis];
    for (int64_t d = axis + 1; d < rank; ++d)
      inner *= shape[d];
    if (int64_t(ss->size()) != dim || (zs.size() != 1 && zs.size() != ss->size()))
      return n.fail("scale has " + llvm::Twine(ss->size()) +
                    " entries for an axis of " + llvm::Twine(dim));
  }
  std::vector<double> out(xs->size());
  for (size_t i = 0; i < xs->size(); ++i) {
    size_t c = ss->size() == 1 ? 0 : size_t((int64_t(i) / inner) % dim);
    int64_t z = zs[zs.size() == 1 ? 0 : c];
    out[i] = double(float((*xs)[i] - z) * float((*ss)[c]));
  }
  n.setOutput(0, n.floatConstant(shape, n.builder().getF32Type(), out));
  return true;
}

/// y = (x - zero_point) * scale, in f32.
LogicalResult importDequantizeLinear(NodeContext &n) {
  FailureOr<bool> folded = dequantizeConstant(n);
  if (failed(folded))
    return failure();
  if (*folded)
    return success();
  auto x = n.input(0), scale = n.input(1);
  if (failed(x) || failed(scale))
    return failure();
  auto xt = n.typeOf(*x), st = n.typeOf(*scale);
  if (!st.getElementType().isF32())
    return n.fail("only f32 scales are supported");
  auto axis = quantAxis(n, xt, st);
  if (failed(axis))
    return failure();
  int64_t rank = xt.getRank();
  Type f32 = n.builder().getF32Type();
  auto ft = n.tensorOf(xt.getShape(), f32);
  Value v = n.create<CastOp>(ft, *x);
  if (n.hasInput(2)) {
    auto zp = n.input(2);
    if (failed(zp))
      return failure();
    v = n.create<SubOp>(ft, v, asF32Along(n, *zp, *axis, rank));
  }
  n.setOutput(0, n.create<MulOp>(ft, v, asF32Along(n, *scale, *axis, rank)));
  return success();
}

/// y = saturate(round_half_even(x / scale) + zero_point), as the zero
/// point's type (uint8 without one).
LogicalResult importQuantizeLinear(NodeContext &n) {
  auto x = n.input(0), scale = n.input(1);
  if (failed(x) || failed(scale))
    return failure();
  auto xt = n.typeOf(*x), st = n.typeOf(*scale);
  if (!xt.getElementType().isF32() || !st.getElementType().isF32())
    return n.fail("only f32 input and scale are supported");
  auto axis = quantAxis(n, xt, st);
  if (failed(axis))
    return failure();
  int64_t rank = xt.getRank();
  Type out = IntegerType::get(n.ctx(), 8, IntegerType::Unsigned);
  Value zp;
  if (n.hasInput(2)) {
    auto z = n.input(2);
    if (failed(z))
      return failure();
    zp = *z;
    out = n.typeOf(zp).getElementType();
  }
  auto it = llvm::dyn_cast<IntegerType>(out);
  if (!it || it.getWidth() != 8)
    return n.fail("only int8 and uint8 outputs are supported");
  double lo = it.isUnsigned() ? 0 : -128, hi = it.isUnsigned() ? 255 : 127;
  auto ft = n.tensorOf(xt.getShape(), xt.getElementType());
  Value v = n.create<DivOp>(ft, *x, asF32Along(n, *scale, *axis, rank));
  v = n.create<UnaryFnOp>(ft, v, n.builder().getStringAttr("round"),
                          n.builder().getDenseF64ArrayAttr({}));
  if (zp)
    v = n.create<AddOp>(ft, v, asF32Along(n, zp, *axis, rank));
  v = n.create<UnaryFnOp>(ft, v, n.builder().getStringAttr("clip"),
                          n.builder().getDenseF64ArrayAttr({lo, hi}));
  n.setOutput(0, n.create<CastOp>(n.tensorOf(xt.getShape(), out), v));
  return success();
}
} // namespace

void addConvImporters(llvm::StringMap<OpImporter> &table) {
  table["Conv"] = importConv;
  table["ConvTranspose"] = importConvTranspose;
  table["MaxPool"] = importPool;
  table["AveragePool"] = importPool;
  table["QuantizeLinear"] = importQuantizeLinear;
  table["DequantizeLinear"] = importDequantizeLinear;
}

} // namespace lpx::onnximport
