//===- GraphOps.cpp - lpx_graph operation verifiers -----------------------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace lpx::graph;

FailureOr<SmallVector<int64_t>>
lpx::graph::broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return failure();
    out[i] = da == 1 ? db : da;
  }
  return out;
}

static RankedTensorType rankedType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

static std::string shapeStr(ArrayRef<int64_t> s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i)
    out += (i ? "x" : "") + std::to_string(s[i]);
  return out.empty() ? "scalar" : out;
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

// `lpx_graph.constant {attrs} dense<...> : tensor<...>`: the result type is
// the value's type.
ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  Attribute value;
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseAttribute(value))
    return failure();
  auto typed = dyn_cast<ElementsAttr>(value);
  if (!typed)
    return parser.emitError(parser.getCurrentLocation(),
                            "expected an elements attribute");
  result.addAttribute("value", typed);
  result.addTypes(typed.getType());
  return success();
}

void ConstantOp::print(OpAsmPrinter &p) {
  p.printOptionalAttrDict((*this)->getAttrs(), {"value"});
  p << ' ';
  p.printAttribute(getValue());
}

LogicalResult ConstantOp::verify() {
  if (getValue().getType() != getType())
    return emitOpError("value type ")
           << getValue().getType() << " differs from result type " << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

static LogicalResult verifyBroadcast(Operation *op, ValueRange inputs,
                                     Value result) {
  SmallVector<int64_t> shape;
  for (Value v : inputs) {
    auto b = broadcastShapes(shape, rankedType(v).getShape());
    if (failed(b))
      return op->emitOpError("operand shapes cannot be broadcast together");
    shape = *b;
  }
  if (ArrayRef<int64_t>(shape) != rankedType(result).getShape())
    return op->emitOpError("result shape ")
           << shapeStr(rankedType(result).getShape())
           << " is not the broadcast shape " << shapeStr(shape);
  return success();
}

static LogicalResult verifyBinary(Operation *op, bool mixedTypes) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  Value res = op->getResult(0);
  if (rankedType(lhs).getElementType() != rankedType(res).getElementType())
    return op->emitOpError("result element type must match the first operand");
  if (!mixedTypes &&
      rankedType(lhs).getElementType() != rankedType(rhs).getElementType())
    return op->emitOpError("operands must have the same element type");
  return verifyBroadcast(op, op->getOperands(), res);
}

LogicalResult AddOp::verify() { return verifyBinary(*this, false); }
LogicalResult SubOp::verify() { return verifyBinary(*this, false); }
LogicalResult MulOp::verify() { return verifyBinary(*this, false); }
LogicalResult DivOp::verify() { return verifyBinary(*this, false); }
LogicalResult PowOp::verify() { return verifyBinary(*this, true); }

LogicalResult WhereOp::verify() {
  if (!rankedType(getCondition()).getElementType().isInteger(1))
    return emitOpError("condition must be a tensor of i1");
  Type t = rankedType(getResult()).getElementType();
  if (rankedType(getX()).getElementType() != t ||
      rankedType(getY()).getElementType() != t)
    return emitOpError("x, y and result must have the same element type");
  return verifyBroadcast(*this, getOperands(), getResult());
}

LogicalResult CastOp::verify() {
  if (rankedType(getInput()).getShape() != rankedType(getResult()).getShape())
    return emitOpError("cast must keep the shape");
  return success();
}

//===----------------------------------------------------------------------===//
// MatMul
//===----------------------------------------------------------------------===//

LogicalResult MatMulOp::verify() {
  ArrayRef<int64_t> a = rankedType(getLhs()).getShape();
  ArrayRef<int64_t> b = rankedType(getRhs()).getShape();
  if (a.empty() || b.empty())
    return emitOpError("operands must have rank 1 or more");
  // Weights may be in another floating-point format than the activations
  // (the matrix unit accumulates in fp32); otherwise the types must match.
  Type lhsElem = rankedType(getLhs()).getElementType();
  Type rhsElem = rankedType(getRhs()).getElementType();
  // (int8 weights times float activations, with the scale applied after).
  auto floatOrInt8 = [](Type t) {
    return isa<FloatType>(t) || t.isSignlessInteger(8);
  };
  Type resElem = rankedType(getResult()).getElementType();
  if (lhsElem != rhsElem &&
      !(isa<FloatType>(lhsElem) && floatOrInt8(rhsElem) &&
        isa<FloatType>(resElem)))
    return emitOpError("operands must have the same element type");
  // Integer matmul gives the operands' type, except int8 operands, which
  // the matrix unit also accumulates into int32.
  if (lhsElem == rhsElem && isa<IntegerType>(lhsElem) && resElem != lhsElem &&
      !(lhsElem.isSignlessInteger(8) && resElem.isSignlessInteger(32)))
    return emitOpError("integer result must have the operands' type (or "
                       "i32 for i8 operands)");
  int64_t k1 = a.back();
  int64_t k2 = b.size() == 1 ? b[0] : b[b.size() - 2];
  if (k1 != k2)
    return emitOpError("reduction dimensions differ: ") << k1 << " vs " << k2;
  SmallVector<int64_t> batchA(a.begin(), a.end() - std::min<size_t>(2, a.size()));
  SmallVector<int64_t> batchB(b.begin(), b.end() - std::min<size_t>(2, b.size()));
  auto batch = broadcastShapes(batchA, batchB);
  if (failed(batch))
    return emitOpError("batch dimensions cannot be broadcast together");
  SmallVector<int64_t> expected = *batch;
  if (a.size() >= 2)
    expected.push_back(a[a.size() - 2]);
  if (b.size() >= 2)
    expected.push_back(b.back());
  if (ArrayRef<int64_t>(expected) != rankedType(getResult()).getShape())
    return emitOpError("result shape ")
           << shapeStr(rankedType(getResult()).getShape()) << " should be "
           << shapeStr(expected);
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxOp::verify() {
  int64_t rank = rankedType(getInput()).getRank();
  int64_t axis = getAxisAttr().getInt(); // the getter is unsigned
  if (axis < 0 || axis >= std::max<int64_t>(rank, 1))
    return emitOpError("axis ") << axis << " out of range for rank " << rank;
  return success();
}

namespace {
LogicalResult verifyReducedShape(Operation *op, ArrayRef<int64_t> in,
                                 ArrayRef<int64_t> axes, ArrayRef<int64_t> out);
} // namespace

LogicalResult ReduceMeanOp::verify() {
  return verifyReducedShape(*this, rankedType(getInput()).getShape(),
                            getAxes(), rankedType(getResult()).getShape());
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto in = rankedType(getInput()), out = rankedType(getResult());
  if (in.getElementType() != out.getElementType())
    return emitOpError("reshape must keep the element type");
  if (in.getNumElements() != out.getNumElements())
    return emitOpError("reshape from ") << shapeStr(in.getShape()) << " to "
                                        << shapeStr(out.getShape())
                                        << " changes the element count";
  return success();
}

LogicalResult TransposeOp::verify() {
  ArrayRef<int64_t> in = rankedType(getInput()).getShape();
  ArrayRef<int64_t> perm = getPerm();
  if (perm.size() != in.size())
    return emitOpError("perm has ") << perm.size() << " entries for rank "
                                    << in.size();
  SmallVector<bool> seen(in.size(), false);
  SmallVector<int64_t> expected;
  for (int64_t p : perm) {
    if (p < 0 || p >= int64_t(in.size()) || seen[p])
      return emitOpError("perm is not a permutation");
    seen[p] = true;
    expected.push_back(in[p]);
  }
  if (ArrayRef<int64_t>(expected) != rankedType(getResult()).getShape())
    return emitOpError("result shape does not match the permutation");
  return success();
}

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  auto out = rankedType(getResult());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= out.getRank())
    return emitOpError("axis ") << axis << " out of range";
  int64_t total = 0;
  for (Value v : getInputs()) {
    auto t = rankedType(v);
    if (t.getRank() != out.getRank() ||
        t.getElementType() != out.getElementType())
      return emitOpError("inputs must match the result's rank and type");
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (d != axis && t.getDimSize(d) != out.getDimSize(d))
        return emitOpError("inputs differ outside the concat axis");
    total += t.getDimSize(axis);
  }
  if (total != out.getDimSize(axis))
    return emitOpError("result size along the axis should be ") << total;
  return success();
}

LogicalResult SliceOp::verify() {
  ArrayRef<int64_t> in = rankedType(getInput()).getShape();
  ArrayRef<int64_t> out = rankedType(getResult()).getShape();
  ArrayRef<int64_t> starts = getStarts(), steps = getSteps();
  if (out.size() != in.size() || starts.size() != in.size() ||
      steps.size() != in.size())
    return emitOpError("starts, steps and result need one entry per dim");
  for (size_t d = 0; d < in.size(); ++d) {
    if (steps[d] == 0)
      return emitOpError("step of dim ") << d << " is zero";
    if (out[d] == 0)
      continue;
    int64_t last = starts[d] + (out[d] - 1) * steps[d];
    if (starts[d] < 0 || starts[d] >= in[d] || last < 0 || last >= in[d])
      return emitOpError("dim ") << d << " reads outside the input";
  }
  return success();
}

LogicalResult GatherOp::verify() {
  auto data = rankedType(getData()), idx = rankedType(getIndices());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= data.getRank())
    return emitOpError("axis ") << axis << " out of range";
  if (!isa<IntegerType>(idx.getElementType()))
    return emitOpError("indices must be integers");
  SmallVector<int64_t> expected(data.getShape().begin(),
                                data.getShape().begin() + axis);
  llvm::append_range(expected, idx.getShape());
  expected.append(data.getShape().begin() + axis + 1, data.getShape().end());
  if (ArrayRef<int64_t>(expected) != rankedType(getResult()).getShape())
    return emitOpError("result shape should be ") << shapeStr(expected);
  return success();
}

//===----------------------------------------------------------------------===//
// Generic families (functions from isa/include/lpx/isa/ElementwiseFunctions.def)
//===----------------------------------------------------------------------===//

// Header-only; LpxGraphDialect does not link lpx_isa, so reach the header by
// its path in the source tree.
#include "lpx/isa/ElementwiseFunctions.h"

namespace {
using lpx::isa::FnDomain;
using lpx::isa::FnInfo;

/// Checks an operand element type against a function's domain.
LogicalResult checkDomain(Operation *op, const FnInfo &fn, Type elt) {
  bool isBool = elt.isInteger(1);
  bool isFloat = isa<FloatType>(elt);
  bool isInt = isa<IntegerType>(elt) && !isBool;
  bool ok = fn.accepts(isBool, isFloat, isInt);
  if (!ok)
    return op->emitOpError("function '")
           << fn.mnemonic << "' is not defined for element type " << elt;
  return success();
}

LogicalResult checkResultElement(Operation *op, const FnInfo &fn,
                                 Type operandElt, Type resultElt) {
  Type want = fn.boolResult() ? IntegerType::get(op->getContext(), 1)
                              : operandElt;
  if (resultElt != want)
    return op->emitOpError("result element type should be ") << want;
  return success();
}

/// Shared by reduce and reduce_mean style ops: sorted unique axes, result
/// with the reduced dims kept as 1 or dropped.
LogicalResult verifyReducedShape(Operation *op, ArrayRef<int64_t> in,
                                 ArrayRef<int64_t> axes,
                                 ArrayRef<int64_t> out) {
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] < 0 || axes[i] >= int64_t(in.size()))
      return op->emitOpError("axis ") << axes[i] << " out of range";
    if (i && axes[i] <= axes[i - 1])
      return op->emitOpError("axes must be sorted and unique");
  }
  SmallVector<int64_t> kept, dropped;
  for (int64_t d = 0; d < int64_t(in.size()); ++d) {
    bool reduced = llvm::is_contained(axes, d);
    kept.push_back(reduced ? 1 : in[d]);
    if (!reduced)
      dropped.push_back(in[d]);
  }
  if (out != ArrayRef<int64_t>(kept) && out != ArrayRef<int64_t>(dropped))
    return op->emitOpError("result shape ")
           << shapeStr(out) << " does not match the reduction";
  return success();
}

LogicalResult verifyAxis(Operation *op, int64_t axis, int64_t rank) {
  if (axis < 0 || axis >= std::max<int64_t>(rank, 1))
    return op->emitOpError("axis ") << axis << " out of range for rank "
                                    << rank;
  return success();
}
} // namespace

LogicalResult UnaryFnOp::verify() {
  auto fnId = lpx::isa::unaryFnFromMnemonic(getFn().str());
  if (!fnId)
    return emitOpError("unknown unary function '") << getFn() << "'";
  const FnInfo &fn = *lpx::isa::unaryFnInfo(int64_t(*fnId));
  if (getParams().size() != fn.params)
    return emitOpError("function '")
           << getFn() << "' takes " << fn.params << " parameters, got "
           << getParams().size();
  auto in = rankedType(getInput()), out = rankedType(getResult());
  if (in.getShape() != out.getShape())
    return emitOpError("result shape must match the operand");
  if (failed(checkDomain(*this, fn, in.getElementType())))
    return failure();
  return checkResultElement(*this, fn, in.getElementType(),
                            out.getElementType());
}

LogicalResult BinaryFnOp::verify() {
  auto fnId = lpx::isa::binaryFnFromMnemonic(getFn().str());
  if (!fnId)
    return emitOpError("unknown binary function '") << getFn() << "'";
  const FnInfo &fn = *lpx::isa::binaryFnInfo(int64_t(*fnId));
  Type elt = rankedType(getLhs()).getElementType();
  if (rankedType(getRhs()).getElementType() != elt)
    return emitOpError("operands must have the same element type");
  if (failed(checkDomain(*this, fn, elt)) ||
      failed(checkResultElement(*this, fn, elt,
                                rankedType(getResult()).getElementType())))
    return failure();
  return verifyBroadcast(*this, getOperands(), getResult());
}

LogicalResult ReduceOp::verify() {
  auto fnId = lpx::isa::reduceFnFromMnemonic(getFn().str());
  if (!fnId)
    return emitOpError("unknown reduction '") << getFn() << "'";
  auto in = rankedType(getInput()), out = rankedType(getResult());
  if (in.getElementType() != out.getElementType())
    return emitOpError("result element type must match the operand");
  if (in.getElementType().isInteger(1))
    return emitOpError("reductions are not defined for bool");
  return verifyReducedShape(*this, in.getShape(), getAxes(), out.getShape());
}

LogicalResult ArgReduceOp::verify() {
  if (!lpx::isa::argReduceFnFromMnemonic(getFn().str()))
    return emitOpError("unknown arg reduction '") << getFn() << "'";
  auto in = rankedType(getInput()), out = rankedType(getResult());
  if (!out.getElementType().isInteger(64))
    return emitOpError("result element type must be i64");
  if (failed(verifyAxis(*this, getAxis(), in.getRank())))
    return failure();
  if (in.getRank() == 0)
    return emitOpError("operand must have rank 1 or more");
  int64_t axis = getAxis();
  return verifyReducedShape(*this, in.getShape(), ArrayRef<int64_t>(axis),
                            out.getShape());
}

LogicalResult LogSoftmaxOp::verify() {
  return verifyAxis(*this, getAxis(), rankedType(getInput()).getRank());
}
LogicalResult HardmaxOp::verify() {
  return verifyAxis(*this, getAxis(), rankedType(getInput()).getRank());
}
LogicalResult CumSumOp::verify() {
  return verifyAxis(*this, getAxis(), rankedType(getInput()).getRank());
}

LogicalResult BroadcastOp::verify() {
  auto in = rankedType(getInput()), out = rankedType(getResult());
  if (in.getElementType() != out.getElementType())
    return emitOpError("broadcast must keep the element type");
  auto b = broadcastShapes(in.getShape(), out.getShape());
  if (failed(b) || ArrayRef<int64_t>(*b) != out.getShape())
    return emitOpError("operand shape ")
           << shapeStr(in.getShape()) << " does not broadcast to "
           << shapeStr(out.getShape());
  return success();
}

LogicalResult PadOp::verify() {
  auto in = rankedType(getInput()), out = rankedType(getResult());
  if (in.getElementType() != out.getElementType())
    return emitOpError("pad must keep the element type");
  if (getMode() != "constant" && getMode() != "reflect" && getMode() != "edge")
    return emitOpError("unknown mode '") << getMode() << "'";
  int64_t rank = in.getRank();
  ArrayRef<int64_t> pads = getPads();
  if (int64_t(pads.size()) != 2 * rank || out.getRank() != rank)
    return emitOpError("pads need a begin and an end for each of the ")
           << rank << " dims";
  for (int64_t d = 0; d < rank; ++d) {
    int64_t want = in.getDimSize(d) + pads[d] + pads[rank + d];
    if (want < 0 || out.getDimSize(d) != want)
      return emitOpError("result dim ") << d << " should be " << want;
    if (getMode() != "constant" && in.getDimSize(d) == 0 && want > 0)
      return emitOpError("mode '") << getMode() << "' cannot pad an empty dim";
  }
  return success();
}

LogicalResult GatherElementsOp::verify() {
  auto data = rankedType(getData()), idx = rankedType(getIndices());
  auto out = rankedType(getResult());
  if (!llvm::isa<IntegerType>(idx.getElementType()))
    return emitOpError("indices must be integers");
  if (out.getElementType() != data.getElementType())
    return emitOpError("result element type must match the data");
  if (idx.getRank() != data.getRank() || out.getShape() != idx.getShape())
    return emitOpError("indices and result must have the data's rank and "
                       "the same shape");
  return verifyAxis(*this, getAxis(), data.getRank());
}

/// Output extent of one spatial dim, or -1 when the window does not fit.
static int64_t windowedExtent(int64_t in, int64_t k, int64_t stride,
                              int64_t dil, int64_t padLo, int64_t padHi) {
  int64_t span = dil * (k - 1) + 1;
  int64_t room = in + padLo + padHi - span;
  if (room < 0)
    return -1;
  return room / stride + 1;
}

LogicalResult ConvOp::verify() {
  auto x = rankedType(getInput()), w = rankedType(getWeight());
  auto out = rankedType(getResult());
  int64_t rank = x.getRank(), s = rank - 2;
  if (s < 1 || w.getRank() != rank || out.getRank() != rank)
    return emitOpError("input, weight and result need the same rank, 3 or more");
  Type elt = out.getElementType();
  // Floating-point conv in one type; integer conv in i32, whose operands
  // may also be i8 (the matrix unit accumulates int8 products in int32).
  bool int8Acc32 = elt.isSignlessInteger(32) &&
                   x.getElementType().isSignlessInteger(8) &&
                   w.getElementType().isSignlessInteger(8);
  if (!int8Acc32 &&
      (x.getElementType() != elt || w.getElementType() != elt))
    return emitOpError("operands and result must share the element type "
                       "(or be i8 for an i32 result)");
  if (!llvm::isa<FloatType>(elt) && !elt.isSignlessInteger(32))
    return emitOpError("conv needs a floating-point or i32 type");
  if (int64_t(getStrides().size()) != s || int64_t(getDilations().size()) != s ||
      int64_t(getPads().size()) != 2 * s)
    return emitOpError("strides and dilations need ")
           << s << " entries and pads " << 2 * s;
  int64_t g = getGroup();
  if (g < 1 || x.getDimSize(1) != w.getDimSize(1) * g ||
      w.getDimSize(0) % g != 0)
    return emitOpError("channels do not match the weight and group ") << g;
  if (getBias()) {
    auto b = rankedType(getBias());
    if (b.getRank() != 1 || b.getDimSize(0) != w.getDimSize(0) ||
        b.getElementType() != out.getElementType())
      return emitOpError("bias must be [M] of the result's element type");
  }
  if (out.getDimSize(0) != x.getDimSize(0) || out.getDimSize(1) != w.getDimSize(0))
    return emitOpError("result must be [N, M, ...]");
  for (int64_t d = 0; d < s; ++d) {
    if (getStrides()[d] < 1 || getDilations()[d] < 1)
      return emitOpError("strides and dilations must be positive");
    int64_t want = windowedExtent(x.getDimSize(2 + d), w.getDimSize(2 + d),
                                  getStrides()[d], getDilations()[d],
                                  getPads()[d], getPads()[s + d]);
    if (want < 0 || out.getDimSize(2 + d) != want)
      return emitOpError("result spatial dim ") << d << " should be " << want;
  }
  return success();
}

LogicalResult ConvTransposeOp::verify() {
  auto x = rankedType(getInput()), w = rankedType(getWeight());
  auto out = rankedType(getResult());
  int64_t rank = x.getRank(), s = rank - 2;
  if (s < 1 || w.getRank() != rank || out.getRank() != rank)
    return emitOpError("input, weight and result need the same rank, 3 or more");
  if (x.getElementType() != out.getElementType() ||
      w.getElementType() != out.getElementType())
    return emitOpError("operands and result must share the element type");
  if (!llvm::isa<FloatType>(out.getElementType()))
    return emitOpError("conv_transpose needs a floating-point type");
  if (int64_t(getStrides().size()) != s || int64_t(getDilations().size()) != s ||
      int64_t(getOutputPadding().size()) != s ||
      int64_t(getPads().size()) != 2 * s)
    return emitOpError("strides, dilations and output_padding need ")
           << s << " entries and pads " << 2 * s;
  int64_t g = getGroup();
  if (g < 1 || x.getDimSize(1) != w.getDimSize(0) || w.getDimSize(0) % g != 0)
    return emitOpError("the weight must be [C, M/group, kernel...] for group ")
           << g;
  int64_t m = w.getDimSize(1) * g;
  if (getBias()) {
    auto b = rankedType(getBias());
    if (b.getRank() != 1 || b.getDimSize(0) != m ||
        b.getElementType() != out.getElementType())
      return emitOpError("bias must be [M] of the result's element type");
  }
  if (out.getDimSize(0) != x.getDimSize(0) || out.getDimSize(1) != m)
    return emitOpError("result must be [N, M, ...] with M = ") << m;
  for (int64_t d = 0; d < s; ++d) {
    if (getStrides()[d] < 1 || getDilations()[d] < 1)
      return emitOpError("strides and dilations must be positive");
    if (getOutputPadding()[d] < 0)
      return emitOpError("output_padding must not be negative");
    int64_t want = getStrides()[d] * (x.getDimSize(2 + d) - 1) +
                   getDilations()[d] * (w.getDimSize(2 + d) - 1) + 1 +
                   getOutputPadding()[d] - getPads()[d] - getPads()[s + d];
    if (want < 1 || out.getDimSize(2 + d) != want)
      return emitOpError("result spatial dim ") << d << " should be " << want;
  }
  return success();
}

LogicalResult PoolOp::verify() {
  auto x = rankedType(getInput()), out = rankedType(getResult());
  int64_t rank = x.getRank(), s = rank - 2;
  if (getKind() != "max" && getKind() != "avg")
    return emitOpError("unknown kind '") << getKind() << "'";
  if (s < 1 || out.getRank() != rank)
    return emitOpError("input and result need the same rank, 3 or more");
  if (x.getElementType() != out.getElementType())
    return emitOpError("pool must keep the element type");
  if (getKind() == "avg" && !llvm::isa<FloatType>(out.getElementType()))
    return emitOpError("average pooling needs a floating-point type");
  if (int64_t(getKernelShape().size()) != s || int64_t(getStrides().size()) != s ||
      int64_t(getDilations().size()) != s || int64_t(getPads().size()) != 2 * s)
    return emitOpError("kernel_shape, strides and dilations need ")
           << s << " entries and pads " << 2 * s;
  if (out.getDimSize(0) != x.getDimSize(0) || out.getDimSize(1) != x.getDimSize(1))
    return emitOpError("result must keep the batch and channel dims");
  for (int64_t d = 0; d < s; ++d) {
    if (getKernelShape()[d] < 1 || getStrides()[d] < 1 || getDilations()[d] < 1)
      return emitOpError("kernel_shape, strides and dilations must be positive");
    int64_t floor = windowedExtent(x.getDimSize(2 + d), getKernelShape()[d],
                                   getStrides()[d], getDilations()[d],
                                   getPads()[d], getPads()[s + d]);
    // ceil mode may add one window that starts inside the padded input.
    if (floor < 0 || (out.getDimSize(2 + d) != floor &&
                      out.getDimSize(2 + d) != floor + 1))
      return emitOpError("result spatial dim ") << d << " should be " << floor;
  }
  return success();
}

LogicalResult TopKOp::verify() {
  auto in = rankedType(getInput()), out = rankedType(getResult());
  if (!out.getElementType().isInteger(64))
    return emitOpError("result must be i64 indices");
  if (in.getElementType().isInteger(1))
    return emitOpError("top_k is not defined for bool");
  if (in.getRank() < 1)
    return emitOpError("input must have rank 1 or more");
  if (failed(verifyAxis(*this, getAxis(), in.getRank())))
    return failure();
  int64_t k = getK(), dim = in.getDimSize(getAxis());
  if (k < 1 || k > dim)
    return emitOpError("k = ") << k << " must be in [1, " << dim << "]";
  SmallVector<int64_t> want(in.getShape());
  want[getAxis()] = k;
  if (out.getShape() != ArrayRef<int64_t>(want))
    return emitOpError("result shape should be ") << shapeStr(want);
  return success();
}

static bool knownReduction(StringRef r) {
  return r == "none" || r == "add" || r == "mul" || r == "max" || r == "min";
}

/// Shared by the scatters: result = data's type, updates of its element
/// type, integer indices, a known reduction.
static LogicalResult verifyScatter(Operation *op, Value data, Value indices,
                                   Value updates, Value result,
                                   StringRef reduction) {
  auto d = rankedType(data), u = rankedType(updates);
  if (rankedType(result) != d)
    return op->emitOpError("result must have the data's type");
  if (u.getElementType() != d.getElementType())
    return op->emitOpError("updates must have the data's element type");
  if (!llvm::isa<IntegerType>(rankedType(indices).getElementType()))
    return op->emitOpError("indices must be integers");
  if (!knownReduction(reduction))
    return op->emitOpError("unknown reduction '") << reduction << "'";
  return success();
}

LogicalResult ScatterElementsOp::verify() {
  if (failed(verifyScatter(*this, getData(), getIndices(), getUpdates(),
                           getResult(), getReduction())))
    return failure();
  auto d = rankedType(getData()), i = rankedType(getIndices());
  if (i.getShape() != rankedType(getUpdates()).getShape() ||
      i.getRank() != d.getRank())
    return emitOpError("indices and updates must have one shape of the "
                       "data's rank");
  if (failed(verifyAxis(*this, getAxis(), d.getRank())))
    return failure();
  for (int64_t a = 0; a < d.getRank(); ++a)
    if (a != int64_t(getAxis()) && i.getDimSize(a) > d.getDimSize(a))
      return emitOpError("indices dim ") << a << " exceeds the data's";
  return success();
}

LogicalResult ScatterNDOp::verify() {
  if (failed(verifyScatter(*this, getData(), getIndices(), getUpdates(),
                           getResult(), getReduction())))
    return failure();
  auto d = rankedType(getData()), i = rankedType(getIndices());
  if (i.getRank() < 1)
    return emitOpError("indices must have rank 1 or more");
  int64_t k = i.getShape().back();
  if (k < 1 || k > d.getRank())
    return emitOpError("index tuples of length ")
           << k << " do not fit data of rank " << d.getRank();
  SmallVector<int64_t> want(i.getShape().drop_back());
  llvm::append_range(want, d.getShape().drop_front(k));
  if (rankedType(getUpdates()).getShape() != ArrayRef<int64_t>(want))
    return emitOpError("updates shape should be ") << shapeStr(want);
  return success();
}

LogicalResult GridSampleOp::verify() {
  auto x = rankedType(getInput()), g = rankedType(getGrid()),
       out = rankedType(getResult());
  if (!llvm::isa<FloatType>(x.getElementType()) ||
      g.getElementType() != x.getElementType() ||
      out.getElementType() != x.getElementType())
    return emitOpError("input, grid and result must share one "
                       "floating-point type");
  if (x.getRank() != 4 || g.getRank() != 4 || g.getDimSize(3) != 2 ||
      g.getDimSize(0) != x.getDimSize(0))
    return emitOpError("needs input [N, C, H, W] and grid [N, Ho, Wo, 2]");
  SmallVector<int64_t> want{x.getDimSize(0), x.getDimSize(1), g.getDimSize(1),
                            g.getDimSize(2)};
  if (out.getShape() != ArrayRef<int64_t>(want))
    return emitOpError("result shape should be ") << shapeStr(want);
  StringRef m = getMode(), p = getPaddingMode();
  if (m != "bilinear" && m != "nearest" && m != "bicubic")
    return emitOpError("unknown mode '") << m << "'";
  if (p != "zeros" && p != "border" && p != "reflection")
    return emitOpError("unknown padding_mode '") << p << "'";
  return success();
}

LogicalResult DetOp::verify() {
  auto x = rankedType(getInput()), out = rankedType(getResult());
  if (!llvm::isa<FloatType>(x.getElementType()) ||
      out.getElementType() != x.getElementType())
    return emitOpError("input and result must share one floating-point type");
  if (x.getRank() < 2 || x.getDimSize(x.getRank() - 1) !=
                             x.getDimSize(x.getRank() - 2))
    return emitOpError("input must be [..., n, n]");
  if (out.getShape() != x.getShape().drop_back(2))
    return emitOpError("result shape should be ")
           << shapeStr(x.getShape().drop_back(2));
  return success();
}

#define GET_OP_CLASSES
#include "lpx/Dialect/Graph/IR/GraphOps.cpp.inc"
