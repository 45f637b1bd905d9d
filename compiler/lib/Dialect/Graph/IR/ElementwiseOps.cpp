//===- ElementwiseOps.cpp - lpx_graph elementwise op verifiers ------------===//
#include "GraphOpUtils.h"
#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace lpx::graph;
using namespace lpx::graph::detail;

// Header-only; LpxGraphDialect does not link lpx_isa, so reach the header by
// its path in the source tree.
#include "lpx/isa/ElementwiseFunctions.h"

namespace {
using lpx::isa::FnInfo;

LogicalResult verifyBroadcast(Operation *op, ValueRange inputs, Value result) {
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

LogicalResult verifyBinary(Operation *op, bool mixedTypes) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  Value res = op->getResult(0);
  if (rankedType(lhs).getElementType() != rankedType(res).getElementType())
    return op->emitOpError("result element type must match the first operand");
  if (!mixedTypes &&
      rankedType(lhs).getElementType() != rankedType(rhs).getElementType())
    return op->emitOpError("operands must have the same element type");
  return verifyBroadcast(op, op->getOperands(), res);
}


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

} // namespace

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

