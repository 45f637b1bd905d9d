//===- ReductionOps.cpp - lpx_graph reduction and axis op verifiers -------===//
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

LogicalResult SoftmaxOp::verify() {
  int64_t rank = rankedType(getInput()).getRank();
  int64_t axis = getAxisAttr().getInt(); // the getter is unsigned
  if (axis < 0 || axis >= std::max<int64_t>(rank, 1))
    return emitOpError("axis ") << axis << " out of range for rank " << rank;
  return success();
}

LogicalResult ReduceMeanOp::verify() {
  return verifyReducedShape(*this, rankedType(getInput()).getShape(),
                            getAxes(), rankedType(getResult()).getShape());
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

LPX_INFER_RETURN_TYPES(TopKOp) {
  auto in = rankedType(adaptor.getInput());
  if (in.getElementType().isInteger(1))
    return emitOptionalError(loc, "top_k is not defined for bool");
  if (in.getRank() < 1)
    return emitOptionalError(loc, "input must have rank 1 or more");
  int64_t axis = adaptor.getAxis();
  if (axis < 0 || axis >= in.getRank())
    return emitOptionalError(loc, "axis ", axis, " out of range for rank ",
                             in.getRank());
  int64_t k = adaptor.getK(), dim = in.getDimSize(axis);
  if (k < 1 || k > dim)
    return emitOptionalError(loc, "k = ", k, " must be in [1, ", dim,
                             "] for axis ", axis);
  SmallVector<int64_t> shape(in.getShape());
  shape[axis] = k;
  types.push_back(RankedTensorType::get(shape, IntegerType::get(ctx, 64)));
  return success();
}
