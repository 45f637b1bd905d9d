//===- ElementwiseImporters.cpp - Broadcasting and unary ONNX ops ---------===//
#include "OpImporters.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace lpx::graph;

namespace lpx::onnximport {

/// Before opset 7, binary ops only broadcast when `broadcast=1`, and then
/// align the rhs at `axis` (or at the end). Rewrites the rhs so numpy
/// broadcasting gives the same result.
static FailureOr<Value> legacyBroadcastRhs(NodeContext &n, Value lhs,
                                           Value rhs) {
  ArrayRef<int64_t> ls = n.typeOf(lhs).getShape();
  ArrayRef<int64_t> rs = n.typeOf(rhs).getShape();
  if (n.intAttr("broadcast", 0) == 0) {
    if (ls != rs)
      return n.fail("operand shapes " + shapeString(ls) + " and " +
                    shapeString(rs) +
                    " differ and broadcast=0 (opset < 7 does not broadcast)");
    return rhs;
  }
  const onnx::AttributeProto *axisAttr = n.attr("axis");
  if (!axisAttr)
    return rhs; // Suffix alignment is what numpy does.
  int64_t rank = ls.size(), rrank = rs.size();
  auto axis = n.axis(axisAttr->i(), rank, "axis");
  if (failed(axis))
    return failure();
  if (*axis + rrank > rank)
    return n.fail("rhs shape " + shapeString(rs) + " does not fit lhs shape " +
                  shapeString(ls) + " at axis " + llvm::Twine(*axis));
  SmallVector<int64_t> shape(rank, 1);
  llvm::copy(rs, shape.begin() + *axis);
  return n.reshape(rhs, shape);
}

template <typename OpT>
static LogicalResult importBinary(NodeContext &n, bool mixedTypes) {
  auto lhs = n.input(0);
  auto rhs = n.input(1);
  if (failed(lhs) || failed(rhs))
    return failure();
  auto lt = n.typeOf(*lhs), rt = n.typeOf(*rhs);
  if (!mixedTypes && lt.getElementType() != rt.getElementType())
    return n.fail("operand element types differ");
  Value r = *rhs;
  if (n.opset() < 7) {
    auto legacy = legacyBroadcastRhs(n, *lhs, r);
    if (failed(legacy))
      return failure();
    r = *legacy;
  }
  auto shape = broadcastShapes(lt.getShape(), n.typeOf(r).getShape());
  if (failed(shape))
    return n.fail("operand shapes " + shapeString(lt.getShape()) + " and " +
                  shapeString(rt.getShape()) + " cannot be broadcast");
  n.setOutput(0, n.create<OpT>(n.tensorOf(*shape, lt.getElementType()), *lhs,
                               r));
  return success();
}

LogicalResult importAdd(NodeContext &n) { return importBinary<AddOp>(n, false); }
LogicalResult importSub(NodeContext &n) { return importBinary<SubOp>(n, false); }
LogicalResult importMul(NodeContext &n) { return importBinary<MulOp>(n, false); }
LogicalResult importDiv(NodeContext &n) { return importBinary<DivOp>(n, false); }
LogicalResult importPow(NodeContext &n) { return importBinary<PowOp>(n, true); }

template <typename OpT> static LogicalResult importUnary(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  n.setOutput(0, n.create<OpT>(x->getType(), *x));
  return success();
}

LogicalResult importSqrt(NodeContext &n) { return importUnary<SqrtOp>(n); }
LogicalResult importNeg(NodeContext &n) { return importUnary<NegOp>(n); }
LogicalResult importRelu(NodeContext &n) { return importUnary<ReluOp>(n); }
LogicalResult importSigmoid(NodeContext &n) { return importUnary<SigmoidOp>(n); }
LogicalResult importTanh(NodeContext &n) { return importUnary<TanhOp>(n); }

LogicalResult importCast(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  const onnx::AttributeProto *to = n.attr("to");
  if (!to)
    return n.fail("attribute 'to' is missing");
  int32_t target = 0;
  if (to->type() == onnx::AttributeProto::STRING) {
    // Cast-1 names the type ("FLOAT"); later opsets use the enum.
    onnx::TensorProto::DataType dt;
    if (!onnx::TensorProto::DataType_Parse(to->s(), &dt))
      return n.fail("unknown target type '" + to->s() + "'");
    target = dt;
  } else {
    target = int32_t(to->i());
  }
  auto elt = elementTypeOf(*n.ctx(), target);
  if (!elt)
    return n.fail("cast target: " + llvm::toString(elt.takeError()));
  n.setOutput(0, n.create<CastOp>(
                     n.tensorOf(n.typeOf(*x).getShape(), *elt), *x));
  return success();
}

LogicalResult importWhere(NodeContext &n) {
  auto c = n.input(0), x = n.input(1), y = n.input(2);
  if (failed(c) || failed(x) || failed(y))
    return failure();
  if (!n.typeOf(*c).getElementType().isInteger(1))
    return n.fail("condition must be a bool tensor");
  Type elt = n.typeOf(*x).getElementType();
  if (n.typeOf(*y).getElementType() != elt)
    return n.fail("X and Y have different element types");
  auto xy = broadcastShapes(n.typeOf(*x).getShape(), n.typeOf(*y).getShape());
  FailureOr<SmallVector<int64_t>> shape = failure();
  if (succeeded(xy))
    shape = broadcastShapes(n.typeOf(*c).getShape(), *xy);
  if (failed(shape))
    return n.fail("condition, X and Y shapes cannot be broadcast together");
  n.setOutput(0, n.create<WhereOp>(n.tensorOf(*shape, elt), *c, *x, *y));
  return success();
}

} // namespace lpx::onnximport
