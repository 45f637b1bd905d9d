//===- GraphFolds.cpp - lpx_graph ops evaluated on constant operands ------===//
//
// The fold() methods of the lpx_graph ops: when every operand is a constant,
// the op is evaluated at compile time, in its element type's own precision
// (float arithmetic in the float format, integer division truncating), so a
// folded value is the value the chip would have computed. The importer folds
// each node's ops this way (that is how exporters' shape subgraphs become
// constants); `lpx-opt --canonicalize` uses the same methods.
//
// Folding is limited to small results (kMaxFoldElements): shape tensors,
// masks and scalars, not weights. A fold that would need a value the
// run-time op defines differently (division by zero, NaN in max/min, an
// out-of-range float-to-int cast) is left to the run-time op.
//
//===----------------------------------------------------------------------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/APSInt.h"
#include "mlir/IR/TypeUtilities.h"

#include <optional>
#include <variant>

using namespace mlir;
using namespace lpx::graph;

namespace {

/// Largest result folded (elements): a 256x256 mask, far above any shape.
constexpr int64_t kMaxFoldElements = 1 << 16;

/// A dense constant operand of a result small enough to fold, or null.
DenseElementsAttr foldable(Attribute operand, Type resultType) {
  auto t = dyn_cast<RankedTensorType>(resultType);
  if (!t || !t.hasStaticShape() || t.getNumElements() > kMaxFoldElements)
    return {};
  return dyn_cast_or_null<DenseElementsAttr>(operand);
}

SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> s(shape.size(), 1);
  for (int64_t i = int64_t(shape.size()) - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape[i + 1];
  return s;
}

/// Multi-index of flat position `flat` in `shape`.
SmallVector<int64_t> unflatten(int64_t flat, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> idx(shape.size());
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    idx[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  return idx;
}

/// Flat position in an operand of shape `in` of the result index `idx`
/// under numpy broadcasting (the operand is right-aligned).
int64_t broadcastSource(ArrayRef<int64_t> idx, ArrayRef<int64_t> in) {
  int64_t flat = 0, offset = int64_t(idx.size()) - int64_t(in.size());
  for (size_t d = 0; d < in.size(); ++d)
    flat = flat * in[d] + (in[d] == 1 ? 0 : idx[offset + d]);
  return flat;
}

/// The result whose element `i` is element `source(index of i)` of `src`,
/// or null where `source` gives -1 (a fold that must be left undone).
Attribute rearrange(DenseElementsAttr src, Type resultType,
                    function_ref<int64_t(ArrayRef<int64_t>)> source) {
  auto type = cast<RankedTensorType>(resultType);
  auto values = src.getValues<Attribute>();
  SmallVector<Attribute> out;
  out.reserve(type.getNumElements());
  for (int64_t i = 0; i < type.getNumElements(); ++i) {
    int64_t from = source(unflatten(i, type.getShape()));
    if (from < 0 || from >= src.getNumElements())
      return {};
    out.push_back(values[from]);
  }
  return DenseElementsAttr::get(type, out);
}

//===----------------------------------------------------------------------===//
// Elementwise arithmetic on APInt / APFloat.
//===----------------------------------------------------------------------===//

using Scalar = std::variant<APInt, APFloat>;
/// One element's result, or nullopt to leave the op unfolded.
using ScalarFn = function_ref<std::optional<Scalar>(ArrayRef<Scalar>)>;

SmallVector<Scalar> scalarsOf(DenseElementsAttr a) {
  SmallVector<Scalar> out;
  out.reserve(a.getNumElements());
  if (isa<FloatType>(a.getElementType()))
    for (const APFloat &f : a.getValues<APFloat>())
      out.push_back(f);
  else
    for (const APInt &i : a.getValues<APInt>())
      out.push_back(i);
  return out;
}

/// Applies `fn` elementwise to broadcast operands; null when an operand is
/// not a small dense constant or `fn` declines an element.
Attribute foldElementwise(ArrayRef<Attribute> operands, Type resultType,
                          ScalarFn fn) {
  SmallVector<SmallVector<Scalar>> values;
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Attribute a : operands) {
    DenseElementsAttr d = foldable(a, resultType);
    if (!d)
      return {};
    values.push_back(scalarsOf(d));
    shapes.push_back(d.getType().getShape());
  }
  auto type = cast<RankedTensorType>(resultType);
  bool isFloat = isa<FloatType>(type.getElementType());
  SmallVector<APInt> ints;
  SmallVector<APFloat> floats;
  SmallVector<Scalar> args;
  for (int64_t i = 0; i < type.getNumElements(); ++i) {
    SmallVector<int64_t> idx = unflatten(i, type.getShape());
    args.clear();
    for (size_t k = 0; k < values.size(); ++k)
      args.push_back(values[k][broadcastSource(idx, shapes[k])]);
    std::optional<Scalar> r = fn(args);
    if (!r || std::holds_alternative<APFloat>(*r) != isFloat)
      return {};
    if (isFloat)
      floats.push_back(std::get<APFloat>(*r));
    else
      ints.push_back(std::get<APInt>(*r));
  }
  return isFloat ? DenseElementsAttr::get(type, floats)
                 : DenseElementsAttr::get(type, ints);
}

bool isUnsigned(Type t) {
  auto i = dyn_cast<IntegerType>(getElementTypeOrSelf(t));
  return i && i.isUnsigned();
}

APInt boolean(bool b) { return APInt(1, b ? 1 : 0); }

/// Integer `fn` of two operands; nullopt leaves the op unfolded.
std::optional<APInt> intBinary(StringRef fn, const APInt &x, const APInt &y,
                               bool uns) {
  if (fn == "add") return x + y;
  if (fn == "sub") return x - y;
  if (fn == "mul") return x * y;
  if (fn == "div") {
    if (y.isZero() || (!uns && x.isMinSignedValue() && y.isAllOnes()))
      return std::nullopt;
    return uns ? x.udiv(y) : x.sdiv(y);
  }
  if (fn == "mod") { // the sign of the divisor, as Python's %
    if (y.isZero() || uns)
      return uns && !y.isZero() ? std::optional<APInt>(x.urem(y)) : std::nullopt;
    APInt r = x.srem(y);
    if (!r.isZero() && r.isNegative() != y.isNegative())
      r += y;
    return r;
  }
  bool lt = uns ? x.ult(y) : x.slt(y), eq = x == y;
  if (fn == "max") return lt ? y : x;
  if (fn == "min") return lt ? x : y;
  if (fn == "and") return x & y;
  if (fn == "or") return x | y;
  if (fn == "xor" || fn == "bitwise_xor") return x ^ y;
  if (fn == "bitwise_and") return x & y;
  if (fn == "bitwise_or") return x | y;
  if (fn == "equal") return boolean(eq);
  if (fn == "less") return boolean(lt);
  if (fn == "less_equal") return boolean(lt || eq);
  if (fn == "greater") return boolean(!lt && !eq);
  if (fn == "greater_equal") return boolean(!lt);
  return std::nullopt;
}

/// Float `fn` of two operands, rounded to nearest even in their format.
std::optional<Scalar> floatBinary(StringRef fn, APFloat x, const APFloat &y) {
  const auto rm = APFloat::rmNearestTiesToEven;
  APFloat::cmpResult c = x.compare(y);
  bool unordered = c == APFloat::cmpUnordered;
  if (fn == "add") return (x.add(y, rm), Scalar(x));
  if (fn == "sub") return (x.subtract(y, rm), Scalar(x));
  if (fn == "mul") return (x.multiply(y, rm), Scalar(x));
  if (fn == "div") return (x.divide(y, rm), Scalar(x));
  if (fn == "max" || fn == "min") {
    if (unordered)
      return std::nullopt; // NaN propagation: the run-time op's business
    bool takeY = fn == "max" ? c == APFloat::cmpLessThan
                             : c == APFloat::cmpGreaterThan;
    return takeY ? Scalar(y) : Scalar(x);
  }
  if (fn == "equal") return Scalar(boolean(c == APFloat::cmpEqual));
  if (fn == "less") return Scalar(boolean(c == APFloat::cmpLessThan));
  if (fn == "greater") return Scalar(boolean(c == APFloat::cmpGreaterThan));
  if (fn == "less_equal")
    return Scalar(boolean(c == APFloat::cmpLessThan || c == APFloat::cmpEqual));
  if (fn == "greater_equal")
    return Scalar(
        boolean(c == APFloat::cmpGreaterThan || c == APFloat::cmpEqual));
  return std::nullopt;
}

Attribute foldBinary(StringRef fn, ArrayRef<Attribute> operands,
                     Type operandType, Type resultType) {
  bool uns = isUnsigned(operandType);
  return foldElementwise(
      operands, resultType,
      [&](ArrayRef<Scalar> a) -> std::optional<Scalar> {
        if (a[0].index() != a[1].index())
          return std::nullopt;
        if (auto *x = std::get_if<APInt>(&a[0])) {
          const APInt &y = std::get<APInt>(a[1]);
          if (x->getBitWidth() != y.getBitWidth())
            return std::nullopt;
          auto r = intBinary(fn, *x, y, uns);
          return r ? std::optional<Scalar>(*r) : std::nullopt;
        }
        return floatBinary(fn, std::get<APFloat>(a[0]), std::get<APFloat>(a[1]));
      });
}

/// Unary `fn` ("neg", "relu", "abs", "ceil", "floor", "sign", "not").
std::optional<Scalar> unary(StringRef fn, const Scalar &s, bool uns) {
  if (auto *x = std::get_if<APInt>(&s)) {
    if (fn == "not" && x->getBitWidth() == 1) return Scalar(~*x);
    if (fn == "bitwise_not") return Scalar(~*x);
    if (uns) return fn == "relu" || fn == "abs" ? std::optional<Scalar>(*x)
                                                : std::nullopt;
    APInt zero = APInt::getZero(x->getBitWidth());
    if (fn == "neg") return Scalar(-*x);
    if (fn == "abs") return Scalar(x->abs());
    if (fn == "relu") return Scalar(x->isNegative() ? zero : *x);
    if (fn == "sign")
      return Scalar(x->isZero() ? zero
                                : APInt(x->getBitWidth(), x->isNegative() ? -1 : 1,
                                        /*isSigned=*/true));
    return std::nullopt;
  }
  APFloat x = std::get<APFloat>(s);
  if (x.isNaN())
    return std::nullopt;
  if (fn == "neg") return (x.changeSign(), Scalar(x));
  if (fn == "abs") return (x.clearSign(), Scalar(x));
  if (fn == "relu")
    return x.isNegative() ? Scalar(APFloat::getZero(x.getSemantics())) : Scalar(x);
  if (fn == "ceil") return (x.roundToIntegral(APFloat::rmTowardPositive), Scalar(x));
  if (fn == "floor") return (x.roundToIntegral(APFloat::rmTowardNegative), Scalar(x));
  if (fn == "sign") {
    if (x.isZero())
      return Scalar(APFloat::getZero(x.getSemantics()));
    APFloat one(x.getSemantics(), 1);
    if (x.isNegative())
      one.changeSign();
    return Scalar(one);
  }
  return std::nullopt;
}

Attribute foldUnary(StringRef fn, Attribute operand, Type resultType) {
  bool uns = isUnsigned(resultType);
  return foldElementwise(operand, resultType,
                         [&](ArrayRef<Scalar> a) { return unary(fn, a[0], uns); });
}

/// `s` converted to element type `to` as ONNX Cast does; nullopt when the
/// value has no exact counterpart (NaN or out of range to an integer).
std::optional<Scalar> castScalar(const Scalar &s, bool fromUnsigned, Type to) {
  const auto rm = APFloat::rmNearestTiesToEven;
  if (auto ft = dyn_cast<FloatType>(to)) {
    bool lost;
    if (auto *f = std::get_if<APFloat>(&s)) {
      APFloat r = *f;
      r.convert(ft.getFloatSemantics(), rm, &lost);
      return Scalar(r);
    }
    APFloat r(ft.getFloatSemantics());
    const APInt &i = std::get<APInt>(s);
    r.convertFromAPInt(i, /*isSigned=*/!fromUnsigned && i.getBitWidth() > 1, rm);
    return Scalar(r);
  }
  auto it = dyn_cast<IntegerType>(to);
  if (!it)
    return std::nullopt;
  unsigned w = it.getWidth();
  if (auto *f = std::get_if<APFloat>(&s)) {
    if (w == 1)
      return Scalar(boolean(!f->isZero()));
    APSInt r(w, it.isUnsigned());
    bool exact;
    if (f->convertToInteger(r, APFloat::rmTowardZero, &exact) &
        APFloat::opInvalidOp)
      return std::nullopt;
    return Scalar(APInt(r));
  }
  const APInt &i = std::get<APInt>(s);
  if (w == 1)
    return Scalar(boolean(!i.isZero()));
  return Scalar(fromUnsigned || i.getBitWidth() == 1 ? i.zextOrTrunc(w)
                                                     : i.sextOrTrunc(w));
}

} // namespace

//===----------------------------------------------------------------------===//
// The fold() methods.
//===----------------------------------------------------------------------===//

OpFoldResult AddOp::fold(FoldAdaptor a) {
  return foldBinary("add", a.getOperands(), getLhs().getType(), getType());
}
OpFoldResult SubOp::fold(FoldAdaptor a) {
  return foldBinary("sub", a.getOperands(), getLhs().getType(), getType());
}
OpFoldResult MulOp::fold(FoldAdaptor a) {
  return foldBinary("mul", a.getOperands(), getLhs().getType(), getType());
}
OpFoldResult DivOp::fold(FoldAdaptor a) {
  return foldBinary("div", a.getOperands(), getLhs().getType(), getType());
}
OpFoldResult PowOp::fold(FoldAdaptor) { return {}; }

OpFoldResult BinaryFnOp::fold(FoldAdaptor a) {
  return foldBinary(getFn(), a.getOperands(), getLhs().getType(), getType());
}

OpFoldResult NegOp::fold(FoldAdaptor a) {
  return foldUnary("neg", a.getInput(), getType());
}
OpFoldResult ReluOp::fold(FoldAdaptor a) {
  return foldUnary("relu", a.getInput(), getType());
}
OpFoldResult SqrtOp::fold(FoldAdaptor) { return {}; }
OpFoldResult SigmoidOp::fold(FoldAdaptor) { return {}; }
OpFoldResult TanhOp::fold(FoldAdaptor) { return {}; }

OpFoldResult UnaryFnOp::fold(FoldAdaptor a) {
  if (!getParams().empty())
    return {};
  return foldUnary(getFn(), a.getInput(), getType());
}

OpFoldResult CastOp::fold(FoldAdaptor a) {
  bool fromUnsigned = isUnsigned(getInput().getType());
  Type to = getType().getElementType();
  return foldElementwise(a.getInput(), getType(), [&](ArrayRef<Scalar> s) {
    return castScalar(s[0], fromUnsigned, to);
  });
}

OpFoldResult WhereOp::fold(FoldAdaptor a) {
  auto c = dyn_cast_or_null<DenseElementsAttr>(a.getCondition());
  DenseElementsAttr x = foldable(a.getX(), getType()),
                    y = foldable(a.getY(), getType());
  if (!c || !x || !y)
    return {};
  auto cond = c.getValues<bool>();
  auto xs = x.getValues<Attribute>(), ys = y.getValues<Attribute>();
  SmallVector<Attribute> out;
  for (int64_t i = 0; i < getType().getNumElements(); ++i) {
    SmallVector<int64_t> idx = unflatten(i, getType().getShape());
    bool take = cond[broadcastSource(idx, c.getType().getShape())];
    out.push_back(take ? xs[broadcastSource(idx, x.getType().getShape())]
                       : ys[broadcastSource(idx, y.getType().getShape())]);
  }
  return DenseElementsAttr::get(getType(), out);
}

OpFoldResult ReshapeOp::fold(FoldAdaptor a) {
  DenseElementsAttr d = foldable(a.getInput(), getType());
  return d ? d.reshape(getType()) : Attribute();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor a) {
  DenseElementsAttr d = foldable(a.getInput(), getType());
  if (!d)
    return {};
  ArrayRef<int64_t> in = d.getType().getShape();
  return rearrange(d, getType(), [&](ArrayRef<int64_t> idx) {
    return broadcastSource(idx, in);
  });
}

OpFoldResult TransposeOp::fold(FoldAdaptor a) {
  DenseElementsAttr d = foldable(a.getInput(), getType());
  if (!d)
    return {};
  SmallVector<int64_t> strides = stridesOf(d.getType().getShape());
  ArrayRef<int64_t> perm = getPerm();
  return rearrange(d, getType(), [&](ArrayRef<int64_t> idx) {
    int64_t flat = 0;
    for (size_t k = 0; k < idx.size(); ++k)
      flat += idx[k] * strides[perm[k]];
    return flat;
  });
}

OpFoldResult SliceOp::fold(FoldAdaptor a) {
  DenseElementsAttr d = foldable(a.getInput(), getType());
  if (!d)
    return {};
  SmallVector<int64_t> strides = stridesOf(d.getType().getShape());
  ArrayRef<int64_t> starts = getStarts(), steps = getSteps();
  return rearrange(d, getType(), [&](ArrayRef<int64_t> idx) {
    int64_t flat = 0;
    for (size_t k = 0; k < idx.size(); ++k)
      flat += (starts[k] + idx[k] * steps[k]) * strides[k];
    return flat;
  });
}

OpFoldResult ConcatOp::fold(FoldAdaptor a) {
  SmallVector<DenseElementsAttr> parts;
  for (Attribute operand : a.getInputs()) {
    DenseElementsAttr d = foldable(operand, getType());
    if (!d)
      return {};
    parts.push_back(d);
  }
  int64_t axis = getAxis();
  SmallVector<Attribute> out;
  for (int64_t i = 0; i < getType().getNumElements(); ++i) {
    SmallVector<int64_t> idx = unflatten(i, getType().getShape());
    size_t k = 0;
    while (idx[axis] >= parts[k].getType().getDimSize(axis))
      idx[axis] -= parts[k++].getType().getDimSize(axis);
    SmallVector<int64_t> strides = stridesOf(parts[k].getType().getShape());
    int64_t flat = 0;
    for (size_t d = 0; d < idx.size(); ++d)
      flat += idx[d] * strides[d];
    out.push_back(parts[k].getValues<Attribute>()[flat]);
  }
  return DenseElementsAttr::get(getType(), out);
}

OpFoldResult GatherOp::fold(FoldAdaptor a) {
  DenseElementsAttr data = foldable(a.getData(), getType());
  auto indices = dyn_cast_or_null<DenseElementsAttr>(a.getIndices());
  if (!data || !indices)
    return {};
  SmallVector<int64_t> index;
  for (const APInt &v : indices.getValues<APInt>())
    index.push_back(isUnsigned(indices.getType()) ? int64_t(v.getZExtValue())
                                                  : v.getSExtValue());
  ArrayRef<int64_t> dataShape = data.getType().getShape();
  SmallVector<int64_t> strides = stridesOf(dataShape);
  int64_t axis = getAxis(), dim = dataShape[axis];
  int64_t indexRank = indices.getType().getRank();
  SmallVector<int64_t> indexStrides = stridesOf(indices.getType().getShape());
  // result index = data[:axis] ++ indices ++ data[axis+1:]
  return rearrange(data, getType(), [&](ArrayRef<int64_t> idx) -> int64_t {
    int64_t at = 0;
    for (int64_t k = 0; k < indexRank; ++k)
      at += idx[axis + k] * indexStrides[k];
    int64_t j = index[at] < 0 ? index[at] + dim : index[at];
    if (j < 0 || j >= dim)
      return -1;
    int64_t flat = j * strides[axis];
    for (int64_t d = 0; d < axis; ++d)
      flat += idx[d] * strides[d];
    for (int64_t d = axis + 1; d < int64_t(dataShape.size()); ++d)
      flat += idx[d - 1 + indexRank] * strides[d];
    return flat;
  });
}
