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
  if (rankedType(getLhs()).getElementType() !=
      rankedType(getRhs()).getElementType())
    return emitOpError("operands must have the same element type");
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
  if (getAxis() < 0 || getAxis() >= std::max<int64_t>(rank, 1))
    return emitOpError("axis ") << getAxis() << " out of range for rank "
                                << rank;
  return success();
}

LogicalResult ReduceMeanOp::verify() {
  ArrayRef<int64_t> in = rankedType(getInput()).getShape();
  ArrayRef<int64_t> out = rankedType(getResult()).getShape();
  ArrayRef<int64_t> axes = getAxes();
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] < 0 || axes[i] >= int64_t(in.size()))
      return emitOpError("axis ") << axes[i] << " out of range";
    if (i && axes[i] <= axes[i - 1])
      return emitOpError("axes must be sorted and unique");
  }
  SmallVector<int64_t> kept, dropped;
  for (int64_t d = 0; d < int64_t(in.size()); ++d) {
    bool reduced = llvm::is_contained(axes, d);
    kept.push_back(reduced ? 1 : in[d]);
    if (!reduced)
      dropped.push_back(in[d]);
  }
  if (out != ArrayRef<int64_t>(kept) && out != ArrayRef<int64_t>(dropped))
    return emitOpError("result shape ") << shapeStr(out)
                                        << " does not match the reduction";
  return success();
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

#define GET_OP_CLASSES
#include "lpx/Dialect/Graph/IR/GraphOps.cpp.inc"
