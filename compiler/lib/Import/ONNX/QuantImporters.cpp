//===- QuantImporters.cpp - Quantized matmul / conv, dynamic quantization --===//
//
// MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv and
// DynamicQuantizeLinear, decomposed exactly into lpx_graph ops:
//
//   acc = matmul / conv (a - a_zero_point, b - b_zero_point)   (int32)
//   y   = saturate(round_half_even(f32(acc) * (a_scale * b_scale / y_scale))
//                  + y_zero_point)                              (QLinear*)
//
// Zero points are subtracted in int32, so uint8 and int8 operands with any
// zero point are exact, and the matrix unit accumulates in int32 (wrapping,
// as ONNX allows). Operands widened to int32 stream through the matrix unit
// at its 32-bit rate. When both operands are int8 with zero points absent
// or compile-time zeros, they stay int8 and the product runs in the chip's
// native int8 mode (i8 x i8 -> i32); so does an int8 A by a constant int8
// B with other compile-time zero points (A's per tensor, B's per tensor or
// per column), the zero points then applied by correction terms
// (correctedMatMul), and so does an int8 x by a constant int8 conv weight
// (QuantConv.cpp). Otherwise a constant operand (a weight) with a
// constant zero point is centred at compile time.
//
// The float requantization follows the ONNX reference (the combined scale
// first, then the product); the result is exact wherever |acc| < 2^24.
//
//===----------------------------------------------------------------------===//
#include "OpImporters.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace lpx::graph;

namespace lpx::onnximport {
namespace {

bool isQuant8(Type t) {
  auto it = llvm::dyn_cast<IntegerType>(t);
  return it && it.getWidth() == 8;
}

Type i32Of(NodeContext &n) { return n.builder().getI32Type(); }
Type f32Of(NodeContext &n) { return n.builder().getF32Type(); }

/// Input `i`'s type, without materialising a constant operand (a folded
/// weight must not also be kept as it was).
FailureOr<RankedTensorType> inputType(NodeContext &n, unsigned i) {
  if (const onnx::TensorProto *t = n.constTensor(i)) {
    auto elt = elementTypeOf(*n.ctx(), t->data_type());
    if (!elt) {
      (void)n.fail(llvm::toString(elt.takeError()));
      return failure();
    }
    return RankedTensorType::get(
        SmallVector<int64_t>(t->dims().begin(), t->dims().end()), *elt);
  }
  auto v = n.input(i);
  if (failed(v))
    return failure();
  return n.typeOf(*v);
}

/// Where a quantization parameter may vary: `axis` >= 0 allows one value
/// per index of that axis; `ndOne` >= 0 also allows the N-D form, of the
/// tensor's rank with 1 at `ndOne` (the reduction dim), that broadcasts.
struct ParamAxis {
  int64_t axis = -1;
  int64_t ndOne = -1;
};
constexpr ParamAxis kPerTensor{-1, -1};

/// The shape in which a quantization parameter (zero point or scale) of
/// shape `p` broadcasts against a tensor of shape `s`:
///  - one element: per tensor, `p` itself (a scalar if `p` has the larger
///    rank);
///  - 1-D with s[axis] elements: per row / column / channel, s[axis] at
///    `axis` and 1 elsewhere;
///  - the N-D form, which already broadcasts to `s` (e.g. [D1, D2, M, 1]
///    for the rows of [D1, D2, M, K]).
FailureOr<SmallVector<int64_t>> paramShape(NodeContext &n,
                                           ArrayRef<int64_t> p,
                                           ArrayRef<int64_t> s, ParamAxis pa,
                                           const llvm::Twine &what) {
  int64_t axis = pa.axis;
  int64_t count = 1;
  for (int64_t d : p)
    count *= d;
  if (count == 1)
    return p.size() <= s.size() ? SmallVector<int64_t>(p)
                                : SmallVector<int64_t>{};
  if (axis >= 0 && p.size() == 1 && p[0] == s[axis]) {
    SmallVector<int64_t> shape(s.size(), 1);
    shape[axis] = p[0];
    return shape;
  }
  if (pa.ndOne >= 0 && p.size() == s.size() && p[pa.ndOne] == 1) {
    if (broadcastsTo(p, s))
      return SmallVector<int64_t>(p);
  }
  if (axis < 0)
    (void)n.fail(what + " must be a scalar (per tensor), got shape " +
                 shapeString(p));
  else
    (void)n.fail(what + " of shape " + shapeString(p) +
                 " is neither per tensor nor per index of axis " +
                 llvm::Twine(axis) + " of " + shapeString(s));
  return failure();
}

/// Input `i`'s values when it is a compile-time constant.
std::optional<std::vector<int64_t>> constValues(NodeContext &n, unsigned i) {
  if (!n.constTensor(i))
    return std::nullopt;
  auto v = n.constInts(i);
  if (failed(v))
    return std::nullopt;
  return std::move(*v);
}

/// Row-major strides of `shape` for indexing a tensor broadcast from it to
/// `to` (0 along broadcast dims); `shape` is right-aligned against `to`.
SmallVector<int64_t> broadcastStrides(ArrayRef<int64_t> shape,
                                      ArrayRef<int64_t> to) {
  SmallVector<int64_t> strides(to.size(), 0);
  int64_t stride = 1;
  for (int64_t i = int64_t(shape.size()) - 1, j = int64_t(to.size()) - 1;
       i >= 0; --i, --j) {
    strides[j] = shape[i] == 1 ? 0 : stride;
    stride *= shape[i];
  }
  return strides;
}

/// Whether operand `idx` can enter the matrix unit's int8 mode as it is:
/// int8 with a zero point that is absent or a compile-time zero.
bool int8AsIs(NodeContext &n, unsigned idx, unsigned zpIdx) {
  auto t = inputType(n, idx);
  if (failed(t) || !t->getElementType().isSignlessInteger(8))
    return false;
  if (!n.hasInput(zpIdx))
    return true;
  auto z = constValues(n, zpIdx);
  return z && llvm::all_of(*z, [](int64_t v) { return v == 0; });
}

/// Operand `idx` minus the zero point at input `zpIdx` (when present),
/// which varies as `axis` says: as it is when `int8Mode` (see int8AsIs),
/// otherwise in int32.
FailureOr<Value> centered(NodeContext &n, unsigned idx, unsigned zpIdx,
                          ParamAxis axis, const llvm::Twine &what,
                          bool int8Mode) {
  auto xtOr = inputType(n, idx);
  if (failed(xtOr))
    return failure();
  RankedTensorType xt = *xtOr;
  Type elt = xt.getElementType();
  if (!isQuant8(elt))
    return n.fail(what + " must be int8 or uint8");
  ArrayRef<int64_t> shape = xt.getShape();
  bool hasZp = n.hasInput(zpIdx);
  SmallVector<int64_t> zpShape;
  std::optional<std::vector<int64_t>> zpValues;
  if (hasZp) {
    const onnx::TensorProto *zc = n.constTensor(zpIdx);
    if (zc) {
      zpValues = constValues(n, zpIdx);
      if (!zpValues)
        return failure();
      auto zt = elementTypeOf(*n.ctx(), zc->data_type());
      if (!zt) {
        (void)n.fail(llvm::toString(zt.takeError()));
        return failure();
      }
      if (*zt != elt)
        return n.fail(what + "'s zero point must have its type");
      auto ps = paramShape(n, SmallVector<int64_t>(zc->dims().begin(),
                                                   zc->dims().end()),
                           shape, axis, what + "'s zero point");
      if (failed(ps))
        return failure();
      zpShape = *ps;
    }
  }
  bool zeroZp = !hasZp || (zpValues && llvm::all_of(*zpValues, [](int64_t v) {
                             return v == 0;
                           }));
  if (int8Mode)
    return n.input(idx);
  Type i32 = i32Of(n);
  auto wide = n.tensorOf(shape, i32);
  // A constant operand with a constant (or no) zero point: centre it now.
  if (auto xs = constValues(n, idx); xs && (!hasZp || zpValues)) {
    SmallVector<int32_t> out(xs->size());
    SmallVector<int64_t> zs = broadcastStrides(zpShape, shape);
    SmallVector<int64_t> index(shape.size(), 0);
    for (size_t f = 0; f < xs->size(); ++f) {
      int64_t z = 0;
      if (hasZp) {
        int64_t off = 0;
        for (size_t d = 0; d < shape.size(); ++d)
          off += index[d] * zs[d];
        z = (*zpValues)[off];
      }
      out[f] = int32_t((*xs)[f] - z);
      for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
        if (++index[d] < shape[d])
          break;
        index[d] = 0;
      }
    }
    return Value(n.create<ConstantOp>(
        DenseElementsAttr::get(wide, ArrayRef<int32_t>(out))));
  }
  auto x = n.input(idx);
  if (failed(x))
    return failure();
  Value v = n.create<CastOp>(wide, *x);
  if (zeroZp)
    return v;
  auto zp = n.input(zpIdx);
  if (failed(zp))
    return failure();
  auto zt = n.typeOf(*zp);
  if (zt.getElementType() != elt)
    return n.fail(what + "'s zero point must have its type");
  auto ps = paramShape(n, zt.getShape(), shape, axis, what + "'s zero point");
  if (failed(ps))
    return failure();
  Value z = n.reshape(*zp, *ps);
  z = n.create<CastOp>(n.tensorOf(*ps, i32), z);
  return Value(n.create<SubOp>(wide, v, z));
}

/// Input `i` (an f32 scale) reshaped to broadcast against `shape` as
/// paramShape says.
FailureOr<Value> scaleAlong(NodeContext &n, unsigned i, ArrayRef<int64_t> shape,
                            ParamAxis axis, const llvm::Twine &what) {
  auto s = n.input(i);
  if (failed(s))
    return failure();
  auto st = n.typeOf(*s);
  if (!st.getElementType().isF32())
    return n.fail(what + " must be float32");
  auto ps = paramShape(n, st.getShape(), shape, axis, what);
  if (failed(ps))
    return failure();
  return n.reshape(*s, *ps);
}

/// saturate(round_half_even(v) + zp) as `out` (int8 / uint8), for f32 `v`
/// and an f32 zero point `zp` that broadcasts to it (may be null).
Value saturateTo(NodeContext &n, Value v, Value zp, IntegerType out) {
  auto ft = n.typeOf(v);
  OpBuilder &b = n.builder();
  v = n.create<UnaryFnOp>(ft, v, b.getStringAttr("round"),
                          b.getDenseF64ArrayAttr({}));
  if (zp)
    v = n.create<AddOp>(ft, v, zp);
  double lo = out.isUnsigned() ? 0 : -128, hi = out.isUnsigned() ? 255 : 127;
  v = n.create<UnaryFnOp>(ft, v, b.getStringAttr("clip"),
                          b.getDenseF64ArrayAttr({lo, hi}));
  return n.create<CastOp>(n.tensorOf(ft.getShape(), out), v);
}

/// The QLinear output stage: `acc` (int32) times a_scale * b_scale /
/// y_scale (inputs 1, 4 and 6), rounded, plus y_zero_point (input 7),
/// saturated to that zero point's type. The first two scales vary like
/// their operands' zero points (placed against `aShape` and `bShape`), the
/// output's against the result.
LogicalResult requantize(NodeContext &n, Value acc, ArrayRef<int64_t> aShape,
                         ParamAxis aAxis, ArrayRef<int64_t> bShape,
                         ParamAxis bAxis, ParamAxis yAxis) {
  ArrayRef<int64_t> yShape = n.typeOf(acc).getShape();
  auto as = scaleAlong(n, 1, aShape, aAxis, "the first scale");
  auto bs = scaleAlong(n, 4, bShape, bAxis, "the second scale");
  auto ys = scaleAlong(n, 6, yShape, yAxis, "y_scale");
  auto yz = n.input(7);
  if (failed(as) || failed(bs) || failed(ys) || failed(yz))
    return failure();
  auto yzt = n.typeOf(*yz);
  auto out = llvm::dyn_cast<IntegerType>(yzt.getElementType());
  if (!out || out.getWidth() != 8)
    return n.fail("y_zero_point must be int8 or uint8");
  auto zs = paramShape(n, yzt.getShape(), yShape, yAxis, "y_zero_point");
  if (failed(zs))
    return failure();
  // The scales' own shape rules report scales that do not fit each other.
  auto ab = n.create<MulOp>(*as, *bs);
  if (failed(ab))
    return failure();
  auto scaleOr = n.create<DivOp>(*ab, *ys);
  if (failed(scaleOr))
    return failure();
  Value scale = *scaleOr;
  if (!broadcastsTo(n.typeOf(scale).getShape(), yShape))
    return n.fail("the scales of shape " +
                  shapeString(n.typeOf(scale).getShape()) +
                  " do not broadcast to the result " + shapeString(yShape));
  Type f32 = f32Of(n);
  auto ft = n.tensorOf(yShape, f32);
  Value v = n.create<CastOp>(ft, acc);
  v = n.create<MulOp>(ft, v, scale);
  Value z = n.create<CastOp>(n.tensorOf(*zs, f32), n.reshape(*yz, *zs));
  n.setOutput(0, saturateTo(n, v, z, out));
  return success();
}

/// Per-row parameters of a numpy matmul operand (or result) and per-column
/// ones; a 1-D operand takes per-tensor parameters only.
ParamAxis rowsOf(ArrayRef<int64_t> s) {
  int64_t r = s.size();
  return r >= 2 ? ParamAxis{r - 2, r - 1} : kPerTensor;
}
ParamAxis colsOf(ArrayRef<int64_t> s) {
  int64_t r = s.size();
  return r >= 2 ? ParamAxis{r - 1, r - 2} : kPerTensor;
}

/// The zero point at input `zpIdx` as values, {0} when absent; nullopt when
/// it is not a compile-time constant of `count` or one element.
std::optional<std::vector<int64_t>> zeroPoints(NodeContext &n, unsigned zpIdx,
                                               int64_t count) {
  if (!n.hasInput(zpIdx))
    return std::vector<int64_t>{0};
  auto z = constValues(n, zpIdx);
  if (!z || (z->size() != 1 && int64_t(z->size()) != count))
    return std::nullopt;
  return z;
}

/// An integer MatMul's operands: the inputs of A, B and their zero points,
/// and A's and B's types.
struct IntegerOperands {
  unsigned a, aZp, b, bZp;
  RankedTensorType at, bt;
};

/// An int8 A (zero point per tensor) by a constant int8 matrix B (zero
/// point per tensor or per column), both zero points compile-time
/// constants: the int8 product as it is, in the matrix unit's int8 mode,
/// and the zero points by the correction terms of
///   (a - za) . (b - zb) = a . b - za colsum(b) - zb rowsum(a) + K za zb,
/// colsum(b) and K za zb folded now, rowsum(a) an int32 reduction of A.
/// Null (no failure) when the operands do not have that form.
FailureOr<Value> correctedMatMul(NodeContext &n, const IntegerOperands &o) {
  std::optional<std::vector<int64_t>> bv = constValues(n, o.b);
  if (!o.at.getElementType().isSignlessInteger(8) ||
      !o.bt.getElementType().isSignlessInteger(8) || o.bt.getRank() != 2 || !bv)
    return Value();
  const int64_t k = o.bt.getDimSize(0), cols = o.bt.getDimSize(1);
  auto za = zeroPoints(n, o.aZp, 1), zb = zeroPoints(n, o.bZp, cols);
  if (!za || !zb)
    return Value();
  if (n.hasInput(o.bZp)) { // per tensor, or [N] / [1, N] per column
    auto ps = paramShape(n, SmallVector<int64_t>(n.constTensor(o.bZp)->dims().begin(),
                                                 n.constTensor(o.bZp)->dims().end()),
                         o.bt.getShape(), colsOf(o.bt.getShape()),
                         "B's zero point");
    if (failed(ps))
      return failure();
  }
  auto a = n.input(o.a), b = n.input(o.b);
  if (failed(a) || failed(b))
    return failure();
  auto acc = buildMatMul(n, *a, *b, i32Of(n));
  if (failed(acc))
    return failure();
  const int64_t zA = (*za)[0];
  auto zB = [&](int64_t j) { return (*zb)[zb->size() == 1 ? 0 : j]; };
  bool bZero = llvm::all_of(*zb, [](int64_t v) { return v == 0; });
  Type i32 = i32Of(n);
  ArrayRef<int64_t> ys = n.typeOf(*acc).getShape();
  // - za colsum(b) + K za zb, one int32 per column.
  if (zA != 0) {
    SmallVector<int32_t> term(cols, 0);
    for (int64_t r = 0; r < k; ++r)
      for (int64_t j = 0; j < cols; ++j)
        term[j] -= int32_t(zA * (*bv)[r * cols + j]);
    for (int64_t j = 0; j < cols; ++j)
      term[j] += int32_t(k * zA * zB(j));
    Value c = n.create<ConstantOp>(DenseElementsAttr::get(
        n.tensorOf({cols}, i32), ArrayRef<int32_t>(term)));
    acc = Value(n.create<AddOp>(n.tensorOf(ys, i32), *acc, c));
  }
  // - zb rowsum(a), rowsum over A's last axis kept as a column.
  if (!bZero) {
    ArrayRef<int64_t> as = o.at.getShape();
    Value wide = n.create<CastOp>(n.tensorOf(as, i32), *a);
    Value rows = n.create<ReduceOp>(wide, "sum",
                                    ArrayRef<int64_t>{int64_t(as.size()) - 1},
                                    /*keepdims=*/true);
    SmallVector<int32_t> z(cols);
    for (int64_t j = 0; j < cols; ++j)
      z[j] = int32_t(zB(j));
    Value zc = n.create<ConstantOp>(
        DenseElementsAttr::get(n.tensorOf({cols}, i32), ArrayRef<int32_t>(z)));
    auto t = n.create<MulOp>(rows, zc);
    if (failed(t))
      return failure();
    acc = Value(n.create<SubOp>(n.tensorOf(ys, i32), *acc, *t));
  }
  return acc;
}

/// int32 matmul of the centred operands at inputs aIdx and bIdx.
FailureOr<Value> integerMatMul(NodeContext &n, unsigned aIdx, unsigned aZp,
                               unsigned bIdx, unsigned bZp) {
  auto at = inputType(n, aIdx), bt = inputType(n, bIdx);
  if (failed(at) || failed(bt))
    return failure();
  ArrayRef<int64_t> as = at->getShape(), bs = bt->getShape();
  if (as.empty() || bs.empty())
    return n.fail("operands must have rank 1 or more");
  if (!(int8AsIs(n, aIdx, aZp) && int8AsIs(n, bIdx, bZp))) {
    auto corrected =
        correctedMatMul(n, IntegerOperands{aIdx, aZp, bIdx, bZp, *at, *bt});
    if (failed(corrected) || *corrected)
      return corrected;
  }
  // Both operands int8 as they are, or both centred in int32.
  bool int8Mode = int8AsIs(n, aIdx, aZp) && int8AsIs(n, bIdx, bZp);
  auto a = centered(n, aIdx, aZp, rowsOf(as), "A", int8Mode);
  if (failed(a))
    return failure();
  auto b = centered(n, bIdx, bZp, colsOf(bs), "B", int8Mode);
  if (failed(b))
    return failure();
  return buildMatMul(n, *a, *b, i32Of(n));
}

LogicalResult importMatMulInteger(NodeContext &n) {
  auto y = integerMatMul(n, 0, 2, 1, 3);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

LogicalResult importQLinearMatMul(NodeContext &n) {
  auto a = inputType(n, 0), b = inputType(n, 3);
  if (failed(a) || failed(b))
    return failure();
  SmallVector<int64_t> as(a->getShape()), bs(b->getShape());
  auto acc = integerMatMul(n, 0, 2, 3, 5);
  if (failed(acc))
    return failure();
  ArrayRef<int64_t> ys = n.typeOf(*acc).getShape();
  // Per-row output parameters only when the result keeps A's rows.
  ParamAxis yAxis = as.size() >= 2 && bs.size() >= 2 ? rowsOf(ys) : kPerTensor;
  return requantize(n, *acc, as, rowsOf(as), bs, colsOf(bs), yAxis);
}

/// int32 conv of the centred x (input 0, zero point xZp, per tensor) and w
/// (input wIdx, zero point wZp, per tensor or per output channel), with an
/// optional int32 bias at input biasIdx (< 0: none).
FailureOr<Value> integerConv(NodeContext &n, unsigned xZp, unsigned wIdx,
                             unsigned wZp, int biasIdx) {
  Value bias;
  if (biasIdx >= 0 && n.hasInput(biasIdx)) {
    auto b = n.input(biasIdx);
    if (failed(b))
      return failure();
    bias = *b;
  }
  bool int8Mode = int8AsIs(n, 0, xZp) && int8AsIs(n, wIdx, wZp);
  if (!int8Mode) {
    auto corrected = correctedConv(n, xZp, wIdx, wZp, bias);
    if (failed(corrected) || *corrected)
      return corrected;
  }
  auto x = centered(n, 0, xZp, kPerTensor, "x", int8Mode);
  if (failed(x))
    return failure();
  auto w = centered(n, wIdx, wZp, ParamAxis{0, -1}, "w", int8Mode);
  if (failed(w))
    return failure();
  return buildConv(n, *x, *w, bias); // i32: the operands are i8 or i32
}

LogicalResult importConvInteger(NodeContext &n) {
  auto y = integerConv(n, 2, 1, 3, -1);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

LogicalResult importQLinearConv(NodeContext &n) {
  auto x = inputType(n, 0);
  if (failed(x))
    return failure();
  SmallVector<int64_t> xs(x->getShape());
  auto acc = integerConv(n, 2, 3, 5, 8);
  if (failed(acc))
    return failure();
  // w_scale per output channel is per channel (axis 1) of the result.
  SmallVector<int64_t> ys(n.typeOf(*acc).getShape());
  return requantize(n, *acc, xs, kPerTensor, ys, ParamAxis{1, -1},
                    kPerTensor);
}

/// A scalar f32 constant.
Value f32Scalar(NodeContext &n, double v) {
  auto t = RankedTensorType::get({}, f32Of(n));
  return n.create<ConstantOp>(
      DenseElementsAttr::get(t, FloatAttr::get(f32Of(n), v)));
}

/// The ONNX function body: scale = (max(x, 0) - min(x, 0)) / 255,
/// zero_point = round(clip(0 - min / scale, 0, 255)), y = QuantizeLinear.
LogicalResult importDynamicQuantizeLinear(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto xt = n.typeOf(*x);
  if (!xt.getElementType().isF32())
    return n.fail("only float32 input is supported");
  if (xt.getNumElements() == 0)
    return n.fail("the input is empty");
  OpBuilder &b = n.builder();
  Type f32 = f32Of(n);
  auto scalar = n.tensorOf({}, f32);
  auto extreme = [&](StringRef fn) -> Value {
    Value v = *x;
    if (xt.getRank() > 0) {
      SmallVector<int64_t> all;
      for (int64_t d = 0; d < xt.getRank(); ++d)
        all.push_back(d);
      v = n.create<ReduceOp>(scalar, v, b.getStringAttr(fn),
                             b.getDenseI64ArrayAttr(all));
    }
    return n.create<BinaryFnOp>(scalar, v, f32Scalar(n, 0),
                                b.getStringAttr(fn));
  };
  Value lo = extreme("min"), hi = extreme("max");
  Value range = n.create<SubOp>(scalar, hi, lo);
  Value scale = n.create<DivOp>(scalar, range, f32Scalar(n, 255));
  Value zp = n.create<SubOp>(scalar, f32Scalar(n, 0),
                             n.create<DivOp>(scalar, lo, scale));
  zp = n.create<UnaryFnOp>(scalar, zp, b.getStringAttr("clip"),
                           b.getDenseF64ArrayAttr({0, 255}));
  zp = n.create<UnaryFnOp>(scalar, zp, b.getStringAttr("round"),
                           b.getDenseF64ArrayAttr({}));
  auto u8 = IntegerType::get(n.ctx(), 8, IntegerType::Unsigned);
  auto ft = n.tensorOf(xt.getShape(), f32);
  // zp is an integer in [0, 255] already: adding it in f32 is exact.
  Value q = n.create<DivOp>(ft, *x, scale);
  n.setOutput(0, saturateTo(n, q, zp, u8));
  n.setOutput(1, scale);
  n.setOutput(2, n.create<CastOp>(n.tensorOf({}, u8), zp));
  return success();
}

} // namespace

void addQuantImporters(llvm::StringMap<OpImporter> &table) {
  table["MatMulInteger"] = importMatMulInteger;
  table["ConvInteger"] = importConvInteger;
  table["QLinearMatMul"] = importQLinearMatMul;
  table["QLinearConv"] = importQLinearConv;
  table["DynamicQuantizeLinear"] = importDynamicQuantizeLinear;
}

} // namespace lpx::onnximport
