//===- ElementwiseOps.cpp - lpx_graph elementwise ops: shapes, verifiers --===//
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

/// The numpy broadcast of the operands' shapes: the result shape of every
/// broadcasting op.
FailureOr<SmallVector<int64_t>> broadcastOperands(std::optional<Location> loc,
                                                  ValueRange operands) {
  SmallVector<int64_t> shape;
  std::string shapes;
  for (Value v : operands) {
    shapes += (shapes.empty() ? "" : ", ") + shapeStr(rankedType(v).getShape());
    auto b = broadcastShapes(shape, rankedType(v).getShape());
    if (failed(b))
      return emitOptionalError(loc, "operand shapes (", shapes,
                               ") cannot be broadcast together");
    shape = *b;
  }
  return shape;
}

LogicalResult inferBroadcast(MLIRContext *ctx, std::optional<Location> loc,
                             ValueRange operands, Type elt,
                             SmallVectorImpl<Type> &types) {
  auto shape = broadcastOperands(loc, operands);
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, elt));
  return success();
}

template <typename Adaptor>
LogicalResult inferBinary(MLIRContext *ctx, std::optional<Location> loc,
                          Adaptor adaptor, SmallVectorImpl<Type> &types) {
  return inferBroadcast(ctx, loc, {adaptor.getLhs(), adaptor.getRhs()},
                        rankedType(adaptor.getLhs()).getElementType(), types);
}

LogicalResult verifySameElementType(Operation *op) {
  if (rankedType(op->getOperand(0)).getElementType() !=
      rankedType(op->getOperand(1)).getElementType())
    return op->emitOpError("operands must have the same element type");
  return success();
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

} // namespace

#define LPX_BINARY_OP(Op)                                                      \
  LogicalResult Op::inferReturnTypes(MLIRContext *ctx,                         \
                                     std::optional<Location> loc,              \
                                     Adaptor adaptor,                          \
                                     SmallVectorImpl<Type> &types) {           \
    return inferBinary(ctx, loc, adaptor, types);                              \
  }
LPX_BINARY_OP(AddOp)
LPX_BINARY_OP(SubOp)
LPX_BINARY_OP(MulOp)
LPX_BINARY_OP(DivOp)
LPX_BINARY_OP(PowOp)
#undef LPX_BINARY_OP

LogicalResult AddOp::verify() { return verifySameElementType(*this); }
LogicalResult SubOp::verify() { return verifySameElementType(*this); }
LogicalResult MulOp::verify() { return verifySameElementType(*this); }
LogicalResult DivOp::verify() { return verifySameElementType(*this); }
// The exponent may have another type than the base.
LogicalResult PowOp::verify() { return success(); }

LogicalResult WhereOp::inferReturnTypes(MLIRContext *ctx,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  return inferBroadcast(ctx, loc, adaptor.getOperands(),
                        rankedType(adaptor.getX()).getElementType(), types);
}

LogicalResult WhereOp::verify() {
  if (!rankedType(getCondition()).getElementType().isInteger(1))
    return emitOpError("condition must be a tensor of i1");
  if (rankedType(getX()).getElementType() !=
      rankedType(getY()).getElementType())
    return emitOpError("x and y must have the same element type");
  return success();
}

LogicalResult CastOp::verify() {
  if (rankedType(getInput()).getShape() != rankedType(getResult()).getShape())
    return emitOpError("cast must keep the shape");
  return success();
}

// The operand's shape; its element type, or i1 for tests (isnan, isinf).
LogicalResult UnaryFnOp::inferReturnTypes(MLIRContext *ctx,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  auto fnId = lpx::isa::unaryFnFromMnemonic(adaptor.getFn().str());
  if (!fnId)
    return emitOptionalError(loc, "unknown unary function '", adaptor.getFn(),
                             "'");
  auto in = rankedType(adaptor.getInput());
  Type elt = lpx::isa::unaryFnInfo(int64_t(*fnId))->boolResult()
                 ? IntegerType::get(ctx, 1)
                 : in.getElementType();
  types.push_back(RankedTensorType::get(in.getShape(), elt));
  return success();
}

LogicalResult UnaryFnOp::verify() {
  const FnInfo &fn = *lpx::isa::unaryFnInfo(
      int64_t(*lpx::isa::unaryFnFromMnemonic(getFn().str())));
  if (getParams().size() != fn.params)
    return emitOpError("function '")
           << getFn() << "' takes " << fn.params << " parameters, got "
           << getParams().size();
  return checkDomain(*this, fn, rankedType(getInput()).getElementType());
}

LogicalResult BinaryFnOp::inferReturnTypes(MLIRContext *ctx,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  auto fnId = lpx::isa::binaryFnFromMnemonic(adaptor.getFn().str());
  if (!fnId)
    return emitOptionalError(loc, "unknown binary function '",
                             adaptor.getFn(), "'");
  Type elt = rankedType(adaptor.getLhs()).getElementType();
  if (lpx::isa::binaryFnInfo(int64_t(*fnId))->boolResult())
    elt = IntegerType::get(ctx, 1);
  return inferBroadcast(ctx, loc, {adaptor.getLhs(), adaptor.getRhs()}, elt,
                        types);
}

LogicalResult BinaryFnOp::verify() {
  const FnInfo &fn = *lpx::isa::binaryFnInfo(
      int64_t(*lpx::isa::binaryFnFromMnemonic(getFn().str())));
  if (failed(verifySameElementType(*this)))
    return failure();
  return checkDomain(*this, fn, rankedType(getLhs()).getElementType());
}
